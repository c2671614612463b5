"""The host's messages on the table socket: their shapes checked, then one service each.

Shapes in docs/protocol.md ("Host controls"). A malformed one is refused with
``bad_message`` before any service runs; the services refuse anyone but the
host (``not_host``) and impossible values, and change nothing when they do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tables import services

Parser = Callable[[dict[str, Any]], dict[str, Any]]


class BadHostMessage(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _int(message: dict[str, Any], name: str, example: str) -> int:
    value = message.get(name)
    if type(value) is not int:  # bool is not a number of chips or a seat
        raise BadHostMessage(f"Say {name} as a whole number: {example}.")
    return value


def _bool(message: dict[str, Any], name: str, example: str) -> bool:
    value = message.get(name)
    if not isinstance(value, bool):
        raise BadHostMessage(f"Say {name} as true or false: {example}.")
    return value


def _nothing(message: dict[str, Any]) -> dict[str, Any]:
    return {}


def _blinds(message: dict[str, Any]) -> dict[str, Any]:
    example = '{"type": "set_blinds", "small_blind": 25, "big_blind": 50, "ante": 0}'
    ante = message.get("ante", 0)
    return {
        "small_blind": _int(message, "small_blind", example),
        "big_blind": _int(message, "big_blind", example),
        "ante": _int({"ante": ante}, "ante", example),
    }


def _seat(example: str) -> Parser:
    return lambda message: {"seat": _int(message, "seat", example)}


def _approvals(message: dict[str, Any]) -> dict[str, Any]:
    example = '{"type": "set_approvals", "rebuys": true, "seating": false}'
    chosen: dict[str, Any] = {
        name: _bool(message, name, example) for name in ("rebuys", "seating") if name in message
    }
    if not chosen:
        raise BadHostMessage(f"Say what the host approves: {example}.")
    return chosen


def _rebuy_answer(message: dict[str, Any]) -> dict[str, Any]:
    example = '{"type": "answer_rebuy", "seat": 2, "approve": true}'
    return {"seat": _int(message, "seat", example), "approve": _bool(message, "approve", example)}


def _seat_answer(message: dict[str, Any]) -> dict[str, Any]:
    example = '{"type": "answer_seat", "request": 7, "approve": true}'
    return {
        "request": _int(message, "request", example),
        "approve": _bool(message, "approve", example),
    }


def _mute(message: dict[str, Any]) -> dict[str, Any]:
    example = '{"type": "mute", "seat": 2, "muted": true}'
    return {"seat": _int(message, "seat", example), "muted": _bool(message, "muted", example)}


# type -> (the checked fields, the service that does it)
HOST_COMMANDS: dict[str, tuple[Parser, Callable[..., int]]] = {
    "pause": (_nothing, services.table_pause),
    "resume": (_nothing, services.table_resume),
    "end_game": (_nothing, services.table_close),
    "set_blinds": (_blinds, services.table_set_blinds),
    "remove": (_seat('{"type": "remove", "seat": 2}'), services.seat_remove),
    "make_host": (_seat('{"type": "make_host", "seat": 2}'), services.host_hand_over),
    "set_approvals": (_approvals, services.table_set_approvals),
    "answer_rebuy": (_rebuy_answer, services.rebuy_decide),
    "answer_seat": (_seat_answer, services.seat_request_decide),
    "mute": (_mute, services.chat_mute),
}


def parse_host_command(kind: str, message: dict[str, Any]) -> dict[str, Any]:
    """The command's checked fields with its ``type``, or ``BadHostMessage``."""
    parse, _ = HOST_COMMANDS[kind]
    return {"type": kind, **parse(message)}


def run_host_command(table_id: int, user: Any, command: dict[str, Any]) -> int:
    _, service = HOST_COMMANDS[command["type"]]
    fields = {name: value for name, value in command.items() if name != "type"}
    return service(table_id=table_id, user=user, **fields)
