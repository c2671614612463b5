"""The table socket's commands: one table from a message's type to the parser that
checks its fields and the service that runs it.

Shapes in docs/protocol.md. A frame that is not a JSON object with a known type,
or whose fields are malformed, is refused with a ``BadMessage`` before any
service runs; the services refuse what the table does not allow (a
``TableError``, ``not_host`` for anyone but the host at a host's control) and
change nothing when they do.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

from accounts.models import User
from config.platform.domain_errors import DomainError
from tables import services

Parser = Callable[[dict[str, Any]], dict[str, Any]]

MAX_FRAME = 2048  # a command is a few dozen bytes
MAX_DECISION = 40  # "<hand number>.<events so far>"
ACTIONS = ("fold", "check", "call", "raise")
DEAL_METHODS = ("icm", "chip_chop", "custom")
MAX_DEAL_SEATS = 9


class BadMessage(DomainError):
    """A frame refused for its shape; ``code`` says how (docs/protocol.md)."""

    status = 400

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


@dataclass(frozen=True)
class Command:
    type: str
    fields: dict[str, Any]  # checked: the service's keyword arguments


def is_int(value: Any) -> TypeGuard[int]:
    return type(value) is int  # bool is not a number of chips or a seat


def _int(message: dict[str, Any], name: str, example: str) -> int:
    value = message.get(name)
    if not is_int(value):
        raise BadMessage("bad_message", f"Say {name} as a whole number: {example}.")
    return value


def _bool(message: dict[str, Any], name: str, example: str) -> bool:
    value = message.get(name)
    if not isinstance(value, bool):
        raise BadMessage("bad_message", f"Say {name} as true or false: {example}.")
    return value


def _nothing(message: dict[str, Any]) -> dict[str, Any]:
    return {}


# --- a player's -------------------------------------------------------------------


def _sit(message: dict[str, Any]) -> dict[str, Any]:
    if not is_int(message.get("seat")):
        raise BadMessage("bad_message", 'Say which seat: {"type": "sit", "seat": n}.')
    return {"seat": message["seat"]}


def _auto_rebuy(message: dict[str, Any]) -> dict[str, Any]:
    if type(message.get("on")) is not bool:
        raise BadMessage("bad_message", 'Say on or off: {"type": "auto_rebuy", "on": true}.')
    return {"is_on": message["on"]}


def _act(message: dict[str, Any]) -> dict[str, Any]:
    action, amount = message.get("action"), message.get("amount")
    decision = message.get("decision")
    if action not in ACTIONS:
        raise BadMessage("bad_message", "The action must be fold, check, call or raise.")
    if not isinstance(decision, str) or len(decision) > MAX_DECISION:
        raise BadMessage(
            "bad_message", "An action names the decision it answers: the snapshot's decision."
        )
    if action == "raise" and not is_int(amount):
        raise BadMessage("bad_message", "A raise needs an amount: the total you raise to.")
    return {"action": action, "amount": amount if action == "raise" else None, "decision": decision}


def _runout_answer(message: dict[str, Any]) -> dict[str, Any]:
    return {"run_twice": _bool(message, "run_twice", '{"type": "run_it_twice", "run_twice": true}')}


def _switch(example: str) -> Parser:
    return lambda message: {"on": _bool(message, "on", example)}


def _chat(message: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(message.get("text"), str):
        raise BadMessage("bad_message", 'Chat needs text: {"type": "chat", "text": "..."}.')
    return {"text": message["text"]}


def _propose_deal(message: dict[str, Any]) -> dict[str, Any]:
    example = '{"type": "propose_deal", "method": "icm", "kept_for_winner": 0}'
    method = message.get("method")
    if method not in DEAL_METHODS:
        raise BadMessage("bad_message", f"Say the method, icm, chip_chop or custom: {example}.")
    kept = _int({"kept_for_winner": message.get("kept_for_winner", 0)}, "kept_for_winner", example)
    amounts = None
    if method == "custom":
        amounts = _deal_amounts(message.get("amounts"))
    return {"method": method, "amounts": amounts, "kept_for_winner": kept}


def _deal_amounts(given: Any) -> dict[int, int]:
    example = '{"type": "propose_deal", "method": "custom", "amounts": {"0": 600, "3": 400}}'
    if not isinstance(given, dict) or len(given) > MAX_DEAL_SEATS:
        raise BadMessage("bad_message", f"Give the amounts by seat: {example}.")
    amounts: dict[int, int] = {}
    for seat, amount in given.items():
        if not (isinstance(seat, str) and seat.isdigit() and len(seat) <= 2) or not is_int(amount):
            raise BadMessage("bad_message", f"Give whole points by seat number: {example}.")
        amounts[int(seat)] = amount
    return amounts


def _answer_deal(message: dict[str, Any]) -> dict[str, Any]:
    return {"accept": _bool(message, "accept", '{"type": "answer_deal", "accept": true}')}


# --- the host's (docs/protocol.md, "Host controls") ------------------------------------


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
        raise BadMessage("bad_message", f"Say what the host approves: {example}.")
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


def _options(message: dict[str, Any]) -> dict[str, Any]:
    example = (
        '{"type": "set_options", "game": "plo", "straddle": true, "run_it_twice": true,'
        ' "bomb_pot_ante": 40, "bomb_pot_every": 0}'
    )
    if message.get("game") not in ("nlhe", "plo"):
        raise BadMessage("bad_message", f"Say the game, nlhe or plo: {example}.")
    return {
        "game": message["game"],
        "allows_straddle": _bool(message, "straddle", example),
        "offers_run_it_twice": _bool(message, "run_it_twice", example),
        "bomb_pot_ante": _int(message, "bomb_pot_ante", example),
        "bomb_pot_every": _int(message, "bomb_pot_every", example),
    }


def _listed(message: dict[str, Any]) -> dict[str, Any]:
    return {"listed": _bool(message, "listed", '{"type": "set_listed", "listed": true}')}


def _mute(message: dict[str, Any]) -> dict[str, Any]:
    example = '{"type": "mute", "seat": 2, "muted": true}'
    return {"seat": _int(message, "seat", example), "muted": _bool(message, "muted", example)}


def _allow_back(message: dict[str, Any]) -> dict[str, Any]:
    return {"player": _int(message, "player", '{"type": "allow_back", "player": 12}')}


def _set_stack(message: dict[str, Any]) -> dict[str, Any]:
    example = '{"type": "set_stack", "seat": 2, "stack": 1500}'
    return {"seat": _int(message, "seat", example), "stack": _int(message, "stack", example)}


def _move_chips(message: dict[str, Any]) -> dict[str, Any]:
    example = '{"type": "move_chips", "from_seat": 0, "to_seat": 2, "amount": 500}'
    return {
        "from_seat": _int(message, "from_seat", example),
        "to_seat": _int(message, "to_seat", example),
        "amount": _int(message, "amount", example),
    }


def _cut_part(message: dict[str, Any], name: str, field: str) -> tuple[str, str] | None:
    part = message.get(name)
    if part is None:
        return None
    example = f'"{name}": {{"hand": "<ref>", "{field}": "<64 hex digits>"}}'
    if not isinstance(part, dict) or set(part) != {"hand", field}:
        raise BadMessage("bad_message", f"Say it as {example}.")
    hand, text = part["hand"], part[field]
    if not isinstance(hand, str) or not isinstance(text, str) or len(hand) > 64 or len(text) > 64:
        raise BadMessage("bad_message", f"Say it as {example}.")
    return hand, text


def _cut(message: dict[str, Any]) -> dict[str, Any]:
    commit = _cut_part(message, "commit", "commitment")
    reveal = _cut_part(message, "reveal", "value")
    if commit is None and reveal is None:
        raise BadMessage(
            "bad_message",
            'A cut message commits, reveals or both: {"type": "cut", '
            '"commit": {...}, "reveal": {...}}.',
        )
    return {"commit": commit, "reveal": reveal}


# type -> (the checked fields, the function of tables.services that runs them). The
# function is found by name when the command runs, so it is the one services has then.
COMMANDS: dict[str, tuple[Parser, str]] = {
    "sit": (_sit, "seat_take"),
    "leave": (_nothing, "seat_leave"),
    "sit_out": (_nothing, "seat_sit_out"),
    "sit_in": (_nothing, "seat_sit_in"),
    "stay": (_nothing, "seat_stay"),
    "rebuy": (_nothing, "seat_rebuy"),
    "add_on": (_nothing, "seat_add_on"),
    "decline_rebuy": (_nothing, "seat_decline_rebuy"),
    "auto_rebuy": (_auto_rebuy, "seat_auto_rebuy"),
    "act": (_act, "hand_act"),
    "cut": (_cut, "cut_send"),
    "run_it_twice": (_runout_answer, "runout_answer"),
    "straddle": (_switch('{"type": "straddle", "on": true}'), "seat_straddle"),
    "chat": (_chat, "chat_post"),
    "propose_deal": (_propose_deal, "deal_propose"),
    "answer_deal": (_answer_deal, "deal_answer"),
    "pause": (_nothing, "table_pause"),
    "resume": (_nothing, "table_resume"),
    "end_game": (_nothing, "table_close"),
    "set_blinds": (_blinds, "table_set_blinds"),
    "remove": (_seat('{"type": "remove", "seat": 2}'), "seat_remove"),
    "make_host": (_seat('{"type": "make_host", "seat": 2}'), "host_hand_over"),
    "set_approvals": (_approvals, "table_set_approvals"),
    "answer_rebuy": (_rebuy_answer, "rebuy_decide"),
    "answer_seat": (_seat_answer, "seat_request_decide"),
    "mute": (_mute, "chat_mute"),
    "allow_back": (_allow_back, "player_allow_back"),
    "set_stack": (_set_stack, "stack_set"),
    "move_chips": (_move_chips, "chips_move"),
    "set_options": (_options, "table_set_options"),
    "bomb_pot": (_switch('{"type": "bomb_pot", "on": true}'), "table_call_bomb_pot"),
    "set_listed": (_listed, "table_set_listed"),
}


def read_frame(text: str | None) -> dict[str, Any]:
    """The frame as a JSON object with a string ``type``, or ``BadMessage``."""
    if text is None or len(text) > MAX_FRAME:
        raise BadMessage("bad_json", "Send one JSON object per text frame.")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # "[[[[..." nests deeper than the parser goes
        raise BadMessage("bad_json", "That message is not valid JSON.") from None
    if not isinstance(message, dict):
        raise BadMessage("bad_message", "A message must be a JSON object with a type.")
    if not isinstance(message.get("type"), str):
        raise BadMessage("bad_message", "A message needs a type.")
    return message


def command_named(message: dict[str, Any]) -> str | None:
    """The command ``message``'s ``type`` names, or None: what an error answering it
    says it replies to (``in_reply_to``), never text of the sender's own beyond that."""
    kind = message.get("type")
    return kind if isinstance(kind, str) and kind in COMMANDS else None


def parse_command(message: dict[str, Any]) -> Command:
    """The command ``message`` asks for, its fields checked, or ``BadMessage``."""
    kind = message["type"]
    if kind not in COMMANDS:
        raise BadMessage("unknown_type", f"Unknown message type {kind[:20]!r}.")
    parse, _ = COMMANDS[kind]
    return Command(type=kind, fields=parse(message))


def run_command(*, table_id: int, user: User, command: Command) -> None:
    _, service = COMMANDS[command.type]
    getattr(services, service)(table_id=table_id, user=user, **command.fields)
