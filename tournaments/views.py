"""Tournament pages: the lobby (/tournaments/), one tournament, and the forms that
register, unregister or start a practice SNG (through tournaments.services).

What changes afterwards reaches the pages over the lobby websocket
(static/js/tournaments.js), without a reload.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.points import points_balance
from tournaments import selectors, services
from tournaments.clubs import access as club_access
from tournaments.errors import TournamentError
from tournaments.models import Club, Entry, Tournament

RECENT_SHOWN = 10


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Open SNGs by structure and buy-in, running ones, and the latest finished (with the
    member's clubs' tournaments)."""
    now = timezone.now()
    viewer = request.user
    mine = set()
    if request.user.is_authenticated:
        mine = set(
            request.user.tournament_entries.filter(tournament__status="registering").values_list(
                "tournament_id", flat=True
            )
        )
    open_sngs = [
        {**selectors.summary(t, now), "is_registered": t.pk in mine}
        for t in selectors.tournaments_list(status=Tournament.Status.REGISTERING, viewer=viewer)
    ]
    playing = selectors.playing_in(viewer)
    running = [
        {**selectors.summary(t, now), "is_playing": t.pk in playing}
        for t in selectors.tournaments_list(status=Tournament.Status.RUNNING, viewer=viewer)
    ]
    finished = [
        selectors.summary(t, now)
        for t in selectors.tournaments_list(status=Tournament.Status.FINISHED, viewer=viewer)[
            :RECENT_SHOWN
        ]
    ]
    return render(
        request,
        "tournaments/tournament_list.html",
        {"open_sngs": open_sngs, "running": running, "finished": finished},
    )


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    if tournament is None:
        raise Http404("There is no such tournament.")
    try:
        club_access.check_can_see(tournament, request.user)
    except TournamentError as error:
        refused = {"club": tournament.club, "message": error.message}
        return render(request, "tournaments/members_only.html", refused, status=403)
    now = timezone.now()
    entry = selectors.entry_of(tournament, request.user)
    context = {
        "tournament": tournament,
        "summary": selectors.summary(tournament, now),
        "levels": selectors.structure_levels(tournament, now),
        "players": selectors.players(tournament),
        "entry": entry,
        "your_result": selectors.finish_text(tournament, entry),
        "table_id": _table_of(tournament, entry),
        "is_in_play": _is_in_play(tournament, entry),
        "form_action": _form_action(request, tournament, entry, now),
    }
    return render(request, "tournaments/tournament_detail.html", context)


def tournament_seat(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """ "Take your seat": the table the member sits at now, however often they were moved
    since the page with the button was drawn; the tournament's page for anyone else."""
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    if tournament is None:
        raise Http404("There is no such tournament.")
    entry = selectors.entry_of(tournament, request.user)
    table_id = None if entry is None or entry.place is not None else selectors.seat_table_of(entry)
    if table_id is None:
        return redirect("tournaments:tournament_detail", tournament_id=tournament.pk)
    return redirect("tables:table_detail", table_id=table_id)


@login_required
@require_POST
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        tournament = services.tournament_register(tournament_id=tournament_id, user=request.user)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        balance = points_balance(user=request.user, scope=tournament.points_scope)
        unit = tournament.points_unit
        messages.success(request, f"You are registered. You have {balance:,} {unit} left.")
    return redirect(_back(request, tournament_id))


@login_required
@require_POST
def tournament_unregister(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        services.tournament_unregister(tournament_id=tournament_id, user=request.user)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "You are unregistered and your buy-in was refunded.")
    return redirect(_back(request, tournament_id))


@login_required
@require_POST
def practice_start(request: HttpRequest) -> HttpResponse:
    """One click: a freeroll against five bots, seated and dealt at once."""
    _, table = services.practice_sng_start(user=request.user)
    return redirect("tables:table_detail", table_id=table.pk)


def _form_action(
    request: HttpRequest, tournament: Tournament, entry: Entry | None, now: datetime
) -> str | None:
    """What the page's button does: "register", "unregister" (before the start),
    "reenter" (out of a tournament with re-entries, in late registration), or None."""
    if not request.user.is_authenticated or not selectors.can_register(tournament, now):
        return None
    if entry is None:
        return "register"
    if entry.place is not None and tournament.max_reentries:  # out of it: may enter again
        return "reenter"
    return "unregister" if tournament.status == Tournament.Status.REGISTERING else None


def _is_in_play(tournament: Tournament, entry: Entry | None) -> bool:
    """Registered and not out of it, in a tournament that has not ended: the page's
    first button is "Take your seat" (shown once it is running)."""
    live = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)
    return entry is not None and entry.place is None and tournament.status in live


def _table_of(tournament: Tournament, entry: Entry | None) -> int | None:
    """The table to link to: the member's own while they play, else the first."""
    tables = tournament.tables.order_by("pk")
    if entry is not None and entry.place is None:
        mine = tables.filter(seats__entry=entry).values_list("pk", flat=True).first()
        if mine is not None:
            return mine
    return tables.filter(seats__stack__gt=0).values_list("pk", flat=True).first() or (
        tables.values_list("pk", flat=True).last()
    )


def _back(request: HttpRequest, tournament_id: int) -> str:
    """Back to the page the form was on: the lobby, the tournament's own page, or its
    club's page."""
    wanted = request.POST.get("next", "")
    if wanted == "detail":
        return f"/tournaments/{tournament_id}/"
    if wanted.startswith("club:") and Club.objects.filter(slug=wanted[5:]).exists():
        return reverse("clubs:detail", args=[wanted[5:]])
    return "/tournaments/"
