"""Account tasks: periodic upkeep run by Celery beat (CELERY_BEAT_SCHEDULE), Felt's
mail sent from the worker (accounts/mail.py), and members' data zips built by a
worker (accounts/data_export.py)."""

from smtplib import SMTPException

from asgiref.sync import async_to_sync
from celery import shared_task
from channels.layers import get_channel_layer
from django.contrib.sessions.models import Session
from django.core.mail import send_mail
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
