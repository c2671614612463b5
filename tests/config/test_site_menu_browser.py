"""The site's navigation on a narrow screen (templates/base.html, static/js/menu.js):
where the links would be cut off at the screen's edge, a Menu button opens them as a
list, each in sight and big enough to touch, by mouse, finger or keyboard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.support.chromium import BROWSER_TEST, SCREENSHOTS, sign_up
from tests.support.table_pages import open_table

pytestmark = BROWSER_TEST

TOUCH_MIN = 44  # px
LINKS = ("Lobby", "Play", "Tournaments", "Clubs", "Hand histories", "Profile")


@pytest.mark.parametrize("width", [390, 768])
def test_a_narrow_screen_opens_every_site_link_from_a_menu(
    server_url: str, browser: Browser, width: int
) -> None:
    page = sign_up(browser, server_url, f"mia{width}", {"width": width, "height": 844})
    open_table(page, server_url)  # the table page: its header is one short line
    nav = page.get_by_role("navigation", name="Main")
    menu = page.get_by_role("button", name="Menu")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(nav).to_be_hidden()

    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    items = [nav.get_by_role("link", name=name, exact=True) for name in LINKS]
    items.append(nav.get_by_role("button", name="Log out"))
    for item in items:
        expect(item).to_be_in_viewport(ratio=1)
        box = item.bounding_box()
        assert box and box["height"] >= TOUCH_MIN and box["width"] >= TOUCH_MIN, box
    page.screenshot(path=SCREENSHOTS / f"felt-site-menu-{width}.png")
    page.keyboard.press("Escape")
    expect(nav).to_be_hidden()
    expect(menu).to_be_focused()

    # By keyboard: open it, and the first link is the next stop.
    page.keyboard.press("Enter")
    expect(menu).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Tab")
    expect(nav.get_by_role("link", name="Lobby", exact=True)).to_be_focused()
    nav.get_by_role("link", name="Hand histories").click()
    page.wait_for_url(re.compile(r"/hands/"))

    # Every page has the same menu; a wide window shows the links themselves.
    menu.click()
    expect(nav.get_by_role("link", name="Clubs")).to_be_in_viewport(ratio=1)
    page.set_viewport_size({"width": 1024, "height": 768})
    expect(menu).to_be_hidden()
    expect(nav.get_by_role("link", name="Clubs")).to_be_in_viewport(ratio=1)
