"""The players' cut at a live table (docs/fairness.md, "The cut"): commitments taken for
the open hand, the list closed when the next deck is sealed, values revealed in the
pause, the deal cut with them; and a server that re-seals once it knows the cut, or
leaves out a value that came in time, is caught by the players' own check."""

from __future__ import annotations

import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from engine.cut import contribution_commitment, new_value
from tables import selectors, services
from tables.errors import BadCut, NotSeated, StaleCut
from tables.fairness_log.append import log_append
from tables.models import Hand, Table
from tables.services import cut as table_cut
from tests.tables.cutting import Player
from tests.tables.helpers import deal, fresh, friends_table, state_of
from tests.tables.sockets import Client
from tests.tables.test_fairness import fold_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]


def sealed_as_shown(table: Table, user: Any) -> dict[str, Any]:
    """The next hand's seal and closed list, as the players' snapshot showed them."""
    sealed = selectors.table_snapshot(table_id=table.pk, user=user)["cut"]["sealed"]
    assert sealed is not None, "the next deck is sealed before its deal"
    return dict(sealed)


def first_hand_then_committed(alice: Any, bob: Any) -> tuple[Table, Player, Player]:
    """A friends' table whose first hand (sealed as it was planned, before anyone could
    commit: uncut) is played out while both players commit for the next."""
    table = friends_table(alice, bob)
    a, b = Player(alice, table), Player(bob, table)
    a.commit()
    b.commit()
    deal(table)
    first = Hand.objects.get(table=table, number=1)
    assert first.cut is not None and first.cut["uncut"], "the first deck was sealed first"
    fold_out(table)
    return table, a, b


def both_revealed(alice: Any, bob: Any) -> tuple[Table, Player, Player, dict[str, Any]]:
    """``first_hand_then_committed``, then both players reveal for the sealed hand 2:
    the table, the players, and the seal and list they were shown."""
    table, a, b = first_hand_then_committed(alice, bob)
    shown = sealed_as_shown(table, alice)
    a.reveal()
    b.reveal()
    return table, a, b, shown


def test_both_values_cut_the_next_hand_and_each_player_checks_it(alice, bob):
    table, a, b, shown = both_revealed(alice, bob)
    assert sorted(shown["commitments"]) == sorted(
        contribution_commitment(shown["hand"], player.values[shown["hand"]]) for player in (a, b)
    )
    deal(table)
    fold_out(table)
    hand = Hand.objects.get(table=table, number=2)
    assert hand.commitment == shown["seal"]
    assert sorted(c["value"] for c in hand.cut["contributions"]) == sorted(
        player.values[shown["hand"]] for player in (a, b)
    )
    assert a.checks(hand, shown["seal"]) == [] and b.checks(hand, shown["seal"]) == []


def test_the_deal_follows_the_cut_of_the_sealed_deck(alice, bob):
    table, _, _, _ = both_revealed(alice, bob)
    deal(table)
    sealed = Hand.objects.get(table=table, number=2)
    cut = engine.make_cut(
        sealed.cut["hand"],
        sealed.commitment,
        [(c["commitment"], c["value"]) for c in sealed.cut["contributions"]],
    )
    leaf_of = {leaf: i for i, leaf in enumerate(sealed.deck_leaves)}
    dealt = state_of(table).deck
    for position, card in enumerate(dealt):
        at = cut.permutation[position]
        salt = sealed.deck_salts[at]
        assert engine.fairness.leaf(at, engine.card_str(card), salt) in leaf_of


def test_a_value_that_does_not_open_its_commitment_is_refused_and_nothing_changes(alice, bob):
    table, a, _ = first_hand_then_committed(alice, bob)
    ref = sealed_as_shown(table, alice)["hand"]
    before = fresh(table).cut
    with pytest.raises(BadCut):
        services.cut_send(table_id=table.pk, user=alice, reveal=(ref, new_value()))
    with pytest.raises(BadCut):
        services.cut_send(table_id=table.pk, user=alice, reveal=(ref, "not hex"))
    assert fresh(table).cut == before


def test_a_stale_hand_a_late_commitment_and_a_spectator_are_refused(alice, bob, carol):
    table, a, b = first_hand_then_committed(alice, bob)
    sealed = sealed_as_shown(table, alice)
    commitment = contribution_commitment(sealed["hand"], new_value())
    with pytest.raises(StaleCut):  # the list closed at the seal
        services.cut_send(table_id=table.pk, user=alice, commit=(sealed["hand"], commitment))
    with pytest.raises(StaleCut):
        services.cut_send(table_id=table.pk, user=alice, reveal=("ab" * 16, new_value()))
    with pytest.raises(NotSeated):
        services.cut_send(table_id=table.pk, user=carol, reveal=(sealed["hand"], new_value()))
    # A refused half keeps the other half out too.
    good_commit = (fresh(table).cut["open"]["hand"], commitment)
    with pytest.raises(StaleCut):
        services.cut_send(
            table_id=table.pk, user=bob, commit=good_commit, reveal=("ab" * 16, new_value())
        )
    assert str(b.user.pk) not in str(fresh(table).cut["open"]["commitments"])


def test_a_missing_value_holds_the_deal_a_bounded_wait_and_is_left_out(alice, bob, settings):
    settings.TABLES_CUT_WAIT_SECONDS = 0.3
    table, a, b = first_hand_then_committed(alice, bob)
    shown = sealed_as_shown(table, alice)
    a.reveal()
    services.hand_start(table_id=table.pk, seq=fresh(table).seq)
    assert fresh(table).hand_number == 1, "the deal waits for bob's value"
    services.hand_start(table_id=table.pk, seq=fresh(table).seq)
    assert fresh(table).hand_number == 1, "still within the wait"
    time.sleep(0.35)
    services.hand_start(table_id=table.pk, seq=fresh(table).seq)
    assert fresh(table).hand_number == 2, "dealt once the wait is over"
    with pytest.raises(StaleCut):  # bob's value came too late
        services.cut_send(
            table_id=table.pk, user=bob, reveal=(shown["hand"], b.values[shown["hand"]])
        )
    fold_out(table)
    hand = Hand.objects.get(table=table, number=2)
    left_out = [c["commitment"] for c in hand.cut["contributions"] if c["value"] is None]
    assert left_out == [contribution_commitment(shown["hand"], b.values[shown["hand"]])]
    assert not hand.cut["uncut"], "alice's value cut it"
    assert a.checks(hand, shown["seal"]) == []
    assert b.checks(hand, shown["seal"], own=False) == [], "late, so not disputed"
    log_append()
    head = APIClient().get("/api/fairness-log/head/").json()
    assert head["tree_size"] == 2
    assert head["cut"] == {"hands_cut": 2, "hands_uncut": 1, "values_left_out": 1}


def test_the_last_value_the_deal_waits_for_deals_at_once(alice, bob):
    table, a, b = first_hand_then_committed(alice, bob)
    a.reveal()
    services.hand_start(table_id=table.pk, seq=fresh(table).seq)
    assert fresh(table).hand_number == 1
    b.reveal()
    waiting = fresh(table)
    assert waiting.wake_at is not None and waiting.wake_at <= timezone.now(), "due at once"
    assert services.table_wake(table_id=table.pk, seq=waiting.seq) == "hand_start"
    assert fresh(table).hand_number == 2 and not state_of(table).is_over
    hand = Hand.objects.get(table=table, number=2)
    assert all(c["value"] for c in hand.cut["contributions"])


def test_a_server_that_seals_again_once_it_knows_the_cut_is_caught(alice, bob, monkeypatch):
    table, a, b, shown = both_revealed(alice, bob)
    honest = table_cut.deck_for_deal
    aces = [engine.card(text) for text in ("As", "Ah", "Ad", "Ac")]

    def stacked(play: Any) -> Any:
        """Knowing the values, it builds the sealed deck that the cut deals aces from
        the top, seals that one, and deals it as the cut says."""
        deck, _, made = honest(play)
        order = engine.cut_permutation(bytes.fromhex(made["seed"]))
        rest = [card for card in deck if card not in aces]
        sealed = [0] * 52
        for position, card in enumerate([*aces, *rest]):
            sealed[order[position]] = card
        seal = engine.seal_deck(sealed)
        return engine.cut_deck(sealed, order), seal, made

    monkeypatch.setattr(table_cut, "deck_for_deal", stacked)
    deal(table)
    assert sorted(state_of(table).deck[:4]) == sorted(aces), "the cheat placed its cards"
    fold_out(table)
    hand = Hand.objects.get(table=table, number=2)
    for player in (a, b):
        problems = player.checks(hand, shown["seal"])
        assert any("commitment" in problem for problem in problems), problems
        without_the_note = player.checks(hand, None)
        assert any(problem.startswith("cut: ") for problem in without_the_note), (
            "even a player who kept no note of the seal sees the cut does not match"
        )


def test_a_value_the_server_left_out_though_it_came_in_time_is_disputed(alice, bob, monkeypatch):
    table, a, b, shown = both_revealed(alice, bob)
    honest = table_cut.deck_for_deal

    def drops_bob(play: Any) -> Any:
        sealed = play.table.cut["sealed"]
        bob_key = next(
            k for k in sealed["values"] if sealed["values"][k] == b.values[shown["hand"]]
        )
        values = {k: v for k, v in sealed["values"].items() if k != bob_key}
        play.table.cut = {**play.table.cut, "sealed": {**sealed, "values": values}}
        return honest(play)

    monkeypatch.setattr(table_cut, "deck_for_deal", drops_bob)
    deal(table)
    fold_out(table)
    hand = Hand.objects.get(table=table, number=2)
    assert a.checks(hand, shown["seal"]) == []
    problems = b.checks(hand, shown["seal"])
    assert problems and "disputed" in problems[-1], problems


def test_an_away_players_commitment_is_not_listed_and_the_hand_is_not_held_for_it(
    alice, bob, carol
):
    table = friends_table(alice, bob, carol)
    players = [Player(user, table) for user in (alice, bob, carol)]
    for player in players:
        player.commit()
    deal(table)
    services.seat_sit_out(table_id=table.pk, user=carol)
    fold_out(table)
    shown = sealed_as_shown(table, alice)
    assert len(shown["commitments"]) == 2, "carol is away: her value is not waited for"
    players[0].reveal()
    players[1].reveal()
    deal(table)
    assert fresh(table).hand_number == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_database_connections")
async def test_over_the_socket_a_cut_is_answered_to_its_sender_alone(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob)
    player, other, spectator = [await Client.open(u, table.pk) for u in (alice, bob, carol)]
    cut = player.table["cut"]
    assert cut["sealed"]["commitments"] == [] and cut["open"], "the first deck is sealed"
    ref, value = cut["open"], new_value()
    await player.send(
        {"type": "cut", "commit": {"hand": ref, "commitment": contribution_commitment(ref, value)}}
    )
    assert await player.next_but_presence() == {
        "type": "cut_accepted",
        "commit": ref,
        "reveal": None,
    }
    assert await other.is_quiet() and await spectator.is_quiet(), "nothing anyone sees changed"
    refused = await spectator.error(
        {"type": "cut", "commit": {"hand": ref, "commitment": "ab" * 32}}
    )
    assert refused["code"] == "not_seated"
    stale = await player.error({"type": "cut", "reveal": {"hand": ref, "value": value}})
    assert stale["code"] == "stale_cut", "not sealed yet: nothing to reveal"
    for malformed in (
        {"type": "cut"},
        {"type": "cut", "commit": {"hand": ref}},
        {"type": "cut", "commit": {"hand": ref, "commitment": 5}},
        {"type": "cut", "reveal": {"hand": ref, "value": "a" * 65}},
        {"type": "cut", "reveal": [ref, value]},
    ):
        assert (await player.error(malformed))["code"] == "bad_message", malformed
    for client in (player, other, spectator):
        await client.close()
