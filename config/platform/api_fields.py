"""Request-body fields stricter than DRF's own, for every API serializer that reads input.

DRF's ``CharField`` takes a JSON number and turns it into text (``0`` becomes
``"0"``), so a client that sends the wrong type is never told. A body's text
field must be a JSON string.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class TextField(serializers.CharField):
    default_error_messages = {"invalid": "Must be a string."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))
