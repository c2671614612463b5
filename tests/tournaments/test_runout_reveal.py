"""At a tournament's table an all-in run-out is revealed street by street like
anywhere else (docs/rules.md rule 30): the player it knocks out has no place,
prize or bust until the result step, and nobody's stack moves before it."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from tables import services as table_services
from tables.models import Seat
from tables.selectors import table_snapshot
from tests.tournaments.helpers import members, play_one_step, register, sng, table_of
from tournaments.models import Entry


@pytest.mark.django_db(transaction=True)
def test_a_player_knocked_out_in_a_run_out_learns_it_with_the_result(make_user, settings):
    settings.TABLES_RUNOUT_STREET_SECONDS = 1.0
    players = members(make_user, 6)
    tournament = register(sng("hyper", 100), players)
    table = table_of(tournament)
    revealed = 0
    for _ in range(3000):
        if Entry.objects.filter(tournament=tournament, place__isnull=False).exists():
            break
        table.refresh_from_db()
        if table.runout_revealed is None:
            play_one_step(tournament)  # everyone shoves: all-ins are run out
            continue
        # The run-out is being revealed: nothing of its result is known yet.
        revealed += 1
        stacks = dict(Seat.objects.filter(table=table).values_list("user_id", "stack"))
        for player in players:
            seen = table_snapshot(table_id=table.pk, user=player)
            assert seen["hand"]["winners"] == [] and seen["your_result"] is None
            assert seen["waiting_for"] is None and seen["your_purchases"] in (None, {})
        now = timezone.now()
        step = 0
        while table.runout_revealed is not None:
            assert Entry.objects.filter(tournament=tournament, place__isnull=False).count() == 0
            assert dict(Seat.objects.filter(table=table).values_list("user_id", "stack")) == stacks
            step += 1
            with time_machine.travel(now + timedelta(seconds=step + 0.01), tick=False):
                assert table_services.table_wake(table_id=table.pk, seq=table.seq)
            table.refresh_from_db()
    out = Entry.objects.filter(tournament=tournament, place__isnull=False)
    assert out.exists() and revealed > 0
    # the place came with the result step: the player out now sees it
    placed = out.first()
    assert table_snapshot(table_id=table.pk, user=placed.user)["your_result"] is not None
