"""A real SMTP server for the tests (aiosmtpd on a free port) that keeps every message
it receives, and the fixture that points Django's SMTP backend at it.

Mail then travels as on a site: a view queues the task, a Celery worker (the
``celery_worker`` fixture, or a live server's own) sends it over SMTP, and the test
reads what arrived here."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.support import wait_for
from tests.support.live import free_port

LINK = re.compile(r"https?://\S+")


@dataclass(frozen=True)
class Received:
    """One message as the server received it."""

    sender: str
    recipients: tuple[str, ...]
    message: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def body(self) -> str:
        part = self.message.get_body(preferencelist=("plain",))
        assert part is not None, "the message has no plain-text body"
        return str(part.get_content())

    def link(self) -> str:
        """The one link in the body, as a path for Django's test client or a browser."""
        links = LINK.findall(self.body)
        assert len(links) == 1, f"expected one link in {self.body!r}"
        return str(links[0])

    def link_path(self) -> str:
        return urlsplit(self.link()).path


class Inbox:
    """What the server received, in order; its handler is aiosmtpd's."""

    def __init__(self) -> None:
        self.messages: list[Received] = []
        self.lock = threading.Lock()
        self.port = 0

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802 - aiosmtpd's name
        content = envelope.original_content or b""
        message = message_from_bytes(content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        received = Received(str(envelope.mail_from), tuple(envelope.rcpt_tos), message)
        with self.lock:
            self.messages.append(received)
        return "250 Message accepted for delivery"

    @property
    def url(self) -> str:
        """The EMAIL_URL that sends here."""
        return f"smtp://127.0.0.1:{self.port}"

    def count(self) -> int:
        with self.lock:
            return len(self.messages)

    def wait_for(self, count: int, seconds: float = 30) -> list[Received]:
        """The first ``count`` messages, once they have come."""
        wait_for(lambda: self.count() >= count, seconds)
        with self.lock:
            return list(self.messages[:count])

    def to(self, address: str) -> list[Received]:
        with self.lock:
            return [received for received in self.messages if address in received.recipients]


@pytest.fixture
def smtp_inbox(settings: Any) -> Iterator[Inbox]:
    """A running SMTP server, and Django's SMTP backend pointed at it (the worker
    thread of ``celery_worker`` shares these settings)."""
    inbox = Inbox()
    inbox.port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", inbox.port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    try:
        yield inbox
    finally:
        controller.stop()
