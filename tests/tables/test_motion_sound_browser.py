"""Motion at the table only for those who want it, and a sound switch the browser remembers."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import BROWSER_TEST, DESKTOP, sign_up
from tests.tables.test_browser import open_table, take_seat

pytestmark = BROWSER_TEST


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    return {"next_hand_seconds": 0.5}


def animation_of(page: Page, selector: str) -> str:
    return page.eval_on_selector(selector, "(el) => getComputedStyle(el).animationName")


def test_the_turn_pulses_unless_the_player_asked_for_less_motion(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "nora", DESKTOP)
    link = open_table(host, server_url)
    take_seat(host, 0)
    guest = sign_up(browser, server_url, "otto", DESKTOP)
    guest.emulate_media(reduced_motion="reduce")
    guest.goto(link)
    take_seat(guest, 1)
    for page in (host, guest):
        expect(page.locator(".seat.to-act")).to_have_count(1)
    host.emulate_media(reduced_motion="no-preference")
    assert animation_of(host, ".seat.to-act .plate") == "turn-pulse"
    assert animation_of(guest, ".seat.to-act .plate") == "none"
    assert animation_of(guest, ".seat.you .hole .card") == "none"


def test_the_sound_switch_is_remembered(server_url: str, browser: Browser) -> None:
    page = sign_up(browser, server_url, "pia", DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_table(page, server_url)
    switch = page.get_by_role("button", name="Turn sound on")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(page.get_by_role("button", name="Turn sound off")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.reload()
    expect(page.get_by_role("button", name="Turn sound off")).to_have_attribute(
        "aria-pressed", "true"
    )
    take_seat(page, 0)  # the table goes on drawing with sound on
    page.get_by_role("button", name="Turn sound off").click()
    page.reload()
    expect(page.get_by_role("button", name="Turn sound on")).to_be_visible()
    assert errors == []
