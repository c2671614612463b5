"""A tournament hand's PokerStars text: the tournament header and the places decided."""

from __future__ import annotations

import pytest

import engine
from tables.models import Hand
from tests.tournaments.helpers import members, play_to_the_end, register, sng, table_of
from tournaments.histories import pokerstars_meta

pytestmark = pytest.mark.django_db


def text_for(hand: Hand, viewer: int | None) -> str:
    state = engine.replay([engine.event_from_dict(e) for e in hand.events])
    names = [None] * state.seat_count
    for player in hand.players.all():
        names[player.seat] = player.name
    return engine.to_pokerstars(
        state, hand_id=hand.pk, players=names, viewer=viewer, **pokerstars_meta(hand)
    )


def test_the_last_hand_names_the_tournament_its_places_and_the_winner(make_user):
    tournament = play_to_the_end(register(sng(buy_in=100), members(make_user, 6)))
    table = table_of(tournament)
    last = Hand.objects.get(table=table, number=table.hand_number)
    winner = tournament.entries.get(place=1)

    text = text_for(last, viewer=None)

    first_line = text.splitlines()[0]
    assert first_line.startswith(
        f"PokerStars Hand #{last.pk}: Tournament #{tournament.pk}, 100+0 Hold'em No Limit - Level "
    )
    assert f"{winner.name} wins the tournament" in text
    assert "finished the tournament in 2nd place" in text
    assert "Dealt to" not in text, "an observer sees no hole cards"


def test_a_hand_of_a_friends_table_has_no_tournament_header(make_user):
    from tests.tables.helpers import act, deal, friends_table

    table = friends_table(make_user("alice"), make_user("bob"))
    deal(table)
    act(table, "fold")
    hand = Hand.objects.get(table=table, number=1)
    assert pokerstars_meta(hand) == {}
    assert "Tournament" not in text_for(hand, viewer=0)


@pytest.mark.usefixtures("clean_redis")
def test_the_api_gives_a_player_the_tournament_text_of_their_hand(make_user):
    from rest_framework.test import APIClient

    tournament = play_to_the_end(register(sng(buy_in=100), members(make_user, 6)))
    table = table_of(tournament)
    last = Hand.objects.get(table=table, number=table.hand_number)
    winner = tournament.entries.get(place=1)
    api = APIClient()
    api.force_authenticate(winner.user)

    text = api.get(f"/api/hands/{last.pk}/pokerstars").content.decode()

    assert f"Tournament #{tournament.pk}, 100+0 Hold'em No Limit - Level " in text.splitlines()[0]
    assert f"{winner.name} wins the tournament" in text
    assert f"Dealt to {winner.name} [" in text


@pytest.mark.usefixtures("clean_redis")
def test_a_tournament_hand_counts_its_level_from_one_in_the_json_and_both_texts(make_user):
    from rest_framework.test import APIClient

    tournament = play_to_the_end(register(sng(buy_in=100), members(make_user, 6)))
    first = Hand.objects.get(table=table_of(tournament), number=1)
    assert first.level == 0  # stored from 0: the structure's first level
    api = APIClient()
    api.force_authenticate(first.players.first().user)

    detail = api.get(f"/api/hands/{first.pk}/").json()
    phh = api.get(f"/api/hands/{first.pk}/phh").content.decode()
    pokerstars = api.get(f"/api/hands/{first.pk}/pokerstars").content.decode()

    assert detail["level"] == 1
    assert "level = 1\n" in phh
    assert f'event = "Felt Tournament #{tournament.pk}, {tournament.title}"' in phh
    assert " - Level I (" in pokerstars.splitlines()[0]


def test_a_hand_outside_a_tournament_has_no_level(make_user):
    from rest_framework.test import APIClient

    from tests.tables.helpers import act, deal, friends_table

    alice = make_user("alice")
    table = friends_table(alice, make_user("bob"))
    deal(table)
    act(table, "fold")
    api = APIClient()
    api.force_authenticate(alice)
    hand = Hand.objects.get(table=table, number=1)
    assert api.get(f"/api/hands/{hand.pk}/").json()["level"] is None
    assert "level =" not in api.get(f"/api/hands/{hand.pk}/phh").content.decode()
