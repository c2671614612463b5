from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.api import MeView
from accounts.second_factor_views import admin_login
from config.health import healthz
from tables import api as tables_api
from tables.fairness_log import api as log_api
from tables.history import api as history_api
from tables.views import lobby
from tournaments.api import (
    TournamentDetailView,
    TournamentListView,
    TournamentRegisterView,
    TournamentUnregisterView,
)
from tournaments.clubs import api as club_api

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
    path("clubs/", club_api.ClubCreateView.as_view(), name="club_create"),
    path("clubs/<slug:slug>/", club_api.ClubDetailView.as_view(), name="club"),
    path("clubs/<slug:slug>/join/", club_api.ClubJoinView.as_view(), name="club_join"),
    path("clubs/<slug:slug>/points/", club_api.ClubPointsView.as_view(), name="club_points"),
    path(
        "clubs/<slug:slug>/points/everyone/",
        club_api.ClubGrantView.as_view(),
        name="club_points_everyone",
    ),
    path(
        "clubs/<slug:slug>/joining-points/",
        club_api.ClubJoiningPointsView.as_view(),
        name="club_joining_points",
    ),
    path(
        "clubs/<slug:slug>/tournaments/",
        club_api.ClubTournamentsView.as_view(),
        name="club_tournaments",
    ),
    path(
        "clubs/<slug:slug>/series/<int:series_id>/stop/",
        club_api.ClubSeriesStopView.as_view(),
        name="club_series_stop",
    ),
    path("hands/", history_api.HandListView.as_view(), name="hand_list"),
    path("hands/export", history_api.HandExportView.as_view(), name="hand_export"),
    path("hands/<int:hand_id>/", history_api.HandDetailView.as_view(), name="hand_detail"),
    path("hands/<int:hand_id>/phh", history_api.HandPhhView.as_view(), name="hand_phh"),
    path(
        "hands/<int:hand_id>/pokerstars",
        history_api.HandPokerStarsView.as_view(),
        name="hand_pokerstars",
    ),
    path(
        "players/<str:username>/stats/",
        history_api.PlayerStatsView.as_view(),
        name="player_stats",
    ),
    path("tables/", tables_api.TableListView.as_view(), name="table_list"),
    path("fairness-log/head/", log_api.LogHeadView.as_view(), name="log_head"),
    path("fairness-log/entries/", log_api.LogEntriesView.as_view(), name="log_entries"),
    path("fairness-log/proof/inclusion/", log_api.LogInclusionView.as_view(), name="log_inclusion"),
    path(
        "fairness-log/proof/consistency/",
        log_api.LogConsistencyView.as_view(),
        name="log_consistency",
    ),
    path("fairness-log/export", log_api.LogExportView.as_view(), name="log_export"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
]

urlpatterns = [
    path("", lobby, name="lobby"),
    path("accounts/", include("accounts.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("clubs/", include("tournaments.clubs.urls")),
    path("", include("tables.urls")),
    path("api/", include((api_patterns, "api"))),
    # /healthz/live, the check of the process alone, is answered ahead of Django
    # (LiveCheck in config/health.py, installed by config/asgi.py).
    path("healthz", healthz, name="healthz"),
    # Browsers ask for /favicon.ico on pages that name no icon (the admin, the API's JSON).
    path(
        "favicon.ico",
        RedirectView.as_view(url=f"{settings.STATIC_URL}favicon.svg", permanent=True),
        name="favicon",
    ),
    # The admin's log-in is the site's, with its second step (accounts/second_factor_views.py).
    path("admin/login/", admin_login, name="admin_login"),
    path("admin/", admin.site.urls),
]

handler404 = "config.platform.api_errors.not_found"
