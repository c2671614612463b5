"""A member logged in from two browsers sees both on the profile, with their API tokens,
and logs the other browser out with a click."""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from tests.support import PASSWORD
from tests.support.chromium import BROWSER_TEST, PHONE, SCREENSHOTS, outside_the_browser_loop

pytestmark = BROWSER_TEST

LAPTOP = {"width": 1280, "height": 720}
FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)


def logged_in(browser: Browser, server_url: str, viewport: dict[str, int], agent: str) -> Page:
    """Alice, logged in on the log-in page of a browser that says it is ``agent``."""
    page = browser.new_context(viewport=viewport, user_agent=agent).new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{server_url}/accounts/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Signed in as alice.")).to_be_visible()
    return page


def create_token(page: Page, name: str) -> str:
    page.get_by_label("New token's name").fill(name)
    page.get_by_role("button", name="Create token").click()
    return page.locator("[data-new-token]").input_value()


def call_the_api(server_url: str, key: str) -> str:
    request = urllib.request.Request(
        f"{server_url}/api/me/", headers={"Authorization": f"Bearer {key}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - our server
        return str(json.load(response)["username"])


def test_a_member_sees_both_browsers_and_logs_the_other_one_out(
    server_url: str, browser: Browser
) -> None:
    outside_the_browser_loop(
        lambda: User.objects.create_user("alice", "alice@example.com", PASSWORD)
    )
    phone = logged_in(browser, server_url, PHONE, IPHONE)
    laptop = logged_in(browser, server_url, LAPTOP, FIREFOX)
    laptop.goto(f"{server_url}/accounts/profile/")
    key = create_token(laptop, "hand tracker")
    create_token(laptop, "stats notebook")
    assert call_the_api(server_url, key) == "alice"

    for page, width in ((laptop, 1280), (phone, 390)):
        page.goto(f"{server_url}/accounts/profile/#sessions")
        sessions = page.locator("[data-session]")
        expect(sessions).to_have_count(2)
        expect(page.locator("[data-token]")).to_have_count(2)
        page.screenshot(path=SCREENSHOTS / f"felt-profile-sessions-{width}.png", full_page=True)

    sessions = laptop.locator("[data-session]")
    expect(sessions.nth(0)).to_contain_text("Firefox on Windows")
    expect(sessions.nth(0)).to_contain_text("This browser")
    expect(sessions.nth(0)).to_contain_text("127.0.0.1 · active now")
    expect(sessions.nth(0).get_by_role("button")).to_have_count(0)
    expect(sessions.nth(1)).to_contain_text("Mobile Safari on iOS (iPhone)")
    expect(sessions.nth(1)).to_contain_text(re.compile(r"127\.0\.0\.1 ·\s+last seen \d+ \w+ \d{4}"))
    expect(sessions.nth(1)).not_to_contain_text("This browser")
    tokens = laptop.locator("[data-token]")
    expect(tokens.filter(has_text="hand tracker")).to_contain_text(re.compile(r"last used\s+\d+"))
    expect(tokens.filter(has_text="stats notebook")).to_contain_text("never used")
    expect(phone.locator("[data-session]").nth(0)).to_contain_text(
        "Mobile Safari on iOS (iPhone) This browser"
    )

    for page, width in ((laptop, 1280), (phone, 390)):
        page.goto(f"{server_url}/accounts/password/")
        revoke = page.get_by_label("Also revoke my 2 API tokens")
        expect(revoke).to_be_visible()
        expect(revoke).not_to_be_checked()  # a routine change keeps the programs working
        page.screenshot(
            path=SCREENSHOTS / f"felt-profile-sessions-password-{width}.png", full_page=True
        )
    laptop.goto(f"{server_url}/accounts/profile/")

    sessions.nth(1).get_by_role("button", name="Log out").click()
    ended = laptop.get_by_text("That session was ended: that browser is logged out.")
    expect(ended).to_be_visible()
    expect(laptop.locator("[data-session]")).to_have_count(1)
    expect(laptop.get_by_role("button", name="Log out everywhere else")).to_have_count(0)
    phone.reload()
    expect(phone).to_have_url(re.compile(r"/accounts/login/\?next="))
    expect(phone.get_by_role("heading", name="Log in")).to_be_visible()
