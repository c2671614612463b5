"""The event log of a hand: frozen records of everything that happened.

Each event has a ``kind`` string and a ``to_dict()`` that is JSON-ready (cards
as two-letter strings such as ``"As"``); ``event_from_dict`` reads one back.
The log is complete: ``engine.replay`` rebuilds the hand from it, and a hand
history can be written from the log alone.

Fields named ``cards`` or ``deck`` hold cards; ``shares`` holds
``(seat, chips)`` pairs.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from engine.cards import card, card_str
from engine.construction import new_instance, slot_setters
from engine.games import NO_LIMIT_HOLDEM

_CARD_FIELDS = frozenset({"cards", "deck"})


class EventBase:
    """What every event offers: a ``kind`` string and ``to_dict()``."""

    __slots__ = ()
    kind: ClassVar[str]

    def to_dict(self, *, leave_out: frozenset[str] = frozenset()) -> dict[str, Any]:
        """The event as plain JSON data: ``{"kind": ..., field: value, ...}``, without
        the fields named in ``leave_out`` (a view's hidden cards are never converted)."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in _field_names(type(self)):
            if name in leave_out:
                continue
            value = getattr(self, name)
            if name in _CARD_FIELDS:
                value = [card_str(c) for c in value]
            elif name == "shares":
                value = [{"seat": seat, "amount": chips} for seat, chips in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out


# An event type's field names, read once: every snapshot turns the hand's whole log
# into dicts for its viewers, and ``dataclasses.fields`` on each event was a third
# of that time (docs/performance.md, session 24).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(event_type: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(event_type)
    if names is None:
        names = _FIELD_NAMES[event_type] = tuple(
            field.name for field in dataclasses.fields(cast(Any, event_type))
        )
    return names


@dataclass(frozen=True, slots=True)
class HandStarted(EventBase):
    """The hand's parameters, including the full deck order it is dealt from.

    ``stacks`` are the chips per seat at the start (``None`` = empty seat);
    ``small_blind_seat`` is ``None`` when no small blind is posted (dead small
    blind). Hole cards and board are dealt from ``deck`` front to back.
    ``game`` is the game's code (``engine.games``); ``straddle_seat``,
    ``bomb_pot`` and ``run_it_twice`` are the home-game options the hand was
    dealt with (``engine.deal.new_hand``). A log written before these existed
    has none of them and is read as an ordinary No-Limit Hold'em hand.
    """

    kind: ClassVar[str] = "hand_started"
    stacks: tuple[int | None, ...]
    button: int
    small_blind: int
    big_blind: int
    ante: int
    small_blind_seat: int | None
    big_blind_seat: int
    deck: tuple[int, ...]
    game: str = NO_LIMIT_HOLDEM
    straddle_seat: int | None = None
    bomb_pot: int = 0
    run_it_twice: bool = False


@dataclass(frozen=True, slots=True)
class AntePosted(EventBase):
    """A seat put in its ante (less than the ante only when that is its whole stack)."""

    kind: ClassVar[str] = "ante_posted"
    seat: int
    amount: int
    is_all_in: bool


@dataclass(frozen=True, slots=True)
class BlindPosted(EventBase):
    """A seat posted its blind; ``blind`` is ``"small"``, ``"big"`` or ``"straddle"``."""

    kind: ClassVar[str] = "blind_posted"
    seat: int
    blind: str
    amount: int
    is_all_in: bool


@dataclass(frozen=True, slots=True)
class HoleCardsDealt(EventBase):
    """A seat's hole cards (private: views show them to that seat only)."""

    kind: ClassVar[str] = "hole_cards_dealt"
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayerActed(EventBase):
    """A decision: ``action`` is fold, check, call, bet or raise.

    ``amount`` is the chips the action added; ``total`` is the seat's bet on
    this street afterwards (the "to" of "raises 100 to 300").
    """

    kind: ClassVar[str] = "player_acted"
    seat: int
    street: str
    action: str
    amount: int
    total: int
    is_all_in: bool


@dataclass(frozen=True, slots=True)
class BoardDealt(EventBase):
    """New community cards for ``street`` (three on the flop, then one each);
    ``run`` is 1 for the second board of a hand run twice (rule 25)."""

    kind: ClassVar[str] = "board_dealt"
    street: str
    cards: tuple[int, ...]
    run: int = 0


@dataclass(frozen=True, slots=True)
class RunoutsChosen(EventBase):
    """The players all-in before the river chose to run the board ``count``
    times (1 or 2, rule 25)."""

    kind: ClassVar[str] = "runouts_chosen"
    count: int


@dataclass(frozen=True, slots=True)
class UncalledBetReturned(EventBase):
    """The part of a bet nobody called went back to its owner (rule 7)."""

    kind: ClassVar[str] = "uncalled_bet_returned"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class CardsShown(EventBase):
    """A seat turned its hole cards face up (showdown or all-in run-out)."""

    kind: ClassVar[str] = "cards_shown"
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardsMucked(EventBase):
    """A seat threw away a losing hand unseen (views never reveal ``cards``)."""

    kind: ClassVar[str] = "cards_mucked"
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PotAwarded(EventBase):
    """Pot ``pot_index`` (0 = main pot) paid out.

    ``shares`` are ``(seat, chips)`` pairs, odd chips included; ``description``
    names the winning hand ("Two Pair, Aces and Fours"), or is ``None`` when
    the pot was not contested. In a hand run twice each pot is paid in two
    halves, ``run`` 0 on the first board and ``run`` 1 on the second (rule 25).
    """

    kind: ClassVar[str] = "pot_awarded"
    pot_index: int
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]
    description: str | None
    run: int = 0


@dataclass(frozen=True, slots=True)
class HandEnded(EventBase):
    """Final chips per seat (0 for empty seats and busted players)."""

    kind: ClassVar[str] = "hand_ended"
    stacks: tuple[int, ...]


Event = (
    HandStarted
    | AntePosted
    | BlindPosted
    | HoleCardsDealt
    | PlayerActed
    | BoardDealt
    | RunoutsChosen
    | UncalledBetReturned
    | CardsShown
    | CardsMucked
    | PotAwarded
    | HandEnded
)

EVENT_TYPES: dict[str, type[Event]] = {
    t.kind: t
    for t in (
        HandStarted,
        AntePosted,
        BlindPosted,
        HoleCardsDealt,
        PlayerActed,
        BoardDealt,
        RunoutsChosen,
        UncalledBetReturned,
        CardsShown,
        CardsMucked,
        PotAwarded,
        HandEnded,
    )
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """Read back an event written by ``to_dict`` (raises ``ValueError`` if malformed)."""
    event_type = EVENT_TYPES.get(data.get("kind", ""))
    if event_type is None:
        raise ValueError(f"unknown event kind {data.get('kind')!r}")
    values: dict[str, Any] = {}
    try:
        for field in dataclasses.fields(event_type):
            if field.name not in data and field.default is not dataclasses.MISSING:
                continue  # a field added later: older logs lack it
            value = data[field.name]
            if field.name in _CARD_FIELDS:
                value = tuple(card(c) for c in value)
            elif field.name == "shares":
                value = tuple((share["seat"], share["amount"]) for share in value)
            elif isinstance(value, list):
                value = tuple(value)
            values[field.name] = value
    except (KeyError, TypeError) as error:
        raise ValueError(f"malformed {event_type.kind} event: {error}") from error
    return event_type(**values)


# Fast constructors for the events every hand makes many of (every decision,
# every hole card pair): see engine.construction.

_ACTED_FIELDS = slot_setters(PlayerActed)
_DEALT_FIELDS = slot_setters(HoleCardsDealt)


def player_acted(
    seat: int, street: str, action: str, amount: int, total: int, is_all_in: bool
) -> PlayerActed:
    """``PlayerActed(seat, street, action, amount, total, is_all_in)``, faster."""
    event = new_instance(PlayerActed)
    set_seat, set_street, set_action, set_amount, set_total, set_all_in = _ACTED_FIELDS
    set_seat(event, seat)
    set_street(event, street)
    set_action(event, action)
    set_amount(event, amount)
    set_total(event, total)
    set_all_in(event, is_all_in)
    return event


def hole_cards_dealt(seat: int, cards: tuple[int, ...]) -> HoleCardsDealt:
    """``HoleCardsDealt(seat, cards)``, faster."""
    event = new_instance(HoleCardsDealt)
    set_seat, set_cards = _DEALT_FIELDS
    set_seat(event, seat)
    set_cards(event, cards)
    return event
