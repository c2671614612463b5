"""A player still in a running tournament is offered their seat first, not "Watch":
on the tournament list, the tournament's page, the lobby and their club's page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Seat
from tests.support.tournaments import registered, scheduled, started
from tests.tournaments.helpers import members, register, sng
from tournaments import services
from tournaments.clubs import services as club_services
from tournaments.models import Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = pytest.mark.django_db


def seat_url(tournament: Tournament) -> str:
    return f"/tournaments/{tournament.pk}/seat/"


def running_row(page: str, tournament: Tournament) -> str:
    start = page.index(f'<tr data-tournament-id="{tournament.pk}" data-playing=')
    return page[start : page.index("</tr>", start)]


def test_the_tournament_list_offers_a_player_their_seat_and_others_the_table(client, make_user):
    players = members(make_user, 6)
    tournament = register(sng(structure="turbo", buy_in=0), players)

    client.force_login(players[2])
    row = running_row(client.get("/tournaments/").content.decode(), tournament)
    assert f'href="{seat_url(tournament)}" data-seat-link>Take your seat</a>' in row
    assert "Watch" not in row

    client.force_login(make_user("onlooker"))
    row = running_row(client.get("/tournaments/").content.decode(), tournament)
    assert ">Watch</a>" in row and "Take your seat" not in row


def test_the_seat_link_leads_a_player_to_the_table_they_sit_at_now(client, make_user):
    players = members(make_user, 8)
    tournament = started(registered(scheduled(seats_per_table=4), players))
    theirs = Seat.objects.get(user=players[5]).table_id
    client.force_login(players[5])

    assert client.get(seat_url(tournament)).url == f"/tables/{theirs}/"

    client.force_login(make_user("onlooker"))
    assert client.get(seat_url(tournament)).url == f"/tournaments/{tournament.pk}/"


def test_a_player_out_of_it_is_sent_to_the_tournament_page(client, make_user):
    players = members(make_user, 6)
    tournament = register(sng(structure="turbo", buy_in=0), players)
    tournament.entries.filter(user=players[0]).update(place=6)
    client.force_login(players[0])

    assert client.get(seat_url(tournament)).url == f"/tournaments/{tournament.pk}/"
    row = running_row(client.get("/tournaments/").content.decode(), tournament)
    assert ">Watch</a>" in row


def test_a_registered_player_s_page_holds_their_seat_link_for_the_start(client, make_user):
    players = members(make_user, 5)
    tournament = register(sng(structure="turbo", buy_in=0), players)
    client.force_login(players[0])

    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()

    # Hidden until the start; static/js/tournament.js shows it when play begins.
    link = f'<a class="button" href="{seat_url(tournament)}" data-table-link>Take your seat'
    assert f"<p data-seat-link hidden>{link}" in page


def test_the_lobby_offers_a_player_the_seat_of_their_running_tournament(client, make_user):
    players = members(make_user, 6)
    tournament = register(sng(structure="turbo", buy_in=0), players)
    table = Seat.objects.get(user=players[1]).table
    client.force_login(players[1])

    page = client.get("/").content.decode()

    assert "Where you are playing" in page and table.name in page
    assert f'href="/tables/{table.pk}/">Take your seat</a>' in page
    assert table.tournament_id == tournament.pk

    client.force_login(make_user("onlooker"))
    assert "Where you are playing" not in client.get("/").content.decode()


def test_a_club_page_offers_a_player_their_seat_in_the_club_s_running_tournament(client, make_user):
    owner = make_user("owner")
    club = club_services.club_create(user=owner, name="Thursday Crew", description="")
    bob = make_user("bob")
    club_services.club_join(slug=club.slug, user=bob, token=club.invite_token)
    tournament = club_services.club_tournament_schedule(
        slug=club.slug, admin=owner, settings=TournamentSettings(name="Club Night",
        starts_at=timezone.now() + timedelta(minutes=5), seats_per_table=2),
    )  # fmt: skip
    for player in (bob, owner):
        services.tournament_register(tournament_id=tournament.pk, user=player)
    services.mtt_start(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=6))
    client.force_login(bob)

    page = client.get(f"/clubs/{club.slug}/").content.decode()

    assert (
        f'<li><a class="button" href="{seat_url(tournament)}" data-seat-link>Take your seat' in page
    )
