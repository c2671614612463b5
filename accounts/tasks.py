"""Account tasks: periodic upkeep run by Celery beat (CELERY_BEAT_SCHEDULE), and
members' data zips built by a worker (accounts/data_export.py)."""

from asgiref.sync import async_to_sync
from celery import shared_task
from channels.layers import get_channel_layer
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone

from accounts import data_export, presence
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
    """Deletes expired log-in sessions; returns how many."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


@shared_task
def build_data_export(export_id: int) -> bool:
    """Writes a member's data zip (accounts/data_export.py); False if nothing was due."""
    return data_export.export_build(export_id=export_id)


def queue_data_export(export_id: int) -> None:
    """Once the request is committed, a worker builds the zip."""
    transaction.on_commit(lambda: build_data_export.delay(export_id))


@shared_task
def expire_data_exports() -> int:
    """Deletes the data zips whose link expired; returns how many."""
    return data_export.exports_expire()
