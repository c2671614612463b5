"""A player out of chips is told so at the table, with what they can do next."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tables.models import Seat
from tests.browser import BROWSER_TEST, DESKTOP, outside_the_browser_loop, sign_up
from tests.tables.test_browser import open_table, take_seat

pytestmark = BROWSER_TEST


def lose_every_chip(username: str) -> None:
    """As a bust would (outside Playwright's event loop: the ORM refuses to run in one)."""
    outside_the_browser_loop(Seat.objects.filter(user__username=username).update, stack=0)


def test_a_busted_player_sees_rebuy_watch_and_leave_and_rebuys(
    server_url: str, browser: Browser
) -> None:
    page = sign_up(browser, server_url, "dora", DESKTOP)
    open_table(page, server_url)
    take_seat(page, 0)
    panel = page.locator("[data-busted]")
    expect(panel).to_be_hidden()
    # Alone at the table, so no hand starts; lose the chips as a bust would.
    lose_every_chip("dora")
    page.reload()
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("You are out of chips.")
    for name in ("Rebuy 1500 chips", "Watch the table", "Leave the table"):
        expect(panel.get_by_role("button", name=name)).to_be_visible()
    panel.get_by_role("button", name="Rebuy 1500 chips").click()
    expect(panel).to_be_hidden()
    expect(page.locator(".seat.you")).to_contain_text("1500")
    ledger = page.locator("[data-ledger]")
    expect(ledger).to_contain_text("dora")
    expect(ledger.locator("tbody tr td").first).to_have_text("3000")  # bought in: 1500 twice
    lose_every_chip("dora")
    page.reload()
    panel.get_by_role("button", name="Leave the table").click()
    page.wait_for_url(f"{server_url}/")
