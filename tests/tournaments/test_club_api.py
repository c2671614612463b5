"""The club API: create, read, join, points and scheduling, and the club's tournaments
through the tournament endpoints; every refusal a 4xx JSON with a code, nothing changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import PointsEntry
from accounts.points import points_balance
from tests.support.tournaments import api_for
from tournaments.models import Club, Membership, Tournament

pytestmark = pytest.mark.django_db

SOON = (timezone.now() + timedelta(days=1)).isoformat()


def made_club(api, name="Thursday Crew") -> dict:
    response = api.post("/api/clubs/", {"name": name, "description": "Home game"}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def joined(api, club: dict) -> None:
    response = api.post(
        f"/api/clubs/{club['slug']}/join/", {"token": club["invite_token"]}, format="json"
    )
    assert response.status_code == 200, response.content


def test_the_creator_owns_the_club_and_reads_its_token(make_user):
    club = made_club(api_for(make_user("owner")))

    assert club["slug"] == "thursday-crew" and club["your_role"] == "owner"
    assert club["invite_token"] and club["members"][0]["username"] == "owner"
    assert club["members"][0]["balance"] == 0
    assert club["tournaments"] == {"upcoming": [], "running": [], "results": []}


def test_a_member_joins_with_the_token_and_sees_members_but_not_their_balances(make_user):
    owner_api, bob_api = api_for(make_user("owner")), api_for(make_user("bob"))
    club = made_club(owner_api)
    joined(bob_api, club)

    seen = bob_api.get(f"/api/clubs/{club['slug']}/").json()

    assert [m["username"] for m in seen["members"]] == ["owner", "bob"]
    assert "balance" not in seen["members"][0] and seen["members"][1]["balance"] == 0
    assert "invite_token" not in seen and seen["your_role"] == "member"


def test_without_a_token_the_member_asks_and_waits(make_user):
    owner_api, bob_api = api_for(make_user("owner")), api_for(make_user("bob"))
    club = made_club(owner_api)

    response = bob_api.post(f"/api/clubs/{club['slug']}/join/", {}, format="json")

    assert response.status_code == 202 and response.json() == {"status": "pending"}
    assert bob_api.get(f"/api/clubs/{club['slug']}/").json()["code"] == "members_only"
    pending = owner_api.get(f"/api/clubs/{club['slug']}/").json()["pending"]
    assert [p["username"] for p in pending] == ["bob"]


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/api/clubs/", {"name": ""}, 400, "bad_name"),
        ("/api/clubs/", {"name": "x" * 61}, 400, "bad_name"),
        ("/api/clubs/", {"description": "no name"}, 400, "bad_name"),
        ("/api/clubs/SLUG/join/", {"token": "wrong"}, 403, "bad_token"),
        ("/api/clubs/SLUG/join/", {"token": ["a"]}, 400, "bad_token"),
        ("/api/clubs/nope/join/", {"token": "x"}, 404, "club_not_found"),
        ("/api/clubs/SLUG/points/", {"username": "owner", "amount": 5, "reason": "x"}, 403,
         "members_only"),
        ("/api/clubs/SLUG/tournaments/", {"name": "x", "starts_at": SOON}, 403, "members_only"),
    ],
)  # fmt: skip
def test_refusals_are_json_with_a_code_and_change_nothing(make_user, path, body, status, code):
    club = made_club(api_for(make_user("owner")))
    stranger = api_for(make_user("stranger"))
    clubs_before = Club.objects.count()

    response = stranger.post(path.replace("SLUG", club["slug"]), body, format="json")

    assert response.status_code == status, response.content
    assert response.json()["code"] == code and response.json()["message"]
    assert Club.objects.count() == clubs_before
    assert Membership.objects.count() == 1
    assert not PointsEntry.objects.filter(scope__startswith="club:").exists()


def test_a_malformed_body_is_a_400_not_a_500(make_user):
    api = api_for(make_user("owner"))
    response = api.post("/api/clubs/", "{not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["code"]


def test_admins_move_points_and_members_cannot(make_user):
    owner_api, bob_api = api_for(make_user("owner")), api_for(make_user("bob"))
    club = made_club(owner_api)
    joined(bob_api, club)
    path = f"/api/clubs/{club['slug']}/points/"

    credit = owner_api.post(
        path, {"username": "bob", "amount": 700, "reason": "bought in"}, format="json"
    )
    refused = bob_api.post(
        path, {"username": "bob", "amount": 700, "reason": "please"}, format="json"
    )
    overdraft = owner_api.post(
        path, {"username": "bob", "amount": -701, "reason": "cash out"}, format="json"
    )

    assert credit.status_code == 201
    assert credit.json()["balance"] == 700 and credit.json()["reason"] == "bought in"
    assert (refused.status_code, refused.json()["code"]) == (403, "admins_only")
    assert (overdraft.status_code, overdraft.json()["code"]) == (400, "not_enough_points")
    bob = Membership.objects.get(user__username="bob").user
    assert points_balance(user=bob, scope=f"club:{Club.objects.get().pk}") == 700
    seen = owner_api.get(f"/api/clubs/{club['slug']}/").json()
    assert {m["username"]: m["balance"] for m in seen["members"]} == {"owner": 0, "bob": 700}


def test_an_admin_schedules_and_members_register_through_the_tournament_api(make_user):
    owner_api, bob_api = api_for(make_user("owner")), api_for(make_user("bob"))
    stranger = api_for(make_user("stranger"))
    club = made_club(owner_api)
    joined(bob_api, club)
    owner_api.post(
        f"/api/clubs/{club['slug']}/points/",
        {"username": "bob", "amount": 100, "reason": "bought in"},
        format="json",
    )

    response = owner_api.post(
        f"/api/clubs/{club['slug']}/tournaments/",
        {"name": "Club Night", "starts_at": SOON, "buy_in": 100, "seats_per_table": 6,
         "max_entrants": 30, "points_scope": "site"},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.content
    tournament_id = response.json()["id"]
    registered = bob_api.post(f"/api/tournaments/{tournament_id}/register/")
    peeked = stranger.get(f"/api/tournaments/{tournament_id}/")
    pushed_in = stranger.post(f"/api/tournaments/{tournament_id}/register/")
    listed = stranger.get("/api/tournaments/?status=registering").json()["results"]

    assert registered.status_code == 200 and registered.json()["registered"] == 1
    assert Tournament.objects.get(pk=tournament_id).points_scope == f"club:{club_id(club)}"
    assert (peeked.status_code, peeked.json()["code"]) == (403, "members_only")
    assert (pushed_in.status_code, pushed_in.json()["code"]) == (403, "members_only")
    assert tournament_id not in [t["id"] for t in listed]
    seen = bob_api.get(f"/api/clubs/{club['slug']}/").json()["tournaments"]["upcoming"]
    assert [t["id"] for t in seen] == [tournament_id]


def test_a_bad_schedule_is_refused_by_field(make_user):
    api = api_for(make_user("owner"))
    club = made_club(api)
    response = api.post(
        f"/api/clubs/{club['slug']}/tournaments/",
        {"name": "Club Night", "starts_at": SOON, "payout_percentages": [60, 30]},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (400, "bad_payouts")
    assert not Tournament.objects.exists()


def test_an_admin_reads_and_stops_a_repeating_tournament_and_members_cannot(make_user):
    owner_api, bob_api = api_for(make_user("owner")), api_for(make_user("bob"))
    club = made_club(owner_api)
    joined(bob_api, club)
    scheduled = owner_api.post(
        f"/api/clubs/{club['slug']}/tournaments/",
        {"name": "Thursday Game", "starts_at": SOON, "repeat_every_days": 7,
         "time_zone": "Europe/Paris"},
        format="json",
    )  # fmt: skip
    assert scheduled.status_code == 201, scheduled.content
    (series,) = bob_api.get(f"/api/clubs/{club['slug']}/").json()["series"]
    assert (series["name"], series["repeats"]) == ("Thursday Game", "Weekly")
    assert series["listed_tournament"] == scheduled.json()["id"]
    assert series["next_starts_at"] is not None
    stop = f"/api/clubs/{club['slug']}/series/{series['id']}/stop/"

    refused = bob_api.post(stop)
    unknown = owner_api.post(f"/api/clubs/{club['slug']}/series/{series['id'] + 1}/stop/")
    assert (refused.status_code, refused.json()["code"]) == (403, "admins_only")
    assert (unknown.status_code, unknown.json()["code"]) == (400, "no_such_series")
    assert len(bob_api.get(f"/api/clubs/{club['slug']}/").json()["series"]) == 1, "unchanged"

    stopped = owner_api.post(stop)
    assert stopped.status_code == 200 and stopped.json()["series"] == []
    assert owner_api.post(stop).status_code == 200, "stopping it again changes nothing"
    upcoming = stopped.json()["tournaments"]["upcoming"]
    assert [t["id"] for t in upcoming] == [scheduled.json()["id"]], "the listed game stays"


def test_the_schema_documents_every_club_endpoint(make_user):
    schema = api_for(make_user("reader")).get("/api/schema/?format=json").json()
    for path in (
        "/api/clubs/",
        "/api/clubs/{slug}/",
        "/api/clubs/{slug}/join/",
        "/api/clubs/{slug}/points/",
        "/api/clubs/{slug}/tournaments/",
        "/api/clubs/{slug}/series/{series_id}/stop/",
    ):
        assert path in schema["paths"], path


def club_id(club: dict) -> int:
    return Club.objects.get(slug=club["slug"]).pk
