"""Table chat: a line from anyone with the table open, to everyone at that table only.

Chat changes no table state, so it takes no table lock and bumps no ``seq``;
the text is stored as typed and sent as JSON text (pages render it as text).
A line holds only characters a reader sees as themselves: the display names'
filter (``accounts/names.py``) refuses control and formatting characters, such
as NUL or a right-to-left override that would reorder what follows it, except
inside an emoji: a joiner between two, the tags of a subdivision's flag.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.models import User
from accounts.names import has_hidden_characters
from config.adapters.compiled_query import CompiledQuery
from config.platform import broadcast
from tables.errors import BadChat, Muted, TableNotFound
from tables.groups import chat_group
from tables.models import DEPARTED_NAME, ChatMessage, Table

MAX_CHAT = 200  # characters in one line
RECENT_CHAT = 20  # lines shown to whoever opens the table


def chat_entry(message: ChatMessage) -> dict[str, Any]:
    """The protocol's chat frame for one line."""
    name = message.user.public_name if message.user else DEPARTED_NAME
    return {
        "type": "chat",
        "name": name,
        "text": message.text,
        "at": message.created_at.isoformat(),
    }


def chat_post(*, table_id: int, user: User, text: str) -> dict[str, Any]:
    """Store a line and send it to everyone at the table once stored; returns its frame."""
    line = " ".join(text.split())  # one line: no newlines, no runs of blanks
    if not line:
        raise BadChat("Say something: the message is empty.")
    if len(line) > MAX_CHAT:
        raise BadChat(f"A chat message is at most {MAX_CHAT} characters.")
    if has_hidden_characters(line, in_emoji=True):
        raise BadChat("A chat message can only hold visible characters and spaces.")
    muted = Table.objects.filter(pk=table_id).values_list("muted_user_ids", flat=True).first()
    if muted is None:
        raise TableNotFound()
    if user.pk in muted:
        raise Muted()
    with transaction.atomic():
        message = ChatMessage.objects.create(table_id=table_id, user=user, text=line)
        frame = chat_entry(message)
        event = {"type": "table.chat", "chat": frame}
        transaction.on_commit(lambda: broadcast.send([(chat_group(table_id), event)]))
    return frame


# Read for every socket that opens (all of a server's at once after a restart).
_recent_lines = CompiledQuery(
    lambda table_id: (
        ChatMessage.objects.filter(table_id=table_id)
        .select_related("user")
        .order_by("-created_at", "-id")[:RECENT_CHAT]
    )
)


def chat_recent(*, table_id: int) -> list[dict[str, Any]]:
    """The last lines of the table's chat, oldest first."""
    lines = _recent_lines.rows(table_id)
    return [chat_entry(message) for message in reversed(lines)]
