"""A guard for admin pages over models that hold a secret.

Django's change list accepts a lookup on any of the model's own fields in the
query string, and on a related model's primary key, whether or not the page
shows that field. The count it answers ("1 result", "0 results") then reads a
hidden value one character at a time: ``?invite_token__regex=^a`` a club's
invitation token, ``?hand_events__icontains=As`` a live hand's cards.

A refusal is expected (a stale bookmark, a hand-edited address): it answers the
400 page and logs one warning line naming the lookup and the page, not the
value tried. Django's own handling logs it as a security error with the whole
traceback, which buried the log under refusals nobody needs to debug.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.exceptions import DisallowedModelAdminLookup
from django.http import HttpRequest, HttpResponse
from django.utils.log import log_response
from django.views.defaults import bad_request


class SidebarFiltersOnly(admin.ModelAdmin[Any]):
    """A change list filters by the sidebar's filters and nothing else: any other
    lookup is refused (Django answers 400), whatever its value."""

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        return lookup.split("__")[0] in self.filtered_fields() and super().lookup_allowed(
            lookup,
            value,
            request,  # type: ignore[arg-type]  # Django 5.2 passes the request; the stubs say 6.0's
        )

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        try:
            return super().changelist_view(request, extra_context)
        except DisallowedModelAdminLookup as refusal:
            response = bad_request(request, refusal)
            log_response(  # marks the response logged: Django adds no line of its own
                "Admin lookup refused (%s): %s",
                str(refusal),
                request.path,
                response=response,
                request=request,
            )
            return response

    def filtered_fields(self) -> set[str]:
        names: set[str] = set()
        for item in self.list_filter:
            if isinstance(item, str):
                names.add(item)
            elif isinstance(item, list | tuple):
                names.add(str(item[0]))
            else:  # a SimpleListFilter class
                names.add(getattr(item, "parameter_name", ""))
        return names
