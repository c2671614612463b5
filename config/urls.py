from django.contrib import admin
from django.urls import include, path

from accounts.api import MeView
from accounts.views import lobby
from config.health import healthz
from tournaments.api import (
    TournamentDetailView,
    TournamentListView,
    TournamentRegisterView,
    TournamentUnregisterView,
)

api_patterns = [
    path("me/", MeView.as_view(), name="me"),
    path("tournaments/", TournamentListView.as_view(), name="tournament_list"),
    path("tournaments/<int:tournament_id>/", TournamentDetailView.as_view(), name="tournament"),
    path(
        "tournaments/<int:tournament_id>/register/",
        TournamentRegisterView.as_view(),
        name="tournament_register",
    ),
    path(
        "tournaments/<int:tournament_id>/unregister/",
        TournamentUnregisterView.as_view(),
        name="tournament_unregister",
    ),
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
