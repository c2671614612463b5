"""Table behaviour that differs by kind, in one place per kind.

The table services ask these hooks, never ``table.kind``: where the blinds
of the next hand come from, whether a hand may start, who may sit or leave,
and what happens after a hand. Friends' and practice tables are defined
here; a tournament's table by ``tournaments.kind``, registered when that app
is ready (``TournamentsConfig.ready``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

import engine
from tables.errors import BadSeat, CannotBuyChips, CannotDeal, GuestsRefused, NoDeal
from tables.models import Table

if TYPE_CHECKING:
    from tables.models import Hand, Seat
    from tables.play import Play


class TableBehaviour:
    """A friends' table: fixed blinds, anyone may sit and leave, bots never play alone."""

    # A seat whose account was deleted is freed after the hand (with its chips), unless
    # the kind keeps it to be played as away until its chips are gone (a tournament).
    keeps_departed_seats = False
    # Chips in and out are ledger rows (ChipMovement): buy-ins, rebuys, cash-outs.
    keeps_ledger = True
    # Run by a host (tables/services/host.py): pause, blinds, removals, approvals, mutes.
    has_host = True
    # A busted player may buy the starting stack again between their hands.
    allows_rebuys = True
    # The player may have a fresh stack dealt to them whenever they bust (Table.auto_rebuy).
    offers_auto_rebuy = False
    # Sells chips for points (a tournament's rebuys and add-on): ``buy_chips``.
    sells_chips = False
    # Guests (accounts/guests.py: a nickname, from the table's link) may watch and sit.
    admits_guests = True
    # Unlisted (``Table.is_listed``), it opens only to its players and to whoever
    # brings its link's key (tables/links.py); to anyone else it does not exist.
    is_by_link = True

    def lock_first(self, table: dict[str, Any]) -> Any:
        """Lock any row that must be locked before this table (``table``: its kind and
        ids); what it returns, ``hold_first`` gives the table once its row is locked."""
        return None

    def hold_first(self, table: Table, first: Any) -> None:
        """Keep on the freshly locked ``table`` the row ``lock_first`` read, so that
        row is not read a second time."""

    def check_watch(self, table: Table, user: Any) -> None:
        """Refuse (a ``TableError``) when ``user`` may not see the table at all."""

    def check_sit(self, table: Table, user: Any) -> None:
        """Refuse (a ``TableError``) when ``user`` may not take a seat here."""

    def check_leave(self, play: Play, seat: Seat) -> None:
        """Refuse (a ``TableError``) when ``seat`` may not leave the table now."""

    def prepare_hand(self, play: Play) -> None:
        """Just before a hand is dealt: set the table's blinds, ante and level for it
        (here: those the host set for the next hand, if they did)."""
        table = play.table
        if table.next_big_blind is not None and table.next_small_blind is not None:
            table.small_blind, table.big_blind = table.next_small_blind, table.next_big_blind
            table.ante = table.next_ante or 0
        table.next_small_blind = table.next_big_blind = table.next_ante = None

    def dealt_seats(self, play: Play) -> list[int]:
        """The seats dealt into the next hand. A cash table deals in nobody sitting out
        (rule 29); a player back after missing the big blind waits until it is theirs,
        unless the hand could not go on without them (fewer than two others, or only
        bots: bots never play alone)."""
        present = [n for n in play.dealt_seats() if not play.seats[n].is_sitting_out]
        playing = [n for n in present if not play.seats[n].has_missed_big_blind]
        table = play.table
        if (
            len(playing) == len(present)
            or table.button is None
            or table.big_blind_seat is None
            or len(playing) < 2
            or all(play.seats[n].is_bot for n in playing)
        ):
            return present
        last = engine.Positions(table.button, table.small_blind_seat, table.big_blind_seat)
        big_blind = engine.next_positions(last, present, table.seat_count).big_blind_seat
        return sorted({*playing, big_blind})

    def disconnected_grace(self) -> float | None:
        """Seconds a player not connected to the table has on their turn, instead of the
        clock and their time bank; None: the whole clock, as if connected (a cash table's
        player who drops gets their clock, docs/rules.md rule 29)."""
        return None

    def can_deal(self, play: Play) -> bool:
        """A hand needs two players dealt in (``dealt_seats``)."""
        return not play.is_hand_running and len(self.dealt_seats(play)) >= 2

    def wants_next_hand(self, play: Play) -> bool:
        """Hands start by themselves only while a human is playing (bots never play alone)."""
        dealt = self.dealt_seats(play)
        return self.can_deal(play) and any(not play.seats[n].is_bot for n in dealt)

    def resumes_at(self, play: Play) -> datetime | None:
        """When a table that may not deal now will (a tournament's break ends); None."""
        return None

    def waiting_for(self, play: Play) -> str | None:
        """Why no hand is in play or coming, in words for the page; None when one is.

        Every table that deals nothing says why here (docs/protocol.md, ``waiting_for``),
        so a player never looks at a silent table.
        """
        table = play.table
        if play.is_hand_running:
            return None
        if table.closed_at is not None:
            return "The host ended the game"
        if table.is_paused:
            return "Paused by the host"
        if self.wants_next_hand(play):
            return None
        return short_of_players(play)

    def after_hand(self, play: Play) -> None:
        """In the transaction that ends a hand, once the stacks are back on the seats."""

    def buy_chips(self, play: Play, seat: Seat, what: str) -> None:
        """``seat``'s player buys chips for points (a tournament's ``"rebuy"`` or
        ``"add_on"``); refused here: a friends' table's rebuys are its own."""
        raise CannotBuyChips()

    def decline_rebuy(self, play: Play, seat: Seat) -> None:
        """``seat``'s player, out of chips, says no to the rebuy offered them."""
        raise CannotBuyChips()

    def purchases(self, table: Table, seats: Mapping[int, Seat], now: datetime) -> dict[int, Any]:
        """What each seated member (user id -> seat) may buy now: a tournament's
        rebuy or add-on (the snapshot's ``your_purchases``). Nothing here."""
        return {}

    def public_fields(self, table: Table, seats: Mapping[int, Seat]) -> dict[str, Any]:
        """The kind's own fields of every viewer's snapshot: a knockout tournament's
        ``bounties`` by seat number (null here)."""
        return {"bounties": None}

    def propose_deal(
        self, play: Play, seat: Seat, method: str, amounts: dict[int, int] | None, kept: int
    ) -> None:
        """``seat``'s player proposes a deal sharing a tournament's prizes left (rule 28);
        refused here: only a tournament's final table makes deals."""
        raise CannotDeal()

    def answer_deal(self, play: Play, seat: Seat, accept: bool) -> None:
        """``seat``'s player accepts or refuses the deal waiting for their answer."""
        raise NoDeal()

    def deal_fields(
        self, table: Table, seats: Mapping[int, Seat], is_hand_running: bool, now: datetime
    ) -> dict[str, Any]:
        """The snapshot's ``deal`` and ``deal_figures`` (public), and ``deal_proposers``
        (the seats that may propose a deal now: each one's ``can_propose_deal``).
        None here: only a tournament's final table makes deals."""
        return {"deal": None, "deal_figures": None, "deal_proposers": ()}

    def results(self, table: Table, viewers: Mapping[int, Seat | None]) -> dict[int, Any]:
        """How the game ended for those of ``viewers`` (user id -> their seat here, None
        without one) it has ended for, by user id: a tournament's place and prize
        (the snapshot's ``your_result``). Nothing here: these tables end for nobody."""
        return {}

    def history_fields(self, hand: Hand) -> dict[str, Any]:
        """The kind's own PHH fields for ``hand`` (``engine.to_phh``'s), beyond the table,
        the hand's number and its time, which every hand has (tables/history/projection.py)."""
        return {}

    def pokerstars_fields(self, hand: Hand) -> dict[str, Any]:
        """The kind's own ``engine.to_pokerstars`` keywords for ``hand`` (a tournament's
        header and the places decided in it), beyond the table and time every hand has."""
        return {}


def short_of_players(play: Play) -> str:
    """Why the seats as they are cannot make a hand: who is awaited, in words."""
    seats = list(play.seats.values())
    with_chips = [seat for seat in seats if seat.stack > 0 and not seat.is_leaving]
    away = [seat for seat in with_chips if seat.is_sitting_out and not seat.is_bot]
    if away and len(with_chips) >= 2:
        return f"Waiting for {away[0].name} to come back"
    busted = [seat for seat in seats if seat.stack == 0 and not seat.is_leaving]
    busted.sort(key=lambda seat: seat.is_bot)  # a person's rebuy is the one to wait for
    if busted and with_chips:
        if busted[0].wants_rebuy:
            return f"Waiting for the host to answer {busted[0].name}'s rebuy"
        return f"Waiting for {busted[0].name} to rebuy"
    if with_chips and all(seat.is_bot for seat in with_chips):
        return "Bots play only while a person plays: waiting for a player"
    return "Need one more player"


class PracticeBehaviour(TableBehaviour):
    """A member against bots: only the member who opened it sits there.

    The member never dead-ends: busted, they rebuy (by hand, or by themselves
    when ``Table.auto_rebuy`` is on), and a busted bot is given a fresh stack
    after the hand, so the table always has someone to play.
    """

    keeps_ledger = False  # bots' chips come from nowhere; nobody settles up
    has_host = False  # one member alone with bots: nothing to run
    offers_auto_rebuy = True
    admits_guests = False  # a member's own table; a guest cannot open one
    is_by_link = False  # never shared: only its owner sits there

    def check_sit(self, table: Table, user: Any) -> None:
        if table.owner_id != user.pk:
            raise BadSeat("Only the player who opened a practice table can sit at it.")

    def after_hand(self, play: Play) -> None:
        for seat in play.seats.values():
            if seat.stack == 0 and not seat.is_leaving and (seat.is_bot or play.table.auto_rebuy):
                seat.stack = play.table.starting_stack


_behaviours: dict[str, TableBehaviour] = {
    Table.Kind.FRIENDS: TableBehaviour(),
    Table.Kind.PRACTICE: PracticeBehaviour(),
}


def register(kind: str, behaviour: TableBehaviour) -> None:
    _behaviours[kind] = behaviour


def of(table: Table) -> TableBehaviour:
    return _behaviours[table.kind]


def check_watch(table: Table, user: Any) -> None:
    """Refuse (a ``TableError``) when ``user`` may not see the table: a guest where its
    kind admits none (``GuestsRefused``), or whom the kind itself turns away."""
    behaviour = of(table)
    if getattr(user, "is_guest", False) and not behaviour.admits_guests:
        raise GuestsRefused()
    behaviour.check_watch(table, user)


def check_sit(table: Table, user: Any) -> None:
    """Refuse (a ``TableError``) when ``user`` may not take a seat here."""
    check_watch(table, user)
    of(table).check_sit(table, user)


# A table's kind and tournament never change once it exists (and an id is never given
# to another table), so each process reads them once per table: every command would
# otherwise pay a query for them.
_table_facts: dict[int, dict[str, Any]] = {}
TABLE_FACTS_MAX = 4096


def lock_first(table_id: int) -> Any:
    """Before a table's row lock: whatever its kind locks first (a tournament's row),
    returned for ``of(table).hold_first``."""
    row = _table_facts.get(table_id)
    if row is None:
        found = Table.objects.filter(pk=table_id).values("id", "kind", "tournament_id").first()
        if found is None:
            return None
        if len(_table_facts) >= TABLE_FACTS_MAX:
            _table_facts.clear()
        row = _table_facts[table_id] = dict(found)
    return _behaviours[row["kind"]].lock_first(row)
