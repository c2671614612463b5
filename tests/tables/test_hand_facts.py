"""Tracker facts of hand-built hands, every figure worked out by hand in the comments."""

from __future__ import annotations

import warnings
from random import Random

import pytest
from pokerkit import HandHistory

import engine
from tables.history.facts import hand_facts
from tests.engine.history_helpers import random_hand

# Touches neither a database nor Redis: the embedded run is enough (scripts/test.sh).
pytestmark = pytest.mark.pure

RAISE, CALL, CHECK, FOLD = engine.RaiseTo, engine.Call(), engine.Check(), engine.Fold()


def play(stacks, button, holes, board, *actions):
    """``holes`` in dealing order (first left of the button); no burn cards."""
    dealt = [engine.card(c[:2]) for c in holes] + [engine.card(c[2:]) for c in holes]
    named = dealt + list(engine.cards(board))
    deck = tuple(named + [c for c in engine.DECK if c not in named])
    state = engine.new_hand(stacks, button=button, small_blind=10, big_blind=20, deck=deck)
    for action in actions:
        state = engine.apply_action(state, action)
    assert state.is_over
    return hand_facts(state)


def test_an_open_a_three_bet_and_a_fold_to_it():
    # Button (seat 2) opens to 60, small blind 3-bets to 180, big blind and button fold.
    facts = play(
        [1000, 1000, 1000], 2, ["2c3d", "4h5s", "7c8d"], "", RAISE(60), RAISE(180), FOLD, FOLD
    )
    button, small, big = facts[2], facts[0], facts[1]
    assert (button["position"], small["position"], big["position"]) == ("BTN", "SB", "BB")
    assert button["vpip"] and button["pfr"] and not button["could_three_bet"]
    assert button["faced_three_bet"] and button["folded_to_three_bet"]
    assert small["could_three_bet"] and small["three_bet"] and small["pfr"]
    assert not small["faced_three_bet"]
    # The big blind faced two raises: no 3-bet chance, and no VPIP.
    assert not big["could_three_bet"] and not big["vpip"] and big["vpip_chance"]
    # Nets: button -60 (3 bb), big blind -20 (1 bb), small blind +80 (4 bb).
    assert [facts[s]["net_bb"] for s in (2, 1, 0)] == [-3.0, -1.0, 4.0]
    assert not any(f["saw_flop"] or f["is_allin_ev"] for f in facts.values())


def test_a_walk_gives_the_big_blind_no_vpip_chance():
    facts = play([1000, 1000, 1000], 2, ["2c3d", "4h5s", "7c8d"], "", FOLD, FOLD)
    assert facts[1]["vpip_chance"] is False and facts[1]["won_chips"]
    assert facts[0]["vpip_chance"] and facts[2]["vpip_chance"]
    assert facts[0]["net_bb"] == -0.5 and facts[1]["net_bb"] == 0.5


def test_a_c_bet_a_raise_over_it_and_all_in_ev_on_the_flop():
    # Heads-up, button (seat 0, KsKh) opens to 60, big blind (AsAh) calls: pot 120.
    # Flop 2c 7d 9h: big blind checks, button c-bets 80, big blind raises all-in
    # to 940, button calls all-in: 2000 in the pot, two cards to come.
    # Kings win only with a king (Kc, Kd) and no ace: of C(45, 2) = 990 run-outs,
    # 1 + 2 x 43 = 87 hold a king, 4 of them king and ace: 83 / 990.
    # Button EV: 83/990 x 2000 - 1000 = -832.32...; big blind: 907/990 x 2000 - 1000.
    facts = play(
        [1000, 1000], 0, ["AsAh", "KsKh"], "2c7d9hKc3s",
        RAISE(60), CALL, CHECK, RAISE(80), RAISE(940), CALL,
    )  # fmt: skip
    button, big = facts[0], facts[1]
    assert (button["position"], big["position"]) == ("BTN", "BB")
    assert button["could_cbet"] and button["cbet"]
    assert not big["could_cbet"] and big["faced_cbet"] and not big["folded_to_cbet"]
    assert big["could_three_bet"] and not big["three_bet"] and big["vpip"] and not big["pfr"]
    assert (button["postflop_aggressive"], button["postflop_calls"]) == (1, 1)
    assert (big["postflop_aggressive"], big["postflop_calls"]) == (1, 0)
    assert button["went_to_showdown"] and button["won_at_showdown"]
    assert big["went_to_showdown"] and not big["won_at_showdown"] and big["saw_flop"]
    assert button["is_allin_ev"] and big["is_allin_ev"]
    assert button["allin_ev"] == pytest.approx(83 / 990 * 2000 - 1000)
    assert big["allin_ev"] == pytest.approx(907 / 990 * 2000 - 1000)
    assert button["allin_ev_bb"] == pytest.approx((83 / 990 * 2000 - 1000) / 20)
    assert button["net_bb"] == 50.0 and big["net_bb"] == -50.0


def test_a_fold_to_a_c_bet():
    # Button (seat 2) opens to 60, small blind folds, big blind calls; flop: big
    # blind checks, button bets 60, big blind folds.
    facts = play(
        [1000, 1000, 1000], 2, ["2c3d", "4h5s", "AcAd"], "Kh8s9c",
        RAISE(60), FOLD, CALL, CHECK, RAISE(60), FOLD,
    )  # fmt: skip
    assert facts[2]["cbet"] and facts[1]["faced_cbet"] and facts[1]["folded_to_cbet"]
    assert facts[1]["postflop_folds"] == 1 and not facts[1]["went_to_showdown"]
    assert not facts[0]["saw_flop"] and not facts[0]["faced_cbet"]


def test_a_check_behind_is_a_missed_c_bet_and_a_donk_bet_takes_the_chance_away():
    checked = play(
        [1000, 1000], 0, ["2c3d", "AcAd"], "Kh8s9c2h3h",
        RAISE(60), CALL, CHECK, CHECK, CHECK, CHECK, CHECK, CHECK,
    )  # fmt: skip
    assert checked[0]["could_cbet"] and not checked[0]["cbet"]
    donked = play(
        [1000, 1000], 0, ["2c3d", "AcAd"], "Kh8s9c",
        RAISE(60), CALL, RAISE(20), FOLD,
    )  # fmt: skip
    assert not donked[0]["could_cbet"] and not donked[1]["faced_cbet"]


def test_all_in_ev_splits_a_side_pot_among_its_own_hands():
    # Button seat 2 (QsQd) limps, small blind seat 0 (AsAd, 200 chips) completes,
    # big blind seat 1 (KsKd) checks; the flop 2c 7h 9h is checked round. Turn
    # 3c: small blind all-in for 180, big blind all-in to 980, button calls.
    # Main pot 3 x 200 = 600 (all three), side pot 2 x 800 = 1600 (kings, queens).
    # 42 rivers: a king (2) or a queen (2) beats the aces; a queen (2) beats the kings
    # (the aces are face up, so out of the side pot's rivers too).
    # Aces: 38/42 x 600 - 200 = 14400/42; kings: (2 x 600 + 40 x 1600)/42 - 1000 =
    # 23200/42; queens: (2 x 600 + 2 x 1600)/42 - 1000 = -37600/42. They sum to 0.
    facts = play(
        [200, 1000, 1000], 2, ["AsAd", "KsKd", "QsQd"], "2c7h9h3c5s",
        CALL, CALL, CHECK, CHECK, CHECK, CHECK, RAISE(180), RAISE(980), CALL,
    )  # fmt: skip
    assert facts[0]["allin_ev"] == pytest.approx(14400 / 42)
    assert facts[1]["allin_ev"] == pytest.approx(23200 / 42)
    assert facts[2]["allin_ev"] == pytest.approx(-37600 / 42)
    # The river 5s: aces take the main pot (+400), kings the side pot (+600).
    assert [facts[s]["net_bb"] for s in (0, 1, 2)] == [20.0, 30.0, -50.0]
    assert all(f["went_to_showdown"] and f["saw_flop"] for f in facts.values())
    assert facts[0]["vpip"] and not facts[1]["vpip"] and facts[2]["vpip"]


def test_a_showdown_on_the_river_keeps_the_actual_result():
    facts = play(
        [1000, 1000], 0, ["2c3d", "AcAd"], "Kh8s9c2h3h",
        CALL, CHECK, CHECK, CHECK, CHECK, CHECK, CHECK, CHECK,
    )  # fmt: skip
    assert not any(f["is_allin_ev"] for f in facts.values())
    # Two pair (threes and twos) beats the aces: seat 1 wins the big blind's 20.
    assert facts[0]["allin_ev"] == -20.0 and facts[1]["allin_ev"] == 20.0


def test_positions_six_handed_count_back_from_the_button():
    facts = play(
        [1000] * 6, 5, ["2c3d", "4h5s", "7c8d", "9cTd", "JcQd", "KcKd"], "",
        FOLD, FOLD, FOLD, FOLD, FOLD,
    )  # fmt: skip
    assert [facts[s]["position"] for s in range(6)] == ["SB", "BB", "UTG", "HJ", "CO", "BTN"]


def pokerkit_facts(text: str) -> dict[int, tuple[bool, bool]]:
    """Per seat, from PokerKit's reading of PokerStars text: (put chips in voluntarily
    preflop, went to showdown)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (history,) = HandHistory.from_pokerstars(text, error_status=True)
        # One state object is updated in place: keep each step's stacks as they were.
        steps = [(list(state.stacks), action) for state, action in history.state_actions]
    voluntary: set[int] = set()
    folded: set[int] = set()
    showdown = False
    flop_seen = False
    for (before, _), (after, action) in zip(steps, steps[1:], strict=False):
        actor, _, verb = action.partition(" ")
        flop_seen = flop_seen or action.startswith("d db")
        if not actor.startswith("p"):
            continue
        player = int(actor[1:]) - 1
        if verb.startswith("f"):
            folded.add(player)
        elif verb.startswith("sm"):
            showdown = True
        elif not flop_seen and after[player] < before[player]:
            voluntary.add(player)
    return {
        seat - 1: (player in voluntary, showdown and player not in folded)
        for player, seat in enumerate(history.seats)
    }


def test_pokerkit_reading_our_pokerstars_text_agrees_on_vpip_and_showdowns():
    rng = Random(2027)
    for number in range(60):
        state = random_hand(rng, ante=0, short_stacks=False)
        ours = {s: (f["vpip"], f["went_to_showdown"]) for s, f in hand_facts(state).items()}
        theirs = pokerkit_facts(engine.to_pokerstars(state, hand_id=number + 1))
        assert ours == theirs, f"hand {number}"
