"""A player the host removes is told so on their page, not left looking at "Sit here",
and sits again only once the host lets them back."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.support.chromium import BROWSER_TEST, DESKTOP, PHONE, SCREENSHOTS, sign_up
from tests.support.table_pages import (
    TABLE_LINK,
    click_check_or_call,
    show_panel_tab,
    take_seat,
)

pytestmark = BROWSER_TEST


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    return {"next_hand_seconds": 1.0}


def test_a_player_removed_during_a_hand_is_told_at_each_step(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "hazel", DESKTOP)
    host.goto(f"{server_url}/tables/new/")
    host.fill("#id_name", "Three of us")
    host.fill("#id_seat_count", "3")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url(TABLE_LINK)
    take_seat(host, 0)
    show_panel_tab(host, "Host")
    panel = host.get_by_role("region", name="Host controls")
    panel.get_by_role("button", name="Pause the game").click()  # until all three sit
    third = sign_up(browser, server_url, "jules", DESKTOP)
    third.goto(host.url)
    take_seat(third, 2)
    guest = sign_up(browser, server_url, "ivan", PHONE)
    guest.goto(host.url)
    take_seat(guest, 1)
    panel.get_by_role("button", name="Resume the game").click()
    expect(guest.locator("[data-hand-number]")).to_have_text("Hand #1")
    expect(guest.locator(".seat.you .hole .card.face")).to_have_count(2)

    panel.get_by_role("button", name="Remove ivan").click()

    # The hand goes on between the other two: ivan is folded on his turn, and told
    # he leaves after it.
    seat_controls = guest.locator("[data-seat-controls]")
    expect(seat_controls.locator("[data-leaving]")).to_have_text(
        "The host removed you: you leave after this hand"
    )
    expect(seat_controls.get_by_role("button", name="Stay at the table")).to_be_hidden()
    note = guest.locator("[data-removed]")
    expect(note).to_be_hidden()

    deadline = time.monotonic() + 60
    while guest.locator(".seat.you").count():
        assert time.monotonic() < deadline, "the hand did not end"
        if not click_check_or_call([host, third]):
            time.sleep(0.1)

    expect(note).to_have_text(
        "The host removed you from this table: you can sit here again once the host lets you back."
    )
    expect(guest.locator(".seat.empty")).to_have_count(1)
    expect(guest.get_by_role("button", name="Sit in seat 2")).to_have_count(0)
    guest.screenshot(path=SCREENSHOTS / "felt-removed-phone.png")
    expect(host.locator("[data-removed]")).to_be_hidden()
    expect(third.locator("[data-removed]")).to_be_hidden()

    panel.get_by_role("button", name="Allow ivan back").click()
    guest.get_by_role("button", name="Sit in seat 2").click()  # back, if he wants
    expect(guest.locator(".seat.you")).to_have_count(1)
    expect(note).to_be_hidden()
