"""In Chromium: a member registered in a sit-n-go, with its page and the tournament list
open, sees "Take your seat" on both the moment it starts, without a reload; it takes
them to their seat. Later visits to the list and the lobby offer the same."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from tests.support.chromium import BROWSER_TEST, DESKTOP, PHONE, outside_the_browser_loop, sign_up

pytestmark = BROWSER_TEST


def test_a_registered_player_is_offered_their_seat_when_the_sng_starts(
    server_url: str, browser: Browser, make_user
) -> None:
    from tests.tournaments.helpers import members, sng
    from tournaments import services

    tournament = outside_the_browser_loop(sng, structure="regular", buy_in=0)
    detail = sign_up(browser, server_url, "dana", DESKTOP)
    detail.goto(f"{server_url}/tournaments/{tournament.pk}/")
    detail.get_by_role("button", name="Register").click()
    expect(detail.get_by_role("button", name="Unregister")).to_be_visible()
    expect(detail.locator("[data-connection-status]")).to_have_text("Live")
    seat_button = detail.locator("#tournament").get_by_role("link", name="Take your seat")
    expect(seat_button).to_be_hidden()
    listing = detail.context.new_page()
    listing.set_viewport_size(PHONE)
    listing.goto(f"{server_url}/tournaments/")
    expect(listing.locator("[data-connection-status]")).to_have_text("Live")

    for player in outside_the_browser_loop(members, make_user, 5):
        outside_the_browser_loop(
            services.tournament_register, tournament_id=tournament.pk, user=player
        )

    row = listing.locator(f'table[data-section="running"] tr[data-tournament-id="{tournament.pk}"]')
    expect(row.get_by_role("link").last).to_have_text("Take your seat")
    expect(row.get_by_role("link", name="Watch")).to_have_count(0)
    expect(seat_button).to_be_visible()
    seat_button.click()
    detail.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(detail.locator(".seat.you")).to_have_count(1)

    row.get_by_role("link", name="Take your seat").click()
    listing.wait_for_url(detail.url)
    listing.goto(f"{server_url}/tournaments/")
    expect(row.get_by_role("link", name="Take your seat")).to_be_visible()
    listing.goto(f"{server_url}/")
    expect(
        listing.locator("#your-seats").get_by_role("link", name="Take your seat")
    ).to_be_visible()
