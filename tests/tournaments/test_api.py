"""The tournament API: lists and details anyone signed in may read, registration by
token or session, refusals as JSON with a code and a message."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import PointsEntry
from accounts.points import points_balance, points_move
from tables.models import Table
from tests.support.tournaments import api_for
from tests.tournaments.helpers import members, register, sng

pytestmark = pytest.mark.django_db


def test_the_list_filters_by_status(make_user):
    open_one = sng(structure="hyper", buy_in=0)
    running = register(sng(structure="turbo", buy_in=100), members(make_user, 6))
    api = api_for(make_user("reader"))

    registering = api.get("/api/tournaments/?status=registering").json()["results"]
    started = api.get("/api/tournaments/?status=running").json()["results"]

    assert open_one.pk in [t["id"] for t in registering]
    assert running.pk not in [t["id"] for t in registering]
    assert [t["id"] for t in started] == [running.pk]


def test_the_list_is_a_page_with_a_count_and_links(make_user):
    for structure in ("hyper", "turbo", "regular"):
        sng(structure=structure, buy_in=0)
    api = api_for(make_user("reader"))

    first = api.get("/api/tournaments/?status=registering&limit=2&utm=x").json()
    rest = api.get(first["next"]).json()

    assert first["count"] == 3 and len(first["results"]) == 2 and first["previous"] is None
    assert first["next"].endswith("/api/tournaments/?status=registering&limit=2&offset=2")
    assert len(rest["results"]) == 1 and rest["next"] is None
    assert rest["previous"].endswith("/api/tournaments/?status=registering&limit=2")
    everything = [t["id"] for t in api.get("/api/tournaments/").json()["results"]]
    assert sorted(everything) == sorted(t["id"] for t in first["results"] + rest["results"])


@pytest.mark.parametrize(
    "query", ["limit=0", "limit=-5", "limit=x", "limit=201", "limit=", "offset=-1", "offset=²"]
)
def test_a_page_out_of_range_is_refused_not_changed(make_user, query):
    response = api_for(make_user("reader")).get(f"/api/tournaments/?{query}")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_filter"
    assert response.json()["parameters"] == [query.split("=")[0]]


def test_a_bad_status_is_a_400_with_a_code(make_user):
    response = api_for(make_user("reader")).get("/api/tournaments/?status=everything")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_status"


def test_a_running_tournament_reads_with_level_tables_and_players(make_user):
    players = members(make_user, 6)
    tournament = register(sng(structure="turbo", buy_in=100), players)
    table = Table.objects.get(tournament=tournament)

    body = api_for(players[0]).get(f"/api/tournaments/{tournament.pk}/").json()

    assert body["kind"] == "sng" and body["structure"] == "turbo" and body["buy_in"] == 100
    assert body["status"] == "running" and body["started_at"] and body["ended_at"] is None
    assert body["level"]["level"] == 1
    assert (body["level"]["small_blind"], body["level"]["big_blind"]) == (10, 20)
    assert body["level"]["ante"] == 0 and body["level"]["ends_at"]
    assert (body["prize_pool"], body["payouts"]) == (600, [390, 210])
    assert body["tables"] == [table.pk]
    assert sorted(p["username"] for p in body["players"]) == sorted(u.username for u in players)
    assert {p["stack"] for p in body["players"]} == {1500}
    assert "cards" not in str(body) and "hole" not in str(body)


def test_an_unknown_tournament_is_a_404_with_a_code(make_user):
    response = api_for(make_user("reader")).get("/api/tournaments/999999/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "There is no such tournament."}


def test_registering_and_unregistering_by_token(make_user):
    alice = make_user("alice")
    tournament = sng(buy_in=100)
    api = api_for(alice)

    registered = api.post(f"/api/tournaments/{tournament.pk}/register/")
    assert registered.status_code == 200 and registered.json()["registered"] == 1
    assert api.get("/api/me/").json()["points"] == 9_900

    unregistered = api.post(f"/api/tournaments/{tournament.pk}/unregister/")
    assert unregistered.status_code == 200 and unregistered.json()["registered"] == 0
    assert api.get("/api/me/").json()["points"] == 10_000


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ("twice", "already_registered"),
        ("short", "not_enough_points"),
        ("started", "not_registering"),
        ("not_registered", "not_registered"),
    ],
)
def test_refusals_are_4xx_json_with_a_code_and_a_message(make_user, setup, code):
    alice = make_user("alice")
    tournament = sng(buy_in=100)
    path = f"/api/tournaments/{tournament.pk}/register/"
    if setup == "twice":
        register(tournament, [alice])
    elif setup == "short":
        points_move(user=alice, amount=-9_950, reason=PointsEntry.Reason.GRANT)
    elif setup == "started":
        register(tournament, members(make_user, 6))
    else:
        path = f"/api/tournaments/{tournament.pk}/unregister/"
    before = points_balance(user=alice)

    response = api_for(alice).post(path)

    assert 400 <= response.status_code < 500
    body = response.json()
    assert body["code"] == code and body["message"]
    assert points_balance(user=alice) == before


def test_the_api_refuses_anonymous_callers():
    tournament = sng()
    assert APIClient().post(f"/api/tournaments/{tournament.pk}/register/").status_code in {
        401,
        403,
    }
    assert not tournament.entries.exists()
