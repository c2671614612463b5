"""Websocket URL map; each app adds its consumers here."""

from typing import Any

from django.urls import path

from accounts.consumers import LobbyConsumer
from tables.consumers import TableConsumer

# Django's path() is typed for views; Channels' URLRouter takes ASGI apps in it.
websocket_urlpatterns: list[Any] = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
]
