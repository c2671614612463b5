"""Felt's mail: rendered from templates here, sent by a Celery task once the
transaction that asked for it commits, so a slow or unreachable mail server never
holds a request (``accounts.tasks.send_email`` retries it instead).

Where mail goes is the settings' business (``MailServer`` in config/environment.py):
files under FELT_HOME/mail by default, or the SMTP server EMAIL_URL names.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.template.loader import render_to_string

from accounts.tasks import send_email


def render_mail(template: str, context: dict[str, Any]) -> tuple[str, str]:
    """The subject and the plain-text body of ``accounts/mail/<template>_*.txt``."""
    subject = render_to_string(f"accounts/mail/{template}_subject.txt", context)
    body = render_to_string(f"accounts/mail/{template}_body.txt", context)
    return " ".join(subject.split()), body  # a subject is one line


def queue_mail(*, to: str, template: str, context: dict[str, Any]) -> None:
    """Send the mail ``template`` renders with ``context`` to ``to``, after commit.
    A broker that refuses the task (Redis down) is logged, never the request's error:
    the member asks for the link again (robust)."""
    subject, body = render_mail(template, context)
    transaction.on_commit(lambda: send_email.delay(to=to, subject=subject, body=body), robust=True)
