"""Per-viewer projections: nobody sees a card they may not see."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.cards import card_str
from engine.state import HandState
from engine.view import view, views
from tests.engine.dealing import deal, play
from tests.engine.strategies import EXAMPLES, hands, play_out

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def card_strings(data: Any) -> set[str]:
    """Every string in the JSON that looks like a card."""
    if isinstance(data, dict):
        return set().union(*(card_strings(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(card_strings(v) for v in data)) if data else set()
    return {data} if isinstance(data, str) and CARD.match(data) else set()


def visible_to(state: HandState, viewer: int | None) -> set[str]:
    allowed = {card_str(c) for c in state.board}
    for seat in state.players:
        if seat == viewer or state.has_shown[seat]:
            allowed |= {card_str(c) for c in state.holes[seat]}
    return allowed


@EXAMPLES
@given(hands(), st.data())
def test_no_view_ever_holds_a_card_its_viewer_may_not_see(
    state: HandState, data: st.DataObject
) -> None:
    for step in play_out(data, state):
        for viewer in (None, *range(step.seat_count)):
            projected = json.loads(json.dumps(view(step, viewer)))
            assert card_strings(projected) <= visible_to(step, viewer)
            assert "deck" not in json.dumps(projected)


def test_a_player_sees_their_own_cards_and_not_the_others() -> None:
    state = deal([100, 100, 100], button=0, holes={0: "AsKd", 1: "7c7d"})
    mine = view(state, 0)
    assert mine["hole_cards"] == ["As", "Kd"]
    assert mine["seats"][0]["cards"] == ["As", "Kd"]
    assert mine["seats"][1]["cards"] is None
    assert "7c" not in json.dumps(mine)


def test_a_spectator_sees_no_hole_cards() -> None:
    state = deal([100, 100, 100], button=0, holes={0: "AsKd"})
    watcher = view(state, None)
    assert watcher["hole_cards"] is None
    assert all(seat["cards"] is None for seat in watcher["seats"])
    assert card_strings(watcher) == set()


def test_legal_actions_appear_only_on_the_viewers_turn() -> None:
    state = deal([100, 100, 100], button=0)
    assert view(state, 0)["legal_actions"] == {
        "can_check": False,
        "can_fold": True,
        "call_amount": 2,
        "min_raise_to": 4,
        "max_raise_to": 100,
    }
    assert view(state, 1)["legal_actions"] is None
    assert view(state, None)["legal_actions"] is None
    assert [s["is_to_act"] for s in view(state, 1)["seats"]] == [True, False, False]


def test_shown_hands_are_visible_to_everyone_and_mucked_hands_to_nobody() -> None:
    holes = {0: "AsAh", 1: "KsKh", 2: "2c3d"}
    state = deal([100, 100, 100], button=0, holes=holes, board="7c8d9hJsQs")
    state = play(state, "c", "c", "x", *"xxxxxxxxx")  # seat 1 shows, 2 mucks, 0 shows
    watcher = view(state, None)
    assert [s["cards"] for s in watcher["seats"]] == [["As", "Ah"], ["Ks", "Kh"], None]
    assert "2c" not in json.dumps(watcher)
    assert "2c" in json.dumps(view(state, 2))  # a player still sees their own mucked cards


def test_the_view_describes_the_table() -> None:
    state = play(deal([100, None, 100, 50], button=0, ante=1), "c", "c", "x")
    seen = view(state, 3)
    assert seen["street"] == "flop" and len(seen["board"]) == 3
    assert (seen["button"], seen["small_blind_seat"], seen["big_blind_seat"]) == (0, 2, 3)
    assert seen["pots"] == [{"amount": 9, "eligible": [0, 2, 3]}]
    assert seen["seats"][1]["is_dealt_in"] is False
    assert seen["seats"][3]["stack"] == 47
    assert [e["kind"] for e in seen["log"]][:2] == ["hand_started", "ante_posted"]
    assert "cards" not in seen["log"][4 + 2]  # another seat's hole cards: no cards


def reference_log(state: HandState, viewer: int | None) -> list[dict[str, Any]]:
    """The log as the protocol defines it: every event, no deck, only the viewer's cards."""
    log = []
    for event in state.events:
        data = event.to_dict()
        data.pop("deck", None)
        if data["kind"] in ("hole_cards_dealt", "cards_mucked") and data["seat"] != viewer:
            del data["cards"]
        log.append(data)
    return log


@EXAMPLES
@given(hands(), st.data())
def test_views_for_a_whole_table_equal_each_viewers_own_view(
    state: HandState, data: st.DataObject
) -> None:
    for step in play_out(data, state):
        viewers = [None, *range(step.seat_count)]
        together = views(step, viewers)
        assert list(together) == viewers
        for viewer in viewers:
            alone = view(step, viewer)
            assert json.dumps(together[viewer]) == json.dumps(alone)
            assert alone["log"] == reference_log(step, viewer)
