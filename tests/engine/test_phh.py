"""PHH export (engine.to_phh), its round trip and each viewer's file; reading files
and the differential runs against PokerKit are test_phh_import.py.

PokerKit differential tests, both directions and for both games (No-Limit
Hold'em, variant ``NT``, against PokerKit's ``NoLimitTexasHoldem``; Pot-Limit
Omaha, variant ``PO``, against its ``PotLimitOmahaHoldem``):
- our ``to_phh`` text loads in PokerKit (``HandHistory.loads``) and replays
  there to the same finishing stacks;
- hands PokerKit plays with random decisions and dumps (``HandHistory.dumps``)
  replay in ours to PokerKit's finishing stacks.

Every difference is classified by the documented rule that makes it (see
tests/engine/test_vs_pokerkit.py for the details), and one no rule explains
fails naming the seed: a short big blind (rule 9: Felt makes everyone owe the
full big blind, PokerKit only what was posted, so the hands part ways; such a
file is refused naming rule 9, or ends with other stacks), PokerKit reopening
the betting after some short all-ins that Felt (TDA) does not (refused naming
rule 4), and PokerKit merging side pots before splitting odd chips (rule 12; a
chip per split pot may move between tied winners). Our own exports replay in
PokerKit only from stacks that cover blind and ante.
"""

from __future__ import annotations

import datetime
import tomllib
import warnings
from pathlib import Path
from random import Random
from typing import Any

import pytest
from pokerkit import HandHistory

import engine
import engine.formats.phh_notation
import engine.formats.pokerstars
from engine.actions import Action, Call, Check, Fold, RaiseTo
from engine.betting import apply_action
from engine.cards import DECK
from engine.deal import new_hand
from engine.formats.phh import from_phh, phh_order, to_phh
from engine.formats.phh_notation import toml_value
from engine.games import GAMES, NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA
from engine.state import NO_SMALL_BLIND, HandState
from tests.engine.history_helpers import (
    random_hand,
    split_pot_count,
)

EVERY_GAME = pytest.mark.parametrize("game", list(GAMES))


def _stacks(state: HandState) -> list[int]:
    return [state.stacks[seat] for seat in phh_order(state)]


def _fields(text: str) -> dict[str, Any]:
    return tomllib.loads(text)


def _play(state: HandState, *actions: Action) -> HandState:
    for action in actions:
        state = apply_action(state, action)
    return state


def _three_handed(game: str = NO_LIMIT_HOLDEM) -> HandState:
    return new_hand(
        [1000, 1000, 1000], button=2, small_blind=10, big_blind=20, deck=DECK, game=game
    )


HEADER = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [1000, 1000, 1000]
"""

OMAHA_HEADER = HEADER.replace('"NT"', '"PO"')


def _file(*actions: str, header: str = HEADER, extra: str = "") -> str:
    quoted = ", ".join(toml_value(a) for a in actions)
    return f"{header}actions = [{quoted}]\n{extra}"


def _pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(list(HandHistory.loads(text))[-1].stacks)


def _agree(ours: HandState, theirs: list[int]) -> bool:
    """Equal stacks, or (rule 12) PokerKit moving odd chips between tied winners."""
    mine = _stacks(ours)
    if mine == theirs:
        return True
    moved = sum(abs(a - b) for a, b in zip(mine, theirs, strict=True))
    return sum(mine) == sum(theirs) and 0 < moved <= 2 * split_pot_count(ours)


# ---------------------------------------------------------------- export


def test_it_writes_the_required_fields_players_from_the_small_blind() -> None:
    state = _play(_three_handed(), RaiseTo(60), Fold(), Fold())
    fields = _fields(to_phh(state))
    assert fields["variant"] == "NT"
    assert fields["antes"] == [0, 0, 0]
    assert fields["blinds_or_straddles"] == [10, 20, 0]
    assert fields["min_bet"] == 20
    assert fields["starting_stacks"] == [1000, 1000, 1000]
    assert fields["actions"] == [
        "d dh p1 2c2s",
        "d dh p2 2d3c",
        "d dh p3 2h3d",
        "p3 cbr 60",
        "p1 f",
        "p2 f",
    ]
    assert fields["seats"] == [1, 2, 3]
    assert fields["finishing_stacks"] == [990, 980, 1030]


def test_an_omaha_hand_is_variant_po_with_four_cards_dealt_to_each_player() -> None:
    state = _play(_three_handed(POT_LIMIT_OMAHA), RaiseTo(70), Fold(), Fold())  # rule 22
    fields = _fields(to_phh(state))
    assert fields["variant"] == "PO"
    assert fields["actions"] == [
        "d dh p1 2c2s3h4d",
        "d dh p2 2d3c3s4h",
        "d dh p3 2h3d4c4s",
        "p3 cbr 70",
        "p1 f",
        "p2 f",
    ]
    assert fields["finishing_stacks"] == [990, 980, 1030]
    seen_by_p3 = ["d dh p1 ????????", "d dh p2 ????????", "d dh p3 2h3d4c4s"]
    assert _dealt(to_phh(state, viewer=2)) == seen_by_p3


def test_heads_up_p1_is_the_big_blind_and_forced_bets_are_written_reversed() -> None:
    # Button on seat 0 posts the small blind (rule 8); PHH lists the button last.
    state = new_hand([500, 800], button=0, small_blind=10, big_blind=20, deck=DECK)
    fields = _fields(to_phh(state))
    assert fields["starting_stacks"] == [800, 500]
    assert fields["seats"] == [2, 1]
    assert fields["blinds_or_straddles"] == [10, 20]
    loaded = list(HandHistory.loads(to_phh(state)))[0]
    assert loaded.stacks == [780, 490]  # PokerKit agrees: p1 posted 20, p2 posted 10


def test_an_unfinished_hand_has_no_finishing_stacks() -> None:
    state = _play(_three_handed(), Call())
    fields = _fields(to_phh(state))
    assert "finishing_stacks" not in fields
    assert fields["actions"][-1] == "p3 cc"


def test_antes_are_written_with_the_ante_trimming_rule() -> None:
    state = new_hand([100, 100, 3], button=2, small_blind=1, big_blind=2, ante=5, deck=DECK)
    fields = _fields(to_phh(state))
    assert fields["antes"] == [5, 5, 5]
    assert fields["ante_trimming_status"] is True


def test_a_dead_small_blind_writes_only_the_big_blind() -> None:
    state = new_hand(
        [100, 100, 100], button=0, small_blind=1, big_blind=2,
        small_blind_seat=NO_SMALL_BLIND, deck=DECK,
    )  # fmt: skip
    assert _fields(to_phh(state))["blinds_or_straddles"] == [2, 0, 0]


def test_it_writes_optional_and_user_defined_fields() -> None:
    state = _play(_three_handed(), RaiseTo(60), Fold(), Fold())
    text = to_phh(
        state,
        players=["Ann", "Bob", 'Cy "the kid"'],
        event="Club night\\1",
        hand=12,
        time=datetime.time(20, 15),
        day=21,
        _note="tab\there, bell\x07, del\x7f",
        _ratio=0.5,
        _limits=[float("inf"), float("-inf")],
        _on=False,
        _when=datetime.date(2026, 11, 21),
    )
    fields = _fields(text)
    assert fields["players"] == ["Ann", "Bob", 'Cy "the kid"']
    assert fields["event"] == "Club night\\1"
    assert fields["time"] == datetime.time(20, 15)
    assert fields["_note"] == "tab\there, bell\x07, del\x7f"
    assert fields["_ratio"] == 0.5
    assert fields["_limits"] == [float("inf"), float("-inf")]
    assert fields["_on"] is False
    assert fields["_when"] == datetime.date(2026, 11, 21)


def test_nan_is_written_as_toml_nan() -> None:
    assert toml_value(float("nan")) == "nan"


def test_it_refuses_fields_outside_the_standard_without_an_underscore() -> None:
    with pytest.raises(ValueError, match="prefix your own fields"):
        to_phh(_three_handed(), nickname="x")


def test_it_refuses_to_overwrite_fields_it_writes_itself() -> None:
    with pytest.raises(ValueError, match="written from the hand"):
        to_phh(_three_handed(), seats=[1, 2, 3])


def test_it_refuses_per_player_fields_of_the_wrong_length() -> None:
    with pytest.raises(ValueError, match="one entry per player"):
        to_phh(_three_handed(), players=["Ann", "Bob"])
    with pytest.raises(ValueError, match="one entry per player"):
        to_phh(_three_handed(), time_banks=30)


def test_it_refuses_values_toml_cannot_hold_and_bad_field_names() -> None:
    with pytest.raises(TypeError, match="cannot write dict"):
        to_phh(_three_handed(), _extra={"a": 1})
    with pytest.raises(ValueError, match="not a valid PHH field name"):
        to_phh(_three_handed(), **{"_bad key": 1})


# ---------------------------------------------------------------- round trip


@EVERY_GAME
@pytest.mark.parametrize("seed", range(40))
def test_a_random_hand_survives_the_round_trip(seed: int, game: str) -> None:
    original = random_hand(Random(seed), game=game)
    text = to_phh(original)
    copy = from_phh(text)
    assert copy.stacks == original.stacks
    assert copy.board == original.board
    assert copy.holes == original.holes
    assert copy.events[1:] == original.events[1:]  # the undealt rest of the deck may differ
    assert to_phh(copy) == text


def test_a_partial_hand_survives_the_round_trip() -> None:
    partial = _play(_three_handed(), RaiseTo(60), Call(), Call(), Check())
    copy = from_phh(to_phh(partial))
    assert not copy.is_over
    assert copy.actor == partial.actor
    assert copy.events[1:] == partial.events[1:]


def test_a_dead_small_blind_and_empty_seats_survive_the_round_trip() -> None:
    state = new_hand(
        [None, 300, None, 400, 500], button=2, small_blind=5, big_blind=10,
        small_blind_seat=NO_SMALL_BLIND, deck=DECK,
    )  # fmt: skip
    state = _play(state, Call(), Call(), Check())
    copy = from_phh(to_phh(state))
    assert copy.small_blind_seat is None
    assert copy.big_blind_seat == 3
    assert copy.starting_stacks == state.starting_stacks
    assert copy.events[1:] == state.events[1:]


def test_the_public_names_are_exported() -> None:
    assert engine.to_phh is to_phh
    assert engine.from_phh is from_phh
    assert engine.phh_order is phh_order
    assert issubclass(engine.PhhIllegalAction, engine.IllegalAction)


# ---------------------------------------------------------------- per viewer


def _recorded(name: str) -> HandState:
    path = Path(__file__).parent / "hands" / f"{name}.phh"
    return from_phh(path.read_text(encoding="utf-8"))


def _dealt(text: str) -> list[str]:
    return [a for a in _fields(text)["actions"] if a.startswith("d dh")]


def test_a_viewer_sees_their_own_and_shown_cards_and_the_mucked_hand_stays_hidden() -> None:
    state = _recorded("rule13_last_river_bettor_shows_first")  # p2 (7c2d) mucks
    # PHH player order equals seats here (button on seat 3): p1 seat 0, p2 seat 1, p3 seat 2.
    assert _dealt(to_phh(state, viewer=0)) == ["d dh p1 AsAh", "d dh p2 ????", "d dh p3 KsKh"]
    assert _dealt(to_phh(state, viewer=1)) == ["d dh p1 AsAh", "d dh p2 7c2d", "d dh p3 KsKh"]
    assert "7c2d" not in to_phh(state, viewer=2)
    assert "7c2d" not in to_phh(state, viewer=None)
    assert "p2 sm" in to_phh(state, viewer=0)  # the muck itself was seen, not its cards


def test_folded_hands_are_unseen_by_everyone_but_their_owner() -> None:
    state = _recorded("rule07_uncalled_bet_returned")  # p1 (KsKh) and p2 (7c2d) fold
    spectator = to_phh(state, viewer=None)
    assert _dealt(spectator) == ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????"]
    assert _dealt(to_phh(state, viewer=2))[2] == "d dh p3 QsQh"
    assert "KsKh" not in to_phh(state, viewer=2) and "7c2d" not in to_phh(state, viewer=2)
    assert to_phh(state) == to_phh(state, viewer=engine.EVERY_CARD)
    assert "KsKh" in to_phh(state)


@EVERY_GAME
def test_a_viewers_history_replays_to_the_same_stacks_here_and_in_pokerkit(game: str) -> None:
    rng = Random(12)
    for number in range(60):
        state = random_hand(rng, short_stacks=False, game=game)
        viewer = rng.choice([None, *state.players])
        text = to_phh(state, viewer=viewer)
        hidden = [
            engine.cards_str(state.hole_cards(seat))
            for seat in state.players
            if seat != viewer and not state.has_shown[seat]
        ]
        assert not any(cards in text for cards in hidden), f"hand {number}"
        mucked = any(isinstance(e, engine.CardsMucked) for e in state.events)
        if not mucked:  # a muck at showdown leaves a live hand unknown: refused on import
            assert _stacks(from_phh(text)) == _stacks(state), f"hand {number}"
        theirs = _pokerkit_stacks(text)
        assert _agree(state, theirs), f"hand {number}: ours {_stacks(state)}, PokerKit {theirs}"
