"""Table pages: the lobby's open tables, open a friends' table, start a practice
table, sit at a table.

(Hand histories have their own pages: tables/history/views.py.)

The pages only create tables (through tables.services) and serve the client;
everything that happens at the table goes over the websocket.
"""

import csv

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts import throttling
from accounts.forms import GuestForm
from accounts.guests import guest_create, keep_signed_in
from accounts.requests import client_address, signed_in_user
from config.platform.domain_errors import add_to_form
from tables import kinds, links, selectors, services
from tables.errors import GuestsRefused, MembersOnly, NotHost, TableError, TableNotFound
from tables.forms import NewTableForm, PracticeForm
from tables.models import DEPARTED_NAME, Table

# One click sends one of these as a chat line (the same message, rate limit and mutes).
QUICK_REACTIONS = ("nh", "gg", "ty", "gl", "wp", "lol")


def lobby(request: HttpRequest) -> HttpResponse:
    """The tournament tables the member sits at, each with "Take your seat"; the
    friends' tables the member may see (listed ones, and their own), their own
    marked so that live news of a table taken off the list leaves it (lobby.js)."""
    open_tables = list(selectors.tables_with_free_seats(request.user))
    seated_at: list[Table] = []
    if request.user.is_authenticated:
        seated_at = list(selectors.tournament_tables_seated_at(signed_in_user(request)))
    mine: set[int] = set()
    if request.user.is_authenticated and open_tables:
        shown = [table.pk for table in open_tables]
        mine = set(
            selectors.tables_of(signed_in_user(request))
            .filter(pk__in=shown)
            .values_list("pk", flat=True)
        )
    context = {"open_tables": open_tables, "my_table_ids": mine, "seated_at": seated_at}
    return render(request, "lobby.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    form = NewTableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.table_create(owner=signed_in_user(request), **form.cleaned_data)
        except (services.BadTableSettings, services.TooManyTables) as error:
            add_to_form(form, error)
        else:  # its link, key and all, in the address bar and the Invite button
            return redirect(links.table_link(table))
    return render(request, "tables/table_new.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def table_practice(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    # The pace of the member's last practice table is offered again.
    form = PracticeForm(request.POST or None, initial={"pace": services.last_practice_pace(user)})
    if request.method == "POST" and form.is_valid():
        try:
            table = services.table_create_practice(
                user=user,
                bots=form.cleaned_data["bots"],
                game=form.cleaned_data["game"],
                pace=form.cleaned_data["pace"],
            )
        except services.TooManyTables as error:
            add_to_form(form, error)
        else:
            return redirect("tables:table_detail", table_id=table.pk)
    return render(request, "tables/table_practice.html", {"form": form})


def reachable_table(request: HttpRequest, table_id: int) -> Table:
    """The table, if this visitor may open it (``selectors.may_reach``); a 404 as for
    no table at all otherwise. Coming with the link's key is remembered in the
    session, for later visits, the socket and a guest made here."""
    table = get_object_or_404(Table, pk=table_id)
    if links.is_right_key(table, request.GET.get(links.KEY_PARAMETER)):
        links.admit(request.session, table)
    admitted = links.admitted_ids(request.session)
    if not selectors.may_reach(table, request.user, admitted=admitted):
        raise Http404("No table here.")
    return table


def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = reachable_table(request, table_id)
    if not request.user.is_authenticated:  # a friend with the link: a guest, or log in
        return _join_page(request, table, GuestForm()) or redirect_to_login(request.path)
    try:
        kinds.check_watch(table, request.user)  # a club's: its members; guests: friends'
    except GuestsRefused as error:
        return render(
            request, "accounts/guest_refused.html", {"message": error.message}, status=403
        )
    except MembersOnly as error:
        return render(
            request, "tournaments/members_only.html", {"message": error.message}, status=403
        )
    context = {
        "table": table,
        "share_url": _share_url(request, table),
        "reactions": QUICK_REACTIONS,
        "games": Table.Game.choices,
    }
    return render(request, "tables/table.html", context)


def _share_url(request: HttpRequest, table: Table) -> str | None:
    """The link the Invite button copies, key and all: for the table's players and
    staff, and for a visitor who came with the key as it is now. None for anyone
    let in by a key the host has since replaced (they stay, but learn no new key)."""
    if not kinds.of(table).is_by_link:
        return None
    user = signed_in_user(request)
    knows_key = user.is_staff or links.knows_current_key(request.session, table)
    if not knows_key and not selectors.tables_of(user).filter(pk=table.pk).exists():
        return None
    return request.build_absolute_uri(links.table_link(table))


def _join_page(
    request: HttpRequest, table: Table, form: GuestForm, status: int = 200
) -> HttpResponse | None:
    """The link's page for a visitor not signed in: join as a guest with a nickname, or
    log in or sign up; None where guests may not play (the log-in page, then)."""
    if not _admits_guests(table):
        return None
    context = {"table": table, "form": form, "next": request.path}
    return render(request, "tables/table_join.html", context, status=status)


def _admits_guests(table: Table) -> bool:
    return kinds.of(table).admits_guests and table.closed_at is None


@require_POST
def table_join_guest(request: HttpRequest, table_id: int) -> HttpResponse:
    """A guest account for the nickname, signed in in this browser, back to the table.

    Counted with sign-ups from the same address (accounts/throttling.py): a guest is an
    account like any other, and may become a member with the welcome grant."""
    table = reachable_table(request, table_id)
    if request.user.is_authenticated or not _admits_guests(table):
        return redirect("tables:table_detail", table_id=table.pk)
    form = GuestForm(request.POST)
    status = 400
    if form.is_valid():
        seconds = throttling.signup_seconds_refused(client_address(request))
        if seconds:
            form.add_error(None, throttling.signup_refused_message(seconds))
            status = 429
        else:
            try:
                guest = guest_create(nickname=form.cleaned_data["nickname"])
            except ValidationError as error:
                form.add_error("nickname", error)
            else:
                login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
                keep_signed_in(request)  # a year in this browser: its only way back in
                return redirect("tables:table_detail", table_id=table.pk)
    context = {"table": table, "form": form, "next": table_path(table)}
    return render(request, "tables/table_join.html", context, status=status)


def table_path(table: Table) -> str:
    return str(reverse("tables:table_detail", kwargs={"table_id": table.pk}))


@login_required
@require_POST
def table_new_link(request: HttpRequest, table_id: int) -> HttpResponse:
    """The host's "New link": a new key for the table, and the host back at its new
    link (to share). The old link lets nobody new in; whoever it let in stays."""
    try:
        services.table_new_invite_key(table_id=table_id, user=signed_in_user(request))
    except (NotHost, TableNotFound):
        raise Http404("No table here.") from None
    except TableError:  # the game has ended: nothing to invite anyone to
        return redirect("tables:table_detail", table_id=table_id)
    table = get_object_or_404(Table, pk=table_id)
    links.admit(request.session, table)  # the host's Invite button shows the new key
    return redirect(links.table_link(table))


@login_required
@require_http_methods(["GET"])
def table_ledger_csv(request: HttpRequest, table_id: int) -> HttpResponse:
    """Every chip movement at a friends' table (the host's corrections and transfers
    signed), for its owner and players."""
    try:
        movements = selectors.ledger_movements(table_id=table_id, user=signed_in_user(request))
    except TableNotFound:
        raise Http404("No ledger here for you.") from None
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="table-{table_id}-ledger.csv"'
    writer = csv.writer(response)
    writer.writerow(["at", "player", "kind", "amount"])
    for movement in movements:
        name = movement.user.public_name if movement.user else DEPARTED_NAME
        writer.writerow(
            [movement.created_at.isoformat(), _cell(name), movement.kind, movement.amount]
        )
    return response


def _cell(text: str) -> str:
    """A name a spreadsheet must not run as a formula (``=``, ``+``, ``-``, ``@``)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
