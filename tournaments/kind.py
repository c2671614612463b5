"""How a tournament's table behaves (registered with tables.kinds by the app's ready()).

The blinds of each hand come from the tournament's clock (``level_at``), a
hand starts whenever two players have chips (away players are dealt in and
folded or checked at once, rule 20, so a table of away players plays on),
nobody leaves a running tournament, and the hand's end eliminates players.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Q

from config.adapters.compiled_query import CompiledQuery
from tables.errors import BadSeat, CannotLeave, MembersOnly
from tables.kinds import TableBehaviour
from tables.models import Hand, Seat, Table
from tables.play import Play
from tournaments.clubs.access import check_can_see
from tournaments.deals import MOST_PLAYERS, open_deal, table_deal
from tournaments.errors import TournamentError
from tournaments.histories import pokerstars_meta
from tournaments.models import Entry, Tournament
from tournaments.selectors import results_of

_tournament_locked = CompiledQuery(
    lambda tournament_id: Tournament.objects.select_for_update().filter(pk=tournament_id)
)


def tournament_of(table: Table) -> Tournament:
    tournament = table.tournament  # loaded once per locked table
    assert tournament is not None, "a tournament table always has its tournament"
    return tournament


def _offered_entries(play: Play, numbers: list[int]) -> set[int]:
    """Of the entries at seats ``numbers`` (out of chips), those deciding on a rebuy."""
    entry_ids = [e for n in numbers if (e := play.seats[n].entry_id) is not None]
    if not entry_ids:
        return set()
    offered = Entry.objects.filter(pk__in=entry_ids, place=None, rebuy_offer_until__isnull=False)
    return set(offered.values_list("pk", flat=True))


class TournamentBehaviour(TableBehaviour):
    keeps_departed_seats = True  # its chips stay in play until blinded off, then it places
    keeps_ledger = False  # the entry fee and prizes are the tournament's own ledger
    admits_guests = False  # guests play at friends' tables only (accounts/guests.py)
    is_by_link = False  # a tournament's tables follow its own rules (check_watch)
    has_host = False  # the tournament's structure runs it
    allows_rebuys = False  # not a friends' table's: out of chips is out of the tournament,
    sells_chips = True  # unless it has rebuys (tournaments/services/rebuys.py)

    def lock_first(self, table: dict[str, Any]) -> Tournament | None:
        # The tournament's row before its table's (docs/architecture.md, lock order).
        if table["tournament_id"] is None:
            return None
        found = _tournament_locked.rows(table["tournament_id"])
        return found[0] if found else None

    def hold_first(self, table: Table, first: Any) -> None:
        if first is not None and first.pk == table.tournament_id:
            table.tournament = first

    def check_watch(self, table: Table, user: Any) -> None:
        try:
            check_can_see(tournament_of(table), user)
        except TournamentError as error:
            raise MembersOnly(error.message) from None

    def check_sit(self, table: Table, user: Any) -> None:
        raise BadSeat("Tournament seats are assigned by the tournament.")

    def check_leave(self, play: Play, seat: Seat) -> None:
        # Out of it (no chips after the hand), a player may go; still in it, not.
        is_in = seat.stack + seat.chips_to_add > 0
        if tournament_of(play.table).status == Tournament.Status.RUNNING and is_in:
            raise CannotLeave()

    def prepare_hand(self, play: Play) -> None:
        from tournaments.services.levels import run_ahead_if_everyone_is_away

        for seat in play.seats.values():  # a rebuy or add-on bought since the last hand
            if seat.chips_to_add:
                seat.stack += seat.chips_to_add
                seat.chips_to_add = 0
        busted = [number for number, seat in play.seats.items() if seat.stack == 0]
        offered = _offered_entries(play, busted)
        for number in busted:  # out of the tournament: seat cleared (unless deciding)
            if play.seats[number].entry_id not in offered:
                play.removed.append(play.seats.pop(number))
        table = play.table
        tournament = tournament_of(table)
        run_ahead_if_everyone_is_away(play, tournament)  # rule 33
        index, level = tournament.level_at(play.now)
        table.level = index
        table.small_blind, table.big_blind, table.ante = (
            level.small_blind,
            level.big_blind,
            level.ante,
        )
        table.level_ends_at = tournament.level_ends_at(index)

    def disconnected_grace(self) -> float | None:
        # rule 32: a whole clock and time bank for each absent player stalls the table
        return float(settings.TOURNAMENTS_DISCONNECTED_GRACE_SECONDS)

    def dealt_seats(self, play: Play) -> list[int]:
        # rule 20: everyone with chips is dealt in, away or not, and blinded off
        return play.dealt_seats()

    def can_deal(self, play: Play) -> bool:
        tournament = tournament_of(play.table)
        if tournament.break_ends_at(play.now) is not None:  # tables pause between hands
            return False
        return self._could_deal(play, tournament)

    def _could_deal(self, play: Play, tournament: Tournament) -> bool:
        running = tournament.status == Tournament.Status.RUNNING
        if tournament.is_waiting_for_tables:  # for the final table's draw, or hand-for-hand
            return False
        dealt = len(play.dealt_seats())
        if running and dealt <= MOST_PLAYERS and open_deal(tournament) is not None:
            return False  # the players answer a deal (no query at a bigger table)
        return running and not play.is_hand_running and dealt >= 2

    def resumes_at(self, play: Play) -> datetime | None:
        tournament = tournament_of(play.table)
        if not self._could_deal(play, tournament):
            return None
        return tournament.break_ends_at(play.now)

    def wants_next_hand(self, play: Play) -> bool:
        return self.can_deal(play)

    def waiting_for(self, play: Play) -> str | None:
        if play.is_hand_running:
            return None
        tournament = tournament_of(play.table)
        if tournament.status == Tournament.Status.FINISHED:
            return "The tournament is over"
        if tournament.status == Tournament.Status.CANCELLED:
            return "The tournament was cancelled"
        if tournament.status != Tournament.Status.RUNNING:
            return "The tournament has not started yet"
        dealt = len(play.dealt_seats())
        if dealt <= MOST_PLAYERS and open_deal(tournament) is not None:
            return "Waiting for the players to answer a deal"
        if tournament.break_ends_at(play.now) is not None:
            return "On a break: play resumes when it ends"
        if tournament.is_waiting_for_tables:
            left = (
                Seat.objects.filter(table__tournament=tournament)
                .filter(Q(stack__gt=0) | Q(chips_to_add__gt=0))
                .count()
            )
            if left > tournament.seats:  # more than one table's worth: hand-for-hand
                return "Hand for hand: waiting for every table to finish its hand"
            return "Waiting for the other tables' hands before the final table is drawn"
        if dealt <= 1:
            busted = [n for n, seat in play.seats.items() if seat.stack + seat.chips_to_add == 0]
            if _offered_entries(play, busted):
                return "Waiting for a player out of chips to decide on a rebuy"
        if dealt == 0:
            return "This table has closed: its players play on at the other tables"
        if dealt == 1:
            return "Waiting for players to be moved to this table"
        return None

    def buy_chips(self, play: Play, seat: Seat, what: str) -> None:
        from tournaments.services.rebuys import buy_chips

        buy_chips(play, tournament_of(play.table), seat, what)

    def decline_rebuy(self, play: Play, seat: Seat) -> None:
        from tournaments.services.rebuys import decline_rebuy

        decline_rebuy(play, tournament_of(play.table), seat)

    def public_fields(self, table: Table, seats: Mapping[int, Seat]) -> dict[str, Any]:
        tournament = tournament_of(table)
        if not tournament.bounty:
            return {"bounties": None}  # no query at most tournaments' tables
        by_entry = {seat.entry_id: number for number, seat in seats.items() if seat.entry_id}
        bounties = Entry.objects.filter(pk__in=list(by_entry)).values_list("pk", "bounty")
        return {"bounties": {by_entry[pk]: bounty for pk, bounty in bounties}}

    def purchases(self, table: Table, seats: Mapping[int, Seat], now: datetime) -> dict[int, Any]:
        from tournaments.services.rebuys import purchases

        tournament = tournament_of(table)
        if not tournament.has_rebuys or tournament.status != Tournament.Status.RUNNING:
            return {}  # no query at most tournaments' tables
        return purchases(tournament, dict(seats), now)

    def propose_deal(
        self, play: Play, seat: Seat, method: str, amounts: dict[int, int] | None, kept: int
    ) -> None:
        from tournaments.services.deals import propose_deal

        propose_deal(
            play,
            tournament_of(play.table),
            seat,
            method=method,
            amounts=amounts,
            kept_for_winner=kept,
        )

    def answer_deal(self, play: Play, seat: Seat, accept: bool) -> None:
        from tournaments.services.deals import answer_deal

        answer_deal(play, tournament_of(play.table), seat, accept=accept)

    def deal_fields(
        self, table: Table, seats: Mapping[int, Seat], is_hand_running: bool, now: datetime
    ) -> dict[str, Any]:
        return table_deal(tournament_of(table), table, seats, is_hand_running, now)

    def after_hand(self, play: Play) -> None:
        from tournaments.services.multi_table import seating_after_hand
        from tournaments.services.results import hand_ended

        tournament = tournament_of(play.table)
        hand_ended(play, tournament)
        if tournament.is_multi_table and tournament.status == Tournament.Status.RUNNING:
            seating_after_hand(play, tournament)

    def results(self, table: Table, viewers: Mapping[int, Seat | None]) -> dict[int, Any]:
        # Only a player out of chips (or with no seat) can have a place while it runs:
        # the others cost no query.
        tournament = tournament_of(table)
        is_running = tournament.status == Tournament.Status.RUNNING
        asked = [
            user_id
            for user_id, seat in viewers.items()
            if not is_running or seat is None or seat.stack == 0
        ]
        return results_of(tournament, asked) if asked else {}

    def history_fields(self, hand: Hand) -> dict[str, Any]:
        tournament = tournament_of(hand.table)
        return {
            "event": f"Felt Tournament #{tournament.pk}, {tournament.title}",
            "level": hand.level + 1,  # stored from 0; histories count levels from 1
        }

    def pokerstars_fields(self, hand: Hand) -> dict[str, Any]:
        return pokerstars_meta(hand)
