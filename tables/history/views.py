"""Hand-history pages: the list of my hands, the replayer, a player's stats page.

They read through the same projections and filters as the API
(tables/history/projection.py, filters.py, stats.py): a page never shows a
card the viewer did not see at the table.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework import exceptions

from tables.history import projection
from tables.history.api import HEAVY_HAND_FIELDS, stats_for
from tables.history.facts import POSITION_CHOICES
from tables.history.filters import apply_filters, finished_rows, parse_filters
from tables.history.graph import winnings_svg
from tables.history.replay import replay_steps
from tables.history.stats import RATIOS
from tables.models import HandPlayer, Table

HANDS_PER_PAGE = 50
GRAPH_HANDS = 2000  # the graph draws a player's latest hands, up to this many
STAT_LABELS = {
    "vpip": "VPIP",
    "pfr": "PFR",
    "three_bet": "3-bet",
    "fold_to_three_bet": "Fold to 3-bet",
    "af": "AF",
    "afq": "AFq",
    "cbet": "C-bet (flop)",
    "fold_to_cbet": "Fold to c-bet",
    "wtsd": "WTSD",
    "wsd": "W$SD",
    "wwsf": "WWSF",
    "bb_per_100": "BB/100",
    "allin_ev_bb_per_100": "All-in EV BB/100",
}


def _filters_or_errors(request: HttpRequest) -> tuple[dict[str, Any], list[str]]:
    try:
        return parse_filters(request.GET), []
    except exceptions.ValidationError as error:
        detail = error.detail if isinstance(error.detail, dict) else {}
        return {}, [
            f"{name}: {' '.join(str(m) for m in problems)}" for name, problems in detail.items()
        ]


@login_required
def hand_history_list(request: HttpRequest) -> HttpResponse:
    """My finished hands, newest first, with the API's filters."""
    filters, errors = _filters_or_errors(request)
    rows = apply_filters(finished_rows(request.user), filters)
    rows = rows.select_related("hand", "hand__table").defer(*HEAVY_HAND_FIELDS)
    rows = rows.order_by("-started_at", "-id")
    page = Paginator(rows, HANDS_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "tables/hand_history_list.html",
        {
            "page": page,
            "errors": errors,
            "values": request.GET,
            "query": query.urlencode(),
            "kinds": Table.Kind.choices,
            "games": Table.Game.choices,
            "positions": POSITION_CHOICES,
            "has_any": finished_rows(request.user).exists(),
        },
    )


@login_required
def hand_replayer(request: HttpRequest, hand_id: int) -> HttpResponse:
    try:
        viewed = projection.hand_for_viewer(user=request.user, hand_id=hand_id)
    except projection.HandNotVisible:
        raise Http404("No finished hand with this id that you were dealt into.") from None
    detail = projection.hand_detail(viewed)
    return render(
        request,
        "tables/hand_replayer.html",
        {"hand": detail, "steps": replay_steps(viewed), "players": detail["players"]},
    )


@login_required
def player_page(request: HttpRequest, username: str) -> HttpResponse:
    """A member's stats and winnings graph, over the hands the viewer may count."""
    player = get_user_model().objects.filter(username=username, is_active=True).first()
    if player is None:
        raise Http404("No member with this username.")
    filters, errors = _filters_or_errors(request)
    user: Any = request.user
    summary = stats_for(user, player, filters)
    rows = finished_rows(player)
    if player.pk != user.pk and not user.is_staff:
        rows = rows.filter(hand_id__in=HandPlayer.objects.filter(user=user).values("hand_id"))
    rows = apply_filters(rows, filters)
    latest = list(rows.order_by("-started_at", "-id").values_list("net", "allin_ev")[:GRAPH_HANDS])
    latest.reverse()
    stats = [(STAT_LABELS[name], summary["stats"][name]) for name in RATIOS]
    return render(
        request,
        "tables/player.html",
        {
            "player": player,
            "summary": summary,
            "stats": stats,
            "errors": errors,
            "graph": winnings_svg([n for n, _ in latest], [e for _, e in latest]),
            "graph_hands": len(latest),
            "is_me": player.pk == user.pk,
            "games": Table.Game.choices,
            "game": filters.get("game"),
        },
    )
