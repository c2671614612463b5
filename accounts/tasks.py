"""Periodic account upkeep, run by Celery beat (see CELERY_BEAT_SCHEDULE)."""

from asgiref.sync import async_to_sync
from celery import shared_task
from channels.layers import get_channel_layer
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts import presence
from accounts.consumers import LOBBY_GROUP


@shared_task
def refresh_online_count() -> int:
    """Drops connections that vanished without closing and tells the lobby."""

    async def count_and_announce() -> int:
        count = await presence.online_count()
        layer = get_channel_layer()
        assert layer is not None
        await layer.group_send(LOBBY_GROUP, {"type": "online.count", "count": count})
        return count

    return async_to_sync(count_and_announce)()


@shared_task
def clear_expired_sessions() -> int:
    """Deletes expired log-in sessions, and their rows in members' lists of sessions
    (accounts/member_sessions.py) with them; returns how many sessions."""
    _, deleted = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted.get(Session._meta.label, 0)
