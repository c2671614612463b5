"""The players' cut with two members at a friends' table, in a real browser against the
real server (tests/support/live.py): their pages commit and reveal by themselves, the
table marks the hand "Cut by 2 · yours in", and the replayer verifies the deck with
its cut, fails a tampered cut record with a clear sentence, and calls the hand
disputed when this browser's accepted value was left out."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from tables import services
from tables.models import Hand
from tests.support.chromium import (
    BROWSER_TEST,
    PHONE,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
)
from tests.support.fairness_checks import answer_problems
from tests.support.table_pages import (
    HAND_SECONDS,
    click_check_or_call,
    open_table,
    table_id_of,
    take_seat,
)

pytestmark = BROWSER_TEST

LAPTOP = {"width": 1280, "height": 720}


def watch(page: Page, problems: list[str]) -> None:
    """Adds the page's script errors to ``problems`` as they happen."""
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)


def hand_number(page: Page) -> int:
    text = page.locator("[data-hand-number]").inner_text()
    return int(text.removeprefix("Hand #")) if text.startswith("Hand #") else 0


def play_until_hand(pages: list[Page], number: int) -> None:
    """Whoever is to act checks or calls until hand ``number`` is dealt to every page."""
    deadline = time.monotonic() + HAND_SECONDS * number
    while not all(hand_number(page) >= number for page in pages):
        assert time.monotonic() < deadline, f"hand {number} was never dealt"
        if not click_check_or_call(pages):
            time.sleep(0.1)


def play_until_checked(pages: list[Page]) -> None:
    """Whoever is to act checks or calls until every page has the hand's cut record to
    check: the hand on display is over."""
    deadline = time.monotonic() + HAND_SECONDS
    while any(cut_mark(page).get_attribute("data-state") == "cut" for page in pages):
        assert time.monotonic() < deadline, "the hand never ended"
        if not click_check_or_call(pages):
            time.sleep(0.1)


def alice_user() -> Any:
    return User.objects.get(username="alice")


def hand_id(table_id: int, number: int) -> int:
    return outside_the_browser_loop(
        lambda: Hand.objects.get(table_id=table_id, number=number, ended_at__isnull=False).pk
    )


def engine_check(hand: dict[str, Any]) -> list[str]:
    """What ``python -m engine verify`` finds in a hand as the replayer has it."""
    return answer_problems(hand)


def cut_mark(page: Page):
    return page.locator("[data-cut]")


def test_two_players_cut_each_hand_and_the_replayer_checks_it(
    server_url: str, browser: Browser
) -> None:
    alice = sign_up(browser, server_url, "alice", LAPTOP)
    bob = sign_up(browser, server_url, "bob", PHONE)
    problems: list[str] = []
    watch(alice, problems)
    watch(bob, problems)
    link = open_table(alice, server_url)
    expect(alice.locator("[data-hand-number]")).to_have_text("Waiting for players")
    expect(cut_mark(alice)).to_be_hidden()
    bob.goto(link)
    take_seat(alice, 0)
    take_seat(bob, 1)

    # The first deck is sealed as soon as the second player sits, before either page
    # could commit; from the second hand on, both pages' values cut the deck. While
    # the hand is played the mark counts them; its record comes with the hand's end.
    play_until_hand([alice, bob], 2)
    expect(cut_mark(alice)).to_have_attribute("data-state", "cut")
    expect(cut_mark(alice)).to_have_text("Cut by 2")
    table_id = table_id_of(link)
    outside_the_browser_loop(lambda: services.table_pause(table_id=table_id, user=alice_user()))
    play_until_checked([alice, bob])
    for page in (alice, bob):
        expect(cut_mark(page)).to_have_attribute("data-state", "yours")
        expect(cut_mark(page)).to_have_attribute(
            "aria-label",
            "Cut by 2 players, yours included, checked by this browser.",
        )
    expect(cut_mark(alice)).to_have_text("Cut by 2 · yours in")
    expect(cut_mark(alice)).to_be_visible()
    expect(cut_mark(bob)).to_be_visible()  # on a phone, the scissors alone
    expect(cut_mark(bob).locator(".pill-words")).to_be_hidden()
    alice.screenshot(path=SCREENSHOTS / "felt-cut-1280x720.png")
    bob.screenshot(path=SCREENSHOTS / "felt-cut-390x844.png")
    cut_mark(bob).click()  # a tap says it in words
    expect(cut_mark(bob)).to_contain_text("Cut by 2 players, yours included")
    bob.screenshot(path=SCREENSHOTS / "felt-cut-open-390x844.png")

    second = hand_id(table_id, 2)
    replayer = alice.context.new_page()
    watch(replayer, problems)
    replayer.goto(f"{server_url}/hands/{second}/")
    verdict = replayer.locator("[data-fairness]")
    expect(verdict).to_have_attribute("data-verified", "yes")
    expect(verdict).to_contain_text("Deck verified: the ")
    expect(verdict).to_contain_text("sealed before the deal, cut by 2 players, yours included.")

    tampered = tamper_with_the_cut(replayer)
    value, commitment = tampered["value"], tampered["commitment"]
    assert (
        tampered["problems"][0]
        == f"cut: the value {value} does not open its commitment {commitment}"
    )
    assert tampered["problems"] == engine_check(tampered["hand"])
    expect(verdict).to_have_attribute("data-verified", "no")
    expect(verdict).to_contain_text(f"Deck check failed: cut: the value {value} does not open")

    # The server accepted a value of this browser for that hand, and the cut left it out.
    left_out = {"value": "ee" * 32, "commitAccepted": True, "revealAccepted": True}
    replayer.evaluate(
        """([ref, record]) => {
          const kept = JSON.parse(localStorage.getItem("felt-cut-values"));
          localStorage.setItem("felt-cut-values", JSON.stringify({ ...kept, [ref]: record }));
        }""",
        [tampered["ref"], left_out],
    )
    replayer.reload()
    expect(verdict).to_have_attribute("data-verified", "disputed")
    expect(verdict).to_contain_text(
        "Disputed: your cut value was left out, though the server took it in time. Deck verified:"
    )

    # The same at the table (paused after hand 2): the hand on display names its ref,
    # whose value the server accepted from this browser (as it stands now) and left out.
    mark = cut_mark(alice)
    alice.evaluate(
        """(ref) => {
          const kept = JSON.parse(localStorage.getItem("felt-cut-values"));
          kept[ref] = { ...kept[ref], value: "ee".repeat(32), revealAccepted: true };
          localStorage.setItem("felt-cut-values", JSON.stringify(kept));
        }""",
        mark.get_attribute("data-hand"),
    )
    mark.click()  # drawn again, and open
    expect(mark).to_have_attribute("data-state", "disputed")
    expect(mark.locator(".cut-detail")).to_have_text(
        "Disputed: the server accepted your cut value in time, but left it out of this hand's cut."
    )
    mark.click()
    expect(mark).to_have_text("Disputed: your value was left out")
    alice.screenshot(path=SCREENSHOTS / "felt-cut-disputed-1280x720.png")
    assert not problems, problems


def tamper_with_the_cut(page: Page) -> dict[str, Any]:
    """The replayer's own check run on a copy of its hand with one value of the cut
    changed, shown as the page shows a verdict: what it found, and the hand it checked."""
    return page.evaluate(
        """async () => {
          const { showVerification, verifyHand } = await import("/static/js/fairness.js");
          const hand = JSON.parse(document.getElementById("hand-detail").textContent);
          const { cut } = hand.fairness;
          const changed = cut.contributions.find((entry) => entry.value);
          const commitment = changed.commitment;
          changed.value = "0123456789abcdef".repeat(4);
          const problems = await verifyHand(hand);
          await showVerification(document.querySelector("[data-fairness]"), hand);
          return { problems, hand, value: changed.value, commitment, ref: cut.hand };
        }"""
    )
