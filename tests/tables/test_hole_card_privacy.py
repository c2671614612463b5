"""Hole cards stay with their owner when seats change hands or players change tables."""

from __future__ import annotations

import pytest

from tables import selectors, services
from tables.models import Table
from tests.tables.helpers import act, deal, fresh, friends_table


def all_cards_in(snapshot: dict) -> list:
    cards = [seat.get("cards") for seat in snapshot["seats"] if seat.get("cards")]
    logged = [e["cards"] for e in (snapshot["hand"] or {}).get("log", []) if "cards" in e]
    return cards + logged


@pytest.mark.django_db
def test_a_newcomer_in_a_vacated_seat_does_not_see_the_last_hands_cards(alice, bob, carol):
    table = friends_table(alice, bob, seat_count=2)
    deal(table)
    act(table, "fold")  # over without a showdown: nobody's cards were shown
    assert fresh(table).hand_number == 1
    seat_of_leaver = 0
    services.seat_leave(table_id=table.pk, user=alice)
    services.seat_take(table_id=table.pk, user=carol, seat=seat_of_leaver)
    snapshot = selectors.table_snapshot(table_id=table.pk, user=carol)
    assert snapshot["your_seat"] == seat_of_leaver
    assert snapshot["hand"]["is_over"]  # the last hand, alice's, is still on display
    assert all_cards_in(snapshot) == []


@pytest.mark.django_db
def test_a_player_seated_elsewhere_sees_no_cards_as_a_spectator_here(alice, bob, carol):
    table = friends_table(alice, bob, seat_count=2)
    other = friends_table(carol, alice, seat_count=2)
    deal(table)
    deal(other)
    snapshot = selectors.table_snapshot(table_id=table.pk, user=carol)
    assert snapshot["your_seat"] is None
    assert all_cards_in(snapshot) == []
    assert snapshot["legal"] is None
    assert Table.objects.count() == 2
