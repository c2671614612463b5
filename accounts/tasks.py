"""Periodic account upkeep, run by Celery beat (see CELERY_BEAT_SCHEDULE), and
Felt's mail, sent from the worker (accounts/mail.py)."""

from smtplib import SMTPException

from asgiref.sync import async_to_sync
from celery import shared_task
from channels.layers import get_channel_layer
from django.contrib.sessions.models import Session
from django.core.mail import send_mail
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


@shared_task(
    autoretry_for=(SMTPException, OSError),  # refused, timed out, unreachable
    retry_backoff=15,
    # A worker holds a retry until its countdown ends, so none waits longer than
    # TASK_HOLD_SECONDS (config/settings.py: Redis would hand it to a second worker).
    retry_backoff_max=240,
    max_retries=12,
)
def send_email(*, to: str, subject: str, body: str) -> None:
    """Sends one plain-text message from DEFAULT_FROM_EMAIL. A server that fails is
    tried again at growing intervals of up to 4 minutes, a dozen times over at most
    about half an hour, before the message is given up with an error in the log."""
    send_mail(subject, body, None, [to])
