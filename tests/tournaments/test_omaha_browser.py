"""An Omaha sit-n-go in a real browser: the lobby offers it by its game, a member
registers there, and when it fills the lobby's rows say the game without a reload, the
tournament's page names it and the table deals the member four cards
(tests/support/live.py and chromium.py have the set-up)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from tests.support.chromium import (
    BROWSER_TEST,
    DESKTOP,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
)

pytestmark = BROWSER_TEST

OMAHA = "Pot-Limit Omaha"


def open_omaha_sng() -> int:
    from tournaments.models import Tournament
    from tournaments.tasks import sweep

    sweep()
    return Tournament.objects.get(kind="sng", status="registering", game="plo").pk


def fill_it(tournament_id: int, make_user) -> None:
    from tests.tournaments.helpers import members
    from tournaments import services

    for player in members(make_user, 5):
        services.tournament_register(tournament_id=tournament_id, user=player)


def test_a_member_registers_for_an_omaha_sit_n_go_and_is_dealt_four_cards(
    server_url: str, browser: Browser, make_user
) -> None:
    tournament_id = outside_the_browser_loop(open_omaha_sng)
    page = sign_up(browser, server_url, "olga", DESKTOP)
    page.goto(f"{server_url}/tournaments/")
    expect(page.locator("[data-connection-status]")).to_have_text("Live")
    row_of = f'tr[data-tournament-id="{tournament_id}"]'
    row = page.locator(f'table[data-section="registering"] {row_of}')
    expect(row.locator("[data-game]")).to_have_text(OMAHA)

    row.get_by_role("button", name="Register").click()
    expect(page.get_by_text("You are registered.")).to_be_visible()
    expect(page.locator("[data-connection-status]")).to_have_text("Live")
    page.evaluate("window.felt_not_reloaded = true")
    outside_the_browser_loop(fill_it, tournament_id, make_user)

    running = page.locator(f'table[data-section="running"] {row_of}')
    expect(running.locator("[data-game]")).to_have_text(OMAHA)
    fresh = page.locator('table[data-section="registering"] tr').filter(
        has=page.locator("[data-game]", has_text=OMAHA)
    )
    expect(fresh).to_have_count(1)  # a fresh Omaha sit-n-go opened in its place
    assert page.evaluate("window.felt_not_reloaded") is True, "all of it without a reload"
    page.screenshot(path=SCREENSHOTS / "felt-omaha-sng-lobby.png", full_page=True)

    running.get_by_role("link", name=re.compile("Regular Omaha sit-n-go")).click()
    expect(page.locator("[data-game]")).to_have_text(OMAHA)
    page.locator("[data-table-link]").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("[data-game]")).to_have_text(OMAHA)
    expect(page.locator(".seat.you .hole .card.face")).to_have_count(4)
