"""What the browser tests do on the table page: open a table, sit, play a hand out."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

HAND_SECONDS = 90  # a whole hand clicked through, with room for a slow machine
# Where a friends' table opens once created: its link, key and all (tables/links.py),
# the one its host shares.
TABLE_LINK = re.compile(r"/tables/\d+/\?key=[\w-]+$")


def table_id_of(url: str) -> int:
    """The table's id in a table page's address (with or without its key)."""
    found = re.search(r"/tables/(\d+)/", url)
    assert found, url
    return int(found.group(1))


def open_table(page: Page, server_url: str) -> str:
    """Opens a heads-up table through /tables/new/; returns the link to share."""
    page.goto(f"{server_url}/tables/new/")
    page.fill("#id_name", "Browser game")
    page.fill("#id_seat_count", "2")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(TABLE_LINK)
    link = page.input_value("[data-share-link]")
    assert link == page.url
    return link


def open_practice_table(page: Page, server_url: str, bots: int) -> None:
    """Starts a practice table against ``bots`` bots from /tables/practice/."""
    page.goto(f"{server_url}/tables/practice/")
    page.fill("#id_bots", str(bots))
    page.get_by_role("button", name="Start practising").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))


def take_seat(page: Page, seat: int) -> None:
    expect(page.locator("[data-connection-status]")).to_have_text("Live")
    page.get_by_role("button", name=f"Sit in seat {seat + 1}").click()
    expect(page.locator(".seat.you")).to_have_count(1)


def show_panel_tab(page: Page, tab: str) -> None:
    """Shows one tab of the side panel ("Chat", "Hand log", "Ledger", "Host"), opening
    the panel first where it is a drawer (a narrow screen)."""
    toggle = page.locator("[data-panel-toggle]")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    page.get_by_role("tab", name=tab).click()


def log_text(page: Page) -> str:
    return page.locator("[data-log]").inner_text()


CAN_ACT = """() => {
  const controls = document.querySelector("[data-controls]");
  const button = controls && controls.querySelector('[data-act="call"]');
  return Boolean(controls && !controls.hidden && button && !button.disabled);
}"""


def click_check_or_call(pages: list[Page]) -> bool:
    """Whoever has the controls checks or calls; False when nobody may act right now."""
    for page in pages:
        if page.evaluate(CAN_ACT):
            try:
                page.locator('[data-act="call"]').click(timeout=2_000)
            except PlaywrightTimeout:  # the snapshot moved on between the check and the click
                return False
            return True
    return False


def play_the_hand_out(pages: list[Page]) -> None:
    deadline = time.monotonic() + HAND_SECONDS
    while not all(" wins " in log_text(page) for page in pages):
        assert time.monotonic() < deadline, "the hand did not finish"
        if not click_check_or_call(pages):
            time.sleep(0.1)


def facing_a_bet() -> dict[str, Any]:
    """Flop, 180 gathered, one opponent bet 120 into it, the viewer (1,440 behind) to act."""
    return {
        "big_blind": 20,
        "hand": {"pots": [{"amount": 180, "seats": [0, 1]}], "current_bet": 120},
        "seats": [
            {"occupied": True, "bet": 120},
            {"occupied": True, "bet": 0},
            {"occupied": False},
        ],
        "legal": {
            "can_check": False,
            "call_amount": 120,
            "min_raise_to": 240,
            "max_raise_to": 1440,
        },
    }


def open_home_game(page: Page, server_url: str, seats: int, **options: Any) -> str:
    """Opens a table from /tables/new/ with the given game and options (and name, and
    seconds per decision); returns its link, key and all."""
    page.goto(f"{server_url}/tables/new/")
    page.fill("#id_name", options.get("name", "Home game"))
    page.fill("#id_seat_count", str(seats))
    if options.get("action_seconds"):
        page.fill("#id_action_seconds", str(options["action_seconds"]))
    page.select_option("#id_game", options.get("game", "nlhe"))
    if options.get("straddle"):
        page.check("#id_allows_straddle")
    if options.get("run_it_twice"):
        page.check("#id_offers_run_it_twice")
    page.fill("#id_bomb_pot_ante", str(options.get("bomb_pot_ante", 0)))
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(TABLE_LINK)
    return page.url


def whose_turn(pages: list[Page], timeout: float = 20.0) -> Page:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            if page.evaluate(CAN_ACT):
                return page
        time.sleep(0.1)
    raise AssertionError("nobody got the controls")


def until_everyone_is_dealt_in(pages: list[Page]) -> None:
    """Plays out (checking and calling) any hand dealt before every page's player sat:
    the first hand starts moments after the second player sits, and a loaded machine
    can seat the others too late for it."""
    deadline = time.monotonic() + HAND_SECONDS
    while not all(page.locator(".seat.you .hole .card.face").count() for page in pages):
        assert time.monotonic() < deadline, "no hand was dealt to every player"
        if not click_check_or_call(pages):
            time.sleep(0.1)


def go_all_in(pages: list[Page]) -> None:
    """Once a hand is dealt to every page's player, whoever is to act moves in or
    calls, until the run-it-twice question comes."""
    until_everyone_is_dealt_in(pages)
    deadline = time.monotonic() + 60
    while not any(page.locator("[data-runout]").is_visible() for page in pages):
        assert time.monotonic() < deadline, "the players never got all-in"
        page = whose_turn(pages)
        all_in = page.get_by_role("button", name="All-in amount")
        if all_in.is_visible():
            all_in.click()
            page.locator('[data-act="raise"]').click()
        else:
            page.locator('[data-act="call"]').click()
        time.sleep(0.3)
