"""An all-in run-out is dealt street by street and chips slide to the pot and the
winner, in a real browser; none of it for someone who asked for less motion."""

from __future__ import annotations

import time

from playwright.sync_api import Browser

from tests.support.live import BROWSER_TEST

pytestmark = BROWSER_TEST

BOARD = """async ([before, after, isOver]) => {
  const { renderBoard } = await import("/static/js/render.js");
  const board = document.createElement("div");
  document.body.append(board);
  renderBoard(board, { board: before, is_over: false }, 1200);
  const staged = renderBoard(board, { board: after, is_over: isOver }, 1200);
  return { staged, delays: [...board.children].map((card) => card.style.animationDelay) };
}"""

CHIPS = """async () => {
  const { moveChips } = await import("/static/js/motion.js");
  const layer = document.createElement("div");
  document.body.append(layer);
  const seat = (number, bet) => ({ seat: number, occupied: true, bet, name: `p${number}` });
  const base = { hand_number: 3, seat_count: 2, your_seat: 0 };
  const betting = { ...base, seats: [seat(0, 20), seat(1, 20)], hand: { is_over: false } };
  const won = { seat: 1, amount: 40 };
  const hand = { is_over: true, winners: [won] };
  const over = { ...base, seats: [seat(0, 0), seat(1, 0)], hand };
  moveChips(layer, betting, over, 0);
  window.layer = layer;
  return [...layer.children].map((chip) => chip.textContent);
}"""


def page_of(browser: Browser, static_url: str, reduced_motion: str):
    page = browser.new_page(reduced_motion=reduced_motion)  # type: ignore[arg-type]
    page.goto(f"{static_url}/healthz")  # any page: the modules load from its /static/
    return page


def test_a_run_out_deals_the_turn_and_river_after_the_flop(static_url, browser) -> None:
    page = page_of(browser, static_url, "no-preference")
    run_out = page.evaluate(BOARD, [[], ["As", "Kd", "7c", "2h", "9s"], True])
    assert run_out == {
        "staged": 2400,
        "delays": ["0ms", "0ms", "0ms", "1200ms", "2400ms"],
    }
    from_the_flop = page.evaluate(BOARD, [["As", "Kd", "7c"], ["As", "Kd", "7c", "2h", "9s"], True])
    assert from_the_flop["staged"] == 1200 and from_the_flop["delays"][3:] == ["0ms", "1200ms"]
    one_street = page.evaluate(BOARD, [["As", "Kd", "7c"], ["As", "Kd", "7c", "2h"], False])
    assert one_street == {"staged": 0, "delays": ["", "", "", ""]}, "a turn in play is not staged"


def test_less_motion_gets_the_whole_board_at_once(static_url, browser) -> None:
    page = page_of(browser, static_url, "reduce")
    run_out = page.evaluate(BOARD, [[], ["As", "Kd", "7c", "2h", "9s"], True])
    assert run_out == {"staged": 0, "delays": ["", "", "", "", ""]}
    assert page.evaluate(CHIPS) == [], "no chips slide"


def test_bets_slide_into_the_pot_and_the_pot_to_the_winner_then_vanish(static_url, browser) -> None:
    page = page_of(browser, static_url, "no-preference")
    assert page.evaluate(CHIPS) == ["20", "20", "40"]  # two bets gathered, one pot won
    deadline = time.monotonic() + 5
    while page.evaluate("window.layer.children.length") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert page.evaluate("window.layer.children.length") == 0, "each chip goes once it lands"
