"""Out of a practice sit-n-go, the table page shows the place and prize with the
tournament's link, and none of the seat's controls that can no longer be used."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tables.models import Seat
from tests.support.chromium import (
    BROWSER_TEST,
    DESKTOP,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
)
from tests.support.table_pages import click_check_or_call

pytestmark = BROWSER_TEST

SHORT_STACK = 10  # less than a big blind: out within a hand or two


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    # Time between hands to cut the member's stack down before the next deal.
    return {"next_hand_seconds": 2.0, "bot_delay": (0.05, 0.15)}


def test_a_player_out_of_a_sit_n_go_sees_the_place_and_the_prize(
    server_url: str, browser: Browser
) -> None:
    page = sign_up(browser, server_url, "olga", DESKTOP)
    page.goto(f"{server_url}/tournaments/")
    page.get_by_role("button", name="Start a practice sit-n-go").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(page.get_by_role("button", name="Sit out")).to_be_visible()

    panel = page.locator("[data-busted]")
    shortened_for = None
    deadline = time.monotonic() + 180
    while not panel.is_visible():
        assert time.monotonic() < deadline, "olga never went out"
        hand = page.locator("[data-hand-number]").inner_text()
        if " wins " in page.locator("[data-announce]").inner_text() and shortened_for != hand:
            # Between hands: the next deal takes this stack (a deal already made keeps its own).
            outside_the_browser_loop(
                Seat.objects.filter(user__username="olga", stack__gt=0).update, stack=SHORT_STACK
            )
            shortened_for = hand
        if not click_check_or_call([page]):
            time.sleep(0.1)

    expect(panel).to_contain_text(re.compile(r"You finished [2-6](nd|rd|th) of 6\."))
    link = panel.get_by_role("link", name="See the tournament")
    expect(link).to_have_attribute("href", re.compile(r"^/tournaments/\d+/$"))
    expect(panel.get_by_role("button", name=re.compile("Rebuy"))).to_be_hidden()
    expect(page.get_by_role("button", name="Sit out")).to_be_hidden()
    expect(page.get_by_role("button", name="I'm back")).to_be_hidden()
    page.screenshot(path=SCREENSHOTS / "felt-sng-out-desktop.png")

    page.reload()  # the seat cleared or not, the place is still shown
    expect(panel).to_contain_text(re.compile(r"You finished [2-6](nd|rd|th) of 6\."))
    expect(page.get_by_role("button", name="Sit out")).to_be_hidden()
    link.click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    expect(page.locator("[data-your-result]")).to_contain_text("You finished")
