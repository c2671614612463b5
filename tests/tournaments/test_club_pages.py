"""The club pages: my clubs, a club's page for members, admins and outsiders, the
invitation link, and the forms admins use (through the services)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import PointsEntry
from accounts.points import points_balance
from tables.models import Table
from tournaments import services
from tournaments.clubs import services as club_services
from tournaments.leaderboard import club_leaderboard
from tournaments.models import Club, Entry, Membership, Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_user) -> Club:
    owner = make_user("owner", display_name="Olive")
    club = club_services.club_create(user=owner, name="Thursday Crew", description="Home game")
    bob = make_user("bob", display_name="Bobby")
    club_services.club_join(slug=club.slug, user=bob, token=club.invite_token)
    club_services.club_points_adjust(
        slug=club.slug, admin=owner, username="bob", amount=1_234, reason="cash in"
    )
    return club


def page_of(client, user, path: str) -> tuple[int, str]:
    client.force_login(user)
    response = client.get(path)
    return response.status_code, response.content.decode()


def test_my_clubs_lists_each_club_with_my_role_and_club_points(client, club):
    status, page = page_of(client, club.memberships.get(user__username="bob").user, "/clubs/")

    assert status == 200
    assert 'data-club="thursday-crew"' in page and "Member" in page and "1234" in page
    assert "Create the club" in page and "Invitation link" in page


def test_creating_a_club_from_the_page_makes_me_its_owner(client, make_user):
    alice = make_user("alice")
    client.force_login(alice)

    response = client.post("/clubs/", {"create": "1", "name": "Sunday Club", "description": ""})

    assert response.status_code == 302 and response["Location"] == "/clubs/sunday-club/"
    assert Membership.objects.get(club__slug="sunday-club").role == "owner"


def test_pasting_an_invitation_link_leads_to_the_join_page_which_asks_first(
    client, club, make_user
):
    carol = make_user("carol")
    client.force_login(carol)
    link = f"https://felt.example/clubs/{club.slug}/join/{club.invite_token}/"

    to_join = client.post("/clubs/", {"join": "1", "link": link})
    asked = client.get(to_join["Location"])
    joined = client.post(to_join["Location"])

    assert to_join["Location"] == f"/clubs/{club.slug}/join/{club.invite_token}/"
    assert "Join Thursday Crew" in asked.content.decode()
    assert joined["Location"] == f"/clubs/{club.slug}/"
    assert Membership.objects.get(user=carol).status == "active"


def test_a_member_sees_members_tournaments_and_their_own_balance_only(client, club):
    bob = club.memberships.get(user__username="bob").user

    status, page = page_of(client, bob, f"/clubs/{club.slug}/")

    assert status == 200
    assert "Olive" in page and "Bobby" in page
    assert "data-my-club-points>1234<" in page
    assert "data-admin" not in page and club.invite_token not in page
    assert "Schedule a tournament" not in page


def test_an_admin_sees_balances_requests_the_invitation_and_the_forms(client, club, make_user):
    club_services.club_ask(slug=club.slug, user=make_user("carol", display_name="Caro"))
    owner = club.memberships.get(role="owner").user

    status, page = page_of(client, owner, f"/clubs/{club.slug}/")

    assert status == 200 and "data-admin" in page
    assert club.invite_token in page and "Caro" in page
    assert "<td data-balance>1234</td>" in page and "<td data-balance>0</td>" in page
    assert "Schedule a tournament" in page and "Make admin" in page


def test_an_outsider_sees_only_the_name_and_may_ask_to_join(client, club, make_user):
    outsider = make_user("outsider")

    status, page = page_of(client, outsider, f"/clubs/{club.slug}/")
    client.post(f"/clubs/{club.slug}/ask/")

    assert status == 403
    assert "Thursday Crew" in page and "Ask to join" in page and "Bobby" not in page
    assert Membership.objects.get(user=outsider).status == "pending"
    assert "You asked to join" in client.get(f"/clubs/{club.slug}/").content.decode()


def test_the_admin_forms_approve_promote_adjust_and_ban(client, club, make_user):
    carol = make_user("carol")
    club_services.club_ask(slug=club.slug, user=carol)
    client.force_login(club.memberships.get(role="owner").user)
    base = f"/clubs/{club.slug}"

    client.post(f"{base}/members/carol/", {"action": "approve"})
    client.post(f"{base}/members/carol/", {"action": "make_admin"})
    client.post(f"{base}/points/", {"username": "carol", "amount": "50", "reason": "won at home"})
    overdrawn = client.post(
        f"{base}/points/", {"username": "bob", "amount": "-2000", "reason": "x"}, follow=True
    )
    client.post(f"{base}/members/bob/", {"action": "ban"})

    assert Membership.objects.get(user=carol).role == "admin"
    assert points_balance(user=carol, scope=club.scope) == 50
    assert "a balance never goes below zero" in overdrawn.content.decode()
    assert Membership.objects.get(user__username="bob").status == "banned"
    assert PointsEntry.objects.filter(scope=club.scope).count() == 2


def test_a_member_s_post_to_an_admin_form_is_refused_and_changes_nothing(client, club):
    client.force_login(club.memberships.get(user__username="bob").user)

    response = client.post(
        f"/clubs/{club.slug}/points/",
        {"username": "bob", "amount": "100", "reason": "me"},
        follow=True,
    )
    schedule = client.get(f"/clubs/{club.slug}/schedule/")

    assert "Only the club&#x27;s owner and admins" in response.content.decode()
    assert (
        points_balance(user=club.memberships.get(user__username="bob").user, scope=club.scope)
        == 1234
    )
    assert schedule.status_code == 403


def test_an_admin_schedules_from_the_form_in_the_club_s_points(client, club):
    client.force_login(club.memberships.get(role="owner").user)
    starts = timezone.localtime(timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")

    form = client.get(f"/clubs/{club.slug}/schedule/").content.decode()
    response = client.post(
        f"/clubs/{club.slug}/schedule/",
        {"name": "Club Night", "starts_at": starts, "time_zone": "UTC", "buy_in": "100",
         "seats_per_table": "6", "max_entrants": "30", "structure": "regular",
         "starting_stack": "1500", "late_registration_levels": "2",
         "payout_percentages": "60, 40", "row_kind": ["level", "break", "level"],
         "row_small_blind": ["10", "", "20"], "row_big_blind": ["20", "", "40"],
         "row_ante": ["0", "", "0"], "row_minutes": ["30", "5", "30"]},
    )  # fmt: skip

    assert 'type="datetime-local"' in form and "points_scope" not in form
    tournament = Tournament.objects.get()
    assert response["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.club, tournament.points_scope) == (club, club.scope)
    assert tournament.payout_percentages == [60, 40]
    assert tournament.level_breaks == [{"after_level": 1, "minutes": 5}]
    club_page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Club Night" in club_page and "data-register>Register<" in club_page


def test_a_club_tournament_s_page_and_table_are_refused_to_outsiders(client, club, make_user):
    owner = club.memberships.get(role="owner").user
    tournament = club_services.club_tournament_schedule(
        slug=club.slug, admin=owner, settings=TournamentSettings(name="Club Night",
        starts_at=timezone.now() + timedelta(minutes=5), seats_per_table=2),
    )  # fmt: skip
    bob = club.memberships.get(user__username="bob").user
    services.tournament_register(tournament_id=tournament.pk, user=bob)
    services.tournament_register(tournament_id=tournament.pk, user=owner)
    services.mtt_start(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=6))
    table = Table.objects.get(tournament=tournament)
    outsider = make_user("outsider")

    status, page = page_of(client, outsider, f"/tournaments/{tournament.pk}/")
    table_status, table_page = page_of(client, outsider, f"/tables/{table.pk}/")
    lobby = client.get("/tournaments/").content.decode()

    assert (status, table_status) == (403, 403)
    assert "Club Night" not in page + table_page + lobby
    assert "Thursday Crew" in page
    assert page_of(client, bob, f"/tournaments/{tournament.pk}/")[0] == 200
    assert page_of(client, bob, f"/tables/{table.pk}/")[0] == 200


def test_the_leaderboard_counts_fields_of_four_or_more_by_season(club, make_user):
    owner = club.memberships.get(role="owner").user
    bob = club.memberships.get(user__username="bob").user
    now = timezone.now()

    def finished(entrants: list, ended_at, buy_in: int = 100) -> None:
        tournament = Tournament.objects.create(
            kind="mtt", name="Past", club=club, points_scope=club.scope, buy_in=buy_in,
            status="finished", prize_pool=buy_in * len(entrants), ended_at=ended_at,
        )  # fmt: skip
        prizes = [buy_in * len(entrants)] + [0] * (len(entrants) - 1)
        for place, (user, prize) in enumerate(zip(entrants, prizes, strict=True), start=1):
            Entry.objects.create(
                tournament=tournament, user=user, name=user.public_name, buy_in=buy_in,
                paid=buy_in, place=place, prize=prize,
            )  # fmt: skip

    others = [make_user(f"p{n}") for n in range(3)]
    finished([bob, owner, *others[:2]], now)  # four: counts, Bobby wins 400
    finished([owner, bob, others[0]], now)  # three: never counts
    finished([owner, bob, *others], now - timedelta(days=400))  # five, long ago: all time only

    this_month = club_leaderboard(club=club, season="month", now=now)
    all_time = club_leaderboard(club=club, season="all", now=now)

    top = this_month[0]
    assert (top["name"], top["played"], top["wins"], top["cashes"]) == ("Bobby", 1, 1, 1)
    assert (top["points_won"], top["roi"], top["rank"]) == (300, 300.0, 1)
    olive = next(r for r in this_month if r["name"] == "Olive")
    assert (olive["played"], olive["points_won"], olive["roi"]) == (1, -100, -100.0)
    olive_all = next(r for r in all_time if r["name"] == "Olive")
    assert (olive_all["played"], olive_all["wins"], olive_all["points_won"]) == (2, 1, 300)
    assert [r["name"] for r in all_time][:2] == ["Olive", "Bobby"]
