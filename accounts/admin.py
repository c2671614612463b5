from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.forms import AdminLoginForm
from accounts.models import User
from tables.services import seats_release

# The admin's own log-in page is throttled like the site's.
admin.site.login_form = AdminLoginForm


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        ("Felt", {"fields": ("display_name",)}),
    )

    # A member deleted or deactivated here first leaves their tables the way a
    # player leaving does, so every table they sat at plays on.
    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        if change and not obj.is_active:
            seats_release(user=obj)
        super().save_model(request, obj, form, change)

    def delete_model(self, request: HttpRequest, obj: User) -> None:
        seats_release(user=obj)
        super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset:
            seats_release(user=user)
        super().delete_queryset(request, queryset)
