"""A friends' table's game and home-game options in play: Pot-Limit Omaha, the
straddle (rule 23), bomb pots (rule 24) and run it twice (rule 25), each
through the services a player's or host's socket command runs."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from engine import __main__ as engine_cli
from tables import services
from tables.errors import BadOptions, IllegalMove, NotHost
from tables.history import projection
from tables.history.facts import allin_ev
from tables.history.replay import replay_steps
from tables.models import Hand, HandPlayer, Seat
from tables.play import hand_state
from tables.services.tables import BadTableSettings
from tables.snapshot import build_snapshot, hand_winners
from tests.tables.helpers import act, chips_on_table, deal, fresh, friends_table, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def snapshot_for(table, user=None):
    table = fresh(table)
    seats = {seat.number: seat for seat in Seat.objects.filter(table=table)}
    viewer = next((seat for seat in seats.values() if user and seat.user_id == user.pk), None)
    return build_snapshot(table, seats, hand_state(table), viewer, timezone.now())


def all_in_preflop(table) -> engine.HandState:
    """Everyone raises as much as they may (in Omaha, the pot) until all are all-in."""
    while (legal := engine.legal_actions(state_of(table))).actor is not None:
        if legal.max_raise_to is None:
            act(table, "call")
        else:
            act(table, "raise", legal.max_raise_to)
    return state_of(table)


def test_an_omaha_table_deals_four_cards_and_names_each_player_s_hand(alice, bob):
    table = friends_table(alice, bob, game="plo")
    hand = deal(table)
    assert hand.game == "plo" and all(len(hand.holes[s]) == 4 for s in hand.players)
    mine = snapshot_for(table, alice)
    assert len(mine["seats"][0]["cards"]) == 4
    assert mine["seats"][1]["cards"] is None
    assert mine["hand"]["game"] == "plo" and mine["game"] == "plo"
    assert mine["your_hand"].startswith(("Pair of", "High Card"))
    # pot limit: the first raise is at most the pot after calling (blinds 10/20: 60)
    actor = alice if hand.actor == 0 else bob
    assert snapshot_for(table, actor)["legal"]["max_raise_to"] == 60


def test_an_omaha_hand_is_recorded_as_omaha_with_its_result(alice, bob):
    table = friends_table(alice, bob, game="plo")
    deal(table)
    all_in_preflop(table)
    stored = Hand.objects.get(table=table)
    assert stored.game == "plo"
    assert stored.is_over and len(stored.board) == 5
    assert sum(stored.final_stacks) == 3000
    over = snapshot_for(table, bob)
    winners = over["hand"]["winners"]
    assert winners and all(len(w["cards"]) in (0, 5) for w in winners)


def test_a_player_who_ticks_straddle_posts_it_under_the_gun(alice, bob, carol):
    table = friends_table(alice, bob, carol, allows_straddle=True)
    for user in (alice, bob, carol):
        services.seat_straddle(table_id=table.pk, user=user, on=True)
    hand = deal(table)
    assert hand.straddle_seat == hand.button  # three-handed, the button is under the gun
    assert hand.bets[hand.straddle_seat] == 40
    seen = snapshot_for(table, alice)
    assert seen["seats"][hand.straddle_seat]["is_straddle"] is True
    assert seen["hand"]["straddle_seat"] == hand.straddle_seat
    assert engine.legal_actions(hand).min_raise_to == 80


def test_no_straddle_for_a_player_who_did_not_tick_it_or_is_away(alice, bob, carol):
    table = friends_table(alice, bob, carol, allows_straddle=True)
    assert deal(table).straddle_seat is None  # nobody ticked it
    while not state_of(table).is_over:
        act(table, "fold" if engine.legal_actions(state_of(table)).can_fold else "check")
    for user in (alice, bob, carol):
        services.seat_straddle(table_id=table.pk, user=user, on=True)
    done = fresh(table)
    last = engine.Positions(done.button, done.small_blind_seat, done.big_blind_seat)
    coming = engine.next_positions(last, [0, 1, 2], 3)
    under_the_gun = engine.under_the_gun([1500] * 3, coming.big_blind_seat)
    away = Seat.objects.get(table=table, number=under_the_gun).user
    services.seat_sit_out(table_id=table.pk, user=away)
    assert deal(table).straddle_seat is None


def test_a_table_without_straddles_refuses_the_tick(alice, bob):
    table = friends_table(alice, bob)
    with pytest.raises(BadOptions, match="does not allow straddles"):
        services.seat_straddle(table_id=table.pk, user=alice, on=True)
    assert not Seat.objects.get(table=table, number=0).wants_straddle


def test_the_host_calls_a_bomb_pot_for_the_next_hand_only(alice, bob, carol):
    table = friends_table(alice, bob, carol, bomb_pot_ante=40)
    services.table_call_bomb_pot(table_id=table.pk, user=alice, on=True)
    assert snapshot_for(table)["options"]["bomb_pot_next"] is True
    hand = deal(table)
    assert hand.bomb_pot == 40 and hand.street == "flop"
    assert hand.stacks[:3] == (1460, 1460, 1460)
    assert not fresh(table).bomb_pot_next
    assert Hand.objects.get(table=table, number=1).bomb_pot == 40
    while not state_of(table).is_over:
        act(table, "check")
    assert chips_on_table(table) == 4500
    assert deal(table).bomb_pot == 0


def test_a_bomb_pot_every_third_hand(alice, bob):
    table = friends_table(alice, bob, bomb_pot_ante=20, bomb_pot_every=3)
    kinds = []
    for _ in range(3):
        hand = deal(table)
        kinds.append(hand.bomb_pot)
        while not state_of(table).is_over:
            legal = engine.legal_actions(state_of(table))
            act(table, "fold" if legal.can_fold else "check")
    assert kinds == [0, 0, 20]


def set_options(table, user, **chosen) -> int:
    """The host's set_options with Omaha and nothing else unless ``chosen`` says so."""
    options = {"allows_straddle": False, "offers_run_it_twice": False}
    options |= {"bomb_pot_ante": 0, "bomb_pot_every": 0, **chosen}
    return services.table_set_options(table_id=table.pk, user=user, game="plo", **options)


def test_only_the_host_sets_the_options_and_bad_ones_change_nothing(alice, bob):
    table = friends_table(alice, bob)
    with pytest.raises(NotHost):
        set_options(table, bob, allows_straddle=True, offers_run_it_twice=True)
    with pytest.raises(BadOptions, match="bomb pot comes every 2 to 50 hands"):
        set_options(table, alice, bomb_pot_ante=40, bomb_pot_every=1)
    with pytest.raises(BadOptions, match="Set the bomb pot's stake first"):
        services.table_call_bomb_pot(table_id=table.pk, user=alice, on=True)
    assert fresh(table).game == "nlhe"
    set_options(table, alice, allows_straddle=True, offers_run_it_twice=True, bomb_pot_ante=40)
    options = snapshot_for(table)["options"]
    assert options == {
        "straddle": True,
        "run_it_twice": True,
        "bomb_pot_ante": 40,
        "bomb_pot_every": 0,
        "bomb_pot_next": False,
    }
    assert deal(table).game == "plo"


def test_a_table_cannot_open_with_a_bomb_pot_beyond_the_starting_stack(alice):
    with pytest.raises(BadOptions, match="from the big blind"):
        services.table_create(owner=alice, name="x", bomb_pot_ante=5000)
    with pytest.raises(BadTableSettings):
        services.table_create(owner=alice, name="x", seat_count=12)


def test_both_players_say_yes_and_the_board_runs_twice(alice, bob):
    table = friends_table(alice, bob, offers_run_it_twice=True)
    deal(table)
    paused = all_in_preflop(table)
    assert paused.runout_pending
    question = snapshot_for(table, alice)["hand"]["runout"]
    assert question == {"seats": [0, 1], "answers": {}}
    assert fresh(table).deadline is not None
    services.runout_answer(table_id=table.pk, user=alice, run_twice=True)
    assert snapshot_for(table)["hand"]["runout"]["answers"] == {0: True}
    with pytest.raises(IllegalMove, match="already answered"):
        services.runout_answer(table_id=table.pk, user=alice, run_twice=False)
    services.runout_answer(table_id=table.pk, user=bob, run_twice=True)
    over = state_of(table)
    assert over.is_over and len(over.second_board) == 5
    stored = Hand.objects.get(table=table)
    assert len(stored.second_board) == 5
    assert sum(stored.final_stacks) == 3000
    assert chips_on_table(table) == 3000
    assert snapshot_for(table, bob)["hand"]["second_board"] == stored.second_board


def test_one_no_runs_the_board_once_at_once(alice, bob):
    table = friends_table(alice, bob, offers_run_it_twice=True)
    deal(table)
    all_in_preflop(table)
    services.runout_answer(table_id=table.pk, user=bob, run_twice=False)
    over = state_of(table)
    assert over.is_over and over.second_board == ()
    assert engine.RunoutsChosen(1) in over.events


def test_nobody_answering_runs_the_board_once_when_the_time_is_up(alice, bob):
    table = friends_table(alice, bob, offers_run_it_twice=True)
    deal(table)
    all_in_preflop(table)
    services.runout_answer(table_id=table.pk, user=alice, run_twice=True)
    waiting = fresh(table)
    assert not services.runout_timeout(table_id=table.pk, seq=waiting.seq)  # not yet due
    with time_machine.travel(timezone.now() + timedelta(seconds=11), tick=False):
        assert services.table_wake(table_id=table.pk, seq=waiting.seq) == "runout_timeout"
    assert state_of(table).is_over and state_of(table).second_board == ()


def test_answers_out_of_place_are_refused(alice, bob, carol):
    table = friends_table(alice, bob, carol, offers_run_it_twice=True)
    deal(table)
    with pytest.raises(IllegalMove, match="Nobody is being asked"):
        services.runout_answer(table_id=table.pk, user=alice, run_twice=True)
    # the first to act folds; the other two go all-in
    act(table, "fold")
    folded = next(
        s for s in Seat.objects.filter(table=table) if state_of(table).has_folded[s.number]
    )
    all_in_preflop(table)
    seq = fresh(table).seq
    with pytest.raises(IllegalMove, match="Only the players in the pot"):
        services.runout_answer(table_id=table.pk, user=folded.user, run_twice=True)
    assert fresh(table).seq == seq


def all_in_but_the_last_call(table) -> int:
    """Everyone moves in or calls but the last player; returns that player's seat."""
    act(table, "raise", engine.legal_actions(state_of(table)).max_raise_to)
    act(table, "call")
    last = state_of(table).actor
    assert last is not None
    return last


def test_a_bot_agrees_to_run_it_twice(alice, bob, carol):
    table = friends_table(alice, bob, carol, offers_run_it_twice=True)
    deal(table)
    last = all_in_but_the_last_call(table)
    bot = next(n for n in range(3) if n != last)
    Seat.objects.filter(table=table, number=bot).update(is_bot=True, user=None, bot_name="Robo")
    act(table, "call")
    assert fresh(table).runout_answers == {str(bot): True}
    for seat in Seat.objects.filter(table=table, is_bot=False):
        services.runout_answer(table_id=table.pk, user=seat.user, run_twice=True)
    assert len(state_of(table).second_board) == 5


def test_a_player_away_declines_and_the_board_runs_once(alice, bob, carol):
    table = friends_table(alice, bob, carol, offers_run_it_twice=True)
    deal(table)
    last = all_in_but_the_last_call(table)
    away = Seat.objects.get(table=table, number=next(n for n in range(3) if n != last))
    services.seat_sit_out(table_id=table.pk, user=away.user)
    act(table, "call")
    over = state_of(table)
    assert over.is_over and engine.RunoutsChosen(1) in over.events
    assert chips_on_table(table) == 4500


def test_a_bomb_pot_counts_in_no_one_s_vpip_or_pfr(alice, bob):
    table = friends_table(alice, bob, bomb_pot_ante=20, bomb_pot_every=2)
    for _ in range(2):  # an ordinary hand the big blind wins, then a bomb pot checked down
        deal(table)
        while not state_of(table).is_over:
            legal = engine.legal_actions(state_of(table))
            act(table, "fold" if legal.can_fold else "check")
    rows = HandPlayer.objects.filter(hand__table=table)
    bomb = rows.filter(hand__bomb_pot=20)
    assert bomb.count() == 2 and not any(row.vpip_chance for row in bomb)
    assert rows.exclude(hand__bomb_pot=20).filter(vpip_chance=True).exists()


def test_stats_are_asked_per_game(alice, bob):
    holdem = friends_table(alice, bob)
    deal(holdem)
    act(holdem, "fold")
    omaha = friends_table(alice, bob, game="plo", name="Omaha night")
    deal(omaha)
    act(omaha, "raise", engine.legal_actions(state_of(omaha)).max_raise_to)
    act(omaha, "fold")
    api = APIClient()
    api.force_authenticate(alice)
    every = api.get(f"/api/players/{alice.username}/stats/").json()
    plo = api.get(f"/api/players/{alice.username}/stats/", {"game": "plo"}).json()
    nlhe = api.get(f"/api/players/{alice.username}/stats/", {"game": "nlhe"}).json()
    assert (every["hands"], plo["hands"], nlhe["hands"]) == (2, 1, 1)
    refused = api.get(f"/api/players/{alice.username}/stats/", {"game": "stud"})
    assert refused.status_code == 400 and refused.json()["parameters"] == ["game"]
    listed = api.get("/api/hands/", {"game": "plo"}).json()
    assert [hand["id"] for hand in listed["results"]] == [Hand.objects.get(table=omaha).pk]


def run_twice_at(table, *users) -> Hand:
    """An all-in before the flop that everyone asks to run twice; the stored hand."""
    deal(table)
    all_in_preflop(table)
    for user in users:
        services.runout_answer(table_id=table.pk, user=user, run_twice=True)
    return Hand.objects.get(table=table, number=fresh(table).hand_number)


def test_a_hand_run_twice_shows_both_boards_and_its_deck_verifies(alice, bob, tmp_path):
    table = friends_table(alice, bob, offers_run_it_twice=True)
    stored = run_twice_at(table, alice, bob)
    api = APIClient()
    api.force_authenticate(bob)
    body = api.get(f"/api/hands/{stored.pk}/").json()
    assert body["game"] == "nlhe" and len(body["second_board"]) == 5
    assert sorted({pot["board"] for pot in body["pots"]}) == [1, 2]
    assert sum(pot["amount"] for pot in body["pots"]) == stored.pot
    # both boards' cards were sealed before the deal: the check passes, and fails
    # when the second board is given wrong
    (tmp_path / "hand.json").write_text(json.dumps(body))
    assert engine_cli.main(["verify", str(tmp_path / "hand.json")]) == 0
    wrong = {**body, "second_board": [*body["second_board"][:4], body["board"][4]]}
    (tmp_path / "wrong.json").write_text(json.dumps(wrong))
    assert engine_cli.main(["verify", str(tmp_path / "wrong.json")]) == 1


def test_the_replayer_steps_through_the_choice_to_both_boards(alice, bob, client):
    table = friends_table(alice, bob, offers_run_it_twice=True)
    stored = run_twice_at(table, alice, bob)
    viewed = projection.hand_for_viewer(user=alice, hand_id=stored.pk)
    steps = replay_steps(viewed)
    assert steps[-1]["label"].startswith("The players run it twice ·")  # then who won
    last = steps[-1]["table"]["hand"]
    assert last["is_over"] and len(last["board"]) == len(last["second_board"]) == 5
    assert sorted({w["board"] for w in last["winners"]}) == [1, 2]  # each board's winners
    client.force_login(alice)
    page = client.get(reverse("tables:hand_replayer", args=[stored.pk]))
    assert page.status_code == 200 and b'"second_board"' in page.content


def test_an_omaha_all_in_before_the_flop_has_an_all_in_ev_that_adds_up(alice, bob):
    table = friends_table(alice, bob, game="plo")
    deal(table)
    state = all_in_preflop(table)
    assert state.is_over
    expected = allin_ev(state)
    assert set(expected) == {0, 1}
    assert abs(sum(expected.values())) < 1e-6  # what one expects to win the other loses
    assert allin_ev(state) == expected  # the estimate's seed is fixed


def test_a_winner_on_the_second_board_shows_the_five_cards_it_won_with_there():
    deck = engine.cards("3c Ks As 8d Kh Ah 2h7d9hTc3s Kd2d7c8h4s")
    hand = engine.new_hand([100, 100, 100], button=0, deck=deck, run_it_twice=True)
    for action in ("raise 100", "fold", "call"):
        hand = engine.apply_action(hand, engine.parse_action(action))
    hand = engine.choose_runouts(hand, 2)
    seen = engine.view(hand, None)
    winners = {w["seat"]: w for w in hand_winners(seen["log"], seen)}
    assert set(winners[0]["cards"]) <= {"As", "Ah", *seen["board"]}  # aces on the first
    assert set(winners[2]["cards"]) <= {"Ks", "Kh", *seen["second_board"]}  # kings on the second
    assert "Kd" in winners[2]["cards"]
    assert (winners[0]["board"], winners[2]["board"]) == (1, 2)


def test_a_hand_run_twice_names_each_boards_winner_and_the_players_hand_on_each(alice, bob):
    table = friends_table(alice, bob, offers_run_it_twice=True)
    run_twice_at(table, alice, bob)
    seen = snapshot_for(table, alice)
    winners = seen["hand"]["winners"]
    for board in (1, 2):  # each board's half of the pot is won by somebody, and said so
        assert sum(w["amount"] for w in winners if w["board"] == board) > 0
    hole = " ".join(seen["seats"][0]["cards"])
    first = engine.strength(engine.cards(" ".join([hole, *seen["hand"]["board"]])))
    second = engine.strength(engine.cards(" ".join([hole, *seen["hand"]["second_board"]])))
    assert (seen["your_hand"], seen["your_hand_second_board"]) == (first, second)
    assert snapshot_for(table)["your_hand_second_board"] is None  # a spectator holds nothing


def test_a_hand_run_once_has_no_second_board_hand_nor_board_numbers(alice, bob):
    table = friends_table(alice, bob, offers_run_it_twice=True)
    deal(table)
    all_in_preflop(table)
    services.runout_answer(table_id=table.pk, user=alice, run_twice=False)
    seen = snapshot_for(table, alice)
    assert seen["your_hand"] and seen["your_hand_second_board"] is None
    assert {w["board"] for w in seen["hand"]["winners"]} == {None}


def test_the_replayer_says_when_an_omaha_equity_is_an_estimate(alice, bob):
    table = friends_table(alice, bob, game="plo")
    deal(table)
    all_in_preflop(table)
    stored = Hand.objects.get(table=table)
    steps = replay_steps(projection.hand_for_viewer(user=alice, hand_id=stored.pk))
    before_the_flop = next(step for step in steps if step["equity"])
    assert before_the_flop["equity_is_estimate"] is True
    assert abs(sum(before_the_flop["equity"].values()) - 100) < 0.2
