"""The money reached in Chromium, in a rebuy tournament's rebuy period: three
members, three places paid; two of them move all in at each other (the third
folds) until one is out of chips, who says no to the rebuy and takes 3rd
place and its prize, so rebuys and the add-on close (rule 34). The two left
hear it in a toast and their pages stop offering a rebuy, at a phone's size
and a laptop's (docs/tournaments.md, "Rebuys and add-ons")."""

from __future__ import annotations

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
from tests.tournaments.test_rebuy_browser import (
    move_in_until_an_offer,
    started_with_rebuys,
    table_id_of,
)

pytestmark = BROWSER_TEST

CLOSED = "Rebuys and the add-on have closed: a paid place has been given"


def test_the_players_left_see_rebuys_close_once_a_paid_place_is_given(
    server_url: str, browser: Browser, make_user: Any
) -> None:
    pages = [sign_up(browser, server_url, name, PHONE) for name in ("ann", "ben", "cat")]
    tournament = outside_the_browser_loop(
        started_with_rebuys,
        ["ann", "ben", "cat"],
        name="Bubble Night",
        bounty=0,
        rebuy_levels=2,
        payout_percentages=[50, 30, 20],
    )
    table_id = outside_the_browser_loop(table_id_of, tournament.pk)
    for page in pages:
        page.goto(f"{server_url}/tables/{table_id}/")
        expect(page.locator("[data-connection-status]")).to_have_text("Live")
        expect(page.locator("[data-purchases]")).to_contain_text("Rebuys are open")

    out = move_in_until_an_offer(pages[:2], folder=pages[2])
    out.get_by_role("button", name="No, I'm out").click()

    left = [page for page in pages if page is not out]
    for page in left:
        expect(page.locator("[data-toast]")).to_have_text(CLOSED)
        expect(page.locator("[data-purchases]")).to_be_hidden()  # no rebuy on offer
    for page, size in zip(left, ("phone", "laptop"), strict=True):
        if size == "laptop":
            page.set_viewport_size(DESKTOP)
        page.screenshot(path=SCREENSHOTS / f"felt-money-reached-{size}.png")
    expect(out.locator("[data-notice-text]")).to_contain_text("You finished 3rd of 3: 60 points")
