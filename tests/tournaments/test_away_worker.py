"""Rules 32 and 33 against the clock: a sit-n-go nobody came to is played out by the
worker's wake-ups in minutes, at the default structure: a short grace at each first
turn, not a full clock and time bank, and then a level a hand, not ten minutes."""

from __future__ import annotations

import time

import pytest

import config.settings as defaults
from tables.models import Hand
from tests.support import wait_for
from tests.tournaments.helpers import members, register, sng, table_of
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.waits_long]

# Six players who all fold to the big blind trade the blinds back and forth: nobody is
# knocked out until the blinds outgrow the 1,500-chip stacks. Everything is as Felt
# runs by default: ten-minute levels, which rule 33 runs ahead a level a hand.


def test_six_away_players_finish_a_regular_sng_in_under_three_minutes(
    celery_worker, make_user, settings
):
    settings.TABLES_NEXT_HAND_SECONDS = defaults.TABLES_NEXT_HAND_SECONDS
    settings.TABLES_SHOWDOWN_SECONDS = defaults.TABLES_SHOWDOWN_SECONDS
    settings.TABLES_RUNOUT_STREET_SECONDS = defaults.TABLES_RUNOUT_STREET_SECONDS
    settings.TOURNAMENTS_LEVEL_SECONDS = defaults.TOURNAMENTS_LEVEL_SECONDS
    assert settings.TOURNAMENTS_ACTION_SECONDS == 20
    assert settings.TABLES_TIME_BANK_SECONDS == 30
    started = time.monotonic()
    tournament = register(sng(structure="regular", buy_in=0), members(make_user, 6))
    table = table_of(tournament)

    # Hand 1: five first turns (the big blind's comes in hand 2), a short grace each.
    wait_for(lambda: Hand.objects.filter(table=table, number=3).exists(), seconds=60)
    first_hands = time.monotonic() - started
    wait_for(lambda: status_of(tournament) == "finished", seconds=180 - first_hands)
    took = time.monotonic() - started

    assert took < 180
    places = sorted(tournament.entries.values_list("place", flat=True))
    assert places[0] == 1 and None not in places
    print(f"six away players: hand 3 dealt after {first_hands:.1f} s, finished in {took:.1f} s")


def status_of(tournament: Tournament) -> str:
    return Tournament.objects.get(pk=tournament.pk).status
