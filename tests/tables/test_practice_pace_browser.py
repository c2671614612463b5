"""A practice table at the fast pace (docs/table.md, "The clock"): the bots answer well
under a second and the next hand follows the last quickly, on a real server and
worker, timed from the snapshots the page receives; the practice form offers the
pace chosen last time."""

from __future__ import annotations

import json
import re
import statistics
import time
from contextlib import suppress
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.support.chromium import BROWSER_TEST, DESKTOP, sign_up
from tests.support.table_pages import CAN_ACT

pytestmark = BROWSER_TEST

HANDS = 6  # hands watched from start to end
PLAY_SECONDS = 60  # six fast hands take about 20 s; room for a loaded machine


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    """The normal pace's pauses as Felt ships them: a fast table must beat them."""
    return {"next_hand_seconds": 3.0, "showdown_seconds": 5.0, "bot_delay": (0.8, 2.0)}


def record_snapshots(page: Page) -> list[tuple[float, dict[str, Any]]]:
    """Every snapshot the page will receive, with the moment it arrived."""
    snapshots: list[tuple[float, dict[str, Any]]] = []

    def on_frame(payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "snapshot":
            snapshots.append((time.monotonic(), {**message["table"], "seq": message["seq"]}))

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return snapshots


def bot_to_act(table: dict[str, Any]) -> bool:
    hand = table.get("hand")
    if not hand or hand["is_over"]:
        return False
    return any(seat.get("is_to_act") and seat.get("is_bot") for seat in table["seats"])


def bot_answers(snapshots: list[tuple[float, dict[str, Any]]]) -> list[float]:
    """Seconds from each bot's turn coming (the first snapshot saying so) to the next
    change of the table (its move)."""
    answers = []
    for index, (since, table) in enumerate(snapshots):
        previous = snapshots[index - 1][1] if index else None
        if not bot_to_act(table) or (previous is not None and previous["seq"] == table["seq"]):
            continue
        after = snapshots[index + 1 :]
        moved = next((t for t, later in after if later["seq"] > table["seq"]), None)
        if moved is not None:
            answers.append(moved - since)
    return answers


def pauses_between_hands(snapshots: list[tuple[float, dict[str, Any]]]) -> list[float]:
    """Seconds from each hand's end on the page to the next hand's first snapshot."""
    ended: dict[int, float] = {}
    started: dict[int, float] = {}
    for moment, table in snapshots:
        number, hand = table["hand_number"], table.get("hand")
        started.setdefault(number, moment)
        if hand and hand["is_over"]:
            ended.setdefault(number, moment)
    following = [
        (started[number + 1], moment) for number, moment in ended.items() if number + 1 in started
    ]
    return [start - end for start, end in following]


def play_along(page: Page) -> None:
    """Checks when checking is free, else folds: the bots do the playing."""
    if not page.evaluate(CAN_ACT):
        return
    call = page.locator('[data-act="call"]')
    name = "call" if call.get_attribute("aria-label") == "Check" else "fold"
    with suppress(PlaywrightTimeout):  # the turn moved on between the look and the click
        page.locator(f'[data-act="{name}"]').click(timeout=1_000)


def test_a_fast_practice_table_plays_quickly_and_is_offered_again(
    server_url: str, browser: Browser
) -> None:
    page = sign_up(browser, server_url, "quinn", DESKTOP)
    page.goto(f"{server_url}/tables/practice/")
    pace = page.get_by_label("Pace")
    expect(pace).to_have_value("normal")
    page.fill("#id_bots", "3")
    pace.select_option(label="Fast")
    snapshots = record_snapshots(page)
    page.get_by_role("button", name="Start practising").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))

    deadline = time.monotonic() + PLAY_SECONDS
    while len(pauses_between_hands(snapshots)) < HANDS:
        assert time.monotonic() < deadline, f"{len(pauses_between_hands(snapshots))} hands played"
        play_along(page)
        page.wait_for_timeout(100)

    answers, pauses = bot_answers(snapshots), pauses_between_hands(snapshots)
    print(f"bots answered in {sorted(round(a, 2) for a in answers)} s")
    print(f"next hands came after {sorted(round(p, 2) for p in pauses)} s")
    # At the normal pace a bot thinks 0.8 to 2 s and a hand waits 3 s (5 s after a showdown).
    assert len(answers) >= HANDS
    assert statistics.median(answers) < 0.6, answers
    assert max(answers) < 1.0, answers
    assert statistics.median(pauses) < 2.0, pauses
    assert max(pauses) < 5.0, pauses  # a showdown run out street by street is the longest

    # The next practice table is offered at the same pace.
    page.goto(f"{server_url}/tables/practice/")
    expect(page.get_by_label("Pace")).to_have_value("fast")
