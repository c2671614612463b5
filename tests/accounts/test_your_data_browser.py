"""A member takes a copy of their data from the profile, then closes the account there:
logged out, and the password no longer logs anyone in."""

from __future__ import annotations

import json
import zipfile

from playwright.sync_api import Browser, Page, expect

from tests.support import PASSWORD
from tests.support.chromium import BROWSER_TEST, PHONE, SCREENSHOTS, sign_up_on_the_page

pytestmark = BROWSER_TEST

LAPTOP = {"width": 1280, "height": 720}
SIZES = {"1280": LAPTOP, "390": PHONE}


def shoot(page: Page, name: str) -> None:
    """The page at both sizes, each as a person would scroll through it."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], "nothing sticks out sideways"
        page.screenshot(path=SCREENSHOTS / f"{name}-{size}.png", full_page=True)
    page.set_viewport_size(LAPTOP)


def test_a_member_downloads_their_data_then_closes_the_account(
    server_url: str, browser: Browser, tmp_path
) -> None:
    page = sign_up_on_the_page(browser, server_url, "dora", LAPTOP)
    page.goto(f"{server_url}/accounts/profile/")
    data = page.locator("#your-data")
    data.get_by_role("button", name="Download my data").click()
    link = data.get_by_role("link", name="Download your data (zip)")
    expect(link).to_be_visible(timeout=30_000)  # the worker built it; the page asked
    data.scroll_into_view_if_needed()
    shoot(page, "felt-download-data")
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / "data.zip"
    download.value.save_as(saved)
    with zipfile.ZipFile(saved) as archive:
        assert json.loads(archive.read("account.json"))["username"] == "dora"
        assert "hands.phhs" in archive.namelist()

    page.goto(f"{server_url}/accounts/profile/")
    page.get_by_role("link", name="Close my account…").click()
    expect(page.get_by_role("heading", name="Close your account")).to_be_visible()
    shoot(page, "felt-close-account")
    page.get_by_label("Your password").fill("not my password")
    page.get_by_role("button", name="Close my account for good").click()
    expect(
        page.get_by_text("That is not your password. Your account is still open.")
    ).to_be_visible()
    shoot(page, "felt-close-account-wrong-password")
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Close my account for good").click()
    expect(page.get_by_text("Your account is closed.")).to_be_visible()
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()  # logged out
    shoot(page, "felt-close-account-closed")

    page.goto(f"{server_url}/accounts/profile/")
    assert "/accounts/login/" in page.url, "logged out: the profile asks to log in"
    page.fill("#id_username", "dora")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Please enter a correct username and password")).to_be_visible()
