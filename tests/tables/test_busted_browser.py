"""A player out of chips is told so at the table, with what they can do next."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tables.models import Seat, Table
from tests.support.chromium import (
    BROWSER_TEST,
    DESKTOP,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
)
from tests.support.table_pages import (
    click_check_or_call,
    open_practice_table,
    open_table,
    take_seat,
)

pytestmark = BROWSER_TEST


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    """Quick hands and bots: the practice test plays until a real bust."""
    return {"next_hand_seconds": 0.5, "bot_delay": (0.05, 0.15)}


def lose_every_chip(username: str) -> None:
    """As a bust would (outside Playwright's event loop: the ORM refuses to run in one)."""
    outside_the_browser_loop(Seat.objects.filter(user__username=username).update, stack=0)


def test_a_busted_player_sees_rebuy_watch_and_leave_and_rebuys(
    server_url: str, browser: Browser
) -> None:
    page = sign_up(browser, server_url, "dora", DESKTOP)
    open_table(page, server_url)
    take_seat(page, 0)
    panel = page.locator("[data-busted]")
    expect(panel).to_be_hidden()
    # Alone at the table, so no hand starts; lose the chips as a bust would.
    lose_every_chip("dora")
    page.reload()
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("You are out of chips.")
    for name in ("Rebuy 1500 chips", "Watch the table", "Leave the table"):
        expect(panel.get_by_role("button", name=name)).to_be_visible()
    panel.get_by_role("button", name="Rebuy 1500 chips").click()
    expect(panel).to_be_hidden()
    expect(page.locator(".seat.you")).to_contain_text("1500")
    ledger = page.locator("[data-ledger]")
    expect(ledger).to_contain_text("dora")
    expect(ledger.locator("tbody tr td").first).to_have_text("3000")  # bought in: 1500 twice
    lose_every_chip("dora")
    page.reload()
    panel.get_by_role("button", name="Leave the table").click()
    page.wait_for_url(f"{server_url}/")


def test_a_busted_practice_player_rebuys_from_the_page_and_the_game_goes_on(
    server_url: str, browser: Browser
) -> None:
    erin = sign_up(browser, server_url, "erin", DESKTOP)
    open_practice_table(erin, server_url, bots=2)
    # Sat out, the table stops after the hand, and says why.
    erin.get_by_role("button", name="Sit out").click()
    announce = erin.locator("[data-announce]")
    expect(announce).to_contain_text("Waiting for you to come back", timeout=60_000)
    # A short stack, calling everything: she busts for real within a few hands.
    outside_the_browser_loop(Seat.objects.filter(user__username="erin").update, stack=30)
    erin.get_by_role("button", name="I'm back").click()
    panel = erin.locator("[data-busted]")
    deadline = time.monotonic() + 120
    while not panel.is_visible():
        assert time.monotonic() < deadline, "she never busted"
        if not click_check_or_call([erin]):
            time.sleep(0.1)
    expect(announce).to_contain_text("Waiting for erin to rebuy")
    expect(panel).to_contain_text("Rebuy to keep playing")
    new_table = panel.get_by_role("link", name="New practice table")
    expect(new_table).to_have_attribute("href", "/tables/practice/")
    expect(panel.get_by_role("link", name="See the tournament")).to_have_count(0)
    erin.screenshot(path=SCREENSHOTS / "felt-practice-busted.png")
    hand = erin.locator("[data-hand-number]").inner_text()
    panel.get_by_role("button", name="Rebuy 1500 chips").click()
    expect(panel).to_be_hidden()
    expect(erin.locator(".seat.you")).to_contain_text("1500")
    expect(erin.locator("[data-hand-number]")).not_to_have_text(hand)  # the next hand
    erin.screenshot(path=SCREENSHOTS / "felt-practice-rebuy.png")

    automatic = erin.get_by_label("Rebuy by itself when I bust")
    automatic.check()
    deadline = time.monotonic() + 10
    while not outside_the_browser_loop(Table.objects.filter(auto_rebuy=True).exists):
        assert time.monotonic() < deadline, "the choice never reached the server"
        time.sleep(0.1)
    erin.reload()
    expect(erin.get_by_label("Rebuy by itself when I bust")).to_be_checked()  # kept
