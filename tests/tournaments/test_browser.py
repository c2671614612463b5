"""A member starts a practice sit-n-go from the tournament lobby in a real browser,
plays it through the table page and is told their place (tests/tables/test_browser.py
has the set-up: Daphne and a Celery worker as child processes, Debian's chromium)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import Browser, expect

from tests.tables.live_server import live_server
from tests.tables.test_browser import (
    CHROMIUM,
    DESKTOP,
    SCREENSHOTS,
    browser,  # noqa: F401 - the fixture
    click_check_or_call,
    sign_up,
)

SNG_SECONDS = 240  # the whole SNG with bots that pause 0.8-2 s, on a slow machine

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"Debian's chromium is not installed at {CHROMIUM}"
    ),
]


@pytest.fixture
def server_url(transactional_db: None, tmp_path: Path, monkeypatch) -> Iterator[str]:
    monkeypatch.setenv("TOURNAMENTS_LEVEL_SECONDS", "4")  # the blinds climb every 4 s
    with live_server(
        database_name=str(connection.settings_dict["NAME"]),
        workdir=tmp_path,
        next_hand_seconds=0.5,
        host="localhost",
    ) as url:
        yield url


def test_a_member_starts_a_practice_sng_from_the_lobby_and_is_told_their_place(
    server_url: str,
    browser: Browser,  # noqa: F811
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
