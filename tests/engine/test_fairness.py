"""Provably fair dealing: the commitment, the dealing order, what each viewer is given,
and the verifier (engine.fairness, `python -m engine verify`)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from engine.__main__ import main
from engine.actions import Call, Check, Fold
from engine.betting import apply_action
from engine.cards import DECK, card_str, new_deck
from engine.deal import new_hand
from engine.fairness import (
    board_positions,
    dealing_order,
    hole_positions,
    revealed,
    revealed_positions,
    seal_deck,
)
from engine.formats.phh import EVERY_CARD
from engine.games import GAMES, POT_LIMIT_OMAHA
from engine.state import HandState
from tests.engine.dealing import play
from tests.engine.history_helpers import play_randomly, random_hand
from tests.support.fairness_checks import answer_problems

SALT = "0f" * 16


def test_a_leaf_and_the_commitment_follow_the_published_recipe() -> None:
    seal = seal_deck(DECK, salts=[SALT] * 52)
    first = hashlib.sha256(f"0:{card_str(DECK[0])}:{SALT}".encode()).hexdigest()
    last = hashlib.sha256(f"51:{card_str(DECK[51])}:{SALT}".encode()).hexdigest()
    assert (seal.leaves[0], seal.leaves[51]) == (first, last)
    assert seal.commitment == hashlib.sha256("".join(seal.leaves).encode()).hexdigest()


def test_every_position_gets_a_fresh_128_bit_salt() -> None:
    one, other = seal_deck(DECK), seal_deck(DECK)
    assert len(set(one.salts)) == 52 and all(len(bytes.fromhex(s)) == 16 for s in one.salts)
    assert one.commitment != other.commitment, "the same deck never seals the same way twice"


@pytest.mark.parametrize(
    ("deck", "salts"), [(DECK[:51], None), (DECK, [SALT] * 51)], ids=["short deck", "few salts"]
)
def test_a_deck_is_sealed_whole(deck: tuple[int, ...], salts: list[str] | None) -> None:
    with pytest.raises(ValueError, match="52"):
        seal_deck(deck, salts)


@pytest.mark.parametrize("seed", range(40))
def test_the_published_dealing_order_is_the_one_the_engine_deals_in(seed: int) -> None:
    state = random_hand(Random(seed))
    order = dealing_order(state.button, state.players)
    for seat in state.players:
        first, second = hole_positions(order, seat)
        assert state.holes[seat] == (state.deck[first], state.deck[second])
    positions = board_positions(len(order), len(state.board))
    assert state.board == tuple(state.deck[i] for i in positions), "no burn cards"


def showdown_with_a_fold(rng: Random) -> HandState:
    """Three players: seat 0 folds preflop, seats 1 and 2 check it down to a showdown."""
    state = new_hand([500, 500, 500], button=0, small_blind=5, big_blind=10, deck=new_deck(rng))
    state = apply_action(state, Fold())  # seat 0 (the button) acts first three-handed
    while not state.is_over:
        state = apply_action(state, Check() if _can_check(state) else Call())
    return state


def _can_check(state: HandState) -> bool:
    from engine.betting import legal_actions

    return legal_actions(state).can_check


def players_as_seen(state: HandState, viewer: int | None) -> list[dict[str, Any]]:
    """Each player's seat and the hole cards ``viewer`` saw (None where unseen), as the
    history API lists them."""
    seen = set(revealed_positions(state, viewer))
    order = dealing_order(state.button, state.players)
    rounds = GAMES[state.game].hole_card_count

    def hole_cards(seat: int) -> list[str] | None:
        positions = hole_positions(order, seat, rounds)
        if positions[0] not in seen:
            return None
        return [card_str(state.deck[position]) for position in positions]

    return [{"seat": seat, "hole_cards": hole_cards(seat)} for seat in state.players]


def api_hand(state: HandState, viewer: int | None, salts: list[str]) -> dict[str, Any]:
    """The hand as the history API shows it to ``viewer``, with its fairness object."""
    seal = seal_deck(state.deck, salts)
    return {
        "button": state.button,
        "players": players_as_seen(state, viewer),
        "board": [card_str(c) for c in state.board],
        "fairness": {
            "commitment": seal.commitment,
            "leaves": list(seal.leaves),
            "revealed": revealed(state, viewer, salts),
        },
    }


def check(hand: dict[str, Any], **options: str) -> list[str]:
    """``verify`` over a hand as the API gives it (``options``: the cut's checks)."""
    return answer_problems(hand, **options)


def test_a_folded_hand_is_revealed_to_its_player_only() -> None:
    state = showdown_with_a_fold(Random(1))
    order = dealing_order(state.button, state.players)
    folded = set(hole_positions(order, 0))
    board = set(board_positions(3, 5))
    assert folded <= set(revealed_positions(state, 0))
    for viewer in (1, 2, None):
        assert not folded & set(revealed_positions(state, viewer)), viewer
    spectator = set(revealed_positions(state, None))
    shown = set(hole_positions(order, 1)) | set(hole_positions(order, 2))
    assert spectator == board | shown, "a spectator sees the board and the shown hands"


def test_staff_settling_a_dispute_get_every_card_dealt() -> None:
    state = showdown_with_a_fold(Random(1))
    assert revealed_positions(state, EVERY_CARD) == list(range(2 * 3 + 5))


def test_a_mucked_loser_stays_secret_from_the_others() -> None:
    state = showdown_with_a_fold(Random(7))
    mucked = [seat for seat in (1, 2) if not state.has_shown[seat]]
    order = dealing_order(state.button, state.players)
    for seat in mucked:
        for viewer in (0, None, *({1, 2} - {seat})):
            assert not set(hole_positions(order, seat)) & set(revealed_positions(state, viewer))


@pytest.mark.parametrize("seed", range(300))
def test_every_viewer_of_a_random_hand_verifies(seed: int) -> None:
    rng = Random(seed)
    state = random_hand(rng)
    salts = [f"{rng.getrandbits(128):032x}" for _ in range(52)]
    for viewer in (*state.players, None):
        assert check(api_hand(state, viewer, salts)) == [], (seed, viewer)


def test_a_deck_changed_after_the_commitment_fails_at_the_changed_position() -> None:
    state = showdown_with_a_fold(Random(3))
    hand = api_hand(state, 1, [SALT] * 52)
    board_first = 2 * len(state.players)
    swapped = next(e for e in hand["fairness"]["revealed"] if e["position"] == board_first)
    other = next(c for c in map(card_str, DECK) if c not in hand["board"])
    swapped["card"] = other  # the server dealt another flop card than it committed to
    hand["board"][0] = other
    assert check(hand) == [
        f"position {board_first}: {other} with its salt does not hash to the leaf"
    ]


def test_a_commitment_the_leaves_do_not_hash_to_fails() -> None:
    hand = api_hand(showdown_with_a_fold(Random(3)), 1, [SALT] * 52)
    hand["fairness"]["commitment"] = "0" * 64
    assert check(hand) == ["commitment: the leaves do not hash to it"]


def test_a_card_shown_but_not_revealed_or_revealed_differently_fails() -> None:
    hand = api_hand(showdown_with_a_fold(Random(3)), 0, [SALT] * 52)
    revealed_list = hand["fairness"]["revealed"]
    dropped = revealed_list.pop(0)
    assert check(hand) == [
        f"position {dropped['position']}: {dropped['card']} is shown but was not revealed"
    ]
    revealed_list.insert(0, dropped)
    mine = next(p for p in hand["players"] if p["seat"] == 0)
    shown_as = mine["hole_cards"][0]
    mine["hole_cards"][0] = next(
        c for c in map(card_str, DECK) if c not in hand["board"] and c != shown_as
    )
    position = hole_positions(dealing_order(hand["button"], [0, 1, 2]), 0)[0]
    assert check(hand) == [
        f"position {position}: revealed {shown_as}, the hand shows {mine['hole_cards'][0]}"
    ]


def test_a_position_revealed_beyond_what_the_hand_shows_is_reported() -> None:
    state = showdown_with_a_fold(Random(3))
    hand = api_hand(state, 1, [SALT] * 52)
    hand["fairness"]["revealed"].append(
        {"position": 51, "card": card_str(state.deck[51]), "salt": SALT}
    )
    hand["fairness"]["revealed"].append({"position": 52, "card": "As", "salt": SALT})
    assert check(hand) == [
        "revealed: no deck position 52",
        "position 51: revealed, but the hand shows no card dealt from it",
    ]


@pytest.mark.parametrize("leaves", [[], ["ab"] * 52, ["A" * 64] * 52, None])
def test_leaves_that_are_not_52_sha256_digests_fail(leaves: list[str] | None) -> None:
    hand = api_hand(showdown_with_a_fold(Random(3)), 1, [SALT] * 52)
    hand["fairness"]["leaves"] = leaves
    assert check(hand) == ["leaves: expected 52 lowercase sha256 hex strings"]


def test_the_command_line_says_verified_or_what_does_not_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = api_hand(showdown_with_a_fold(Random(5)), 2, [SALT] * 52)
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(hand))
    assert main(["verify", str(good)]) == 0
    assert capsys.readouterr().out == "verified\n"

    hand["fairness"]["commitment"] = "f" * 64
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(hand))
    assert main(["verify", str(bad)]) == 1
    assert capsys.readouterr().out == f"{bad}: commitment: the leaves do not hash to it\n"


@pytest.mark.parametrize("content", ["not json", "{}", '{"fairness": 3, "button": 0}'])
def test_the_command_line_refuses_a_file_that_is_not_a_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(content)
    assert main(["verify", str(path)]) == 1
    assert "not a hand with a fairness object" in capsys.readouterr().err


# --- Omaha: four rounds of hole cards, then the board ---------------------------


def random_omaha_hand(rng: Random) -> HandState:
    """A finished Pot-Limit Omaha hand: 2-6 players at up to six seats, random decisions."""
    players = rng.randint(2, 6)
    seat_count = rng.randint(players, 6)
    occupied = sorted(rng.sample(range(seat_count), players))
    stacks: list[int | None] = [None] * seat_count
    for seat in occupied:
        stacks[seat] = rng.randint(1, 3000)
    button = rng.choice(occupied if players == 2 else range(seat_count))
    state = new_hand(stacks, button, 10, 20, deck=new_deck(rng), game=POT_LIMIT_OMAHA)
    return play_randomly(state, rng)


def omaha_showdown_with_a_fold(rng: Random) -> HandState:
    """Three Omaha players: seat 0 folds preflop, seats 1 and 2 check it down."""
    state = new_hand([500, 500, 500], 0, 5, 10, deck=new_deck(rng), game=POT_LIMIT_OMAHA)
    state = apply_action(state, Fold())
    while not state.is_over:
        state = apply_action(state, Check() if _can_check(state) else Call())
    return state


def omaha_api_hand(state: HandState, viewer: int | None) -> dict[str, Any]:
    """The API's Omaha hand: it names its game."""
    return {"game": state.game, **api_hand(state, viewer, [SALT] * 52)}


@pytest.mark.parametrize("seed", range(40))
def test_omaha_deals_four_rounds_from_the_left_of_the_button_then_the_board(seed: int) -> None:
    state = random_omaha_hand(Random(seed))
    order = dealing_order(state.button, state.players)
    for seat in state.players:
        positions = hole_positions(order, seat, 4)
        assert state.holes[seat] == tuple(state.deck[i] for i in positions)
    positions = board_positions(len(order), len(state.board), 4)
    assert state.board == tuple(state.deck[i] for i in positions), "no burn cards"


def test_an_omaha_folded_hand_is_revealed_to_its_player_only() -> None:
    state = omaha_showdown_with_a_fold(Random(1))
    order = dealing_order(state.button, state.players)
    folded = set(hole_positions(order, 0, 4))
    assert len(folded) == 4 and folded <= set(revealed_positions(state, 0))
    for viewer in (1, 2, None):
        assert not folded & set(revealed_positions(state, viewer)), viewer
    assert revealed_positions(state, EVERY_CARD) == list(range(4 * 3 + 5))


@pytest.mark.parametrize("seed", range(100))
def test_every_viewer_of_a_random_omaha_hand_verifies(seed: int) -> None:
    rng = Random(seed)
    state = random_omaha_hand(rng)
    salts = [f"{rng.getrandbits(128):032x}" for _ in range(52)]
    for viewer in (*state.players, None):
        hand = {"game": state.game, **api_hand(state, viewer, salts)}
        assert check(hand) == [], (seed, viewer)
        if viewer is not None:
            del hand["game"]  # a player's own four cards tell the game
            assert check(hand) == [], (seed, viewer)


def test_a_tampered_omaha_hole_card_fails_naming_it() -> None:
    state = omaha_showdown_with_a_fold(Random(3))
    hand = omaha_api_hand(state, 1)
    order = dealing_order(state.button, state.players)
    fourth = hole_positions(order, 1, 4)[3]
    mine = next(p for p in hand["players"] if p["seat"] == 1)
    dealt = mine["hole_cards"][3]
    other = next(c for c in map(card_str, DECK) if c != dealt and c not in hand["board"])
    mine["hole_cards"][3] = other  # the hand shows a card the deck did not hold there
    assert check(hand) == [f"position {fourth}: revealed {dealt}, the hand shows {other}"]
    entry = next(e for e in hand["fairness"]["revealed"] if e["position"] == fourth)
    entry["card"] = other  # and the server claims it was sealed so
    assert check(hand) == [f"position {fourth}: {other} with its salt does not hash to the leaf"]


def test_an_omaha_board_is_checked_after_the_four_rounds() -> None:
    state = omaha_showdown_with_a_fold(Random(4))
    hand = omaha_api_hand(state, None)
    river = 4 * 3 + 4
    entry = next(e for e in hand["fairness"]["revealed"] if e["position"] == river)
    assert entry["card"] == hand["board"][4]
    hand["board"][4] = next(c for c in map(card_str, DECK) if c not in hand["board"])
    assert check(hand) == [
        f"position {river}: revealed {entry['card']}, the hand shows {hand['board'][4]}"
    ]


def test_a_spectator_needs_the_game_of_an_omaha_hand_nobody_showed() -> None:
    state = new_hand([500, 500], 0, 5, 10, deck=new_deck(Random(2)), game=POT_LIMIT_OMAHA)
    state = play(state, "c", "x", 20, "f")  # the big blind bets the flop, the button folds
    assert not any(state.has_shown) and len(state.board) == 3
    hand = omaha_api_hand(state, None)
    assert check(hand) == []
    del hand["game"]  # then read as Hold'em: its flop would be positions 4 to 6, not 8 to 10
    assert check(hand)[:2] == [
        f"position 4: {hand['board'][0]} is shown but was not revealed",
        f"position 5: {hand['board'][1]} is shown but was not revealed",
    ]


def test_hole_cards_that_do_not_fit_the_game_are_reported() -> None:
    state = omaha_showdown_with_a_fold(Random(5))
    hand = omaha_api_hand(state, 1)
    mine = next(p for p in hand["players"] if p["seat"] == 1)
    del mine["hole_cards"][2:]
    assert "seat 1: shows 2 hole cards, Pot-Limit Omaha deals 4" in check(hand)
    del hand["game"]
    others = next(p for p in hand["players"] if p["seat"] == 2)
    assert len(others["hole_cards"]) == 4  # shown down, so the viewer saw four there
    assert check(hand) == [
        "hole cards: seats show 2 and 4 cards; every seat is dealt"
        " 2 (No-Limit Hold'em) or 4 (Pot-Limit Omaha)"
    ]
    hand["game"] = "stud"
    assert check(hand) == [
        "game: 'stud' is not a game: 'nlhe' (No-Limit Hold'em) or 'plo' (Pot-Limit Omaha)"
    ]


def test_the_command_line_verifies_an_omaha_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "omaha.json"
    path.write_text(json.dumps(omaha_api_hand(omaha_showdown_with_a_fold(Random(6)), None)))
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out == "verified\n"
