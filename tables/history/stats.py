"""Player statistics as SQL aggregates over the facts stored per hand.

One ``aggregate`` query counts every numerator and denominator of the tracker
table in docs/history.md; nothing is replayed. The facts
themselves are decided once, when the hand ends (tables/history/facts.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from operator import attrgetter
from typing import Any, Protocol

from django.db import connection
from django.db.models import Count, Q, QuerySet, Sum

from tables.models import HandPlayer, PlayerTotals
from tables.sql import column_name, table_name

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


# Every counter the stats are built from, declared once for the queries
# (``counter_aggregates``) and for a hand's rows counted in memory (``counters_of``):
# the rows with every flag named here set (none named: every row)...
COUNTED_WHERE: dict[str, tuple[str, ...]] = {
    "hands": (),
    "vpip_chances": ("vpip_chance",),
    "vpip": ("vpip", "vpip_chance"),
    "pfr": ("pfr", "vpip_chance"),
    "three_bet": ("three_bet",),
    "could_three_bet": ("could_three_bet",),
    "folded_to_three_bet": ("folded_to_three_bet",),
    "faced_three_bet": ("faced_three_bet",),
    "cbet": ("cbet",),
    "could_cbet": ("could_cbet",),
    "folded_to_cbet": ("folded_to_cbet",),
    "faced_cbet": ("faced_cbet",),
    "saw_flop": ("saw_flop",),
    "went_to_showdown": ("went_to_showdown",),
    "won_at_showdown": ("won_at_showdown",),
    "won_after_flop": ("saw_flop", "won_chips"),
}
# ...and the sums of these fields, each counter named after its field.
SUMMED = (
    "postflop_aggressive",
    "postflop_calls",
    "postflop_folds",
    "net",
    "net_bb",
    "allin_ev_bb",
)


def _count(flags: tuple[str, ...]) -> Count:
    # Counts user_id (never null in a member's rows), not id: then every column the
    # query reads is in the covering index (tables/models/hands.py) and PostgreSQL reads
    # only the index.
    if not flags:
        return Count("user")
    return Count("user", filter=Q(**dict.fromkeys(flags, True)))


def counter_aggregates() -> dict[str, Any]:
    counted = {name: _count(flags) for name, flags in COUNTED_WHERE.items()}
    return {**counted, **{name: Sum(name) for name in SUMMED}}


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


def _row_count(flags: tuple[str, ...]) -> Callable[[HandPlayer], int]:
    """What one row adds to a counter of ``COUNTED_WHERE``."""
    if not flags:
        return lambda row: 1
    if len(flags) == 1:
        flag = attrgetter(flags[0])
        return lambda row: int(flag(row))
    read = attrgetter(*flags)
    return lambda row: int(all(read(row)))


# Derived once, at import: a hand's end counts its rows with these. Reading the
# declarations at each row took 55 microseconds for a hand of six rows, these 27
# (a table written out by hand, 26).
ROW_COUNTS: dict[str, Callable[[HandPlayer], Any]] = {
    **{name: _row_count(flags) for name, flags in COUNTED_WHERE.items()},
    **{name: attrgetter(name) for name in SUMMED},
}


def counters_of(rows: Sequence[HandPlayer]) -> dict[int, dict[str, Any]]:
    """``counters_by_user`` counted from rows in memory, without a query (a hand's rows
    just written: tests/tables/test_stats_api.py compares the two)."""
    counters: dict[int, dict[str, Any]] = {}
    for row in rows:
        if row.user_id is None:
            continue
        totals = counters.setdefault(row.user_id, dict.fromkeys(ROW_COUNTS, 0))
        for name, count in ROW_COUNTS.items():
            totals[name] += count(row)
    return counters


def totals_add(rows: QuerySet[HandPlayer] | Sequence[HandPlayer]) -> None:
    """Add ``rows`` (a finished hand's, or a batch of hands' in a query) to their
    members' ``PlayerTotals``, in one statement.

    Members in id order, so two hands ending at once never wait on each other
    in opposite orders.
    """
    counters = counters_by_user(rows) if isinstance(rows, QuerySet) else counters_of(rows)
    if not counters:
        return
    users = sorted(counters)
    with connection.cursor() as cursor:
        cursor.execute(
            _totals_upsert(len(users)),
            [value for user in users for value in (user, *map(counters[user].get, ROW_COUNTS))],
        )


@cache
def _totals_upsert(rows: int) -> str:
    """``INSERT ... ON CONFLICT DO UPDATE`` adding ``rows`` members' counters to their
    totals (a new member's row made with them), written in SQL that SQLite and
    PostgreSQL both read. Built by the ORM it was one INSERT and one UPDATE per
    member, and compiling each UPDATE's "column + n" took longer than running it:
    about a third of a hand's end (docs/performance.md)."""
    table = table_name(PlayerTotals)
    user = column_name(PlayerTotals, "user")
    columns = [column_name(PlayerTotals, name) for name in ROW_COUNTS]
    placeholders = "(" + ", ".join(["%s"] * (len(columns) + 1)) + ")"
    added = ", ".join(f"{column} = {table}.{column} + excluded.{column}" for column in columns)
    return (
        f"INSERT INTO {table} ({user}, {', '.join(columns)}) "
        f"VALUES {', '.join([placeholders] * rows)} "
        f"ON CONFLICT ({user}) DO UPDATE SET {added}"
    )


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
