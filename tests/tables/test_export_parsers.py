"""The PokerStars export as trackers read it: two parsers nobody on Felt wrote (PokerKit's
and the ``poker`` package's) read a few hundred varied hands of one member's export,
and what they read agrees, field by field, with the same hands' JSON from the API.

The hands: seeded cash hands at friends', practice and tournament-kind tables (one
table's name has quotes), a practice sit-n-go against bots played to its end (bot
names, tournament headers, all-ins, places) and recorded hands with side pots and a
split pot with an odd chip.
"""

from __future__ import annotations

import io
import re
import warnings
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone
from poker import Card, Combo
from poker.room.pokerstars import PokerStarsHandHistory
from pokerkit import HandHistory
from rest_framework.test import APIClient

from tables.models import Table
from tests.tables.helpers import friends_table
from tests.tables.recorded import record_hand, recorded_state
from tests.tournaments.helpers import play_to_the_end
from tournaments.services.practice import practice_sng_start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]

SEEDED_HANDS = 240
HEADER = re.compile(r"^PokerStars Hand #(\d+):")


@pytest.mark.long_game
def test_two_outside_parsers_read_the_export_as_the_api_says(make_user) -> None:
    text, hands = exported(make_user)
    export_is_varied(hands)
    pokerkit_reads_every_hand_to_the_stacks_the_api_gives(text, hands)
    the_poker_package_reads_every_hand_as_the_api_says(text, hands)


def exported(make_user: Any) -> tuple[str, dict[int, dict[str, Any]]]:
    """alice's PokerStars export and the API's JSON of each of her hands, by hand id."""
    alice = make_user("alice")
    call_command(
        "seed_hands", hands=SEEDED_HANDS, me="alice", me_share=1.0, players=8, seed=7,
        allin_ev="pending", stdout=io.StringIO(),
    )  # fmt: skip
    Table.objects.filter(name="Seeded 1").update(name='Bob\'s "home" game')
    tournament, _ = practice_sng_start(user=alice)
    play_to_the_end(tournament)
    bob, carol, dave = make_user("bob"), make_user("carol"), make_user("dave")
    start = timezone.now() - timedelta(hours=1)
    record_hand(
        friends_table(bob, alice, carol, seat_count=3, name="Split"),
        recorded_state("rule12_odd_chip_to_first_winner_left_of_button"), start,
    )  # fmt: skip
    record_hand(
        friends_table(alice, bob, carol, dave, seat_count=4, name="Side pots"),
        recorded_state("rule11_side_pots_awarded_separately"), start,
    )  # fmt: skip
    api = APIClient()
    api.force_authenticate(alice)
    response = api.get("/api/hands/export?format=pokerstars")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode()
    hands = {}
    for block in text.strip().split("\n\n\n"):
        hand_id = int(HEADER.match(block).group(1))  # type: ignore[union-attr]
        hands[hand_id] = api.get(f"/api/hands/{hand_id}/").json()
    return text, hands


def blocks(text: str) -> list[str]:
    return [block + "\n" for block in text.strip().split("\n\n\n")]


def table_matches(parsed: str, hand: dict[str, Any]) -> bool:
    """A tournament's table is named as PokerStars names it ("<tournament> <table>");
    any other has its own name and id, its quotes escaped."""
    if hand["level"] is not None:
        return re.fullmatch(r"\d+ \d+", parsed) is not None
    return parsed.replace("\\'", "'") == f"{hand['table_name']} #{hand['table']}"


def screen_name(name: str) -> str:
    """A name as the export writes it (engine/formats/pokerstars.py: no parentheses)."""
    return " ".join(name.replace("(", " ").replace(")", " ").split())


def export_is_varied(hands: dict[int, dict[str, Any]]) -> None:
    assert len(hands) >= SEEDED_HANDS + 3
    pots = [pot for hand in hands.values() for pot in hand["pots"]]
    assert any(len(pot["winners"]) > 1 for pot in pots), "a split pot"
    assert any(pot["index"] > 0 for pot in pots), "a side pot"
    assert any(p["is_bot"] for hand in hands.values() for p in hand["players"])
    assert any(hand["level"] for hand in hands.values()), "tournament hands"
    assert any(a["is_all_in"] for hand in hands.values() for a in hand["actions"])


def pokerkit_reads_every_hand_to_the_stacks_the_api_gives(
    text: str, hands: dict[int, dict[str, Any]]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        histories = list(HandHistory.from_pokerstars(text, error_status=True))
    assert len(histories) == len(hands)
    for history, (hand_id, hand) in zip(histories, hands.items(), strict=True):
        players = sorted(hand["players"], key=lambda p: p["seat"])
        assert history.hand == hand_id
        assert table_matches(history.table, hand), hand_id
        # PokerKit lists players in the order they act (the small blind first).
        by_name = {screen_name(p["name"]): p for p in players}
        assert sorted(history.players) == sorted(by_name)
        stacks = dict(zip(history.players, history.starting_stacks, strict=True))
        assert stacks == {name: p["starting_stack"] for name, p in by_name.items()}, hand_id
        finals = dict(zip(history.players, list(history)[-1].stacks, strict=True))
        assert finals == {n: p["starting_stack"] + p["net"] for n, p in by_name.items()}, hand_id
        started = hand["started_at"].replace("Z", "+00:00")
        assert (history.year, history.month, history.day) == tuple(
            int(part) for part in started[:10].split("-")
        )
        assert history.time == _aware(hand["started_at"]).time()


def the_poker_package_reads_every_hand_as_the_api_says(
    text: str, hands: dict[int, dict[str, Any]]
) -> None:
    for block in blocks(text):
        parsed = PokerStarsHandHistory(block)
        parsed.parse()
        hand = hands[int(parsed.ident)]
        viewer = next(p for p in hand["players"] if p["seat"] == hand["viewer_seat"])
        assert table_matches(parsed.table_name, hand), parsed.ident
        assert (parsed.sb, parsed.bb) == (hand["small_blind"], hand["big_blind"])
        assert parsed.date == _aware(hand["started_at"])
        assert parsed.hero.name == screen_name(viewer["name"])
        assert parsed.hero.combo == Combo("".join(viewer["hole_cards"]))
        assert parsed.button.seat == hand["button"] + 1
        assert parsed.total_pot == hand["pot"]
        assert _board(parsed) == [Card(card) for card in hand["board"]]
        if hand["level"] is None:
            assert parsed.tournament_ident is None
        else:
            assert parsed.tournament_level == _roman(hand["level"])
        seats = {p.seat: p for p in parsed.players if p.name}
        for player in hand["players"]:
            assert seats[player["seat"] + 1].stack == player["starting_stack"]


def _aware(iso: str) -> Any:
    from datetime import datetime

    return datetime.fromisoformat(iso.replace("Z", "+00:00")).replace(microsecond=0)


def _board(parsed: PokerStarsHandHistory) -> list[Any]:
    flop = list(parsed.flop.cards) if parsed.flop else []
    return flop + [card for card in (parsed.turn, parsed.river) if card is not None]


def _roman(number: int) -> str:
    numerals = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    out = ""
    for value, letters in numerals:
        count, number = divmod(number, value)
        out += letters * count
    return out
