"""In Chromium, a tournament's page follows a deal at its final table: the deal
panel counts the answers, the page says play waits for them, and once the deal
ends the tournament the page turns, by itself, into the finished one, showing
what the deal paid each player, by place, as ordinals."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, expect

from tests.support.chromium import (
    BROWSER_TEST,
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
)
from tests.tournaments.test_deal_browser import (
    check_or_fold_until_a_deal_may_be_proposed,
    deal_of,
    started_on_a_break,
    table_id_of,
)

pytestmark = BROWSER_TEST


def test_the_tournament_page_follows_a_deal_to_the_finished_tournament(
    server_url: str, browser: Browser, make_user: Any
) -> None:
    ann = sign_up(browser, server_url, "ann", DESKTOP)
    ben = sign_up(browser, server_url, "ben", PHONE)
    cy = sign_up(browser, server_url, "cy", DESKTOP)
    tournament = outside_the_browser_loop(started_on_a_break, ["ann", "ben", "cy"])
    table_id = outside_the_browser_loop(table_id_of, tournament.pk)
    tables = [ann, ben, cy]
    for page in tables:
        page.goto(f"{server_url}/tables/{table_id}/")
        expect(page.locator("[data-connection-status]")).to_have_text("Live")
    check_or_fold_until_a_deal_may_be_proposed(tables)
    lobby = ben.context.new_page()  # ben keeps the tournament's page open beside the table
    lobby.goto(f"{server_url}/tournaments/{tournament.pk}/")
    expect(lobby.locator("[data-connection-status]")).to_have_text("Live")
    pending = lobby.locator("dd[data-deal-pending]")
    expect(pending).to_be_hidden()

    ann.get_by_role("button", name="Propose a deal").click()
    ann.get_by_role("button", name="Propose this deal").click()

    expect(ben.locator("[data-deal-note]")).to_contain_text("1 of 3 players have answered.")
    expect(pending).to_have_text(
        "The players left are answering a proposed deal: no hand is dealt until they have"
    )
    ben.get_by_role("button", name="Accept").click()
    expect(cy.locator("[data-deal-note]")).to_contain_text("2 of 3 players have answered.")
    cy.get_by_role("button", name="Accept").click()

    expect(lobby.locator("[data-status]")).to_have_text("Finished")  # drawn again by itself
    deal = outside_the_browser_loop(deal_of, tournament.pk)
    paid = lobby.locator("[data-payouts]")
    expect(paid).to_contain_text(re.compile(r"^1st \w+ \d+ · 2nd \w+ \d+ · 3rd \w+ \d+"))
    expect(paid).to_contain_text(", by an ICM deal")
    for amount in deal.amounts.values():
        expect(paid).to_contain_text(f" {amount}")
    expect(lobby.locator("[data-your-result]")).to_contain_text(
        re.compile(r"You finished (1st|2nd|3rd) of 3 and were paid \d+ points: \d+ from the deal\.")
    )
    expect(lobby.locator("[data-columns] th")).to_have_text(
        ["Player", "Place", "Prize", "Deal", "Paid in all"]
    )
    expect(lobby.get_by_text("Next level")).to_have_count(0)
    expect(lobby.get_by_role("link", name="See the final table")).to_be_visible()
    lobby.screenshot(path=SCREENSHOTS / "felt-deal-finished-page-phone.png", full_page=True)
