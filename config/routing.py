"""Websocket URL map; each app adds its consumers here."""

from django.urls import path

from accounts.consumers import LobbyConsumer
from tables.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
