"""Table pages: open a friends' table, start a practice table, sit at a table.

(Hand histories have their own pages: tables/history_views.py.)

The pages only create tables (through tables.services) and serve the client;
everything that happens at the table goes over the websocket.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from accounts.requests import signed_in_user
from tables import services
from tables.forms import NewTableForm, PracticeForm
from tables.models import Table


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
    share_url = request.build_absolute_uri(request.path)
    return render(request, "tables/table.html", {"table": table, "share_url": share_url})
