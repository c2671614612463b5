"""A club's welcome in Chromium: the owner sets the points given on joining and copies
the invitation link with its Copy button; a friend, signed out, opens it on a phone,
sees the club and who invited them, signs up from there, comes back to it and joins
with the points; the schedule page counts who can afford the buy-in as it is typed.
Also a new API token copied whole (tests/support/live.py and chromium.py have the set-up)."""

from __future__ import annotations

from playwright.sync_api import Browser, Locator, Page, expect

from tests.support import PASSWORD
from tests.support.chromium import BROWSER_TEST, DESKTOP, PHONE, SCREENSHOTS, sign_up

pytestmark = BROWSER_TEST


def shows_all_of_it(field: Locator) -> bool:
    """The value fits its box: nothing cut off or scrolled out of sight."""
    return bool(
        field.evaluate(
            "el => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1"
        )
    )


def copy_and_read(page: Page, button: Locator) -> str:
    button.click()
    expect(button).to_have_text("Copied")
    return str(page.evaluate("() => navigator.clipboard.readText()"))


def test_a_signed_out_friend_follows_the_invitation_signs_up_and_joins_with_points(
    server_url: str, browser: Browser
) -> None:
    owner = sign_up(browser, server_url, "olive", DESKTOP)
    owner.context.grant_permissions(["clipboard-read", "clipboard-write"])
    owner.get_by_role("link", name="Clubs").click()
    owner.fill("#id_name", "Thursday Crew")
    owner.fill("#id_description", "Our home game, online")
    owner.get_by_role("button", name="Create the club").click()
    owner.get_by_label("Points given on joining").fill("500")
    owner.locator("[data-joining-form]").get_by_role("button", name="Save").click()
    expect(
        owner.get_by_text("New members are given 500 club points when they join.")
    ).to_be_visible()

    field = owner.get_by_label("Send this link to the people you invite")
    assert shows_all_of_it(field)
    link = copy_and_read(owner, owner.locator("[data-copy='invite-url']"))
    owner.locator("[data-admin]").screenshot(path=str(SCREENSHOTS / "felt-club-admin-1280.png"))
    assert link == field.input_value() and "/clubs/thursday-crew/join/" in link

    friend = browser.new_context(viewport=PHONE).new_page()
    friend.set_default_timeout(20_000)
    friend.goto(link)
    expect(friend.locator("[data-invitation]")).to_contain_text(
        "olive invited you to join Thursday Crew"
    )
    expect(friend.locator("[data-joining-points]")).to_have_text("500")
    friend.screenshot(path=str(SCREENSHOTS / "felt-club-invite-390x844.png"), full_page=True)
    friend.get_by_role("link", name="Sign up to join").click()
    friend.fill("#id_username", "bob")
    friend.fill("#id_email", "bob@example.com")
    friend.fill("#id_password1", PASSWORD)
    friend.fill("#id_password2", PASSWORD)
    friend.get_by_role("button", name="Create account").click()
    friend.wait_for_url(link)
    friend.get_by_role("button", name="Join Thursday Crew").click()
    expect(friend.get_by_text("Welcome to Thursday Crew.")).to_be_visible()
    expect(friend.locator("[data-my-club-points]")).to_have_text("500")

    owner.get_by_role("link", name="Schedule a tournament").click()
    line = owner.locator("[data-afford-line]")
    expect(line).to_have_text("A freeroll: every member can register (2 members).")
    owner.fill("#id_buy_in", "500")
    expect(line).to_have_text("1 of 2 members has the 500 club points this buy-in takes.")
    owner.fill("#id_buy_in", "1200")
    expect(line).to_have_text("0 of 2 members have the 1,200 club points this buy-in takes.")


def test_the_invitation_page_on_a_desktop(server_url: str, browser: Browser) -> None:
    owner = sign_up(browser, server_url, "olive", DESKTOP)
    owner.get_by_role("link", name="Clubs").click()
    owner.fill("#id_name", "Sunday Club")
    owner.get_by_role("button", name="Create the club").click()
    link = owner.locator("[data-invite-url]").input_value()

    visitor = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    visitor.goto(link)

    expect(visitor.get_by_role("link", name="Log in to join")).to_be_visible()
    expect(visitor.get_by_role("link", name="Sign up to join")).to_be_visible()
    visitor.screenshot(path=str(SCREENSHOTS / "felt-club-invite-1280x720.png"))
    visitor.get_by_role("link", name="Log in to join").click()
    visitor.fill("#id_username", "olive")
    visitor.fill("#id_password", PASSWORD)
    visitor.get_by_role("button", name="Log in").click()
    visitor.wait_for_url(link)
    expect(visitor.get_by_text("You are already a member.")).to_be_visible()


def test_a_new_api_token_is_shown_whole_and_copied_on_a_phone(
    server_url: str, browser: Browser
) -> None:
    page = sign_up(browser, server_url, "tracy", PHONE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{server_url}/accounts/profile/")
    page.fill("#token-name", "my tracker")
    page.get_by_role("button", name="Create token").click()

    field = page.get_by_label("Your new API token")
    expect(page.get_by_role("button", name="Copy")).to_be_visible()
    assert shows_all_of_it(field)
    assert copy_and_read(page, page.locator("[data-copy='new-token']")) == field.input_value()
    assert field.input_value().startswith("felt_")
    page.screenshot(path=str(SCREENSHOTS / "felt-api-token-390x844.png"))
