from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import UserChangeForm as DjangoUserChangeForm
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from accounts import points
from accounts.closing import account_close
from accounts.models import ApiToken, PointsAccount, PointsEntry, User
from accounts.names import check_display_name
from accounts.release import account_release
from accounts.sessions import session_changed
from config.platform.admin_lookups import SidebarFiltersOnly

MOST_POINTS_GRANTED = 1_000_000


class GrantPointsForm(forms.Form):
    amount = forms.IntegerField(
        min_value=1,
        max_value=MOST_POINTS_GRANTED,
        help_text="Site points added to each selected member's balance, as a ledger row.",
    )


class UserChangeForm(DjangoUserChangeForm[User]):
    """Staff may rename a member, to a name the rules let a member take
    (accounts/names.py), not one the database would refuse."""

    def clean_display_name(self) -> str:
        return check_display_name(self.cleaned_data["display_name"], self.instance)


@admin.register(User)
class UserAdmin(SidebarFiltersOnly, DjangoUserAdmin[User]):
    """Members: the query string filters only as the sidebar does (the password hash
    and the API tokens are never a lookup; config/platform/admin_lookups.py)."""

    form = UserChangeForm
    list_display = ("username", "display_name", "email", "is_guest", "is_staff", "date_joined")
    list_filter = (*DjangoUserAdmin.list_filter, "is_guest")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        ("Felt", {"fields": ("display_name", "is_guest")}),
        # Only the member's own click on a mailed link confirms an address.
        ("Address", {"fields": ("confirmed_email", "email_confirmed_at")}),
    )
    actions = ["grant_points"]
    # A guest becomes a member by saving its own account.
    readonly_fields = ("is_guest", "confirmed_email", "email_confirmed_at")

    @admin.action(description="Grant site points to the selected members")
    def grant_points(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        """First a page asking how many; then one ledger row each, all or none."""
        form = GrantPointsForm(request.POST if "amount" in request.POST else None)
        if not form.is_valid():
            context = {
                **self.admin_site.each_context(request),
                "title": "Grant points",
                "form": form,
                "members": queryset.order_by("username"),
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            }
            return TemplateResponse(request, "admin/accounts/grant_points.html", context)
        amount = form.cleaned_data["amount"]
        members = queryset.filter(is_guest=False)  # guests hold no points (accounts/guests.py)
        with transaction.atomic():
            for member in members.order_by("pk"):
                points.points_move(user=member, amount=amount, reason=PointsEntry.Reason.GRANT)
        count = members.count()
        self.message_user(
            request, f"Granted {amount:,} points to {count} member(s).", messages.SUCCESS
        )
        guests = queryset.filter(is_guest=True).count()
        if guests:
            self.message_user(
                request, f"Skipped {guests} guest(s): guests hold no points.", messages.WARNING
            )
        return None

    # A member deleted or deactivated here first lets go of what they hold in play
    # (accounts/release.py): they leave their tables the way a player leaving does,
    # so every table they sat at plays on, hand on the tables they host and the clubs
    # they own, and their registrations to tournaments not yet started are refunded.
    # Their open sockets are told to check their log-in, and close.
    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        if change and not obj.is_active:
            account_release(user=obj)
        super().save_model(request, obj, form, change)
        if change:
            session_changed(obj.pk)

    def user_change_password(self, request: HttpRequest, id: str, form_url: str = "") -> Any:
        response = super().user_change_password(request, id, form_url)
        if request.method == "POST" and response.status_code == 302:  # changed
            session_changed(int(id))
        return response

    # Staff deleting a member close the account as the member closing it would
    # (accounts/closing.py): what they hold is released, every log-in ends, and the
    # names others keep of them (hand histories, tournament results) become the
    # anonymous label, so no deletion leaves the member's name behind.
    def delete_model(self, request: HttpRequest, obj: User) -> None:
        account_close(user=obj)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """What deleting ``objs`` takes with it, and the permissions it lacks. Staff
        may delete no points account on its own (PointsAccountAdmin), but a member's
        go with the member; their ledger rows stay, with no member (SET_NULL)."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        perms_needed.discard(PointsAccount._meta.verbose_name)
        return deleted, counts, perms_needed, protected

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset:
            account_close(user=user)


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    """The ledger is append-only: points move through accounts.points, never by hand."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PointsEntry)
class PointsEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "user",
        "scope",
        "amount",
        "balance_after",
        "reason",
        "tournament",
        "note",
        "actor",
    )
    list_filter = ("reason", "scope")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "tournament", "actor")


@admin.register(PointsAccount)
class PointsAccountAdmin(ReadOnlyAdmin):
    list_display = ("user", "scope", "balance")
    list_filter = ("scope",)
    search_fields = ("user__username",)


@admin.register(ApiToken)
class ApiTokenAdmin(SidebarFiltersOnly):
    """Staff may see who holds tokens and revoke one (delete it); never make one here:
    a key is shown to its owner only, on the profile page."""

    list_display = ("name", "user", "prefix", "created_at", "last_used_at")
    search_fields = ("name", "user__username")
    readonly_fields = ("user", "name", "prefix", "created_at", "last_used_at")
    exclude = ("key_hash",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
