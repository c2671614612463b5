"""Mounted at the site root: the table pages live under /tables/, histories under /hands/."""

from django.urls import path

from tables import views

app_name = "tables"

urlpatterns = [
    path("tables/new/", views.table_new, name="table_new"),
    path("tables/practice/", views.table_practice, name="table_practice"),
    path("tables/<int:table_id>/", views.table_detail, name="table_detail"),
    path("hands/", views.hand_history_list, name="hand_history_list"),
]
