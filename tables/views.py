"""Table pages: open a friends' table, start a practice table, sit at a table.

(Hand histories have their own pages: tables/history_views.py.)

The pages only create tables (through tables.services) and serve the client;
everything that happens at the table goes over the websocket.
"""

import csv

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from accounts.requests import signed_in_user
from tables import kinds, selectors, services
from tables.errors import MembersOnly, TableNotFound
from tables.forms import NewTableForm, PracticeForm
from tables.models import DEPARTED_NAME, Table

# One click sends one of these as a chat line (the same message, rate limit and mutes).
QUICK_REACTIONS = ("nh", "gg", "ty", "gl", "wp", "lol")


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    form = NewTableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.table_create(owner=signed_in_user(request), **form.cleaned_data)
        except (services.BadTableSettings, services.TooManyTables) as error:
            form.add_error(None, error.message)
        else:
            return redirect("tables:table_detail", table_id=table.pk)
    return render(request, "tables/table_new.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def table_practice(request: HttpRequest) -> HttpResponse:
    form = PracticeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.table_create_practice(
                user=signed_in_user(request), bots=form.cleaned_data["bots"]
            )
        except services.TooManyTables as error:
            form.add_error(None, error.message)
        else:
            return redirect("tables:table_detail", table_id=table.pk)
    return render(request, "tables/table_practice.html", {"form": form})


@login_required
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    try:
        kinds.of(table).check_watch(table, request.user)  # a club's: its members only
    except MembersOnly as error:
        return render(
            request, "tournaments/members_only.html", {"message": error.message}, status=403
        )
    share_url = request.build_absolute_uri(request.path)
    runout_street_ms = round(settings.TABLES_RUNOUT_STREET_SECONDS * 1000)
    context = {
        "table": table,
        "share_url": share_url,
        "runout_street_ms": runout_street_ms,
        "reactions": QUICK_REACTIONS,
    }
    return render(request, "tables/table.html", context)


@login_required
@require_http_methods(["GET"])
def table_ledger_csv(request: HttpRequest, table_id: int) -> HttpResponse:
    """Every buy-in, rebuy and cash-out at a friends' table, for its owner and players."""
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
