"""``{% local_time when %}``: a moment as a ``<time>`` element that names its zone.

The page is sent with the time in UTC (said so), and ``static/js/localtime.js``
rewrites it in the reader's own zone, named: "Thu 26 Nov, 18:17 (Europe/Paris)"."""

from __future__ import annotations

from datetime import UTC, datetime

from django import template
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def local_time(when: datetime | str | None) -> SafeString | str:
    """Nothing for no time; ``when`` may be a datetime or the ISO text a summary holds."""
    moment = parse_datetime(when) if isinstance(when, str) else when
    if moment is None:
        return ""
    moment = moment.astimezone(UTC)
    return format_html(
        '<time datetime="{}" data-local>{} (UTC)</time>',
        moment.isoformat().replace("+00:00", "Z"),
        f"{moment:%a} {moment.day} {moment:%b, %H:%M}",
    )
