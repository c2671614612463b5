"""A member starts a practice sit-n-go from the tournament lobby in a real browser,
plays it through the table page and is told their place; the lobby's rows follow
registrations and starts live (tests/support/live.py and chromium.py have the set-up)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.support.chromium import (
    BROWSER_TEST,
    DESKTOP,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
)
from tests.support.table_pages import click_check_or_call

SNG_SECONDS = 240  # the whole SNG with bots that pause 0.1-0.3 s, on a slow machine

pytestmark = BROWSER_TEST


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    return {
        "next_hand_seconds": 0.5,
        "bot_delay": (0.1, 0.3),  # bots that answered at once would leave no time to click
        "environment": {"TOURNAMENTS_LEVEL_SECONDS": "4"},  # the blinds climb every 4 s
    }


def test_a_member_starts_a_practice_sng_from_the_lobby_and_is_told_their_place(
    server_url: str,
    browser: Browser,
) -> None:
    page = sign_up(browser, server_url, "dana", DESKTOP)
    expect(page.locator("[data-points-balance]")).to_have_text("10,000 points")
    page.goto(f"{server_url}/tournaments/")
    expect(page.locator("[data-connection-status]")).to_have_text("Live")

    page.get_by_role("button", name="Start a practice sit-n-go").click()

    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("[data-hand-number]")).to_have_text(re.compile(r"Hand #\d+"))
    expect(page.locator(".seat.occupied")).to_have_count(6)
    expect(page.locator("[data-level]")).to_have_text(re.compile(r"Level \d+"))
    expect(page.get_by_role("button", name="Leave seat")).to_have_count(0)
    notice = page.locator("#site-notice")
    deadline = time.monotonic() + SNG_SECONDS
    while not notice.is_visible() or "You " not in notice.inner_text():
        assert time.monotonic() < deadline, "the sit-n-go did not end for dana"
        if not click_check_or_call([page]):
            time.sleep(0.2)

    text = notice.inner_text()
    assert re.search(r"You finished [2-6](nd|rd|th) of 6|You won the tournament", text), text
    page.screenshot(path=SCREENSHOTS / "felt-sng-place.png", full_page=True)
    page.locator("#site-notice [data-notice-link]").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    expect(page.locator("[data-your-result]")).to_contain_text("You finished")


def test_the_lobby_rows_follow_registrations_and_the_start_without_a_reload(
    server_url: str,
    browser: Browser,
    make_user,
) -> None:
    from tests.tournaments.helpers import members, sng
    from tournaments import services

    def register(player) -> None:
        outside_the_browser_loop(
            services.tournament_register, tournament_id=tournament.pk, user=player
        )

    tournament = outside_the_browser_loop(sng, structure="regular", buy_in=100)
    page = sign_up(browser, server_url, "watcher", DESKTOP)
    page.goto(f"{server_url}/tournaments/")
    expect(page.locator("[data-connection-status]")).to_have_text("Live")
    row_of = f'tr[data-tournament-id="{tournament.pk}"]'
    row = page.locator(f'table[data-section="registering"] {row_of}')
    expect(row.locator("[data-count]")).to_have_text("0/6")
    page.evaluate("window.felt_not_reloaded = true")

    players = outside_the_browser_loop(members, make_user, 6)
    for player in players[:5]:
        register(player)
    expect(row.locator("[data-count]")).to_have_text("5/6")
    expect(row.locator("[data-pool]")).to_have_text("500")

    register(players[5])

    running = page.locator(f'table[data-section="running"] {row_of}')
    expect(running.locator("[data-left]")).to_have_text("6/6")
    expect(row).to_have_count(0)
    fresh = page.locator('table[data-section="registering"] tr', has_text="Regular").filter(
        has=page.locator("[data-count]", has_text="0/6")
    )
    expect(fresh).to_have_count(1)  # a fresh SNG of the same kind opened
    assert page.evaluate("window.felt_not_reloaded") is True, "all of it without a reload"
