"""In Chromium: from the log-in page, "Forgot your password?", the address, the link
from the mail the live server's worker sent to a real SMTP server, a new password,
then a log-in with it. Screenshots of the two pages at a laptop's and a phone's size."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from tests.support import PASSWORD
from tests.support.chromium import BROWSER_TEST, PHONE, SCREENSHOTS, outside_the_browser_loop
from tests.support.mail import Inbox

pytestmark = BROWSER_TEST

LAPTOP = {"width": 1280, "height": 720}
NEW_PASSWORD = "a-brand-new-passphrase-41"


@pytest.fixture
def live_server_options(smtp_inbox: Inbox) -> dict[str, Any]:
    """The live server sends its mail to this test's SMTP server."""
    return {"next_hand_seconds": 3.0, "environment": {"EMAIL_URL": smtp_inbox.url}}


def member_with_a_confirmed_address(make_user: Any) -> None:
    alice = make_user("alice")
    alice.confirmed_email, alice.email_confirmed_at = alice.email, timezone.now()
    alice.save()


def screenshots(page: Page, name: str) -> None:
    """The page at a phone's size and a laptop's; it is left at the laptop's."""
    for viewport, width in ((PHONE, "390"), (LAPTOP, "1280")):
        page.set_viewport_size(viewport)
        path = SCREENSHOTS / f"felt-forgot-password-{name}{width}.png"
        page.screenshot(path=path, full_page=True)


def test_a_member_who_forgot_their_password_sets_a_new_one_from_the_mailed_link(
    server_url: str, browser: Browser, make_user: Any, smtp_inbox: Inbox
) -> None:
    outside_the_browser_loop(member_with_a_confirmed_address, make_user)
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{server_url}/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page.get_by_role("heading", name="Forgot your password?")).to_be_visible()
    screenshots(page, "")
    page.get_by_label("Email").fill("alice@example.com")
    page.get_by_role("button", name="Send me a link").click()
    expect(page.get_by_role("heading", name="Check your mail")).to_be_visible()
    expect(page.get_by_text("If an account uses that address, we sent a link")).to_be_visible()

    [mail] = smtp_inbox.wait_for(1)
    assert mail.recipients == ("alice@example.com",)
    assert mail.link().startswith(f"{server_url}/accounts/password/reset/")
    page.goto(mail.link())
    expect(page.get_by_role("heading", name="Choose a new password")).to_be_visible()
    screenshots(page, "new-")
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Save my new password").click()
    expect(page.get_by_text("Your password was changed and you are logged in.")).to_be_visible()

    again = browser.new_context(viewport=LAPTOP).new_page()
    again.goto(f"{server_url}/accounts/login/")
    again.get_by_label("Username").fill("alice")
    again.get_by_label("Password").fill(PASSWORD)
    again.get_by_role("button", name="Log in").click()
    expect(again.get_by_text("Please enter a correct username and password")).to_be_visible()
    again.get_by_label("Password").fill(NEW_PASSWORD)
    again.get_by_role("button", name="Log in").click()
    expect(again.get_by_role("button", name="Log out", exact=True)).to_be_visible()
