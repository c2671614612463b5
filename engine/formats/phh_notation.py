"""PHH text in and out, without playing the hand.

PHH (the open Poker Hand History standard, uoftcprg/phh-std) is a TOML file
of fields plus an ``actions`` array written in a small notation
(``"d dh p1 AsKd"``, ``"p2 cbr 600"``, ``"p3 cc"``, ``"p1 f"``, ``"p2 sm AsKd"``).
This module parses that text into a frozen :class:`PhhFile` and writes TOML;
:mod:`engine.formats.phh` turns a file into a hand and a hand into a file.
Of the standard's variants it reads the two games the engine deals
(``VARIANTS``): ``NT`` (No-Limit Hold'em) and ``PO`` (Pot-Limit Omaha).

>>> parse_action(3, "p2 cbr 600  # a raise")
PhhAction(index=3, text='p2 cbr 600  # a raise', actor=1, verb='cbr', cards=(), amount=600)
>>> toml_value(["d db 7c8d9h", 'say "hi"'])
'["d db 7c8d9h", "say \\\\"hi\\\\""]'
"""

from __future__ import annotations

import datetime
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.cards import card
from engine.games import GAMES, NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA

# Fields the standard defines besides the required ones; anything else a
# writer adds must start with "_" (a user-defined field).
OPTIONAL_FIELDS = frozenset(
    {
        "author",
        "event",
        "url",
        "venue",
        "address",
        "city",
        "region",
        "postal_code",
        "country",
        "time",
        "time_zone",
        "time_zone_abbreviation",
        "day",
        "month",
        "year",
        "hand",
        "level",
        "seats",
        "seat_count",
        "table",
        "players",
        "finishing_stacks",
        "winnings",
        "currency",
        "currency_symbol",
        "ante_trimming_status",
        "time_limit",
        "time_banks",
    }
)
# NT and PO require the same fields.
REQUIRED_FIELDS = ("variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks")
VARIANTS: Final = {"NT": NO_LIMIT_HOLDEM, "PO": POT_LIMIT_OMAHA}
"""The PHH variant codes Felt reads and writes, and the engine's game for each."""
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class PhhError(ValueError):
    """A PHH file that cannot be read or replayed.

    ``action_index`` and ``action_text`` name the offending entry of the
    ``actions`` array when there is one; ``reason`` is the bare explanation.
    """

    def __init__(self, reason: str, action_index: int | None = None, action_text: str = ""):
        self.reason = reason
        self.action_index = action_index
        self.action_text = action_text
        where = "" if action_index is None else f"actions[{action_index}] {action_text!r}: "
        super().__init__(where + reason)


@dataclass(frozen=True)
class PhhAction:
    """One entry of the ``actions`` array.

    ``actor`` is the 0-based player index (``p1`` is 0) or ``None`` for the
    dealer; ``verb`` is ``dh``, ``db``, ``f``, ``cc``, ``cbr`` or ``sm``.
    ``cards`` holds ``None`` for an unknown card (``??``); a show written as
    ``sm -`` ("the cards dealt to me") has ``cards == ()`` and ``verb == "sm-"``.
    """

    index: int
    text: str
    actor: int | None
    verb: str
    cards: tuple[int | None, ...] = ()
    amount: int | None = None


@dataclass(frozen=True)
class PhhFile:
    """The fields of an ``NT`` or ``PO`` PHH file, checked for shape.

    ``game`` is the engine's code for the file's variant (``VARIANTS``).
    Per-player arrays are as written (for heads-up the standard lists the
    forced bets reversed: ``blinds_or_straddles = [1, 2]`` means p2, the
    button, posts 1).
    """

    game: str
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    min_bet: int
    starting_stacks: tuple[int, ...]
    actions: tuple[PhhAction, ...]
    fields: Mapping[str, Any]

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)


def parse_phh(text: str) -> PhhFile:
    """Parse and shape-check PHH text; raises :class:`PhhError`."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"not valid TOML: {error}") from None
    missing = [name for name in (*REQUIRED_FIELDS, "actions") if name not in raw]
    if missing:
        raise PhhError("missing required field(s): " + ", ".join(missing))
    game = _game(raw["variant"])
    stacks = _chip_array(raw, "starting_stacks", None)
    if len(stacks) < 2:
        raise PhhError("starting_stacks must list at least two players")
    if min(stacks) <= 0:
        raise PhhError("starting_stacks must all be positive")
    count = len(stacks)
    actions = raw["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PhhError("actions must be an array of strings")
    parsed = (parse_action(i, a) for i, a in enumerate(actions))
    return PhhFile(
        game=game,
        antes=_chip_array(raw, "antes", count),
        blinds_or_straddles=_chip_array(raw, "blinds_or_straddles", count),
        min_bet=_chip_amount(raw["min_bet"], "min_bet"),
        starting_stacks=stacks,
        actions=tuple(_check_player(a, count) for a in parsed if a is not None),
        fields={k: v for k, v in raw.items() if k not in REQUIRED_FIELDS and k != "actions"},
    )


def _game(variant: object) -> str:
    game = VARIANTS.get(variant) if isinstance(variant, str) else None
    if game is None:
        known = " and ".join(f"{code!r} ({GAMES[g].name})" for code, g in VARIANTS.items())
        raise PhhError(f"variant {variant!r} is not supported: only {known} are")
    return game


def _chip_amount(value: object, name: str) -> int:
    # bool is an int subclass in Python, but not a chip count.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PhhError(f"{name} must be a whole number of chips, not {value!r}")
    return value


def _chip_array(raw: Mapping[str, Any], name: str, length: int | None) -> tuple[int, ...]:
    values = raw[name]
    if not isinstance(values, list):
        raise PhhError(f"{name} must be an array")
    if length is not None and len(values) != length:
        raise PhhError(f"{name} has {len(values)} entries for {length} players")
    return tuple(_chip_amount(v, name) for v in values)


def parse_action(index: int, text: str) -> PhhAction | None:
    """Parse one action; ``None`` for a no-op (blank or commentary only)."""
    words = text.split("#", 1)[0].split()
    if not words:
        return None

    def fail(reason: str) -> PhhError:
        return PhhError(reason, index, text)

    if words[0] == "d":
        if words[1:2] == ["db"] and len(words) == 3:
            return PhhAction(index, text, None, "db", parse_cards(words[2], fail))
        if words[1:2] == ["dh"] and len(words) == 4:
            player = _parse_player(words[2], fail)
            return PhhAction(index, text, player, "dh", parse_cards(words[3], fail))
        raise fail("a dealer action is 'd db CARDS' or 'd dh pN CARDS'")
    actor = _parse_player(words[0], fail)
    verb, arguments = (words[1] if len(words) > 1 else ""), words[2:]
    if verb in ("f", "cc") and not arguments:
        return PhhAction(index, text, actor, verb)
    if verb == "cbr" and len(arguments) == 1:
        if not arguments[0].isdigit():
            raise fail(f"{arguments[0]!r} is not a whole number of chips")
        return PhhAction(index, text, actor, verb, amount=int(arguments[0]))
    if verb == "sm" and arguments == ["-"]:
        return PhhAction(index, text, actor, "sm-")
    if verb == "sm" and len(arguments) <= 1:
        shown = parse_cards(arguments[0], fail) if arguments else ()
        return PhhAction(index, text, actor, verb, shown)
    raise fail("a player action is 'pN f', 'pN cc', 'pN cbr AMOUNT' or 'pN sm [CARDS]'")


def _parse_player(word: str, fail: Any) -> int:
    if re.fullmatch(r"p[1-9][0-9]*", word) is None:
        raise fail(f"{word!r} is not a player: players are p1, p2, ...")
    return int(word[1:]) - 1


def parse_cards(word: str, fail: Any) -> tuple[int | None, ...]:
    """Cards written together (``"AsKd"``), ``None`` for each ``??``; ``fail(reason)``
    makes the error raised for a malformed card."""
    if len(word) % 2:
        raise fail(f"{word!r} is not a list of cards: each card is two characters")
    chunks = [word[i : i + 2] for i in range(0, len(word), 2)]
    try:
        return tuple(None if chunk == "??" else card(chunk) for chunk in chunks)
    except ValueError as error:
        raise fail(str(error)) from None


def _check_player(action: PhhAction, count: int) -> PhhAction:
    if action.actor is not None and action.actor >= count:
        raise PhhError(f"there is no player p{action.actor + 1}", action.index, action.text)
    return action


def toml_value(value: object) -> str:
    """Write one TOML value: str, int, float, bool, date/time or an array of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _toml_float(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} {value!r} as a PHH value")


def _toml_float(value: float) -> str:
    if value != value:
        return "nan"
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return repr(value)


def _toml_string(text: str) -> str:
    # TOML basic strings must escape the quote, the backslash and control
    # characters other than tab (including DEL).
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char < " " or char == "\x7f":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def toml_line(key: str, value: object) -> str:
    """Write ``key = value``; keys must be bare TOML keys."""
    if _BARE_KEY.fullmatch(key) is None:
        raise ValueError(f"{key!r} is not a valid PHH field name")
    return f"{key} = {toml_value(value)}"


def check_optional_field(key: str) -> None:
    """Refuse names that are neither standard optional fields nor ``_``-prefixed."""
    if key not in OPTIONAL_FIELDS and not key.startswith("_"):
        raise ValueError(f"{key!r} is not an optional PHH field; prefix your own fields with '_'")
