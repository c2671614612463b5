"""The tournament lobby and a tournament's page, and the forms on them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import PointsEntry
from accounts.points import points_balance, points_move
from tables.models import Table
from tests.tournaments.helpers import members, register, sng
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

LOBBY = "/tournaments/"


def test_the_lobby_lists_open_sngs_with_counts_pool_payouts_and_register_buttons(client, make_user):
    alice = make_user("alice")
    tournament = register(sng(structure="hyper", buy_in=100), [alice])
    sng(structure="turbo", buy_in=0)
    client.force_login(make_user("bob"))

    page = client.get(LOBBY).content.decode()

    assert f'data-tournament-id="{tournament.pk}"' in page
    assert "1/6" in page and "Freeroll" in page
    assert "390 / 210" in page, "what a full table of 100-point buy-ins pays"
    assert page.count("data-register>Register<") == 2
    assert "js/tournaments.js" in page


def test_registering_from_the_lobby_says_what_is_left(client, make_user):
    alice = make_user("alice")
    tournament = sng(buy_in=100)
    client.force_login(alice)

    response = client.post(reverse("tournaments:register", args=[tournament.pk]), follow=True)

    assert "You are registered. You have 9,900 points left." in response.content.decode()
    assert "9,900 points" in response.content.decode(), "the balance in the navigation"
    assert 'data-registered="true"' in response.content.decode()


def test_a_refused_registration_shows_why_and_changes_nothing(client, make_user):
    alice = make_user("alice")
    points_move(user=alice, amount=-9_990, reason=PointsEntry.Reason.GRANT)
    tournament = sng(buy_in=100)
    client.force_login(alice)

    response = client.post(reverse("tournaments:register", args=[tournament.pk]), follow=True)

    assert "You have 10 points; this needs 100." in response.content.decode()
    assert points_balance(user=alice) == 10
    assert not tournament.entries.exists()


def test_unregistering_from_the_tournament_page_goes_back_to_it(client, make_user):
    alice = make_user("alice")
    tournament = register(sng(buy_in=100), [alice])
    client.force_login(alice)

    response = client.post(
        reverse("tournaments:unregister", args=[tournament.pk]), {"next": "detail"}
    )

    assert response.url == f"/tournaments/{tournament.pk}/"
    assert points_balance(user=alice) == 10_000


def test_the_forms_need_a_post_and_a_member(client, make_user):
    tournament = sng()
    assert client.post(reverse("tournaments:register", args=[tournament.pk])).status_code == 302
    client.force_login(make_user("alice"))
    assert client.get(reverse("tournaments:register", args=[tournament.pk])).status_code == 405
    assert not tournament.entries.exists()


def test_a_running_sngs_page_shows_level_players_stacks_and_the_table(client, make_user):
    players = members(make_user, 6)
    tournament = register(sng(structure="turbo", buy_in=100), players)
    table = Table.objects.get(tournament=tournament)
    client.force_login(players[0])

    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()

    assert "Running" in page and "600 points" in page and "1st 390 · 2nd 210" in page
    assert "1: blinds 10/20" in page
    assert 'aria-current="true"' in page, "the current level is marked"
    assert f"/tables/{table.pk}/" in page and "Take your seat" in page
    assert page.count("<td>1500</td>") == 6
    for player in players:
        assert player.username in page


def test_an_unknown_tournament_is_a_404(client):
    assert client.get("/tournaments/999999/").status_code == 404


def test_one_click_starts_a_practice_sng_against_five_bots(client, make_user):
    alice = make_user("alice")
    client.force_login(alice)

    response = client.post(reverse("tournaments:practice_start"))

    tournament = Tournament.objects.get(kind="practice", owner=alice)
    table = Table.objects.get(tournament=tournament)
    assert response.url == f"/tables/{table.pk}/"
    assert tournament.status == "running" and tournament.entries.filter(is_bot=True).count() == 5
    assert table.hand_number == 1
    again = client.post(reverse("tournaments:practice_start"))
    assert again.url == response.url, "a second click goes back to the one running"


def test_a_tournament_table_offers_no_leave_button(client, make_user):
    players = members(make_user, 6)
    tournament = register(sng(), players)
    client.force_login(players[0])
    table = Table.objects.get(tournament=tournament)

    page = client.get(f"/tables/{table.pk}/").content.decode()

    assert 'data-command="leave"' not in page
    assert 'data-command="sit_out"' in page
    assert f"Tournament #{tournament.pk}" in page and "Level 1" in page
