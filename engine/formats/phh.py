"""Hand histories in PHH, the open Poker Hand History standard.

``to_phh(state)`` writes a hand from its event log; ``from_phh(text)`` plays
a file through ``apply_action`` and returns the resulting state, so every
rule the engine enforces applies to imported hands too. A No-Limit Hold'em
hand is variant ``NT``, a Pot-Limit Omaha hand variant ``PO`` (four cards in
each ``d dh`` and ``sm``); a file of any other variant, or whose hole cards
are not as many as its variant deals, is refused.

Conventions (uoftcprg/phh-std):

- Players are listed from the first seat left of the button to the button,
  which is the engine's dealing order. Heads-up that makes p1 the big blind
  and p2 the button, and the standard writes the per-player forced bets
  reversed: ``blinds_or_straddles = [1, 2]`` means p2 posts 1 and p1 posts 2.
- ``seats`` (1-based) and ``seat_count`` place the players at the table;
  without them p1..pN sit in seats 1..N with the button on pN.
- Shows and mucks (``pN sm CARDS`` / ``pN sm``) are written where the engine
  turned cards face up or threw them away; on import they only supply hole
  cards, because the engine itself decides who shows (rules 13-15). A file
  in which a winning hand is mucked is refused (rule 15), and so is a show or
  a muck before the hand is over, without a showdown, by a player who folded,
  or twice by one player.
- On import every action must be the one the hand is waiting for: a decision
  names the player the engine asks, on a street the file has dealt; hole
  cards are dealt once each before anything else, and a board card once the
  betting before it is closed (:mod:`engine.formats.phh_replay`). A card
  named in two places is refused at the entry that names it second, saying
  which card and where it was first (:mod:`engine.formats.phh_deck`). Two
  exceptions, both checks other engines write where Felt asks nothing, and
  both accepted without changing anything (Felt never writes them): the
  check of the last player with chips facing only all-in players, where Felt
  has already ended the hand, on the street where the betting closed and
  before they have acted on it (their own call closing the betting leaves
  nothing to ask them); and
  the checks before a bomb pot's flop, one from every player with chips in
  turn from p1, which PokerKit writes because it deals a bomb pot's preflop.
- Felt's rules are fixed, so on import ``ante_trimming_status`` is ignored
  (a short ante only wins what it put in, rule 10) and antes must be
  uniform. Unknown cards (``??``) are filled with unused cards, which is
  refused when they would decide a showdown.
- The home-game options (rules 23-25). A straddle is the third entry of
  ``blinds_or_straddles``: two big blinds (``min_bet`` is the big blind)
  posted by the player after the big blind; on import any other forced bet
  above the big blind is refused, saying why
  (:mod:`engine.formats.phh_table`). A bomb pot is written as everyone's
  ante with every blind 0, and a file of that shape is read as a bomb pot of
  that stake, starting on the flop. PHH has no notation for choosing two
  run-outs, so a hand run twice writes its first board in ``actions`` and
  the whole second board in the user-defined fields ``_runouts = 2`` and
  ``_second_board``; on import the hand then offers two run-outs, takes
  them when the engine asks (``choose_runouts``) and deals the second
  board's own cards from the field. A file whose hand never asks, or whose
  second board does not start with the cards dealt when it asked, is
  refused. A run-out offered and declined leaves no trace in the file.
- What a file cannot say comes back equivalent rather than identical: a dead
  button (on an empty seat) returns on the last player's seat, which plays
  the same, and a hand without a small blind gets half the big blind as its
  nominal (unposted) small blind, as does a bomb pot, whose blinds (never
  posted) sit where ``new_hand`` puts them and whose ante is 0.

>>> from engine.deal import new_hand
>>> from engine.cards import DECK
>>> hand = new_hand([100, 100], button=1, small_blind=1, big_blind=2, deck=DECK)
>>> print(to_phh(hand).splitlines()[2])
blinds_or_straddles = [1, 2]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Literal

from engine.cards import cards_str
from engine.deal import new_hand
from engine.events import (
    BoardDealt,
    CardsMucked,
    CardsShown,
    HoleCardsDealt,
    PlayerActed,
)
from engine.formats.phh_deck import check_no_made_up_showdown, deck_for
from engine.formats.phh_notation import (
    VARIANTS,
    PhhError,
    PhhFile,
    check_optional_field,
    parse_cards,
    parse_phh,
    toml_line,
    toml_value,
)
from engine.formats.phh_replay import PhhIllegalAction, PhhReplay
from engine.formats.phh_table import PhhTable, read_table
from engine.games import GAMES
from engine.state import HandState
from engine.view import EVERY_CARD, sees_hole_cards

__all__ = ["EVERY_CARD", "PhhError", "PhhIllegalAction", "from_phh", "phh_order", "to_phh"]

_WRITTEN_FIELDS = frozenset({"seats", "seat_count", "finishing_stacks", "ante_trimming_status"})
_PER_PLAYER_FIELDS = frozenset({"players", "winnings", "time_banks"})
_VARIANT_OF = {game: variant for variant, game in VARIANTS.items()}


# ---------------------------------------------------------------- writing


def to_phh(
    state: HandState,
    *,
    viewer: int | None | Literal["every card"] = EVERY_CARD,
    **optional_fields: object,
) -> str:
    """The hand so far as PHH text (a finished hand also gets ``finishing_stacks``).

    ``viewer`` is the seat whose history this is (``None``: a spectator's):
    hole cards it did not see (``engine.view``'s rule) are written ``??``
    each (``????`` in Hold'em, ``????????`` in Omaha).
    By default every card is written. ``optional_fields`` are written as
    given: standard optional fields such as ``players`` (names in PHH order:
    ``[names[s] for s in phh_order(state)]``), ``event``, ``hand``, ``table``
    or ``time``, and user-defined fields prefixed ``_``.

    >>> from engine.cards import DECK
    >>> from engine.deal import new_hand
    >>> hand = new_hand([100, 100], button=1, small_blind=1, big_blind=2, deck=DECK)
    >>> [line for line in to_phh(hand, viewer=0).splitlines() if " dh " in line]
    ['  "d dh p1 2c2h",', '  "d dh p2 ????",']
    """
    order = phh_order(state)
    position = {seat: index for index, seat in enumerate(order)}
    _check_optional_fields(optional_fields, len(order))
    forced = [_blind_of(state, seat) for seat in order]
    if len(order) == 2:
        forced.reverse()  # the standard reverses forced bets heads-up
    lines = [
        toml_line("variant", _VARIANT_OF[state.game]),
        # a bomb pot's stake is everyone's ante, with no blinds (rule 24)
        toml_line("antes", [state.bomb_pot or state.ante] * len(order)),
        toml_line("blinds_or_straddles", forced),
        toml_line("min_bet", state.big_blind),
        toml_line("starting_stacks", [state.starting_stacks[seat] for seat in order]),
        "actions = [",
        *(f"  {toml_value(text)}," for text in _action_texts(state, viewer, position)),
        "]",
        toml_line("seats", [seat + 1 for seat in order]),
        toml_line("seat_count", state.seat_count),
    ]
    if state.ante or state.bomb_pot:
        lines.append(toml_line("ante_trimming_status", True))  # rule 10
    if state.second_board:  # rule 25: PHH has no notation for a second run-out
        lines.append(toml_line("_runouts", 2))
        lines.append(toml_line("_second_board", cards_str(state.second_board)))
    if state.is_over:
        lines.append(toml_line("finishing_stacks", [state.stacks[seat] for seat in order]))
    lines.extend(toml_line(key, value) for key, value in optional_fields.items())
    return "\n".join(lines) + "\n"


def _check_optional_fields(fields: Mapping[str, object], player_count: int) -> None:
    for key, value in fields.items():
        check_optional_field(key)
        if key in _WRITTEN_FIELDS:
            raise ValueError(f"{key!r} is written from the hand itself")
        if key in _PER_PLAYER_FIELDS and not (
            isinstance(value, list | tuple) and len(value) == player_count
        ):
            raise ValueError(f"{key!r} must list one entry per player, in PHH order")


def phh_order(state: HandState) -> tuple[int, ...]:
    """The seats of PHH players p1, p2, ...: from the first seat left of the
    button round to the button (the engine's dealing order)."""
    count = state.seat_count
    seats = ((state.button + step) % count for step in range(1, count + 1))
    return tuple(seat for seat in seats if state.is_dealt_in[seat])


def _blind_of(state: HandState, seat: int) -> int:
    if state.bomb_pot:
        return 0  # rule 24: no blinds in a bomb pot
    if seat == state.straddle_seat:
        return 2 * state.big_blind  # rule 23: the straddle, the third forced bet
    if seat == state.big_blind_seat:
        return state.big_blind
    return state.small_blind if seat == state.small_blind_seat else 0


def _action_texts(
    state: HandState, viewer: int | None | str, position: Mapping[int, int]
) -> list[str]:
    sees = _sees(state, viewer)
    unseen = "??" * GAMES[state.game].hole_card_count
    texts = []
    for event in state.events:
        if isinstance(event, HoleCardsDealt):
            hole = cards_str(event.cards) if sees(event.seat) else unseen
            texts.append(f"d dh p{position[event.seat] + 1} {hole}")
        elif isinstance(event, BoardDealt) and not event.run:  # the second: _second_board
            texts.append(f"d db {cards_str(event.cards)}")
        elif isinstance(event, PlayerActed):
            texts.append(f"p{position[event.seat] + 1} {_verb(event)}")
        elif isinstance(event, CardsShown):
            texts.append(f"p{position[event.seat] + 1} sm {cards_str(event.cards)}")
        elif isinstance(event, CardsMucked):
            texts.append(f"p{position[event.seat] + 1} sm")
    return texts


def _sees(state: HandState, viewer: int | None | str) -> Callable[[int], bool]:
    if isinstance(viewer, str):  # EVERY_CARD
        return lambda seat: True
    return lambda seat: sees_hole_cards(state, viewer, seat)


def _verb(event: PlayerActed) -> str:
    if event.action == "fold":
        return "f"
    if event.action in ("check", "call"):
        return "cc"
    return f"cbr {event.total}"


# ---------------------------------------------------------------- reading


def from_phh(text: str) -> HandState:
    """Play a PHH file through the engine and return the resulting state.

    Raises :class:`PhhError` (a ``ValueError``) for a malformed file or an
    action out of place (another player's turn, a street not dealt, the hand
    over) and :class:`PhhIllegalAction` (also an ``engine.IllegalAction``) for
    an action the rules forbid; both name the action's index in ``actions``
    (from 0: ``actions[0]`` is the first entry) and its text.
    """
    phh = parse_phh(text)
    table = read_table(phh)
    second_board = _second_board(phh)
    deck, made_up = deck_for(phh, second_board)
    replay = PhhReplay(_start(phh, table, deck, bool(second_board)), table.seats)
    for action in phh.actions:
        replay.apply(action)
    check_no_made_up_showdown(replay.state, made_up, table.seats)
    _check_second_board(replay.state, second_board)
    return replay.state


def _start(phh: PhhFile, table: PhhTable, deck: tuple[int, ...], twice: bool) -> HandState:
    stacks: list[int | None] = [None] * table.seat_count
    for player, seat in enumerate(table.seats):
        stacks[seat] = phh.starting_stacks[player]
    try:
        return new_hand(
            stacks,
            button=table.seats[-1],
            small_blind=table.small_blind,
            big_blind=table.big_blind,
            ante=table.ante,
            small_blind_seat=table.small_blind_seat,
            big_blind_seat=table.big_blind_seat,
            deck=deck,
            game=phh.game,
            straddle=table.straddle,
            bomb_pot=table.bomb_pot,
            run_it_twice=twice,
        )
    except ValueError as error:  # the table itself is impossible (e.g. too many seats)
        raise PhhError(str(error)) from None


def _second_board(phh: PhhFile) -> tuple[int, ...]:
    """The second run-out's board from ``_runouts = 2`` and ``_second_board`` (rule 25),
    or ``()`` for a hand run once."""
    runouts = phh.fields.get("_runouts")
    written = phh.fields.get("_second_board")
    if runouts is None and written is None:
        return ()
    if type(runouts) is not int or runouts != 2 or not isinstance(written, str):
        raise PhhError("a hand run twice has _runouts = 2 and its _second_board, as Felt writes")
    board = parse_cards(written, lambda reason: PhhError(f"_second_board: {reason}"))
    if len(board) != 5 or None in board:
        raise PhhError(f"_second_board must name five cards, not {written!r}")
    return tuple(c for c in board if c is not None)


def _check_second_board(state: HandState, second_board: tuple[int, ...]) -> None:
    if not second_board:
        return
    if not state.second_board:
        raise PhhError(
            "the file says the board was run twice (_runouts = 2), but the hand never"
            " asked how many times to run it (rule 25)"
        )
    if state.second_board != second_board:
        dealt = cards_str(state.second_board[: 5 - _new_cards(state)])
        raise PhhError(
            f"_second_board {cards_str(second_board)} does not fit the hand: the run-out was"
            f" chosen when the board was [{dealt}], so the second board starts with those"
            " cards and takes the others from the deck after the first board's"
        )


def _new_cards(state: HandState) -> int:
    """How many cards of the second board were dealt for it, not shared with the first."""
    return sum(
        len(event.cards) for event in state.events if isinstance(event, BoardDealt) and event.run
    )
