"""Closing an account ends its open sockets too, not just its pages' sessions."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from tests.support import PASSWORD
from tests.tables.sockets import Client
from tests.tables.test_socket_limits import closed_with, heads_up, sign_in

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


async def test_closing_the_account_in_one_browser_closes_its_table_sockets_in_another(
    make_user, settings
):
    settings.SOCKET_SESSION_RECHECK_SECONDS = 600  # only the notice can close it in time
    alice, bob = await sync_to_async(make_user)("alice"), await sync_to_async(make_user)("bob")
    table_id = await heads_up(alice, bob)
    tab = await Client.open(alice, table_id)  # a session of its own
    browser = await sign_in(alice)
    response = await sync_to_async(browser.post)(reverse("accounts:close"), {"password": PASSWORD})
    assert response.status_code == 302
    assert await closed_with(tab) == 4403
