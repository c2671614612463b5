from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from accounts.forms import AdminLoginForm
from accounts.models import User

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
