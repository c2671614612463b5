"""Player statistics as SQL aggregates over the facts stored per hand.

One ``aggregate`` query counts every numerator and denominator of the tracker
table in docs/history.md; nothing is replayed. The facts
themselves are decided once, when the hand ends (tables/history/facts.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from django.db.models import Count, F, Q, QuerySet, Sum

from tables.models import HandPlayer, PlayerTotals

# name: (numerator, denominator), each a key of the aggregate below.
RATIOS = {
    "vpip": ("vpip", "vpip_chances"),
    "pfr": ("pfr", "vpip_chances"),
    "three_bet": ("three_bet", "could_three_bet"),
    "fold_to_three_bet": ("folded_to_three_bet", "faced_three_bet"),
    "af": ("postflop_aggressive", "postflop_calls"),
    "afq": ("postflop_aggressive", "postflop_actions"),
    "cbet": ("cbet", "could_cbet"),
    "fold_to_cbet": ("folded_to_cbet", "faced_cbet"),
    "wtsd": ("went_to_showdown", "saw_flop"),
    "wsd": ("won_at_showdown", "went_to_showdown"),
    "wwsf": ("won_after_flop", "saw_flop"),
    "bb_per_100": ("net_bb", "hands"),
    "allin_ev_bb_per_100": ("allin_ev_bb", "hands"),
}
PERCENT = {"vpip", "pfr", "three_bet", "fold_to_three_bet", "afq", "cbet", "fold_to_cbet"}
PERCENT |= {"wtsd", "wsd", "wwsf"}
PER_100 = {"bb_per_100", "allin_ev_bb_per_100"}


def _count(condition: Q) -> Count:
    # Counts user_id (never null in a member's rows), not id: then every column the
    # query reads is in the covering index (tables/models/hands.py) and PostgreSQL reads
    # only the index.
    return Count("user", filter=condition)


def counter_aggregates() -> dict[str, Any]:
    return {
        "hands": Count("user"),
        "vpip_chances": _count(Q(vpip_chance=True)),
        "vpip": _count(Q(vpip=True, vpip_chance=True)),
        "pfr": _count(Q(pfr=True, vpip_chance=True)),
        "three_bet": _count(Q(three_bet=True)),
        "could_three_bet": _count(Q(could_three_bet=True)),
        "folded_to_three_bet": _count(Q(folded_to_three_bet=True)),
        "faced_three_bet": _count(Q(faced_three_bet=True)),
        "postflop_aggressive": Sum("postflop_aggressive"),
        "postflop_calls": Sum("postflop_calls"),
        "postflop_folds": Sum("postflop_folds"),
        "cbet": _count(Q(cbet=True)),
        "could_cbet": _count(Q(could_cbet=True)),
        "folded_to_cbet": _count(Q(folded_to_cbet=True)),
        "faced_cbet": _count(Q(faced_cbet=True)),
        "saw_flop": _count(Q(saw_flop=True)),
        "went_to_showdown": _count(Q(went_to_showdown=True)),
        "won_at_showdown": _count(Q(won_at_showdown=True)),
        "won_after_flop": _count(Q(saw_flop=True, won_chips=True)),
        "net": Sum("net"),
        "net_bb": Sum("net_bb"),
        "allin_ev_bb": Sum("allin_ev_bb"),
    }


# Aliases get a prefix: an aggregate may not share a name with a field it reads.
PREFIX = "n_"


def summed_counters(rows: QuerySet[HandPlayer]) -> dict[str, Any]:
    """Every counter the stats need, summed over ``rows`` in one query."""
    summed = rows.aggregate(**{PREFIX + key: value for key, value in counter_aggregates().items()})
    return {key.removeprefix(PREFIX): value or 0 for key, value in summed.items()}


def counters_by_user(rows: QuerySet[HandPlayer]) -> dict[int, dict[str, Any]]:
    """``summed_counters`` per member, in one grouped query (for ``PlayerTotals``)."""
    grouped = (
        rows.filter(user__isnull=False)
        .order_by()
        .values("user_id")
        .annotate(**{PREFIX + key: value for key, value in counter_aggregates().items()})
    )
    return {
        row["user_id"]: {k.removeprefix(PREFIX): v or 0 for k, v in row.items() if k != "user_id"}
        for row in grouped
    }


# What one row adds to each counter of ``counter_aggregates``, under the same
# conditions: a hand's rows just written are counted as they are in memory
# (``counters_of``) rather than read back (tests/tables/test_stats_api.py compares them).
ROW_COUNTS: dict[str, Callable[[HandPlayer], Any]] = {
    "hands": lambda row: 1,
    "vpip_chances": lambda row: int(row.vpip_chance),
    "vpip": lambda row: int(row.vpip and row.vpip_chance),
    "pfr": lambda row: int(row.pfr and row.vpip_chance),
    "three_bet": lambda row: int(row.three_bet),
    "could_three_bet": lambda row: int(row.could_three_bet),
    "folded_to_three_bet": lambda row: int(row.folded_to_three_bet),
    "faced_three_bet": lambda row: int(row.faced_three_bet),
    "postflop_aggressive": lambda row: row.postflop_aggressive,
    "postflop_calls": lambda row: row.postflop_calls,
    "postflop_folds": lambda row: row.postflop_folds,
    "cbet": lambda row: int(row.cbet),
    "could_cbet": lambda row: int(row.could_cbet),
    "folded_to_cbet": lambda row: int(row.folded_to_cbet),
    "faced_cbet": lambda row: int(row.faced_cbet),
    "saw_flop": lambda row: int(row.saw_flop),
    "went_to_showdown": lambda row: int(row.went_to_showdown),
    "won_at_showdown": lambda row: int(row.won_at_showdown),
    "won_after_flop": lambda row: int(row.saw_flop and row.won_chips),
    "net": lambda row: row.net,
    "net_bb": lambda row: row.net_bb,
    "allin_ev_bb": lambda row: row.allin_ev_bb,
}


def counters_of(rows: Sequence[HandPlayer]) -> dict[int, dict[str, Any]]:
    """``counters_by_user`` counted from rows in memory, without a query."""
    counters: dict[int, dict[str, Any]] = {}
    for row in rows:
        if row.user_id is None:
            continue
        totals = counters.setdefault(row.user_id, dict.fromkeys(ROW_COUNTS, 0))
        for key, count in ROW_COUNTS.items():
            totals[key] += count(row)
    return counters


def totals_add(rows: QuerySet[HandPlayer] | Sequence[HandPlayer]) -> None:
    """Add ``rows`` (a finished hand's, or a batch of hands' in a query) to their
    members' ``PlayerTotals``.

    Members in id order, so two hands ending at once never wait on each other
    in opposite orders.
    """
    counters = counters_by_user(rows) if isinstance(rows, QuerySet) else counters_of(rows)
    PlayerTotals.objects.bulk_create(
        [PlayerTotals(user_id=user_id) for user_id in sorted(counters)], ignore_conflicts=True
    )
    for user_id in sorted(counters):
        # Most counters of one hand are 0, and building each "column + n" costs more
        # than the UPDATE itself; ``hands`` is never 0, so something is always set.
        added = {key: F(key) + value for key, value in counters[user_id].items() if value}
        PlayerTotals.objects.filter(user_id=user_id).update(**added)


def totals_of(user: Any) -> dict[str, Any]:
    """A member's counters over all their hands, from their ``PlayerTotals`` row."""
    row = PlayerTotals.objects.filter(user=user).values(*counter_aggregates()).first()
    return row or dict.fromkeys(counter_aggregates(), 0)


def player_stats(rows: QuerySet[HandPlayer] | dict[str, Any]) -> dict[str, Any]:
    """Every stat as ``{"value", "numerator", "denominator"}``; value null without a chance.

    ``rows`` are the hands to count, or their counters already summed
    (``totals_of``). Percentages are 0-100; AF is a plain ratio; BB/100 are
    big blinds won per 100 hands (numerator in big blinds).
    """
    totals = dict(rows) if isinstance(rows, dict) else summed_counters(rows)
    totals["postflop_actions"] = (
        totals["postflop_aggressive"] + totals["postflop_calls"] + totals["postflop_folds"]
    )
    stats = {}
    for name, (top, bottom) in RATIOS.items():
        numerator, denominator = totals[top], totals[bottom]
        value = None
        if denominator:
            scale = 100 if name in PERCENT | PER_100 else 1
            value = round(numerator / denominator * scale, 2)
        if isinstance(numerator, float):
            numerator = round(numerator, 2)
        stats[name] = {"value": value, "numerator": numerator, "denominator": denominator}
    return {"hands": totals["hands"], "net": totals["net"], "stats": stats}


class StatsContributor(Protocol):
    """Stats counted from something other than the hands, by name, each
    ``{"value", "numerator", "denominator"}``: over ``player``'s games, or with
    ``shared_with`` only those that member played too."""

    def __call__(self, *, player: Any, shared_with: Any | None) -> dict[str, Any]: ...


# Filled by the apps above tables when they are ready (the tournaments' ROI and ITM:
# ``TournamentsConfig.ready``), so tables never imports them.
_contributors: list[StatsContributor] = []


def register_contributor(contributor: StatsContributor) -> None:
    if contributor not in _contributors:
        _contributors.append(contributor)


def contributed_stats(*, player: Any, shared_with: Any | None) -> dict[str, Any]:
    """Every registered contributor's stats for ``player``, in registration order."""
    stats: dict[str, Any] = {}
    for contributor in _contributors:
        stats.update(contributor(player=player, shared_with=shared_with))
    return stats
