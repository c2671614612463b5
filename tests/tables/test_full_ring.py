"""A full ring: nine players at one friends' table, all the way to an all-in of everyone."""

from __future__ import annotations

import pytest

import engine
from tables.models import HandPlayer
from tests.tables.helpers import act, chips_on_table, deal, fresh, friends_table, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_nine_players_all_in_finish_the_hand_with_every_chip(make_user):
    players = [make_user(f"player{n}") for n in range(9)]
    table = friends_table(*players, seat_count=9, starting_stack=40)
    before = chips_on_table(table)
    deal(table)
    assert sum(state_of(table).is_dealt_in) == 9
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        if legal.max_raise_to is not None:
            act(table, "raise", legal.max_raise_to)
        else:
            act(table, "check" if legal.can_check else "call")
    assert chips_on_table(table) == before
    hand = fresh(table).hands.get(number=1)
    rows = HandPlayer.objects.filter(hand=hand)
    assert rows.count() == 9
    # Too many hands to enumerate every run-out: all-in EV is the net itself.
    assert not any(row.is_allin_ev for row in rows)
