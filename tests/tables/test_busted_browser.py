"""A player out of chips is told so at the table, with what they can do next."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import Browser, expect, sync_playwright

from tables.models import Seat
from tests.tables.live_server import live_server
from tests.tables.test_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    open_table,
    sign_up,
    take_seat,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no chromium at {CHROMIUM}"),
]


def lose_every_chip(username: str) -> None:
    """As a bust would (outside Playwright's event loop: the ORM refuses to run in one)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(Seat.objects.filter(user__username=username).update, stack=0).result()


@pytest.fixture
def server_url(transactional_db: None, tmp_path: Path) -> Iterator[str]:
    with live_server(
        database_name=str(connection.settings_dict["NAME"]),
        workdir=tmp_path,
        next_hand_seconds=3.0,
        host="localhost",
    ) as url:
        yield url


@pytest.fixture
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


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
