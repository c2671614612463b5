"""Club pages: my clubs (/clubs/: create one, join by link), a club's page (members,
tournaments, results, leaderboard; for admins the management forms), the invitation
link, and the forms admins and members post (through the club services)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_http_methods, require_POST

import engine
from accounts.models import PointsAccount
from accounts.requests import signed_in_user
from config.platform.domain_errors import add_to_form
from tournaments import level_rows
from tournaments.clubs import access, selectors, services
from tournaments.clubs.forms import (
    ClubForm,
    ClubScheduleForm,
    GrantAllForm,
    JoinByLinkForm,
    JoiningPointsForm,
    PointsAdjustmentForm,
    QuickStructureForm,
)
from tournaments.errors import TournamentError
from tournaments.leaderboard import SEASONS, club_leaderboard
from tournaments.models import Club, Membership, Tournament
from tournaments.selectors import playing_in

# What each button of a member's row does (the owner's role buttons among them).
MEMBER_ACTIONS = ("approve", "decline", "make_admin", "make_member", "remove", "ban")


@login_required
@require_http_methods(["GET", "POST"])
def club_list(request: HttpRequest) -> HttpResponse:
    """The member's clubs with their balance there, and the forms to create or join one."""
    form = ClubForm(request.POST if "create" in request.POST else None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(user=request.user, **form.cleaned_data)
        except TournamentError as error:
            add_to_form(form, error)
        else:
            messages.success(request, f"{club.name} is open: invite members with its link.")
            return redirect("clubs:detail", slug=club.slug)
    join_form = JoinByLinkForm(request.POST if "join" in request.POST else None)
    if request.method == "POST" and join_form.is_valid():
        slug, token = join_form.cleaned_data["link"]
        return redirect("clubs:join", slug=slug, token=token)
    user = signed_in_user(request)
    memberships = user.club_memberships.select_related("club").order_by("club__name")
    balances = dict(PointsAccount.objects.filter(user=user).values_list("scope", "balance"))
    shown = [m for m in memberships if m.status != Membership.Status.BANNED]
    upcoming = Tournament.objects.filter(
        club__in=[m.club_id for m in shown if m.status == Membership.Status.ACTIVE],
        status=Tournament.Status.REGISTERING,
    ).order_by("-starts_at")
    soonest = {t.club_id: t for t in upcoming}  # the soonest comes last, and stays
    clubs = [
        {
            "club": m.club,
            "membership": m,
            "balance": int(balances.get(m.club.scope, 0)),
            "next": soonest.get(m.club_id),
        }
        for m in shown
    ]
    context = {"clubs": clubs, "form": form, "join_form": join_form}
    return render(request, "tournaments/club_list.html", context)


def _club(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404("There is no such club.")
    return club


@login_required
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    membership = access.membership_of(club, request.user)
    if membership is None or membership.status != Membership.Status.ACTIVE:
        outside = {"club": club, "membership": membership}
        return render(request, "tournaments/club_outside.html", outside, status=403)
    now = timezone.now()
    members = selectors.club_members(club, membership)
    season = request.GET.get("season", "all")
    if season not in SEASONS:
        season = "all"
    context: dict[str, Any] = {
        "club": club,
        "membership": membership,
        "members": members,
        "tournaments": selectors.club_tournaments(club, now),
        "series": selectors.club_series(club),
        "season": season,
        "seasons": SEASONS,
        "leaderboard": club_leaderboard(club=club, season=season, now=now),
        "registered": set(
            signed_in_user(request)
            .tournament_entries.filter(tournament__club=club)
            .values_list("tournament_id", flat=True)
        ),
        "playing": playing_in(request.user),
    }
    if membership.is_admin:
        context |= {
            "pending": selectors.club_waiting(club, Membership.Status.PENDING),
            "banned": selectors.club_waiting(club, Membership.Status.BANNED),
            "points_form": PointsAdjustmentForm(usernames=[m["username"] for m in members]),
            "grant_form": GrantAllForm(prefix="grant"),
            "joining_form": JoiningPointsForm(
                prefix="joining", initial={"amount": club.joining_points}
            ),
            "invite_url": request.build_absolute_uri(_invitation_path(club)),
        }
    return render(request, "tournaments/club_detail.html", context)


def _invitation_path(club: Club) -> str:
    return reverse("clubs:join", kwargs={"slug": club.slug, "token": club.invite_token})


@require_http_methods(["GET", "POST"])
def club_join(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The invitation link: a page that names the club and who invited, and asks first
    (a GET never joins anyone). Someone signed out signs up or logs in from it and comes
    back to it; a link that no longer works says so, naming nobody."""
    club = _club(slug)
    is_valid = constant_time_compare(token, club.invite_token)
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect(f"{reverse('accounts:login')}?next={request.path}")
        return _invitation_page(request, club, None, is_valid)
    if request.method == "POST":
        try:
            services.club_join(slug=slug, user=request.user, token=token)
        except TournamentError as error:
            messages.error(request, error.message)
            return redirect("clubs:list")
        messages.success(request, f"Welcome to {club.name}.")
        return redirect("clubs:detail", slug=slug)
    return _invitation_page(request, club, access.membership_of(club, request.user), is_valid)


def _invitation_page(
    request: HttpRequest, club: Club, membership: Membership | None, is_valid: bool
) -> HttpResponse:
    context: dict[str, Any] = {"club": club, "membership": membership, "is_valid": is_valid}
    if is_valid:
        context |= {
            "inviter": selectors.club_inviter(club),
            "member_count": club.memberships.filter(status=Membership.Status.ACTIVE).count(),
            "next": request.path,  # the page's own Log in and Sign up come back here
        }
    status = 200 if is_valid else 404
    return render(request, "tournaments/club_join.html", context, status=status)


def _run(request: HttpRequest, slug: str, done: str, action: object, **kwargs: object) -> None:
    """Run one club service and say how it went (its refusal's sentence, or ``done``)."""
    try:
        action(slug=slug, **kwargs)  # type: ignore[operator]
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)


@login_required
@require_POST
def club_ask(request: HttpRequest, slug: str) -> HttpResponse:
    _run(
        request,
        slug,
        "You asked to join: an admin will answer.",
        services.club_ask,
        user=request.user,
    )
    return redirect("clubs:detail", slug=slug)


@login_required
@require_POST
def club_leave(request: HttpRequest, slug: str) -> HttpResponse:
    _run(request, slug, "You left the club.", services.club_leave, user=request.user)
    return redirect("clubs:list")


@login_required
@require_POST
def club_member(request: HttpRequest, slug: str, username: str) -> HttpResponse:
    """An admin's button on a member's row (or a request to join)."""
    action, admin = request.POST.get("action"), request.user
    if action in ("approve", "decline"):
        is_approved = action == "approve"
        done = f"{username} is a member now." if is_approved else "Request declined."
        _run(
            request,
            slug,
            done,
            services.club_answer,
            admin=admin,
            username=username,
            is_approved=is_approved,
        )
    elif action in ("make_admin", "make_member"):
        role = action.removeprefix("make_")
        _run(
            request,
            slug,
            f"{username} is now {role}.",
            services.club_set_role,
            owner=admin,
            username=username,
            role=role,
        )
    elif action in ("remove", "ban"):
        done = f"{username} was {'banned' if action == 'ban' else 'removed'}."
        _run(
            request,
            slug,
            done,
            services.club_remove,
            admin=admin,
            username=username,
            is_banned=action == "ban",
        )
    else:
        messages.error(request, "Unknown action.")
    return redirect("clubs:detail", slug=slug)


@login_required
@require_POST
def club_points(request: HttpRequest, slug: str) -> HttpResponse:
    members = Membership.objects.filter(club__slug=slug, status=Membership.Status.ACTIVE)
    usernames = list(members.values_list("user__username", flat=True))
    form = PointsAdjustmentForm(request.POST, usernames=usernames)
    if not form.is_valid():
        field, problems = next(iter(form.errors.items()))
        messages.error(request, f"{field}: {problems[0]}")
    else:
        data = form.cleaned_data
        done = f"{data['amount']:+,} club points for {data['username']}: {data['reason']}"
        _run(request, slug, done, services.club_points_adjust, admin=request.user, **data)
    return redirect("clubs:detail", slug=slug)


@login_required
@require_POST
def club_grant(request: HttpRequest, slug: str) -> HttpResponse:
    """An admin's grant of the same club points to every member, in one transaction."""
    form = GrantAllForm(request.POST, prefix="grant")
    if not form.is_valid():
        field, problems = next(iter(form.errors.items()))
        messages.error(request, f"{form.fields[field].label or field.title()}: {problems[0]}")
        return redirect("clubs:detail", slug=slug)
    data = form.cleaned_data
    try:
        given = services.club_points_grant_all(slug=slug, admin=request.user, **data)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        members = "member" if len(given) == 1 else "members"
        messages.success(
            request,
            f"{data['amount']:,} club points each for {len(given)} {members}: {data['reason']}",
        )
    return redirect("clubs:detail", slug=slug)


@login_required
@require_POST
def club_joining_points(request: HttpRequest, slug: str) -> HttpResponse:
    form = JoiningPointsForm(request.POST, prefix="joining")
    if not form.is_valid():
        messages.error(request, f"Points given on joining: {form.errors['amount'][0]}")
        return redirect("clubs:detail", slug=slug)
    amount = form.cleaned_data["amount"]
    done = (
        f"New members are given {amount:,} club points when they join."
        if amount
        else "New members are given no club points when they join."
    )
    _run(request, slug, done, services.club_joining_points_set, admin=request.user, amount=amount)
    return redirect("clubs:detail", slug=slug)


@login_required
@require_POST
def club_invitation_reset(request: HttpRequest, slug: str) -> HttpResponse:
    done = "A new invitation link: the old one no longer works."
    _run(request, slug, done, services.club_reset_invitation, admin=request.user)
    return redirect("clubs:detail", slug=slug)


@login_required
@require_POST
def club_series_stop(request: HttpRequest, slug: str, series_id: int) -> HttpResponse:
    done = "It stops repeating: the game already listed still runs."
    _run(request, slug, done, services.club_series_stop, admin=request.user, series_id=series_id)
    return redirect("clubs:detail", slug=slug)


@login_required
@require_http_methods(["GET", "POST"])
def club_schedule(request: HttpRequest, slug: str) -> HttpResponse:
    """An admin schedules a tournament of the club. A preset button, and the quick
    structure's "Fill the levels", post too: they put levels into the rows, scheduling
    nothing (with the page's script the presets load in place)."""
    club = _club(slug)
    try:
        access.require_admin(club, request.user)
    except TournamentError as error:
        refused = {"club": club, "message": error.message}
        return render(request, "tournaments/members_only.html", refused, status=403)
    preset = request.POST.get("preset")
    quick = QuickStructureForm(request.POST if "quick" in request.POST else None)
    filled = ""
    if preset in engine.STRUCTURES:
        stack = engine.STRUCTURES[preset].starting_stack
        form = _refilled(request, slug, level_rows.preset_rows(preset), preset, stack)
    elif quick.is_bound:
        form, filled = _quick_filled(request, slug, quick)
    else:
        form = ClubScheduleForm(request.POST or None, club_slug=slug, admin=request.user)
        if request.method == "POST" and form.is_valid():
            try:
                tournament = services.club_tournament_schedule(
                    slug=slug,
                    admin=request.user,
                    settings=form.settings,
                    every_days=form.every_days,
                    time_zone=form.zone_name,
                )
            except TournamentError as error:
                form.refused(error)
            else:
                messages.success(request, _scheduled(tournament))
                return redirect("tournaments:tournament_detail", tournament_id=tournament.pk)
        quick = QuickStructureForm(initial=_posted(request, QuickStructureForm))
    balances = selectors.club_balances(club)
    context = {
        "club": club,
        "balances": balances,
        "afford_line": afford_line(balances, _buy_in_shown(form)),
        "form": form,
        "quick": quick,
        "filled": filled,
        "rows": level_rows.shown(form.rows),
        "blank_level": level_rows.Row(),
        "blank_break": level_rows.Row("break", minutes=str(level_rows.DEFAULT_BREAK_MINUTES)),
        "presets": level_rows.presets(),
    }
    return render(request, "tournaments/club_schedule.html", context)


def _quick_filled(
    request: HttpRequest, slug: str, quick: QuickStructureForm
) -> tuple[ClubScheduleForm, str]:
    """The form as posted with the quick structure's levels in its rows, and a line
    saying so; the rows as posted when a choice is refused (marked on the choice)."""
    structure = request.POST.get("structure", "regular")
    if not quick.is_valid():
        rows = level_rows.posted_rows(request.POST) or level_rows.preset_rows("regular")
        stack = request.POST.get("starting_stack", "")
        return _refilled(request, slug, rows, structure, stack), ""
    rows = level_rows.quick_rows(quick.structure())
    stack = quick.cleaned_data["starting_stack"]
    filled = f"{sum(not row.is_break for row in rows)} levels filled in: edit any row below."
    return _refilled(request, slug, rows, structure, stack), filled


def _scheduled(tournament: Tournament) -> str:
    said = f"{tournament.title} is scheduled: members may register."
    if tournament.series is not None:
        said += f" It repeats ({tournament.series.repeats.lower()}) until you stop it."
    return said


def _posted(request: HttpRequest, form_class: Any) -> dict[str, Any]:
    """A form's values as posted, to show again in a form that is not checked."""
    prefix = f"{form_class.prefix}-" if form_class.prefix else ""
    posted = request.POST
    return {n: posted[prefix + n] for n in form_class.base_fields if prefix + n in posted}


def _refilled(
    request: HttpRequest, slug: str, rows: list[level_rows.Row], structure: str, stack: Any
) -> ClubScheduleForm:
    """The form as posted (not checked: nothing is scheduled) with other level rows."""
    initial = _posted(request, ClubScheduleForm) | {"structure": structure, "starting_stack": stack}
    return ClubScheduleForm(initial=initial, club_slug=slug, admin=request.user, rows=rows)


def _buy_in_shown(form: ClubScheduleForm) -> int:
    """The buy-in the form holds now (as typed, or its initial), for the line that says
    how many members can afford it; 0 when it is not a whole number yet."""
    value = form["buy_in"].value()
    try:
        return max(0, int(value)) if value not in (None, "") else 0
    except (TypeError, ValueError):
        return 0


def afford_line(balances: list[int], buy_in: int) -> str:
    """How many members hold the buy-in in club points (static/js/affordability.js says
    the same as the buy-in is typed)."""
    count = len(balances)
    members = f"{count} member{'' if count == 1 else 's'}"
    if buy_in == 0:
        return f"A freeroll: every member can register ({members})."
    able = sum(1 for balance in balances if balance >= buy_in)
    verb = "has" if able == 1 else "have"
    return f"{able} of {members} {verb} the {buy_in:,} club points this buy-in takes."
