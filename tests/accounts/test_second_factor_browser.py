"""A staff member sets up an authenticator app in Chromium, reading the secret from the
page, logs out, logs in with a code worked out here, and opens the admin site."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from tests.support import PASSWORD
from tests.support.chromium import BROWSER_TEST, PHONE, SCREENSHOTS, outside_the_browser_loop
from tests.support.second_factor import code_from_secret

pytestmark = BROWSER_TEST

LAPTOP = {"width": 1280, "height": 720}


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    return {"next_hand_seconds": 3.0, "environment": {"ADMIN_REQUIRES_SECOND_FACTOR": "1"}}


def make_staff() -> None:
    User.objects.create_user(
        "hilda", email="hilda@example.com", password=PASSWORD, is_staff=True, is_superuser=True
    )


def screenshots(page: Page, name: str) -> None:
    """The page as a laptop and a phone show it: felt-second-factor-<name>-1280/390.png."""
    page.screenshot(path=SCREENSHOTS / f"felt-second-factor-{name}-1280.png", full_page=True)
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: nothing sticks out sideways on a phone"
    page.screenshot(path=SCREENSHOTS / f"felt-second-factor-{name}-390.png", full_page=True)
    page.set_viewport_size(LAPTOP)


def log_in_with_password(page: Page, server_url: str) -> None:
    page.goto(f"{server_url}/accounts/login/")
    page.get_by_label("Username").fill("hilda")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_staff_set_up_an_app_then_log_in_with_its_code_and_open_the_admin(
    server_url: str, browser: Browser
) -> None:
    outside_the_browser_loop(make_staff)
    page, earlier = (browser.new_context(viewport=LAPTOP).new_page() for _ in range(2))
    for each in (page, earlier):  # earlier: a log-in from before the app was set up
        each.set_default_timeout(20_000)
        log_in_with_password(each, server_url)
        expect(each.get_by_role("button", name="Log out", exact=True)).to_be_visible()

    page.goto(f"{server_url}/admin/")  # no second factor yet: sent to set one up
    expect(page.get_by_text("The admin site needs a second factor")).to_be_visible()
    section = page.locator("#second-factor")
    screenshots(page, "profile")
    section.get_by_role("button", name="Set up an authenticator app").click()

    expect(page.get_by_role("heading", name="Set up your authenticator app")).to_be_visible()
    expect(page.locator(".qr-code svg")).to_be_visible()
    screenshots(page, "setup")
    secret = page.get_by_label("The secret, to type into the app").input_value()
    page.get_by_label("Code").fill(code_from_secret(secret))
    page.get_by_role("button", name="Confirm").click()

    expect(page.get_by_role("heading", name="Your recovery codes")).to_be_visible()
    codes = page.get_by_label("Your recovery codes, one per line").input_value().split()
    assert len(codes) == 10
    expect(page.get_by_role("button", name="Copy")).to_be_visible()
    screenshots(page, "codes")
    page.get_by_role("link", name="I have kept them").click()
    expect(page.locator("[data-second-factor-on]")).to_contain_text("10 recovery codes left")
    screenshots(page, "profile-on")

    earlier.goto(f"{server_url}/admin/")  # that log-in gave no code: refused, and told why
    expect(earlier.get_by_role("heading", name="The admin site is closed")).to_be_visible()
    screenshots(earlier, "admin-refused")

    page.get_by_role("button", name="Log out", exact=True).click()
    log_in_with_password(page, server_url)
    expect(page.get_by_role("heading", name="Your code")).to_be_visible()
    screenshots(page, "code")
    # The app's next code: the one that confirmed the set-up may still be the current one.
    page.get_by_label("Code").fill(code_from_secret(secret, at=time.time() + 30))
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out", exact=True)).to_be_visible()

    page.goto(f"{server_url}/admin/")
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
    page.goto(f"{server_url}/admin/accounts/user/")
    expect(page.get_by_role("link", name="hilda")).to_be_visible()
