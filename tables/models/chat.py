"""A table's chat lines (tables/services/chat.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tables.models.table import Table


class ChatMessage(models.Model):
    """A line of a table's chat (the last few are shown to whoever opens the table)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    text = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at", "id"]
        indexes = [models.Index(fields=["table", "-created_at"])]

    def __str__(self) -> str:
        return f"chat at table #{self.table_id}"
