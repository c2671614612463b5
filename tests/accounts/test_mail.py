"""Felt's mail leaves from a Celery task: by default as files under FELT_HOME/mail,
and a mail server that does not answer never holds up the request that sent it."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

import config.settings as felt_settings
from accounts.mail import queue_mail
from tests.support import wait_for

pytestmark = pytest.mark.usefixtures("celery_worker")


def test_by_default_mail_is_written_as_files_under_felt_home(settings):
    # pytest-django swaps Felt's backend for its in-memory one: put Felt's back.
    settings.EMAIL_BACKEND = felt_settings.EMAIL_BACKEND
    settings.EMAIL_FILE_PATH = felt_settings.EMAIL_FILE_PATH
    mail_dir = Path(django_settings.FELT_HOME) / "mail"
    assert Path(settings.EMAIL_FILE_PATH) == mail_dir
    before = set(mail_dir.glob("*.log")) if mail_dir.exists() else set()

    with transaction.atomic():
        queue_mail(
            to="alice@example.com",
            template="confirm_email",
            context={"user": {"username": "alice", "email": "alice@example.com"},
                     "link": "http://felt.example/accounts/email/confirm/x/", "days": 7},
        )  # fmt: skip

    wait_for(lambda: set(mail_dir.glob("*.log")) - before != set())
    [written] = set(mail_dir.glob("*.log")) - before
    text = written.read_text()
    assert "To: alice@example.com" in text
    assert "Subject: Confirm your address for Felt" in text
    assert "http://felt.example/accounts/email/confirm/x/" in text


@pytest.fixture
def silent_mail_server() -> Iterator[int]:
    """A port that accepts connections and never says a word, as a stuck server."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield listener.getsockname()[1]


def test_a_mail_server_that_never_answers_does_not_hold_up_the_request(
    client, make_user, settings, silent_mail_server
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", silent_mail_server
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    # Waiting for the server would take the whole timeout; a loaded machine took 1.1 s
    # for the request alone, so the bar sits well between the two.
    settings.EMAIL_TIMEOUT = 6
    alice = make_user("alice")
    alice.confirmed_email, alice.email_confirmed_at = alice.email, timezone.now()
    alice.save()

    started = time.monotonic()
    response = client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert time.monotonic() - started < 3, "the request waited for the mail server"
