"""Mounted at the site root: the table pages live under /tables/, histories under /hands/."""

from django.urls import path

from tables import views
from tables.history import views as history_views

app_name = "tables"

urlpatterns = [
    path("tables/new/", views.table_new, name="table_new"),
    path("tables/practice/", views.table_practice, name="table_practice"),
    path("tables/<int:table_id>/", views.table_detail, name="table_detail"),
    path("tables/<int:table_id>/guest/", views.table_join_guest, name="table_join_guest"),
    path("tables/<int:table_id>/new-link/", views.table_new_link, name="table_new_link"),
    path("tables/<int:table_id>/ledger.csv", views.table_ledger_csv, name="table_ledger_csv"),
    path("hands/", history_views.hand_history_list, name="hand_history_list"),
    path("hands/<int:hand_id>/", history_views.hand_replayer, name="hand_replayer"),
    path("players/<str:username>/", history_views.player_page, name="player_page"),
]
