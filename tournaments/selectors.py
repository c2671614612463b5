"""Reads of tournaments: the public summary the lobby, the pages and the API show.

Nothing here holds a card: stacks between hands come from the seats, and
nothing of a hand in play is read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum
from django.urls import reverse
from django.utils import timezone

import engine
from accounts.models import PointsEntry
from engine.formats.pokerstars import ordinal
from tables.models import Seat
from tables.snapshot import iso
from tournaments.clubs.access import clubs_of
from tournaments.deals import accepted_deal, deal_summary
from tournaments.models import Deal, Entry, Tournament


def tournament_get(*, tournament_id: int) -> Tournament | None:
    return Tournament.objects.filter(pk=tournament_id).first()


def tournaments_list(*, status: str | None = None, viewer: Any = None) -> QuerySet[Tournament]:
    """The lobby's SNGs and scheduled tournaments, with the ``viewer``'s clubs' ones
    (practice ones are their owners' own)."""
    found = Tournament.objects.filter(
        Q(club__isnull=True) | Q(club__in=clubs_of(viewer)),
        kind__in=[Tournament.Kind.SNG, Tournament.Kind.MTT],
    )
    if status is not None:
        found = found.filter(status=status)
    if status == Tournament.Status.REGISTERING:
        return found.order_by("kind", "starts_at", "game", "structure", "buy_in", "pk")
    return found.order_by("-started_at", "-pk")


def level_info(tournament: Tournament, now: datetime) -> dict[str, Any] | None:
    """The level in play (1 = the first), its blinds and ante, and when it ends."""
    if tournament.started_at is None:
        return None
    moment = tournament.ended_at or now
    index, level = tournament.level_at(moment)
    return {
        "level": index + 1,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "ends_at": iso(tournament.level_ends_at(index)) if tournament.ended_at is None else None,
        "break_ends_at": iso(tournament.break_ends_at(moment))
        if tournament.ended_at is None
        else None,
    }


def structure_levels(tournament: Tournament, now: datetime) -> list[dict[str, Any]]:
    """Every level of the structure, the one in play marked, with the breaks placed
    between levels as rows of their own (``is_break``, ``minutes``)."""
    current = tournament.level_at(now)[0] if tournament.status == "running" else None
    breaks = {b["after_level"]: b["minutes"] for b in tournament.level_breaks or ()}
    rows: list[dict[str, Any]] = []
    for index, level in enumerate(tournament.blind_structure.levels):
        rows.append(
            {
                "level": index + 1,
                "small_blind": level.small_blind,
                "big_blind": level.big_blind,
                "ante": level.ante,
                "minutes": round(tournament.level_length(index) / 60, 2),
                "is_current": index == current,
            }
        )
        if index + 1 in breaks:
            rows.append({"is_break": True, "minutes": breaks[index + 1]})
    return rows


def payouts_of(tournament: Tournament) -> list[int]:
    """Prizes by place: a sit-n-go's for its full table (it starts only once every seat
    is taken, so that is what it pays), a scheduled one's for its entrants so far; none
    while nothing is in the pool (a freeroll, or nobody has paid in yet)."""
    if tournament.is_multi_table:
        prizes = tournament.prizes(max(tournament.entries.count(), 1))
    elif tournament.status == Tournament.Status.REGISTERING:
        full = (tournament.buy_in - tournament.bounty) * tournament.seats
        prizes = engine.payouts(full, tournament.seats, tournament.payout_percentages or None)
    else:
        prizes = tournament.prizes(tournament.seats)
    return list(prizes) if sum(prizes) else []


def players(tournament: Tournament) -> list[dict[str, Any]]:
    """Each entrant: stack while playing, place and prize once out (best first)."""
    stacks: dict[int | None, int] = {}
    if tournament.status == "running":
        seats = Seat.objects.filter(table__tournament=tournament)
        stacks = dict(seats.values_list("entry_id", "stack"))
    deal = accepted_deal(tournament) if tournament.started_at is not None else None
    rows = []
    seen: set[int] = set()
    for entry in tournament.entries.select_related("user").order_by("registered_at", "pk"):
        is_reentry = entry.user_id is not None and entry.user_id in seen
        if entry.user_id is not None:
            seen.add(entry.user_id)
        rows.append(
            {
                "name": entry.name,
                "username": entry.user.username if entry.user else None,
                "is_bot": entry.is_bot,
                "stack": stacks.get(entry.pk) if entry.place is None else None,
                "place": entry.place,
                **paid_to(entry, deal),
                "rebuys": entry.rebuys,
                "has_added_on": entry.has_added_on,
                "bounty": entry.bounty if tournament.bounty else None,
                "is_reentry": is_reentry,
            }
        )
    rows.sort(key=lambda r: (r["place"] is not None, r["place"] or 0, -int(r["stack"] or 0)))
    return rows


def paid_to(entry: Entry, deal: Deal | None) -> dict[str, Any]:
    """What ``entry`` was paid, as the ledger's rows for it add up: ``prize`` (every
    prize point, a deal's included), ``deal`` (the part the accepted deal paid; None
    without one, or for a player out before it), ``place_prize`` (the part the place
    paid), ``bounties_won`` (every bounty point, the winner's own included) and
    ``paid`` (all of it)."""
    is_dealt = deal is not None and str(entry.pk) in deal.amounts
    dealt = deal.amount_of(entry.pk) if deal is not None and is_dealt else None
    return {
        "prize": entry.prize,
        "deal": dealt,
        "place_prize": entry.prize - (dealt or 0),
        "bounties_won": entry.bounties_won,
        "paid": entry.prize + entry.bounties_won,
    }


def seating(tournament: Tournament) -> list[dict[str, Any]]:
    """A running tournament's tables: each with its players still in and their stacks
    between hands (a hand in play is never read)."""
    if tournament.status != Tournament.Status.RUNNING:
        return []
    seats = (
        Seat.objects.filter(table__tournament=tournament)
        .filter(Q(stack__gt=0) | Q(chips_to_add__gt=0))
        .select_related("table", "user")
        .order_by("table_id", "number")
    )
    tables: dict[int, dict[str, Any]] = {}
    for seat in seats:
        table = tables.setdefault(
            seat.table_id,
            {
                "id": seat.table_id,
                "name": seat.table.name,
                "url": reverse("tables:table_detail", args=[seat.table_id]),
                "players": [],
            },
        )
        table["players"].append({"seat": seat.number + 1, "name": seat.name, "stack": seat.stack})
    return list(tables.values())


def summary(tournament: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """Public facts of one tournament: the lobby's rows, the pages' and the API's data."""
    now = now or timezone.now()
    entries = list(tournament.entries.all())
    left = sum(1 for e in entries if e.place is None)
    tables = seating(tournament)
    chips = sum(p["stack"] for t in tables for p in t["players"])
    return {
        "id": tournament.pk,
        "title": tournament.title,
        "kind": tournament.kind,
        "structure": tournament.structure,
        "game": tournament.game,
        "game_name": tournament.game_name,
        "buy_in": tournament.buy_in,
        "status": tournament.status,
        "seats": tournament.seats,
        "entrant_limit": tournament.entrant_limit,
        "starts_at": iso(tournament.starts_at),
        "registered": len(entries),
        "reentries": len(entries) - len({e.user_id or -e.pk for e in entries})
        if tournament.max_reentries
        else None,
        "rebuys": rebuy_facts(tournament, entries, now),
        "bounties": bounty_facts(tournament),
        "players_left": left if tournament.started_at else None,
        "prize_pool": tournament.prize_pool,
        "payouts": payouts_of(tournament),
        "started_at": iso(tournament.started_at),
        "ended_at": iso(tournament.ended_at),
        "level": level_info(tournament, now),
        "tables": list(tournament.tables.order_by("pk").values_list("pk", flat=True)),
        "winners": [
            {"name": e.name, "place": e.place, "prize": e.prize}
            for e in sorted(entries, key=lambda e: e.place or 99)
            if e.place is not None and e.prize > 0 or e.place == 1
        ],
        "players": players(tournament),
        "deal": deal_summary(tournament),
        "has_open_deal": tournament.has_open_deal,
        "refunded": refunded(tournament),
        "seating": tables if tournament.is_multi_table else [],
        "average_stack": chips // left if tables and left else None,
        "url": reverse("tournaments:tournament_detail", args=[tournament.pk]),
    }


def refunded(tournament: Tournament) -> int | None:
    """A cancelled tournament's refunds (rule 31): the points its ledger gave back."""
    if tournament.status != Tournament.Status.CANCELLED:
        return None
    rows = PointsEntry.objects.filter(tournament=tournament, reason=PointsEntry.Reason.REFUND)
    return int(rows.aggregate(total=Sum("amount"))["total"] or 0)


def rebuy_facts(
    tournament: Tournament, entries: list[Entry], now: datetime
) -> dict[str, Any] | None:
    """A tournament with rebuys: its terms, what is sold now, and how many were bought."""
    if not tournament.has_rebuys:
        return None
    return {
        "until_level": tournament.rebuy_levels,
        "most_per_player": tournament.max_rebuys,
        "price": tournament.buy_in,
        "chips": tournament.blind_structure.starting_stack,
        "addon_chips": tournament.addon_chips,
        "addon_price": tournament.addon_price,
        "is_rebuy_open": tournament.is_rebuy_open(now),
        "is_addon_open": tournament.is_addon_open(now),
        "rebuys": sum(entry.rebuys for entry in entries),
        "add_ons": sum(1 for entry in entries if entry.has_added_on),
    }


def bounty_facts(tournament: Tournament) -> dict[str, Any] | None:
    """A knockout tournament: the bounty on each entrant, and how many were taken."""
    if not tournament.bounty:
        return None
    return {
        "bounty": tournament.bounty,
        "is_progressive": tournament.is_progressive_bounty,
        "taken": tournament.knockouts.values("busted_id").distinct().count(),
    }


def can_register(tournament: Tournament, now: datetime) -> bool:
    """Whether the page offers Register/Unregister: a lobby SNG or scheduled tournament
    before its start, or a scheduled one in late registration."""
    if tournament.kind == Tournament.Kind.PRACTICE:
        return False
    is_open = tournament.status == Tournament.Status.REGISTERING
    return is_open or tournament.is_late_registration_open(now)


def entry_of(tournament: Tournament, user: Any) -> Entry | None:
    """The member's entry still in, else their latest (a re-entry is a new entry)."""
    if user is None or not user.is_authenticated:
        return None
    mine = tournament.entries.filter(user=user)
    return mine.filter(place=None).first() or mine.order_by("-registered_at", "-pk").first()


def playing_in(user: Any) -> set[int]:
    """The running tournaments ``user`` is still in (an entry with no place yet)."""
    if user is None or not user.is_authenticated:
        return set()
    still_in = Entry.objects.filter(
        user=user, place=None, tournament__status=Tournament.Status.RUNNING
    )
    return set(still_in.values_list("tournament_id", flat=True))


def seat_table_of(entry: Entry) -> int | None:
    """The table the entry sits at now (it moves as tables break and balance)."""
    seat = Seat.objects.filter(entry=entry).order_by("-pk").values_list("table_id", flat=True)
    return seat.first()


def tournament_stats(*, player: Any, shared_with: Any | None = None) -> dict[str, Any]:
    """ROI and ITM (POKER_RULES' statistics) over ``player``'s finished tournaments, as
    ``{"value", "numerator", "denominator"}``; with ``shared_with``, only tournaments that
    member played too (what their own tracker would know)."""
    entries = Entry.objects.filter(user=player, tournament__status=Tournament.Status.FINISHED)
    if shared_with is not None:
        entries = entries.filter(
            tournament__in=Entry.objects.filter(user=shared_with).values("tournament")
        )
    # A re-entry is another entry of the same tournament: tournaments are counted once,
    # and every point paid in (buy-ins, rebuys, add-ons) and won (prizes, bounties).
    totals = entries.aggregate(
        played=Count("tournament", distinct=True),
        cashed=Count("tournament", filter=Q(prize__gt=0), distinct=True),
        paid=Sum("paid"),
        prizes=Sum("prize"),
        bounties=Sum("bounties_won"),
    )
    paid = totals["paid"] or 0
    won = (totals["prizes"] or 0) + (totals["bounties"] or 0)
    return {
        "roi": _ratio(won - paid, paid),
        "itm": _ratio(totals["cashed"], totals["played"]),
    }


def _ratio(numerator: int, denominator: int) -> dict[str, Any]:
    value = round(numerator / denominator * 100, 2) if denominator else None
    return {"value": value, "numerator": numerator, "denominator": denominator}


# --- how it ended for a player ---------------------------------------------------------


def place_text(entry: Entry, entrants: int, unit: str) -> str:
    """ "You finished 4th of 6: 210 points", or "You won the tournament! Prize: ..."."""
    if entry.place == 1:
        return f"You won the tournament! Prize: {entry.prize:,} {unit}."
    text = f"You finished {ordinal(entry.place or 0)} of {entrants}"
    return text + f": {entry.prize:,} {unit}" if entry.prize else text


def finish_text(tournament: Tournament, entry: Entry | None) -> str | None:
    """The tournament page's line for a member out of it, with what they were paid and
    from where: "You finished 1st of 6 and were paid 151 points: 101 from the deal,
    50 in bounties." None while they play on (or never played)."""
    if entry is None or entry.place is None:
        return None
    paid = paid_to(entry, accepted_deal(tournament))
    text = f"You finished {ordinal(entry.place)} of {tournament.entries.count()}"
    if not paid["paid"]:
        return text + "."
    text += f" and were paid {paid['paid']:,} {tournament.points_unit}"
    if paid["deal"] is None and not paid["bounties_won"]:
        return text + "."
    sources = [
        (paid["place_prize"], "for the place"),
        (paid["deal"] or 0, "from the deal"),
        (paid["bounties_won"], "in bounties"),
    ]
    return text + ": " + ", ".join(f"{n:,} {words}" for n, words in sources if n) + "."


def results_of(tournament: Tournament, user_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Each of these members who has a place: place, entrants, prize, the sentence and
    the tournament's page (the table page's ``your_result``)."""
    still_in = tournament.entries.filter(user_id__in=user_ids, place=None).values("user_id")
    placed = tournament.entries.filter(user_id__in=user_ids, place__isnull=False).exclude(
        user_id__in=still_in  # re-entered: playing on
    )
    entries = list(placed)
    if not entries:
        return {}
    entrants = tournament.entries.count()
    url = reverse("tournaments:tournament_detail", args=[tournament.pk])
    return {
        entry.user_id: {
            "place": entry.place,
            "entrants": entrants,
            "prize": entry.prize,
            "text": place_text(entry, entrants, tournament.points_unit),
            "url": url,
        }
        for entry in entries
        if entry.user_id is not None
    }
