"""An all-in run-out arrives a street per snapshot (the server reveals it, rule 30):
the page animates only the cards new since the last frame, and chips slide to the
pot and from it to the winner, in a real browser; none of it for someone who asked
for less motion."""

from __future__ import annotations

import time

from playwright.sync_api import Browser

from tests.support.chromium import BROWSER_TEST

pytestmark = BROWSER_TEST

# Draws each board in turn into one container; for each drawing, which cards arrive
# (animated) in the first row and the second: "new" or "still".
BOARDS = """async (hands) => {
  const { renderBoard } = await import("/static/js/render.js");
  const board = document.createElement("div");
  document.body.append(board);
  const arriving = (cards) =>
    [...cards].map((card) => (card.classList.contains("arriving") ? "new" : "still"));
  return hands.map((hand) => {
    renderBoard(board, { second_board: [], ...hand });
    const runs = board.querySelectorAll(".board-run");
    if (!runs.length) return [arriving(board.children)];
    return [...runs].map((run) => arriving(run.children));
  });
}"""

CHIPS = """async (pot) => {
  const { moveChips } = await import("/static/js/motion.js");
  const layer = document.createElement("div");
  document.body.append(layer);
  const seat = (number, bet) => ({ seat: number, occupied: true, bet, name: `p${number}` });
  const base = { hand_number: 3, seat_count: 2, your_seat: 0 };
  const betting = { ...base, seats: [seat(0, 20), seat(1, 20)], hand: { is_over: false } };
  const won = { seat: 1, amount: 40 };
  const hand = { is_over: true, winners: [won] };
  const over = { ...base, seats: [seat(0, 0), seat(1, 0)], hand };
  moveChips(layer, betting, over, pot);
  window.layer = layer;
  return [...layer.children].map((chip) => [chip.textContent, chip.style.left, chip.style.top]);
}"""

FLOP = ["As", "Kd", "7c"]


def page_of(browser: Browser, static_url: str, reduced_motion: str):
    page = browser.new_page(reduced_motion=reduced_motion)  # type: ignore[arg-type]
    page.goto(f"{static_url}/healthz")  # any page: the modules load from its /static/
    return page


def test_each_revealed_street_animates_only_its_own_cards(static_url, browser) -> None:
    page = page_of(browser, static_url, "no-preference")
    first = [*FLOP, "2h", "9s"]
    second = [*FLOP, "3d", "Qc"]
    drawn = page.evaluate(
        BOARDS,
        [
            {"board": FLOP},  # all-in on the flop: then the reveal
            {"board": first[:4]},
            {"board": first},
            {"board": first, "second_board": second[:4]},
            {"board": first, "second_board": second},
            {"board": first, "second_board": second},  # the result frame
        ],
    )
    assert drawn == [
        [["new"] * 3],
        [["still"] * 3 + ["new"]],
        [["still"] * 4 + ["new"]],
        [["still"] * 5, ["still"] * 3 + ["new"]],  # the second board shares the flop
        [["still"] * 5, ["still"] * 4 + ["new"]],
        [["still"] * 5, ["still"] * 5],
    ]


def test_less_motion_slides_no_chips(static_url, browser) -> None:
    page = page_of(browser, static_url, "reduce")
    assert page.evaluate(CHIPS, [50, 70]) == [], "no chips slide"


def test_bets_slide_into_the_pot_and_the_pot_to_the_winner_then_vanish(static_url, browser) -> None:
    page = page_of(browser, static_url, "no-preference")
    chips = page.evaluate(CHIPS, [50, 70])
    assert [text for text, _, _ in chips] == ["20", "20", "40"]  # two bets gathered, one pot won
    # bets go to where the pot is drawn (under the board), not to the middle of the
    # felt where a board's cards lie, and the pot leaves from there
    assert [chip[1:] for chip in chips[:2]] == [["50%", "70%"]] * 2
    deadline = time.monotonic() + 5
    while page.evaluate("window.layer.children.length") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert page.evaluate("window.layer.children.length") == 0, "each chip goes once it lands"
