"""A request reaches the host at once, wherever they are looking: a toast with
Approve and Refuse, and a count on the Host tab and the panel's toggle; Approve
from the toast seats the player. At a laptop's 1280x720 and a phone's 390x844."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.live import BROWSER_TEST, PHONE, SCREENSHOTS, sign_up
from tests.support.table_pages import open_table, show_panel_tab, take_seat

pytestmark = BROWSER_TEST

LAPTOP = {"width": 1280, "height": 720}


def _inside_the_window(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["y"] >= 0, f"{selector} starts off the window"
    assert box["x"] + box["width"] <= size["width"], f"{selector} ends right of the window"
    assert box["y"] + box["height"] <= size["height"], f"{selector} ends below the window"
    assert box["width"] >= 44 and box["height"] >= 44, f"{selector} is too small to tap"


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280x720", "390x844"])
def test_the_host_approves_a_sit_down_from_the_toast(
    server_url: str, browser: Browser, viewport: dict[str, int]
) -> None:
    host = sign_up(browser, server_url, "hazel", viewport)
    link = open_table(host, server_url)
    take_seat(host, 0)
    show_panel_tab(host, "Host")
    host.get_by_label("Approve sit-downs").check()
    expect(host.get_by_label("Approve sit-downs")).to_be_checked()
    show_panel_tab(host, "Chat")  # looking elsewhere: the chat, or the felt on a phone
    host.keyboard.press("Escape")

    friend = sign_up(browser, server_url, "ivan", viewport)
    friend.goto(link)
    expect(friend.locator("[data-connection-status]")).to_have_text("Live")
    friend.get_by_role("button", name="Sit in seat 2").click()

    toast = host.get_by_role("group", name="ivan asks for seat 2")
    expect(toast).to_be_visible()
    badge = "[data-panel-toggle] [data-request-count]"
    if viewport == LAPTOP:
        badge = "[data-tab=host] [data-request-count]"
    expect(host.locator(badge)).to_have_text("1")
    _inside_the_window(host, "[data-request-toasts] .request-toast button:text-is('Approve')")
    size = f"{viewport['width']}x{viewport['height']}"
    host.screenshot(path=str(SCREENSHOTS / f"host-request-toast-{size}.png"))

    toast.get_by_role("button", name="Approve: ivan asks for seat 2").click()
    expect(friend.locator(".seat.you")).to_have_count(1)
    expect(host.locator("[data-request-toasts]")).to_be_hidden()
    expect(host.locator(badge)).to_be_hidden()
    expect(host.locator(".seat:not(.you)")).to_contain_text("ivan")


def test_a_removed_player_sees_why_and_no_seat_until_let_back(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "hazel", LAPTOP)
    link = open_table(host, server_url)
    take_seat(host, 0)
    friend = sign_up(browser, server_url, "ivan", LAPTOP)
    friend.goto(link)
    take_seat(friend, 1)
    show_panel_tab(host, "Host")
    host.get_by_role("button", name="Remove ivan").click()

    expect(friend.locator("[data-removed]")).to_contain_text("once the host lets you back")
    friend.reload()  # opening the link again changes nothing
    expect(friend.locator("[data-removed]")).to_contain_text("once the host lets you back")
    expect(friend.get_by_role("button", name="Sit in seat 2")).to_have_count(0)

    host.get_by_role("button", name="Allow ivan back").click()
    expect(friend.locator("[data-removed]")).to_be_hidden()
    take_seat(friend, 1)
