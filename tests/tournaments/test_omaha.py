"""Pot-Limit Omaha tournaments (docs/tournaments.md, "Omaha events"): a sit-n-go of the
lobby and a club's scheduled tournament deal Omaha at every table they draw, and the
game is named wherever the tournament is shown: lists, its page, the club's pages, the
API and its hands' histories."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.html import escape
from rest_framework.test import APIClient

import engine
from tables import services as table_services
from tables.models import Hand, Seat, Table
from tables.play import hand_state
from tests.support.tournaments import api_for, registered, scheduled, started
from tests.tables.helpers import decision_of
from tests.tournaments.helpers import (
    members,
    moved_for,
    play_to_the_end,
    register,
    table_of,
)
from tournaments import services
from tournaments.clubs import services as club_services
from tournaments.models import Club, Tournament
from tournaments.tasks import sweep

pytestmark = pytest.mark.django_db

OMAHA, HOLDEM = "Pot-Limit Omaha", "No-Limit Hold'em"
SOON = (timezone.now() + timedelta(days=1)).isoformat()


def omaha_sng() -> Tournament:
    """The lobby's open Omaha sit-n-go, as the sweep opens it."""
    sweep()
    return Tournament.objects.get(kind="sng", status="registering", game="plo")


# --- sit-n-gos ------------------------------------------------------------------------


def test_the_lobby_offers_an_omaha_sit_n_go_named_by_its_game(client, make_user):
    tournament = omaha_sng()
    client.force_login(make_user("bob"))

    page = client.get("/tournaments/").content.decode()

    row = _row(page, tournament.pk)
    assert f"<td data-game>{OMAHA}</td>" in row
    assert "data-register>Register<" in row
    assert (
        page.count(f"<td data-game>{escape(HOLDEM)}</td>")
        == Tournament.objects.filter(kind="sng", game="nlhe").count()
    )


def test_an_omaha_sit_n_go_deals_four_cards_each_and_plays_to_a_winner(make_user):
    tournament = register(omaha_sng(), members(make_user, 6))
    table = table_of(tournament)
    first = hand_state(table)

    assert table.game == "plo"
    assert first is not None and first.game == "plo"
    assert {len(first.hole_cards(seat)) for seat in range(6)} == {4}

    finished = play_to_the_end(tournament)

    assert finished.status == "finished"
    assert set(Hand.objects.filter(table__tournament=finished).values_list("game", flat=True)) == {
        "plo"
    }
    prizes = dict(finished.entries.values_list("place", "prize").order_by("place")[:1])
    assert prizes == {1: 390}
    assert sum(finished.entries.values_list("prize", flat=True)) == finished.prize_pool == 600
    assert moved_for(finished) == 0, "buy-ins in, prizes out: no point made or lost"


def test_a_full_omaha_sit_n_go_opens_a_fresh_omaha_one(make_user):
    full = register(omaha_sng(), members(make_user, 6))

    fresh = Tournament.objects.get(kind="sng", status="registering", game="plo")

    assert full.status == "running" and fresh.pk != full.pk
    assert (fresh.structure, fresh.buy_in) == (full.structure, full.buy_in)
    assert "Omaha" in fresh.title


def test_a_cancelled_omaha_sit_n_go_is_replaced_by_an_omaha_one(make_user):
    waiting = register(omaha_sng(), members(make_user, 2))

    services.tournament_cancel(tournament_id=waiting.pk)

    fresh = Tournament.objects.get(kind="sng", status="registering", game="plo")
    assert fresh.pk != waiting.pk


def test_an_omaha_and_a_hold_em_sit_n_go_of_the_same_stakes_wait_side_by_side(make_user):
    omaha = omaha_sng()
    holdem = Tournament.objects.get(
        kind="sng", status="registering", game="nlhe", structure=omaha.structure,
        buy_in=omaha.buy_in,
    )  # fmt: skip

    assert omaha.title != holdem.title
    assert (omaha.title, holdem.title) == (
        "Regular Omaha sit-n-go · 100 points",
        "Regular Sit-n-go · 100 points",
    )


# --- a club's scheduled tournament ----------------------------------------------------


@pytest.fixture
def club(make_user) -> Club:
    return club_services.club_create(user=make_user("owner"), name="Thursday Crew")


def test_an_admin_schedules_an_omaha_tournament_from_the_club_page(client, club):
    client.force_login(club.memberships.get(role="owner").user)
    form = client.get(f"/clubs/{club.slug}/schedule/").content.decode()
    assert 'name="game"' in form and f">{OMAHA}</option>" in form

    client.post(
        f"/clubs/{club.slug}/schedule/",
        {"name": "PLO Night", "game": "plo", "starts_at": f"{timezone.now().year + 1}-01-15T18:30",
         "time_zone": "UTC", "buy_in": "100", "seats_per_table": "6", "max_entrants": "30",
         "structure": "regular", "late_registration_levels": "0",
         "row_kind": ["level"], "row_small_blind": ["25"], "row_big_blind": ["50"],
         "row_ante": ["0"], "row_minutes": ["20"]},
    )  # fmt: skip

    tournament = Tournament.objects.get()
    assert (tournament.game, tournament.club) == ("plo", club)
    detail = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f"<dt>Game</dt><dd data-game>{OMAHA}</dd>" in detail
    club_page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f"<td data-game>{OMAHA}</td>" in _row(club_page, tournament.pk)
    assert f"(<span data-game>{OMAHA}</span>)" in client.get("/clubs/").content.decode()


def test_every_table_an_omaha_tournament_draws_deals_omaha_to_the_winner(make_user):
    players = members(make_user, 8)
    tournament = started(registered(scheduled(game="plo", buy_in=100, seats_per_table=4), players))
    assert tournament.tables.count() == 2

    for _ in range(5_000):
        tournament.refresh_from_db()
        if tournament.status != "running":
            break
        for table in tournament.tables.filter(wake_at__isnull=False).order_by("pk"):
            shove(table)

    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert tournament.tables.filter(name__endswith="Final table").exists()
    assert set(tournament.tables.values_list("game", flat=True)) == {"plo"}
    hands = Hand.objects.filter(table__tournament=tournament)
    assert hands.exists() and set(hands.values_list("game", flat=True)) == {"plo"}
    assert sum(tournament.entries.values_list("prize", flat=True)) == tournament.prize_pool == 800
    assert moved_for(tournament) == 0, "buy-ins in, prizes out: no point made or lost"


def shove(table: Table) -> None:
    """One deal or decision at ``table``: whoever acts raises as far as the pot allows,
    else checks or calls (a hand goes all-in in a few raises: the field thins fast)."""
    table.refresh_from_db()  # another table's hand may have moved players here
    if table.wake_at is None:
        return
    state = hand_state(table)
    if state is None or state.is_over:
        table_services.hand_start(table_id=table.pk, seq=table.seq)
        return
    seat = Seat.objects.get(table=table, number=state.actor)
    legal = engine.legal_actions(state)
    action, amount = "raise", legal.max_raise_to
    if amount is None:
        action = "check" if legal.can_check else "call"
    table_services.hand_act(
        table_id=table.pk, user=seat.user, action=action, amount=amount, decision=decision_of(table)
    )


def test_a_late_entry_s_new_table_deals_omaha_too(make_user):
    players = members(make_user, 4)
    tournament = started(
        registered(
            scheduled(game="plo", seats_per_table=2, max_entrants=6, late_registration_levels=2),
            players,
        )
    )

    services.tournament_register(tournament_id=tournament.pk, user=make_user("late"))

    assert tournament.tables.count() == 3
    assert set(tournament.tables.values_list("game", flat=True)) == {"plo"}


# --- the API --------------------------------------------------------------------------


def test_the_api_schedules_an_omaha_club_tournament_and_names_its_game(make_user, club):
    owner = club.memberships.get(role="owner").user
    api = api_for(owner)

    response = api.post(
        f"/api/clubs/{club.slug}/tournaments/",
        {"name": "PLO Night", "starts_at": SOON, "game": "plo"},
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["game"], body["game_name"]) == ("plo", OMAHA)
    read = api.get(f"/api/tournaments/{body['id']}/").json()
    assert (read["game"], read["game_name"]) == ("plo", OMAHA)
    upcoming = api.get(f"/api/clubs/{club.slug}/").json()["tournaments"]["upcoming"]
    assert [t["game"] for t in upcoming] == ["plo"]


def test_the_api_schedules_hold_em_unless_asked_and_refuses_another_game(make_user, club):
    api = api_for(club.memberships.get(role="owner").user)
    path = f"/api/clubs/{club.slug}/tournaments/"

    plain = api.post(path, {"name": "Club Night", "starts_at": SOON}, format="json")
    stud = api.post(path, {"name": "Stud", "starts_at": SOON, "game": "stud"}, format="json")

    assert plain.json()["game"] == "nlhe" and plain.json()["game_name"] == HOLDEM
    assert (stud.status_code, stud.json()["code"]) == (400, "bad_game")
    assert Tournament.objects.count() == 1


def test_the_api_lists_the_lobby_s_sit_n_gos_with_their_games(make_user):
    omaha = omaha_sng()

    listed = api_for(make_user("reader")).get("/api/tournaments/?status=registering&limit=200")

    games = {t["id"]: t["game"] for t in listed.json()["results"]}
    assert games[omaha.pk] == "plo"
    assert set(games.values()) == {"nlhe", "plo"}


# --- histories ------------------------------------------------------------------------


@pytest.mark.usefixtures("clean_redis")
def test_an_omaha_tournament_hand_s_histories_name_the_game(make_user):
    tournament = play_to_the_end(register(omaha_sng(), members(make_user, 6)))
    winner = tournament.entries.get(place=1)
    hand = Hand.objects.filter(table=table_of(tournament)).order_by("number").last()
    api = APIClient()
    api.force_authenticate(winner.user)

    pokerstars = api.get(f"/api/hands/{hand.pk}/pokerstars").content.decode()
    phh = api.get(f"/api/hands/{hand.pk}/phh").content.decode()
    found = api.get(f"/api/hands/?tournament={tournament.pk}&game=plo").json()
    none = api.get(f"/api/hands/?tournament={tournament.pk}&game=nlhe").json()

    assert f"Tournament #{tournament.pk}, 100+0 Omaha Pot Limit - Level " in pokerstars
    assert 'variant = "PO"' in phh
    assert found["results"] and not none["results"]


def test_the_finished_lists_name_an_omaha_sit_n_go_s_game(client, make_user):
    tournament = play_to_the_end(register(omaha_sng(), members(make_user, 6)))
    client.force_login(make_user("reader"))

    page = client.get("/tournaments/").content.decode()

    assert f"<td data-game>{OMAHA}</td>" in _row(page, tournament.pk)


def _row(page: str, tournament_id: int) -> str:
    """The HTML of the page's row of that tournament."""
    start = page.index(f'data-tournament-id="{tournament_id}"')
    return page[start : page.index("</tr>", start)]


def test_a_tournament_table_of_omaha_says_so_on_its_page(client, make_user):
    players = members(make_user, 6)
    tournament = register(omaha_sng(), players)
    client.force_login(players[0])

    page = client.get(f"/tables/{table_of(tournament).pk}/").content.decode()

    assert f"<span data-game>{OMAHA}</span>" in page
    assert Table.objects.get(tournament=tournament).game == "plo"
