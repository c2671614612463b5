"""By link only, for real: an unlisted friends' table opens to its players, staff, and
whoever brings its link's key; to anyone walking ids it is a table that does not exist.
(The socket's side: test_invite_key_socket.py.)"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from tables import links, services
from tables.errors import NotHost
from tables.links import table_link
from tables.models import Table
from tests.support import PASSWORD
from tests.tables.helpers import fresh, friends_table

pytestmark = pytest.mark.django_db


def plain(table: Table) -> str:
    """The table's address without its key: what walking ids finds."""
    return reverse("tables:table_detail", args=[table.pk])


def browser_of(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_a_stranger_walking_ids_finds_nothing_there(
    alice: Any, bob: Any, caplog: pytest.LogCaptureFixture
) -> None:
    table = friends_table(alice, name="Secret game")
    stranger = browser_of(bob)
    no_table = stranger.get(reverse("tables:table_detail", args=[table.pk + 1000]))

    guessed = stranger.get(plain(table))
    wrong_key = stranger.get(f"{plain(table)}?key=not-the-key")

    for response in (guessed, wrong_key):
        assert response.status_code == no_table.status_code == 404
        assert response.content == no_table.content  # not even the name leaks
        assert b"Secret game" not in response.content
    assert stranger.get(plain(table)).status_code == 404, "a wrong key admits nobody"
    assert table.invite_key not in caplog.text


def test_a_visitor_not_signed_in_without_the_key_is_not_offered_a_seat(alice: Any) -> None:
    table = friends_table(alice, name="Secret game")
    visitor = browser_of()

    assert visitor.get(plain(table)).status_code == 404
    joined = visitor.post(reverse("tables:table_join_guest", args=[table.pk]), {"nickname": "Eve"})

    assert joined.status_code == 404
    assert not User.objects.filter(is_guest=True).exists()


def test_the_key_opens_the_table_and_later_visits_need_it_no_more(alice: Any, bob: Any) -> None:
    table = friends_table(alice, name="Secret game")
    friend = browser_of(bob)

    page = friend.get(table_link(table))
    again = friend.get(plain(table))

    assert page.status_code == 200 and b"js/table.js" in page.content
    assert again.status_code == 200, "remembered in the session"
    assert browser_of(bob).get(plain(table)).status_code == 404, "another browser: no key"


def test_a_guest_made_on_the_keyed_join_page_is_at_the_table(alice: Any) -> None:
    table = friends_table(alice, name="Secret game")
    visitor = browser_of()

    invite = visitor.get(table_link(table)).content.decode()
    joined = visitor.post(reverse("tables:table_join_guest", args=[table.pk]), {"nickname": "Eve"})
    page = visitor.get(plain(table)).content.decode()

    assert "Join Secret game" in invite
    assert joined.status_code == 302 and joined["Location"] == plain(table)
    assert "Eve (guest)" in page and "js/table.js" in page


def test_the_log_in_from_the_keyed_join_page_lands_at_the_table(alice: Any, bob: Any) -> None:
    table = friends_table(alice, name="Secret game")
    visitor = browser_of()
    visitor.get(table_link(table))

    logged_in = visitor.post(
        f"{reverse('accounts:login')}?next={plain(table)}",
        {"username": "bob", "password": PASSWORD},
    )

    assert logged_in.status_code == 302 and logged_in["Location"] == plain(table)
    assert visitor.get(plain(table)).status_code == 200


def test_its_players_and_staff_need_no_key(make_user: Any, alice: Any, bob: Any) -> None:
    table = friends_table(alice, bob, name="Secret game")  # both seated
    staff = make_user("sam", is_staff=True)

    for user in (alice, bob, staff):
        assert browser_of(user).get(plain(table)).status_code == 200, user


def test_a_player_who_came_by_the_link_once_keeps_their_way_back(alice: Any, bob: Any) -> None:
    table = friends_table(alice, name="Secret game")
    browser_of(bob).get(table_link(table))
    services.seat_take(table_id=table.pk, user=bob, seat=1)
    services.seat_leave(table_id=table.pk, user=bob)  # bought in, so in the ledger
    services.table_new_invite_key(table_id=table.pk, user=alice)

    assert browser_of(bob).get(plain(table)).status_code == 200, "a new browser, an old player"


def test_a_new_link_stops_the_old_one_and_keeps_whoever_came(
    make_user: Any, alice: Any, bob: Any
) -> None:
    table = friends_table(alice, name="Secret game")
    old_link = table_link(table)
    came_before = browser_of(bob)
    came_before.get(old_link)

    key = services.table_new_invite_key(table_id=table.pk, user=alice)

    assert fresh(table).invite_key == key and key not in old_link
    late = browser_of(make_user("carol"))
    assert late.get(old_link).status_code == 404, "the old link admits nobody new"
    assert came_before.get(plain(table)).status_code == 200, "whoever came stays"
    assert late.get(table_link(fresh(table))).status_code == 200, "the new link works"
    page = came_before.get(plain(table)).content.decode()
    assert key not in page, "who came by the old link is not handed the new one"


def test_only_the_host_makes_a_new_link(alice: Any, bob: Any) -> None:
    table = friends_table(alice, bob, name="Secret game")
    key = table.invite_key

    with pytest.raises(NotHost):
        services.table_new_invite_key(table_id=table.pk, user=bob)
    refused = browser_of(bob).post(reverse("tables:table_new_link", args=[table.pk]))

    assert refused.status_code == 404
    assert fresh(table).invite_key == key


def test_the_host_panels_new_link_button_takes_the_host_to_the_new_link(alice: Any) -> None:
    table = friends_table(alice, name="Secret game")
    host = browser_of(alice)
    page = host.get(plain(table)).content.decode()
    assert 'action="' + reverse("tables:table_new_link", args=[table.pk]) + '"' in page
    assert "New link" in page

    moved = host.post(reverse("tables:table_new_link", args=[table.pk]))

    assert moved.status_code == 302 and moved["Location"] == table_link(fresh(table))
    assert fresh(table).invite_key != table.invite_key
    share = host.get(moved["Location"]).content.decode()
    assert f'value="http://testserver{table_link(fresh(table))}"' in share, "Invite copies it"


def test_a_guest_handed_the_host_role_makes_a_new_link(alice: Any) -> None:
    table = friends_table(alice, name="Secret game")
    visitor = browser_of()
    visitor.get(table_link(table))
    visitor.post(reverse("tables:table_join_guest", args=[table.pk]), {"nickname": "Eve"})
    services.seat_take(table_id=table.pk, user=User.objects.get(display_name="Eve"), seat=1)
    services.host_hand_over(table_id=table.pk, user=alice, seat=1)

    moved = visitor.post(reverse("tables:table_new_link", args=[table.pk]))

    assert moved.status_code == 302 and moved["Location"] == table_link(fresh(table))
    assert fresh(table).invite_key != table.invite_key


def test_a_listed_table_and_a_practice_table_keep_their_rules(alice: Any, bob: Any) -> None:
    listed = friends_table(alice, name="Open game")
    services.table_set_listed(table_id=listed.pk, user=alice, listed=True)
    practice = services.table_create_practice(user=alice, bots=1)

    assert browser_of(bob).get(plain(listed)).status_code == 200
    assert browser_of().get(plain(listed)).status_code == 200  # the guest's join page
    assert browser_of(bob).get(plain(practice)).status_code == 200  # watched, as before


def test_the_key_is_in_no_lobby_and_no_api_answer(alice: Any, bob: Any) -> None:
    listed = friends_table(alice, name="Open game")
    services.table_set_listed(table_id=listed.pk, user=alice, listed=True)
    unlisted = friends_table(alice, name="Secret game")
    api = APIClient()
    api.force_authenticate(alice)

    for viewer in (alice, bob):
        lobby = browser_of(viewer).get(reverse("lobby")).content.decode()
        assert listed.invite_key not in lobby and unlisted.invite_key not in lobby
    answer = api.get("/api/tables/").content.decode()
    assert "Secret game" in answer and unlisted.invite_key not in answer


def test_the_ledger_of_an_unlisted_table_is_not_found_by_a_stranger(alice: Any, bob: Any) -> None:
    table = friends_table(alice, name="Secret game")
    url = reverse("tables:table_ledger_csv", args=[table.pk])

    assert browser_of(bob).get(url).status_code == 404
    assert browser_of(alice).get(url).status_code == 200


def test_each_table_gets_a_key_of_its_own(alice: Any) -> None:
    keys = {friends_table(alice, name=f"Game {n}").invite_key for n in range(5)}
    assert len(keys) == 5 and all(len(key) >= 16 for key in keys)


def test_the_page_logs_no_key(alice: Any, bob: Any, caplog: pytest.LogCaptureFixture) -> None:
    table = friends_table(alice, name="Secret game")
    with caplog.at_level(logging.DEBUG):
        browser_of(bob).get(table_link(table))
        browser_of(bob).get(plain(table))
    assert table.invite_key not in caplog.text


def test_a_session_remembers_only_the_most_recent_tables_it_came_to() -> None:
    session: dict[str, Any] = {}
    for number in range(1, links.ADMITTED_KEPT + 2):
        links.admit(session, Table(pk=number, invite_key=f"key-{number}"))
    links.admit(session, Table(pk=2, invite_key="key-2"))  # already held: no change

    kept = links.admitted_ids(session)
    assert len(kept) == links.ADMITTED_KEPT and 1 not in kept and 2 in kept
