"""A friend joins by link with a nickname, plays a hand, then saves the account and
finds the hand in their history; and the landing page, as a visitor sees it."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.support import PASSWORD
from tests.support.chromium import BROWSER_TEST, DESKTOP, PHONE, SCREENSHOTS, sign_up_on_the_page
from tests.support.table_pages import open_table, play_the_hand_out, table_id_of, take_seat

pytestmark = BROWSER_TEST

LAPTOP = {"width": 1280, "height": 720}


def visitor(browser: Browser, viewport: dict[str, int]) -> Page:
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(20_000)
    return page


def test_a_guest_joins_by_link_plays_a_hand_and_keeps_it_in_a_saved_account(
    server_url: str, browser: Browser
) -> None:
    host = sign_up_on_the_page(browser, server_url, "hazel", DESKTOP)
    expect(host.get_by_text(re.compile("Welcome"))).to_have_count(1)  # one welcome, not two
    link = open_table(host, server_url)
    take_seat(host, 0)

    friend = visitor(browser, PHONE)
    friend.goto(link)
    expect(friend.get_by_role("heading", name="Join Browser game")).to_be_visible()
    expect(friend.get_by_text("hazel invited you")).to_be_visible()
    friend.screenshot(path=SCREENSHOTS / "felt-guest-join-390.png", full_page=True)
    friend.set_viewport_size(LAPTOP)
    friend.screenshot(path=SCREENSHOTS / "felt-guest-join-1280.png", full_page=True)
    friend.get_by_label("Nickname").fill("Dave")
    friend.get_by_role("button", name="Join as a guest").click()
    friend.wait_for_url(f"{server_url}/tables/{table_id_of(link)}/")  # let in: no key needed
    expect(friend.get_by_role("link", name="Dave (guest)")).to_be_visible()
    take_seat(friend, 1)
    friend.screenshot(path=SCREENSHOTS / "felt-guest-table-1280.png")

    for page in (host, friend):
        expect(page.locator("[data-hand-number]")).to_have_text("Hand #1")
    play_the_hand_out([host, friend])

    friend.get_by_role("link", name="Save your account").click()
    friend.screenshot(path=SCREENSHOTS / "felt-guest-profile-1280.png", full_page=True)
    form = friend.locator("#save-account")
    form.get_by_label("Username").fill("dave")
    form.get_by_label("Email").fill("dave@example.com")
    form.get_by_label("Password", exact=True).fill(PASSWORD)
    form.get_by_label("Password confirmation").fill(PASSWORD)
    form.get_by_role("button", name="Save my account").click()
    expect(friend.get_by_text("Your account is saved: log in as dave")).to_be_visible()
    expect(friend.locator("[data-points-balance]")).to_have_text("10,000 points")
    expect(friend.get_by_role("link", name="Save your account")).to_have_count(0)

    friend.get_by_role("navigation", name="Main").get_by_role("link", name="Hand histories").click()
    hand = friend.get_by_role("main").get_by_role("link", name="#1", exact=True)
    expect(hand).to_be_visible()  # the hand played as a guest, in the saved account's history
    hand.click()
    expect(friend).to_have_url(re.compile(r"/hands/\d+/$"))
    expect(friend.get_by_text("hazel").first).to_be_visible()


def test_the_landing_page_says_what_felt_is_for(server_url: str, browser: Browser) -> None:
    for viewport, name in ((PHONE, "390"), (LAPTOP, "1280")):
        page = visitor(browser, viewport)
        page.goto(server_url + "/")
        expect(page.get_by_role("heading", level=1)).to_have_text(
            "Poker with your friends, in the browser"
        )
        for heading in (
            "Play with friends by link",
            "Practise against bots",
            "Sit-n-gos",
            "Clubs and their tournaments",
            "Hand histories",
        ):
            expect(page.get_by_role("heading", name=heading)).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], "nothing sticks out sideways"
        page.screenshot(path=SCREENSHOTS / f"felt-landing-{name}.png", full_page=True)

    page.get_by_role("link", name="See the open sit-n-gos").click()
    expect(page).to_have_url(re.compile(r"/tournaments/$"))
