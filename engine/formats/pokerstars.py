"""PokerStars-format hand histories, the text tracker software reads.

``to_pokerstars(state, ...)`` writes one finished hand from its event log:
header, table line, seats, antes and blinds, hole cards, streets, showdown
and summary. Only cards the ``viewer`` may see appear: their own hole cards
("Dealt to") and cards shown at showdown; mucked and folded hands stay hidden.
The header names the game as PokerStars does (``Hold'em No Limit``, ``Omaha
Pot Limit``), and a shown hand is described by the game's own valuation: in
Omaha, two hole cards with three of the board (rule 21).

>>> from engine.betting import apply_action
>>> from engine.actions import Fold
>>> from engine.cards import DECK
>>> from engine.deal import new_hand
>>> hand = new_hand([100, 100], button=0, small_blind=1, big_blind=2, deck=DECK)
>>> hand = apply_action(hand, Fold())
>>> print(to_pokerstars(hand, hand_id=7, players=["Ann", "Bob"]).splitlines()[0])
PokerStars Hand #7:  Hold'em No Limit (1/2)
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from engine.cards import card_str
from engine.evaluator import describe
from engine.events import (
    AntePosted,
    BlindPosted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    RunoutsChosen,
    UncalledBetReturned,
)
from engine.games import GAMES, NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA
from engine.state import HandState

__all__ = ["to_pokerstars"]

_EASTERN = ZoneInfo("America/New_York")
_GAME_NAMES = {NO_LIMIT_HOLDEM: "Hold'em No Limit", POT_LIMIT_OMAHA: "Omaha Pot Limit"}
_NOT_IN_SCREEN_NAMES = str.maketrans(dict.fromkeys("()[]:", " "))
_STREET_TITLES = {"flop": "FLOP", "turn": "TURN", "river": "RIVER"}
_FOLDED_ON = {
    "preflop": "folded before Flop",
    "flop": "folded on the Flop",
    "turn": "folded on the Turn",
    "river": "folded on the River",
}
_ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


@dataclass(frozen=True)
class _Header:
    """What the first two lines say about the hand, the table and the tournament."""

    hand_id: int
    table: str
    tournament_id: int | None
    buy_in: str
    level: int | None
    time: datetime.datetime | None
    time_zone: str

    def lines(self, state: HandState) -> list[str]:
        blinds = f"({state.small_blind}/{state.big_blind})"
        name = _GAME_NAMES[state.game]
        if self.tournament_id is None:
            # Cash-game headers have two spaces after the colon, as PokerStars writes them.
            game = f" {name} {blinds}"
        else:
            stake = f" {self.buy_in}" if self.buy_in else ""
            stage = blinds if self.level is None else f"Level {_roman(self.level)} {blinds}"
            game = f"Tournament #{self.tournament_id},{stake} {name} - {stage}"
        return [
            f"PokerStars Hand #{self.hand_id}: {game}{self.when()}",
            f"Table '{_quoted(self.table)}' {state.seat_count}-max"
            f" Seat #{state.button + 1} is the button",
        ]

    def when(self) -> str:
        """`` - <time> <zone>``; a time that knows its zone is followed by Eastern Time
        in brackets, as PokerStars writes it for players outside that zone (trackers
        read the bracketed ET time)."""
        if self.time is None:
            return ""
        if self.time.tzinfo is None:
            return f" - {self.time:%Y/%m/%d %H:%M:%S} {self.time_zone}"
        eastern = f"{self.time.astimezone(_EASTERN):%Y/%m/%d %H:%M:%S} ET"
        if self.time_zone == "ET":
            return f" - {eastern}"
        return f" - {self.time:%Y/%m/%d %H:%M:%S} {self.time_zone} [{eastern}]"


def to_pokerstars(
    state: HandState,
    *,
    hand_id: int = 1,
    players: Sequence[str | None] | None = None,
    viewer: int | None = None,
    table: str = "Felt",
    tournament_id: int | None = None,
    buy_in: str = "",
    level: int | None = None,
    time: datetime.datetime | None = None,
    time_zone: str = "ET",
    places: Mapping[int, int] | None = None,
    bounties: Sequence[BountyTaken] = (),
) -> str:
    """A finished hand as PokerStars hand-history text.

    ``players`` are names by seat (default ``Player1``, ``Player2``, ...);
    ``viewer`` is the seat whose hole cards are printed ("Dealt to"), or
    ``None`` for an observer. With a ``tournament_id`` the header is a
    tournament's (``buy_in`` such as ``"$10+$1 USD"`` and ``level``
    optional); otherwise a cash game's. A naive ``time`` is printed as given,
    named ``time_zone``; an aware one is printed as given and named
    ``time_zone``, then in Eastern Time in brackets (``... 17:05:13 UTC
    [2026/11/25 12:05:13 ET]``), the form trackers' parsers read, or only in
    Eastern Time when ``time_zone`` is ``"ET"``. Names are written as screen
    names (no parentheses, brackets or colons: "Ada (bot)" is "Ada bot") and
    quotes in the table's name are escaped (``\\'``). ``places`` maps the
    seats that finished a tournament in this hand to their places: "finished
    the tournament in 4th place", and "wins the tournament" for 1st.
    ``bounties`` are the knockout bounties taken in the hand, written before the
    places as PokerStars writes them: "wins the 20 bounty for eliminating", or in
    a progressive knockout "wins 10 for eliminating ... and their own bounty
    increases by 10 to 30".
    """
    if not state.is_over:
        raise ValueError("only a finished hand can be written as PokerStars text")
    header = _Header(hand_id, table, tournament_id, buy_in, level, time, time_zone)
    names = _names(state, players)
    writer = _Writer(state, names, viewer)
    writer.write(state.events)
    lines = [
        *header.lines(state),
        *(f"Seat {s + 1}: {names[s]} ({state.starting_stacks[s]} in chips)" for s in state.players),
        *writer.lines,
        *writer.showdown_lines(),
        *(_bounty_line(names, taken) for taken in bounties),
        *_finish_lines(names, places or {}),
        "*** SUMMARY ***",
        *writer.summary(),
    ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class BountyTaken:
    """A knockout bounty taken in a hand: ``winner`` knocked ``busted`` out and was
    paid ``paid``; in a progressive knockout ``added`` more went onto their own
    bounty, which became ``bounty_after``."""

    winner: int
    busted: int
    paid: int
    added: int = 0
    bounty_after: int = 0


def _bounty_line(names: Sequence[str], taken: BountyTaken) -> str:
    winner, busted = names[taken.winner], names[taken.busted]
    if not taken.added:
        return f"{winner} wins the {taken.paid} bounty for eliminating {busted}"
    return (
        f"{winner} wins {taken.paid} for eliminating {busted} and their own bounty "
        f"increases by {taken.added} to {taken.bounty_after}"
    )


def _finish_lines(names: Sequence[str], places: Mapping[int, int]) -> list[str]:
    """Who went out in this hand (worst place first), and the winner."""
    return [
        f"{names[seat]} wins the tournament"
        if place == 1
        else f"{names[seat]} finished the tournament in {ordinal(place)} place"
        for seat, place in sorted(places.items(), key=lambda item: (-item[1], item[0]))
    ]


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


def _names(state: HandState, players: Sequence[str | None] | None) -> list[str]:
    count = state.seat_count
    given = list(players) if players is not None else [None] * count
    if len(given) != count:
        raise ValueError(f"players must name {count} seats, not {len(given)}")
    names = [_screen_name(name) if name else f"Player{seat + 1}" for seat, name in enumerate(given)]
    taken: dict[str, int] = {}
    for name in names:
        taken[name] = taken.get(name, 0) + 1
    # Two names that became one (rare): the seat number keeps them apart.
    return [f"{name}_{seat + 1}" if taken[name] > 1 else name for seat, name in enumerate(names)]


def _screen_name(name: str) -> str:
    """A name as a PokerStars screen name can be: parsers read ``(...)`` after a name as
    its position or stack and ``[...]`` as cards, so a bot's "Ada (bot)" is "Ada bot"."""
    return " ".join(name.translate(_NOT_IN_SCREEN_NAMES).split()) or "Player"


def _quoted(table: str) -> str:
    """A table name inside the header's single quotes, its own quotes escaped."""
    return table.replace("\\", "\\\\").replace("'", "\\'")


def _roman(number: int) -> str:
    out = []
    for value, letters in _ROMAN:
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


def _cards(values: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in values)


def _all_in(event: AntePosted | BlindPosted | PlayerActed) -> str:
    return " and is all-in" if event.is_all_in else ""


@dataclass
class _Writer:
    """Walks the event log once: action lines now, showdown and summary after."""

    state: HandState
    names: Sequence[str]
    viewer: int | None
    lines: list[str] = field(default_factory=list)
    reveals: list[tuple[int, tuple[int, ...] | None]] = field(default_factory=list)  # None: mucked
    folded_on: dict[int, str] = field(default_factory=dict)
    shown: dict[int, tuple[int, ...]] = field(default_factory=dict)
    mucked: set[int] = field(default_factory=set)
    pots: list[PotAwarded] = field(default_factory=list)
    street_bet: int = 0
    runs_twice: bool = False  # two run-outs chosen: the streets dealt since are named

    def write(self, events: Iterable[Event]) -> None:
        for event in events:
            if isinstance(event, CardsShown | CardsMucked | PotAwarded):
                self._record_end(event)
            else:
                self.lines.extend(self._lines_for(event))

    def _lines_for(self, event: Event) -> list[str]:
        if isinstance(event, AntePosted):
            return [f"{self.names[event.seat]}: posts the ante {event.amount}{_all_in(event)}"]
        if isinstance(event, BlindPosted):
            if event.blind == "straddle":  # rule 23: raises are counted from the straddle
                self.street_bet = 2 * self.state.big_blind
                return [f"{self.names[event.seat]}: posts straddle {event.amount}"]
            self.street_bet = self.state.big_blind  # rule 9: the full big blind is owed
            posts = f"posts {event.blind} blind {event.amount}"
            return [f"{self.names[event.seat]}: {posts}{_all_in(event)}"]
        if isinstance(event, HoleCardsDealt):
            return self._dealt(event)
        if isinstance(event, PlayerActed):
            return [self._acted(event)]
        if isinstance(event, BoardDealt):
            return [self._board(event)]
        if isinstance(event, RunoutsChosen):
            self.runs_twice = event.count == 2
            return []
        if isinstance(event, UncalledBetReturned):
            return [f"Uncalled bet ({event.amount}) returned to {self.names[event.seat]}"]
        return []

    def _dealt(self, event: HoleCardsDealt) -> list[str]:
        first = not any(line == "*** HOLE CARDS ***" for line in self.lines)
        out = ["*** HOLE CARDS ***"] if first else []
        if event.seat == self.viewer:
            out.append(f"Dealt to {self.names[event.seat]} [{_cards(event.cards)}]")
        return out

    def _acted(self, event: PlayerActed) -> str:
        name = self.names[event.seat]
        if event.action == "fold":
            self.folded_on[event.seat] = event.street
            return f"{name}: folds"
        if event.action == "check":
            return f"{name}: checks"
        if event.action == "call":
            return f"{name}: calls {event.amount}{_all_in(event)}"
        raised_by = event.total - self.street_bet
        self.street_bet = event.total
        if event.action == "bet":
            return f"{name}: bets {event.amount}{_all_in(event)}"
        return f"{name}: raises {raised_by} to {event.total}{_all_in(event)}"

    def _board(self, event: BoardDealt) -> str:
        self.street_bet = 0
        dealt_before = {"flop": 0, "turn": 3, "river": 4}[event.street]
        board = self.state.second_board if event.run else self.state.board
        # rule 25: the streets dealt once two run-outs are chosen are named by board;
        # those dealt before belong to both boards and keep their plain names
        which = ("SECOND " if event.run else "FIRST ") if self.runs_twice else ""
        title = f"*** {which}{_STREET_TITLES[event.street]} ***"
        if dealt_before:
            title += f" [{_cards(board[:dealt_before])}]"
        return f"{title} [{_cards(event.cards)}]"

    def _record_end(self, event: CardsShown | CardsMucked | PotAwarded) -> None:
        if isinstance(event, PotAwarded):
            self.pots.append(event)
        elif isinstance(event, CardsShown):
            self.shown[event.seat] = event.cards
            self.reveals.append((event.seat, event.cards))
        else:
            self.mucked.add(event.seat)
            self.reveals.append((event.seat, None))

    def boards(self) -> list[tuple[str, tuple[int, ...]]]:
        """Each board with its name in the text: one unnamed, or a hand run twice's
        "FIRST " and "SECOND " (rule 25)."""
        if not self.state.second_board:
            return [("", self.state.board)]
        return [("FIRST ", self.state.board), ("SECOND ", self.state.second_board)]

    def showdown_lines(self) -> list[str]:
        """Shows and mucks under ``*** SHOW DOWN ***``, then who collected what; a hand
        run twice has a ``FIRST`` and a ``SECOND SHOW DOWN``, each with who collected
        what on its board, the hands shown in the first (a parser reads a second
        "shows" of the same cards as a new action) and described on each board in
        the summary."""
        count = len({pot.pot_index for pot in self.pots})
        lines = []
        for run, (which, board) in enumerate(self.boards()):
            collected = [
                f"{self.names[seat]} collected {chips} from {_pot_name(pot.pot_index, count)}"
                for pot in reversed(self.pots)
                if pot.run == run
                for seat, chips in pot.shares
                if chips
            ]
            if self.reveals:
                lines.append(f"*** {which}SHOW DOWN ***")
            if self.reveals and run == 0:
                lines.extend(self._reveal(seat, cards, board) for seat, cards in self.reveals)
            lines.extend(collected)
        return lines

    def _reveal(self, seat: int, cards: tuple[int, ...] | None, board: tuple[int, ...]) -> str:
        if cards is None:
            return f"{self.names[seat]}: mucks hand"
        hand = _describe(self.state, cards, board)
        return f"{self.names[seat]}: shows [{_cards(cards)}] ({hand})"

    def summary(self) -> list[str]:
        pots: dict[int, int] = {}  # a pot run twice is awarded in two halves: one pot
        for pot in self.pots:
            pots[pot.pot_index] = pots.get(pot.pot_index, 0) + pot.amount
        pot_line = f"Total pot {sum(pots.values())}"
        if len(pots) > 1:
            pot_line += " " + " ".join(
                f"{_pot_name(index, len(pots)).capitalize()} {amount}."
                for index, amount in sorted(pots.items())
            )
        lines = [pot_line + " | Rake 0"]
        if self.state.second_board:
            lines.append("Hand was run twice")
        if self.state.board:
            lines.extend(f"{which}Board [{_cards(board)}]" for which, board in self.boards())
        lines.extend(
            f"Seat {seat + 1}: {self.names[seat]}{_role(self.state, seat)} {self._outcome(seat)}"
            for seat in self.state.players
        )
        return lines

    def _outcome(self, seat: int) -> str:
        won = sum(chips for pot in self.pots for s, chips in pot.shares if s == seat)
        if seat in self.folded_on:
            return _FOLDED_ON[self.folded_on[seat]]
        if seat in self.shown:
            cards = self.shown[seat]
            if not self.state.second_board:
                result = f"won ({won})" if won else "lost"
                return f"showed [{_cards(cards)}] and {result} with {_describe(self.state, cards)}"
            return f"showed [{_cards(cards)}] and " + ", and ".join(
                self._outcome_on(seat, run, which.strip().lower(), board)
                for run, (which, board) in enumerate(self.boards())
            )
        if seat in self.mucked:
            return "mucked"
        return f"collected ({won})"

    def _outcome_on(self, seat: int, run: int, which: str, board: tuple[int, ...]) -> str:
        """A hand run twice: what ``seat``'s shown hand did on one board."""
        won = sum(c for pot in self.pots if pot.run == run for s, c in pot.shares if s == seat)
        hand = _describe(self.state, self.shown[seat], board)
        return f"{f'won ({won})' if won else 'lost'} with {hand} on the {which} board"


def _describe(state: HandState, hole: tuple[int, ...], board: tuple[int, ...] = ()) -> str:
    return describe(GAMES[state.game].value(hole, board or state.board))


def _pot_name(index: int, count: int) -> str:
    if count == 1:
        return "pot"
    if index == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{index}"


def _role(state: HandState, seat: int) -> str:
    roles = []
    if seat == state.button:
        roles.append(" (button)")
    if state.bomb_pot:  # rule 24: nobody posted a blind
        return "".join(roles)
    if seat == state.small_blind_seat:
        roles.append(" (small blind)")
    if seat == state.big_blind_seat:
        roles.append(" (big blind)")
    return "".join(roles)
