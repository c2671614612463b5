"""Two people play a hand in a real browser (Debian's Chromium, driven by Playwright).

The server is the real thing: Daphne serving config.asgi and a Celery worker
that starts the hands, as child processes on the file-based test database and
the test session's Redis (tests/support/live.py).
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Page, expect

from tests.support.chromium import BROWSER_TEST, DESKTOP, PHONE, SCREENSHOTS, sign_up
from tests.support.table_pages import (
    facing_a_bet,
    log_text,
    open_practice_table,
    open_table,
    play_the_hand_out,
    take_seat,
)

pytestmark = BROWSER_TEST


def own_cards(page: Page) -> list[str]:
    """The viewer's two face-up hole cards; the opponent's seat shows only backs."""
    mine = page.locator(".seat.you .hole .card.face")
    expect(mine).to_have_count(2)
    opponent = page.locator(".seat.occupied:not(.you)")
    expect(opponent.locator(".card.back")).to_have_count(2)
    expect(opponent.locator(".card.face")).to_have_count(0)
    return [card.get_attribute("data-card") or "" for card in mine.all()]


def card_text(code: str) -> str:
    """How the hand log writes a card: "Ts" -> "10♠"."""
    rank = "10" if code[0] == "T" else code[0]
    return rank + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[code[1]]


def test_two_players_play_a_hand_and_see_only_their_own_cards(
    server_url: str, browser: Browser
) -> None:
    alice = sign_up(browser, server_url, "alice", DESKTOP)
    bob = sign_up(browser, server_url, "bob", PHONE)
    link = open_table(alice, server_url)
    bob.goto(link)
    take_seat(alice, 0)
    take_seat(bob, 1)

    for page in (alice, bob):
        expect(page.locator("[data-hand-number]")).to_have_text("Hand #1")
    alice_cards, bob_cards = own_cards(alice), own_cards(bob)
    for code in alice_cards:
        assert bob.locator(f'[data-card="{code}"]').count() == 0, "bob saw alice's card"
    for code in bob_cards:
        assert alice.locator(f'[data-card="{code}"]').count() == 0, "alice saw bob's card"
    expect(alice.locator(".seat.to-act")).to_have_count(1)
    alice.screenshot(path=SCREENSHOTS / "felt-table-desktop.png", full_page=True)
    bob.screenshot(path=SCREENSHOTS / "felt-table-phone.png", full_page=True)

    play_the_hand_out([alice, bob])

    alice.screenshot(path=SCREENSHOTS / "felt-table-showdown.png", full_page=True)
    for page, cards in ((alice, alice_cards), (bob, bob_cards)):
        log = log_text(page)
        assert f"Dealt to you: {card_text(cards[0])} {card_text(cards[1])}" in log
        assert "River: " in log, "checked and called down to the river"
        assert " shows " in log, "the showdown turned cards face up"
        assert re.search(r"(alice|bob) wins \d+", log)

    alice.get_by_role("button", name="Sit out").click()
    expect(alice.get_by_role("button", name="I'm back")).to_be_visible()
    expect(bob.locator(".seat.sitting-out")).to_have_text(re.compile("alice"))
    alice.get_by_role("button", name="I'm back").click()
    expect(alice.get_by_role("button", name="Sit out")).to_be_visible()
    expect(bob.locator(".seat.sitting-out")).to_have_count(0)


def test_a_practice_table_deals_at_once_and_the_bots_play_back(
    server_url: str, browser: Browser
) -> None:
    carol = sign_up(browser, server_url, "carol", PHONE)
    open_practice_table(carol, server_url, bots=2)

    expect(carol.locator("[data-hand-number]")).to_have_text("Hand #1")
    expect(carol.locator(".seat.occupied")).to_have_count(3)
    expect(carol.locator(".seat.occupied .bot-tag")).to_have_count(2)
    expect(carol.locator(".seat.you .hole .card.face")).to_have_count(2)
    expect(carol.locator(".seat.occupied:not(.you) .card.face")).to_have_count(0)
    sealed = carol.locator("[data-sealed]")  # the hand's deck commitment, on demand
    expect(sealed).to_have_attribute("title", re.compile(r"sealed before the deal: [0-9a-f]{64}$"))
    sealed.click()
    expect(sealed).to_have_text(re.compile(r"[0-9a-f]{64}"))
    carol.screenshot(path=SCREENSHOTS / "felt-practice-phone.png", full_page=True)

    play_the_hand_out([carol])
    assert re.search(r"wins \d+", log_text(carol))


def test_the_raise_presets_stay_inside_the_legal_range(static_url: str, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(f"{static_url}/healthz")
    amounts = page.evaluate(
        """async (table) => {
          const { presetAmount } = await import("/static/js/controls.js");
          const short = structuredClone(table);
          short.legal.max_raise_to = 400;
          return ["min", "half", "pot", "max"].map((preset) => [
            presetAmount(table, preset), presetAmount(short, preset),
          ]);
        }""",
        facing_a_bet(),
    )
    # Pot-sized: call 120, then raise by the 420 the middle then holds: to 540; half: to 330.
    assert amounts == [[240, 240], [330, 330], [540, 400], [1440, 400]]


def test_the_hand_log_reads_as_sentences(static_url: str, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(f"{static_url}/healthz")
    log = [
        {"kind": "blind_posted", "seat": 0, "blind": "small", "amount": 10, "is_all_in": False},
        {"kind": "hole_cards_dealt", "seat": 0, "cards": ["As", "Td"]},
        {"kind": "hole_cards_dealt", "seat": 1},
        {
            "kind": "player_acted",
            "seat": 1,
            "street": "preflop",
            "action": "raise",
            "amount": 60,
            "total": 60,
            "is_all_in": False,
        },
        {"kind": "board_dealt", "street": "flop", "cards": ["7c", "8d", "9h"]},
        {"kind": "cards_shown", "seat": 1, "cards": ["Ts", "Jc"]},
        {
            "kind": "pot_awarded",
            "pot_index": 0,
            "amount": 120,
            "eligible": [0, 1],
            "shares": [{"seat": 1, "amount": 120}],
            "description": "Straight, Jack High",
        },
    ]
    lines = page.evaluate(
        """async (log) => {
          const { logLines } = await import("/static/js/handlog.js");
          return logLines(log, (seat) => ["alice", "bob"][seat], 0);
        }""",
        log,
    )
    assert lines == [
        "alice posts the small blind 10",
        "Dealt to you: A♠ 10♦",
        "bob raises to 60",
        "Flop: 7♣ 8♦ 9♥",
        "bob shows 10♠ J♣",
        "bob wins 120 with a Straight, Jack High",
    ]


def test_signing_out_in_another_tab_closes_the_table_and_says_why(
    server_url: str, browser: Browser
) -> None:
    page = sign_up(browser, server_url, "lena", DESKTOP)
    link = open_table(page, server_url)
    expect(page.locator("[data-connection-status]")).to_have_text("Live")
    other_tab = page.context.new_page()  # same browser, same session
    other_tab.goto(f"{server_url}/")
    other_tab.get_by_role("button", name="Log out").click()

    status = page.locator("[data-connection-status]")
    expect(status).to_have_text(re.compile("You were signed out"))
    time.sleep(2)  # it does not try again: a new socket would be refused the same way
    expect(status).to_have_text(re.compile("You were signed out"))
    assert page.url == link
