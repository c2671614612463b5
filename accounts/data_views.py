"""The profile's "Your data": download a copy of it, or close the account for good
(accounts/data_export.py, accounts/closing.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from accounts import data_export, tasks
from accounts.closing import account_close
from accounts.forms import CloseAccountForm
from accounts.models import DataExport
from accounts.requests import client_address, signed_in_user


@login_required
@require_http_methods(["POST"])
def data_request(request: HttpRequest) -> HttpResponse:
    """Asks for a zip of the member's data, built by a worker."""
    try:
        export = data_export.export_request(user=signed_in_user(request))
    except data_export.ExportRefused as refused:
        messages.error(request, str(refused))
    else:
        tasks.queue_data_export(export.pk)  # the profile's "Your data" says how it goes
    return redirect(reverse("accounts:profile") + "#your-data")


@login_required
@require_http_methods(["GET"])
def data_status(request: HttpRequest) -> JsonResponse:
    """Where the member's latest export stands (the profile asks while it is prepared)."""
    export = signed_in_user(request).data_exports.first()
    body: dict[str, object] = {"status": export.status if export else None}
    if export is not None and export.status == DataExport.Status.READY:
        body["url"] = reverse("accounts:data_download", args=[export.key])
        body["expires_at"] = export.expires_at
    return JsonResponse(body, headers={"Cache-Control": "no-store"})


@login_required
@require_http_methods(["GET"])
def data_download(request: HttpRequest, key: str) -> FileResponse:
    """The zip, once, to its owner only: anyone else's key, a used or an expired link,
    is a 404 like a key that never was."""
    user = signed_in_user(request)
    try:
        handle = data_export.export_take(user=user, key=key)
    except data_export.ExportGone:
        raise Http404("No such download.") from None
    name = f"felt-data-{user.get_username()}-{timezone.localdate():%Y-%m-%d}.zip"
    response = FileResponse(handle, as_attachment=True, filename=name)
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def close(request: HttpRequest) -> HttpResponse:
    """Says what closing does; with the password (a guest: none), closes the account
    and logs this browser out (every other log-in of it ends with the account)."""
    user = signed_in_user(request)
    data = request.POST if request.method == "POST" else None  # a guest's is empty
    form = CloseAccountForm(data, user=user, ip=client_address(request))
    if request.method == "POST" and form.is_valid():
        account_close(user=user)
        logout(request)
        messages.success(request, "Your account is closed. Thank you for playing at Felt.")
        return redirect("lobby")
    status = 429 if form.has_error(NON_FIELD_ERRORS, "throttled") else 200
    return render(request, "accounts/close.html", {"form": form}, status=status)
