"""The table page when its connection is lost or refused (docs/table.md): the banner
over the felt says so at once, the player's clock stops and the action bar is
switched off until the table is back; a socket refused for too many connections
says it will try again."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.support.chromium import BROWSER_TEST, SCREENSHOTS, sign_up
from tests.support.live import stop_web_server
from tests.support.table_pages import TABLE_LINK, open_table, take_seat

pytestmark = BROWSER_TEST

BANNER_SECONDS = 3.0  # the longest a dropped connection may go unsaid


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    return {"next_hand_seconds": 0.5}


def test_a_dropped_connection_shows_over_the_felt_and_stops_the_clock(
    server_url: str, browser: Browser
) -> None:
    eli = sign_up(browser, server_url, "eli", {"width": 1280, "height": 720})
    link = open_table(eli, server_url)
    take_seat(eli, 0)
    fay = sign_up(browser, server_url, "fay", {"width": 390, "height": 844})
    fay.goto(link)
    take_seat(fay, 1)
    expect(eli.locator(".seat.to-act")).to_have_count(1)
    to_act = eli if eli.locator(".seat.you.to-act").count() else fay
    expect(to_act.locator("[data-controls]")).to_be_visible()
    banner = to_act.locator("[data-connection-status]")
    expect(banner).to_be_hidden()
    expect(to_act.locator("[data-sealed] svg")).to_be_visible()  # with a hand: the lock

    stop_web_server(server_url)
    expect(banner).to_be_visible(timeout=BANNER_SECONDS * 1000)
    expect(banner).to_have_text(re.compile(r"^Connection lost — reconnecting"))
    felt, box = to_act.locator("[data-felt]").bounding_box(), banner.bounding_box()
    assert felt and box, "both drawn"
    assert felt["y"] <= box["y"] and box["y"] + box["height"] <= felt["y"] + felt["height"]
    expect(to_act.locator(".seat.you .clock-text")).to_have_text("Paused: offline")
    to_act.wait_for_timeout(1000)
    expect(to_act.locator(".seat.you .clock")).not_to_have_class(re.compile("urgent"))
    expect(to_act.locator("[data-dock]")).to_have_attribute("inert", "")
    expect(to_act.locator("[data-dock-reason]")).to_have_text(
        "Not connected: your buttons work again once the table is back."
    )
    to_act.screenshot(path=SCREENSHOTS / "felt-table-connection-lost.png")
    # The button is switched off: a click reaches nothing.
    to_act.locator('[data-act="call"]').click(force=True)
    expect(to_act.locator("[data-toast]")).to_be_hidden()


# Few sockets a minute per member: a few reloads of the table are refused with 4430.
FEW_SOCKETS = {"next_hand_seconds": 0.5, "environment": {"SOCKET_HANDSHAKES_PER_USER": "3"}}


@pytest.mark.parametrize("live_server_options", [FEW_SOCKETS])
def test_a_socket_refused_for_too_many_connections_says_it_will_reconnect(
    server_url: str, browser: Browser
) -> None:
    page = sign_up(browser, server_url, "gil", {"width": 390, "height": 844})
    page.goto(f"{server_url}/tables/new/")
    page.get_by_role("button", name="Open the table").click()
    # A reload while the table page is still loading is Chromium's to refuse.
    page.wait_for_url(TABLE_LINK)
    banner = page.locator("[data-connection-status]")
    refused = re.compile(r"^Too many connections just now — reconnecting")
    for _ in range(6):
        page.reload()
        try:
            expect(banner).to_have_text(refused, timeout=3_000)
            break
        except AssertionError:
            expect(banner).to_have_text("Live")
    expect(banner).to_have_text(refused)
    expect(banner).to_be_visible()
    expect(page.locator("[data-dock]")).to_have_attribute("inert", "")
