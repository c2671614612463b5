"""A player the clock marked away is told so on their own page, with a large "I'm back"
where the action bar goes; the others see the seat away (docs/table.md, rule 29)."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Page, expect

from tables.models import Seat
from tests.support.chromium import (
    BROWSER_TEST,
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
)
from tests.support.table_pages import click_check_or_call, open_home_game, take_seat

pytestmark = BROWSER_TEST

LAPTOP = {"width": 1280, "height": 720}


def inside_the_window(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= size["width"] + 1
    assert box["y"] + box["height"] <= size["height"] + 1


def test_a_player_who_timed_out_is_told_and_comes_back_from_the_dock(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "tess", DESKTOP)
    open_home_game(host, server_url, 2, name="Heads up", action_seconds=8)
    take_seat(host, 0)
    slow = sign_up(browser, server_url, "uma", PHONE)
    slow.goto(host.url)
    take_seat(slow, 1)
    expect(slow.locator("[data-hand-number]")).to_have_text("Hand #1")
    outside_the_browser_loop(Seat.objects.filter(user__username="uma").update, time_bank=0)

    away = slow.locator("[data-away]")
    deadline = time.monotonic() + 60
    while not away.is_visible():  # tess plays her turns; uma lets her clock run out
        assert time.monotonic() < deadline, "uma's clock never ran out"
        if not click_check_or_call([host]):
            time.sleep(0.2)

    expect(away).to_contain_text("You were marked away: your time ran out.")
    expect(away).to_contain_text("You are not dealt in and post no blinds until you are back.")
    back = away.get_by_role("button", name="I'm back")
    expect(back).to_be_visible()
    box = back.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 120, box
    # Checked rather than folded, uma may still be in the hand: tess plays it out.
    announce = slow.locator("[data-announce]")
    deadline = time.monotonic() + 60
    while "Waiting for you to come back" not in announce.inner_text():
        assert time.monotonic() < deadline, "no word that the table waits for uma"
        if not click_check_or_call([host]):
            time.sleep(0.2)
    expect(slow.locator("[data-controls]")).to_be_hidden()
    inside_the_window(slow, "[data-away]")
    slow.screenshot(path=SCREENSHOTS / "felt-away-390x844.png")
    slow.set_viewport_size(LAPTOP)
    inside_the_window(slow, "[data-away]")
    slow.screenshot(path=SCREENSHOTS / "felt-away-1280x720.png")

    # Her seat reads "Timed out", unless it still shows what she won in the hand she
    # was checked through (a result stays up until the next hand).
    expect(host.locator(".seat.sitting-out")).to_contain_text(re.compile("Timed out|Wins"))
    expect(host.locator("[data-announce]")).to_contain_text("Waiting for uma to come back")
    expect(host.locator("[data-away]")).to_be_hidden()

    back.click()
    expect(away).to_be_hidden()
    expect(slow.get_by_role("button", name="Sit out")).to_be_visible()
    expect(slow.locator("[data-hand-number]")).to_have_text("Hand #2", timeout=20_000)
    expect(slow.locator(".seat.you .hole .card.face")).to_have_count(2)


def test_back_after_missing_the_big_blind_the_dock_says_to_wait_for_it(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "vera", DESKTOP)
    open_home_game(host, server_url, 3, name="Three of us")
    take_seat(host, 0)
    other = sign_up(browser, server_url, "wes", DESKTOP)
    other.goto(host.url)
    take_seat(other, 1)
    back = sign_up(browser, server_url, "xena", PHONE)
    back.goto(host.url)
    take_seat(back, 2)
    back.get_by_role("button", name="Sit out").click()
    expect(back.locator("[data-away]")).to_contain_text("You are sitting out.")

    def has_missed_it() -> bool:
        seat = Seat.objects.get(user__username="xena")
        return seat.has_missed_big_blind

    deadline = time.monotonic() + 120
    while not outside_the_browser_loop(has_missed_it):  # vera and wes play heads-up
        assert time.monotonic() < deadline, "the big blind never went past xena"
        if not click_check_or_call([host, other]):
            time.sleep(0.2)

    back.get_by_role("button", name="I'm back").click()
    away = back.locator("[data-away]")
    expect(away.locator("[data-away-note]")).to_have_text(
        "Welcome back: you are dealt in when the big blind comes to you."
    )
    expect(away.get_by_role("button", name="I'm back")).to_be_hidden()
    expect(host.locator('[data-seat="2"]')).to_contain_text("Waits for BB")
    back.screenshot(path=SCREENSHOTS / "felt-waiting-for-big-blind-390x844.png")

    deadline = time.monotonic() + 120
    while back.locator(".seat.you .hole .card.face").count() == 0:
        assert time.monotonic() < deadline, "xena was never dealt in again"
        if not click_check_or_call([host, other]):
            time.sleep(0.2)
    expect(back.locator(".seat.you")).to_contain_text("BB")  # rule 29: in at her big blind
    expect(away).to_be_hidden()
