"""The home game's rules in Chromium: a Pot-Limit Omaha table played by two
players, and a Hold'em table with straddles, run it twice and bomb pots
(docs/rules.md rules 21-25), opened from the new-table form."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.chromium import BROWSER_TEST, DESKTOP, PHONE, SCREENSHOTS, sign_up
from tests.support.table_pages import (
    go_all_in,
    log_text,
    open_home_game,
    play_the_hand_out,
    show_panel_tab,
    take_seat,
    whose_turn,
)

pytestmark = BROWSER_TEST


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    # A showdown's result stays up 6 s: the run-twice test reads both boards' results
    # on three pages after the pot is pushed, before the next hand clears them. A
    # run-out's streets 2 s apart: three pages are read between the first board's
    # river and the second board's first street (0.8 s was too short under load).
    return {"next_hand_seconds": 1.0, "runout_street_seconds": 2.0, "showdown_seconds": 6.0}


def replay_latest_hand(page: Page, server_url: str) -> None:
    """Opens the newest hand in the replayer and steps to its end."""
    page.goto(f"{server_url}/hands/")
    page.locator("table.hands tbody tr").first.get_by_role("link").click()
    expect(page.locator("[data-fairness]")).to_contain_text("Deck verified")
    forward = page.get_by_role("button", name="Step forward")
    while forward.is_enabled():
        forward.click()


def test_two_players_play_pot_limit_omaha_with_four_cards_each(server_url: str, browser) -> None:
    host = sign_up(browser, server_url, "olive", DESKTOP)
    link = open_home_game(host, server_url, 2, game="plo")
    expect(host.locator("[data-game]")).to_have_text("Pot-Limit Omaha")
    take_seat(host, 0)
    guest = sign_up(browser, server_url, "oscar", PHONE)
    guest.goto(link)
    take_seat(guest, 1)
    pages = [host, guest]
    for page in pages:
        expect(page.locator(".seat.you .hole .card.face")).to_have_count(4)
        expect(page.locator(".seat:not(.you) .hole .card.back")).to_have_count(4)
        expect(page.locator(".seat.you .strength")).to_have_text(
            re.compile(r"^(Pair of|High Card)")
        )
    first = whose_turn(pages)
    # Pot limit (rule 22): blinds 10/20, the first raise is at most to 60, not all-in
    first.get_by_role("button", name="The pot limit").click()
    expect(first.locator("[data-raise-amount]")).to_have_value("60")
    expect(first.locator('[data-act="raise"]')).to_have_text(re.compile(r"^Raise to 60"))
    first.locator("[data-raise-amount]").fill("500")
    expect(first.locator("[data-raise-note]")).to_have_text("Pot limit: the most is 60")
    first.locator('[data-act="raise"]').click()
    expect(first.locator("[data-log]")).to_contain_text("raises to 60")
    play_the_hand_out(pages)
    for page in pages:
        expect(page.locator("[data-announce]")).to_contain_text(" wins ")
    # The replayer shows four cards a seat, and the deck check places four rounds.
    replay_latest_hand(guest, server_url)
    expect(guest.locator("[data-seats] .seat.you .card.face")).to_have_count(4)


# Polled every frame: once the winners are named and the pot's chips set out, how
# many chips there are and how many lie on a board card.
POT_PUSHED = """() => {
  if (!document.querySelector("[data-announce]").textContent.includes(" wins ")) return null;
  const chips = [...document.querySelectorAll("[data-motion] .bet.moving")];
  if (!chips.length) return null;
  const cards = [...document.querySelectorAll("[data-board] .card")];
  const boxes = cards.map((card) => card.getBoundingClientRect());
  const onCards = chips.filter((chip) => {
    const r = chip.getBoundingClientRect();
    return boxes.some(
      (c) => r.left < c.right && c.left < r.right && r.top < c.bottom && c.top < r.bottom,
    );
  });
  return { chips: chips.length, on_cards: onCards.length };
}"""


# The pot's line against the board's cards, measured in one go: a snapshot that
# redraws the board between two measurements would leave a card without a box.
POT_ON_A_CARD = """() => {
  const pot = document.querySelector("[data-pot]").getBoundingClientRect();
  return [...document.querySelectorAll("[data-board] .card")].some((card) => {
    const c = card.getBoundingClientRect();
    return pot.left < c.right && c.left < pot.right && pot.top < c.bottom && c.top < pot.bottom;
  });
}"""


def assert_pot_clear_of_the_cards(page: Page) -> None:
    """The pot's line (where chips gather and leave from) lies on no board card."""
    assert not page.evaluate(POT_ON_A_CARD), "the pot sits on a board card"


def test_straddles_run_it_twice_and_a_bomb_pot_at_a_holdem_table(server_url: str, browser) -> None:
    host = sign_up(browser, server_url, "hank", DESKTOP)
    link = open_home_game(host, server_url, 3, straddle=True, run_it_twice=True, bomb_pot_ante=40)
    expect(host.locator("[data-options]")).to_have_text("· Straddles · Run it twice · Bomb pot 40")
    take_seat(host, 0)
    show_panel_tab(host, "Host")
    host.get_by_role("button", name="Pause the game").click()  # deal once everyone is ready
    others = [
        sign_up(browser, server_url, "iris", PHONE),
        sign_up(browser, server_url, "jack", DESKTOP),
    ]
    for number, page in enumerate(others, start=1):
        page.goto(link)
        take_seat(page, number)
    pages = [host, *others]
    for page in pages:
        tick = page.get_by_label("Straddle when under the gun")
        tick.check()
        expect(tick).to_be_checked()

    # The host calls a bomb pot: everyone puts 40 in and the hand starts on the flop (rule 24).
    host.get_by_role("button", name="Bomb pot next hand").click()
    expect(host.locator("[data-options]")).to_contain_text("Bomb pot next hand")
    host.get_by_role("button", name="Resume the game").click()
    for page in pages:
        expect(page.locator("[data-log]")).to_contain_text("Bomb pot: everyone puts in 40")
        expect(page.locator("[data-board] .card")).to_have_count(3)
        expect(page.locator("[data-pot]")).to_have_text("Pot 120")
    assert "straddles" not in log_text(host)
    play_the_hand_out(pages)

    # Three-handed, the button is under the gun and straddles two big blinds (rule 23).
    for page in pages:
        expect(page.locator("[data-hand-number]")).to_have_text("Hand #2", timeout=30_000)
        expect(page.locator(".badge", has_text="STR")).to_have_count(1)
        expect(page.locator("[data-log]")).to_contain_text("straddles 40")
    # Everyone all-in before the flop: the question, one tap each, two boards (rule 25).
    go_all_in(pages)
    expect(others[0].get_by_role("group", name="Run it twice?")).to_be_visible()
    others[0].screenshot(path=SCREENSHOTS / "felt-run-it-twice-question-phone.png")
    for answered, page in enumerate(pages):
        question = page.get_by_role("group", name="Run it twice?")
        expect(question).to_be_visible()
        expect(page.locator("[data-announce]")).to_contain_text(
            f"Run it twice? {answered} of {len(pages)} players have answered · "
        )
        question.get_by_role("button", name="Twice").click()
        expect(question).to_be_hidden()
    # The server reveals the boards a street per snapshot (rule 30): with the first
    # board out and the second not yet, nobody's page says who won.
    first_only = others[0].locator("[data-board] .card")
    expect(first_only).to_have_count(5, timeout=10_000)
    for page in pages:
        assert page.locator("[data-board] .board-run").count() == 0
        assert " wins " not in page.locator("[data-announce]").inner_text()
        assert "on the second board" not in log_text(page)
        assert page.locator(".seat.winner").count() == 0
        assert_pot_clear_of_the_cards(page)
    for page in pages:  # each street's step comes from the worker (or the sweep)
        expect(page.locator("[data-board] .board-run")).to_have_count(2, timeout=20_000)
        assert_pot_clear_of_the_cards(page)
    # With the result the pot goes to the winners: it sets out from the pot's line,
    # not from the felt's middle, where the second board's cards lie.
    pushed = host.wait_for_function(POT_PUSHED, timeout=15_000).json_value()
    host.screenshot(path=SCREENSHOTS / "felt-run-it-twice-pot-pushed-laptop.png")
    assert pushed["chips"] > 0 and pushed["on_cards"] == 0, pushed
    for page in pages:
        expect(page.locator("[data-board] .board-run")).to_have_count(2)
        expect(page.locator("[data-board] .board-run").nth(1).locator(".card")).to_have_count(5)
        expect(page.locator("[data-log]")).to_contain_text("The players run it twice")
        expect(page.locator("[data-log]")).to_contain_text("on the second board")
        expect(page.locator("[data-announce]")).to_contain_text("on board 2")
        expect(page.locator(".seat.you .strength.two span")).to_have_count(2)  # a hand per board
    others[0].screenshot(path=SCREENSHOTS / "felt-run-it-twice-phone.png")
    host.screenshot(path=SCREENSHOTS / "felt-run-it-twice-laptop.png")
    # Both boards in the replayer, and the deck check covers the second board's cards.
    replay_latest_hand(others[1], server_url)
    expect(others[1].locator("[data-board] .board-run")).to_have_count(2)
