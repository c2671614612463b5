"""Rebuys and add-ons: chips bought for points while a tournament runs.

A tournament with rebuys (``Tournament.rebuy_levels``, ``max_rebuys``) sells the
starting stack for the buy-in until the end of its rebuy period, to a player at
or below the starting stack, up to ``max_rebuys`` times each; then an add-on
(``addon_chips`` for ``addon_price``) once to every player still in, until the
end of the next level. Every purchase is a points ledger row and raises the
prize pool in the same transaction. Chips bought arrive before the player's
next hand (``Seat.chips_to_add``, added by ``tournaments.kind``).

A player who goes out of chips in the rebuy period with a rebuy left (and the
points for it) is not out yet: they have ``TOURNAMENTS_REBUY_OFFER_SECONDS`` to
rebuy (``Entry.rebuy_offer_until``). They are out when they say no or the time
passes (a task at that moment, and the tournaments' sweep behind it), placed
then among those still in (docs/tournaments.md, "Rebuys and add-ons").

Called with the tournament locked: through a table command (``tables.kinds``:
the table's lock takes the tournament's row first), so refusals are the table's
errors (``tables.errors``), or from the task.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse

from accounts import points
from accounts.models import PointsEntry
from tables.errors import CannotBuyChips, NotEnoughPoints
from tables.models import Seat
from tables.play import Play
from tables.services import play as p
from tournaments import broadcast
from tournaments.models import Entry, Tournament
from tournaments.services.late import seat_late_entry
from tournaments.services.results import eliminate

# A place paid was paid from the pool as it was then: a purchase after it would grow
# the pool without that place's share ever being paid (rule 34).
IN_THE_MONEY = "Rebuys and add-ons have closed: this tournament has reached the money."


def buy_chips(play: Play, tournament: Tournament, seat: Seat, what: str) -> None:
    """``seat``'s player buys a rebuy or the add-on (``what``); tournament and table
    locked. Refuses (``CannotBuyChips``, ``NotEnoughPoints``) and changes nothing when
    the tournament does not sell it now or the player may not have it."""
    entry = _entry_of(tournament, seat)
    if what == "rebuy":
        price, chips = _check_rebuy(tournament, entry, seat, play.now)
        reason = PointsEntry.Reason.REBUY
        entry.rebuys += 1
        entry.rebuy_offer_until = entry.knocked_out_by = None  # back in: nobody took a bounty
    else:
        price, chips = _check_add_on(tournament, entry, seat, play.now)
        reason = PointsEntry.Reason.ADD_ON
        entry.has_added_on = True
    if price:
        try:
            points.points_move(
                user=seat.user,
                amount=-price,
                reason=reason,
                tournament=tournament,
                scope=tournament.points_scope,
            )
        except points.NotEnoughPoints as error:
            raise NotEnoughPoints(error.message) from None
    tournament.prize_pool += price
    tournament.save(update_fields=["prize_pool"])
    entry.paid += price
    entry.save(
        update_fields=["rebuys", "has_added_on", "rebuy_offer_until", "knocked_out_by", "paid"]
    )
    if seat.stack == 0 and not _plays_on(tournament, play):
        # out of chips at a table that no longer deals (broken, or the final table
        # drawn without them): seated again as a late entry is
        play.removed.append(play.seats.pop(seat.number))
        seat_late_entry(tournament, entry)
    else:
        seat.chips_to_add += chips
    broadcast.lobby_update(tournament.pk)


def _entry_of(tournament: Tournament, seat: Seat) -> Entry:
    entry = None
    if seat.entry_id is not None:
        entry = tournament.entries.filter(pk=seat.entry_id, place=None).first()
    if entry is None:
        raise CannotBuyChips("You are out of this tournament.")
    return entry


def _check_rebuy(
    tournament: Tournament, entry: Entry, seat: Seat, now: datetime
) -> tuple[int, int]:
    if not tournament.has_rebuys:
        raise CannotBuyChips("This tournament has no rebuys.")
    if not tournament.is_rebuy_period(now):
        raise CannotBuyChips("The rebuy period is over.")
    if tournament.is_in_the_money():  # rule 34
        raise CannotBuyChips(IN_THE_MONEY)
    if entry.rebuys >= tournament.max_rebuys:
        raise CannotBuyChips(f"You have had your {tournament.max_rebuys} rebuys.")
    if seat.chips_to_add:
        raise CannotBuyChips("Your chips bought already arrive before your next hand.")
    starting = tournament.blind_structure.starting_stack
    if seat.stack > starting:
        raise CannotBuyChips(f"Rebuys are for stacks of {starting:,} chips or fewer.")
    return tournament.buy_in, starting


def _check_add_on(
    tournament: Tournament, entry: Entry, seat: Seat, now: datetime
) -> tuple[int, int]:
    if not tournament.has_rebuys or not tournament.addon_chips:
        raise CannotBuyChips("This tournament has no add-on.")
    if not tournament.is_addon_period(now):
        raise CannotBuyChips("The add-on is taken at the end of the rebuy period.")
    if tournament.is_in_the_money():  # rule 34
        raise CannotBuyChips(IN_THE_MONEY)
    if entry.has_added_on:
        raise CannotBuyChips("You have taken your add-on.")
    if seat.stack + seat.chips_to_add == 0:
        raise CannotBuyChips("The add-on is for players still in: you are out of chips.")
    return tournament.addon_price, tournament.addon_chips


def _plays_on(tournament: Tournament, play: Play) -> bool:
    """Whether ``play``'s table still deals: another player there has chips, or it is
    the tournament's only table."""
    others = [s for s in play.seats.values() if s.stack + s.chips_to_add > 0]
    return bool(others) or not tournament.tables.exclude(pk=play.table.pk).exists()


def decline_rebuy(play: Play, tournament: Tournament, seat: Seat) -> None:
    """``seat``'s player, out of chips, says no to the rebuy offered: out now."""
    entry = _entry_of(tournament, seat)
    if entry.rebuy_offer_until is None:
        raise CannotBuyChips("No rebuy is waiting for your answer.")
    _go_out(tournament, [entry], play.now)
    p.plan_next_hand(play)


def rebuy_offers_expire(*, tournament_id: int, now: datetime) -> int:
    """The offers whose time has passed: those players are out (together: rule 19
    among them). Their tables are told, and deal again if they were waiting. How many."""
    from tournaments.services.registration import locked

    with transaction.atomic():
        tournament = locked(tournament_id)
        entries = list(_offers_ended(tournament, now).order_by("pk"))
        if not entries:
            return 0
        table_ids = sorted(
            set(Seat.objects.filter(entry__in=entries).values_list("table_id", flat=True))
        )
        plays = [p.lock(table_id) for table_id in table_ids]
        _go_out(tournament, entries, now)
        for each in plays:
            p.plan_next_hand(each)
            p.commit(each)
        return len(entries)


def rebuy_offers_due(*, now: datetime) -> list[int]:
    """Running tournaments with an offer whose time has passed or whose rebuy has
    closed (a lost task)."""
    offers = Entry.objects.filter(
        place=None,
        rebuy_offer_until__isnull=False,
        tournament__status=Tournament.Status.RUNNING,
    )
    offered = Tournament.objects.filter(pk__in=offers.values("tournament_id"))
    return sorted(t.pk for t in offered if _offers_ended(t, now).exists())


def _offers_ended(tournament: Tournament, now: datetime) -> QuerySet[Entry]:
    """The entries whose offer has ended: its time has passed, or the rebuy has closed
    under it (the period's end, or the money: rule 34), so waiting on would only keep
    their table from dealing."""
    offers = tournament.entries.filter(place=None, rebuy_offer_until__isnull=False)
    if tournament.is_rebuy_open(now):
        return offers.filter(rebuy_offer_until__lte=now)
    return offers


def _go_out(tournament: Tournament, entries: list[Entry], now: datetime) -> None:
    still_in = list(tournament.entries.filter(place=None))
    by_pk = {entry.pk: entry for entry in still_in}
    out = [by_pk[entry.pk] for entry in entries]
    eliminate(tournament, out, still_in, None, now)
    broadcast.lobby_update(tournament.pk)


def purchases(
    tournament: Tournament, seats: dict[int, Seat], now: datetime
) -> dict[int, dict[str, Any]]:
    """What each seated member (user id -> their seat) may buy now, for their table
    page: a rebuy (with the offer's end when they are out of chips) and the add-on."""
    rebuy_open = tournament.is_rebuy_period(now)
    addon_open = tournament.is_addon_period(now)
    if not (rebuy_open or addon_open):
        return {}
    # Built at every change at the tournament's tables in these levels: one read of
    # every entry gives both the money (rule 34) and the seated members' own entries.
    rows = list(
        Entry.objects.filter(tournament_id=tournament.pk).values_list(
            "user_id", "place", "rebuys", "has_added_on", "rebuy_offer_until"
        )
    )
    if tournament.is_money_reached(len(rows), sum(1 for row in rows if row[1] is None)):
        return {}
    starting = tournament.blind_structure.starting_stack
    unit = tournament.points_unit
    offers: dict[int, dict[str, Any]] = {}
    for user_id, place, rebuys, has_added_on, until in rows:
        seat = seats.get(user_id) if place is None else None
        if seat is None:
            continue
        rebuy = None
        left = tournament.max_rebuys - rebuys
        may_rebuy = rebuy_open and left > 0 and not seat.chips_to_add and seat.stack <= starting
        if may_rebuy and (seat.stack > 0 or until is not None):
            rebuy = {
                "price": tournament.buy_in,
                "chips": starting,
                "left": left,
                "until": until.isoformat() if until else None,
            }
        add_on = None
        if addon_open and not has_added_on and seat.stack + seat.chips_to_add > 0:
            add_on = {"price": tournament.addon_price, "chips": tournament.addon_chips}
        if rebuy or add_on or seat.chips_to_add:
            offers[user_id] = {
                "rebuy": rebuy,
                "add_on": add_on,
                "chips_coming": seat.chips_to_add,
                "unit": unit,
                "url": reverse("tournaments:tournament_detail", args=[tournament.pk]),
            }
    return offers
