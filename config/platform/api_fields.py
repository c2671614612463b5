"""Request-body fields stricter than DRF's own, for every API serializer that reads input.

DRF's ``CharField`` takes a JSON number and turns it into text (``0`` becomes
``"0"``), so a client that sends the wrong type is never told. A body's text
field must be a JSON string.

DRF's ``DateTimeField`` reads a time without a zone as the server's own, so
``2030-01-01T00:00:00`` would be taken as UTC without the client knowing. A
body's time must say its zone.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from rest_framework import serializers


class TextField(serializers.CharField):
    default_error_messages = {"invalid": "Must be a string."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class ZonedDateTimeField(serializers.DateTimeField):
    default_error_messages = {"naive": "Give the time with its zone (Z or +hh:mm)."}

    def enforce_timezone(self, value: datetime) -> datetime:
        if timezone.is_naive(value):
            self.fail("naive")
        return super().enforce_timezone(value)
