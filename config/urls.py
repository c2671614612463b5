from django.contrib import admin
from django.urls import include, path

from accounts.api import MeView
from accounts.views import lobby
from config.health import healthz

api_patterns = [
    path("me/", MeView.as_view(), name="me"),
]

urlpatterns = [
    path("", lobby, name="lobby"),
    path("accounts/", include("accounts.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", include("tables.urls")),
    path("api/", include((api_patterns, "api"))),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
