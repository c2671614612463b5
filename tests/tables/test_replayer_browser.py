"""The replayer and the API docs in a real browser (Debian's chromium, via Playwright).

The server is the real one (tests/support/live.py); the hand is written
to the history through the service that ends hands, with known cards.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from tests.support.chromium import BROWSER_TEST, DESKTOP
from tests.support.live import kept_from_the_live_worker
from tests.tables.helpers import deal_first_card_from_the_bottom, friends_table
from tests.tables.recorded import SHOWDOWN_WITH_MUCK, record_hand, recorded_state

pytestmark = BROWSER_TEST


def signed_in(browser: Browser, server_url: str, cookie: str, problems: list[str]) -> Page:
    """A page with the member's session cookie (the tests' fast password hasher is not
    one the server accepts, so the session is made here instead of by logging in)."""
    context = browser.new_context(viewport=DESKTOP)
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": server_url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.on("console", lambda m: problems.append(m.text) if _is_problem(m.text, m.type) else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "response",
        lambda r: (
            problems.append(f"{r.status} {r.url}")
            if r.status >= 400 and not r.url.endswith("/favicon.ico")
            else None
        ),
    )
    return page


def _is_problem(text: str, kind: str) -> bool:
    """Console errors, but not the missing /favicon.ico (the response check names 404s)."""
    return kind == "error" and not text.startswith("Failed to load resource")


def board_cards(page: Page):
    return page.locator("[data-board] .card")


@pytest.fixture
def hand(server_url, make_user):
    """Written before the browser starts: Playwright's loop makes the thread async."""
    alice, bob, carol = (make_user(name) for name in ("alice", "bob", "carol"))
    with kept_from_the_live_worker():  # nobody plays at this table: it only has a record
        table = friends_table(alice, bob, carol, seat_count=3)
    client = Client()
    client.force_login(alice)
    return record_hand(table, recorded_state(SHOWDOWN_WITH_MUCK)), client.cookies["sessionid"].value


def test_the_replayer_steps_through_a_hand_as_alice_saw_it(server_url, hand, browser) -> None:
    problems: list[str] = []
    hand, cookie = hand
    page = signed_in(browser, server_url, cookie, problems)
    page.goto(f"{server_url}/hands/{hand.pk}/")
    root = page.locator("#replayer")
    expect(root).to_have_attribute("data-step", "0")
    expect(page.locator(".seat.you .hole .card.face")).to_have_count(2)
    expect(page.locator(".seat.occupied:not(.you) .card.face")).to_have_count(0)
    expect(board_cards(page)).to_have_count(0)
    expect(page.locator("[data-equity]")).to_contain_text("alice")

    page.get_by_role("button", name="Flop", exact=True).click()
    expect(board_cards(page)).to_have_count(3)
    expect(root).to_have_attribute("data-street", "flop")
    page.get_by_role("button", name="Step back").click()
    expect(root).to_have_attribute("data-street", "preflop")
    page.get_by_role("button", name="Step forward").click()
    expect(board_cards(page)).to_have_count(3)

    page.get_by_role("button", name="Play", exact=True).click()
    expect(root).to_have_attribute("data-street", "over", timeout=60_000)
    expect(board_cards(page)).to_have_count(5)
    expect(page.locator("[data-label]")).to_contain_text("alice wins 180")
    # At the end: carol's shown kings face up, bob's mucked hand never.
    expect(page.locator(".seat.occupied .card.face")).to_have_count(4)
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_visible()
    assert not problems, problems


def test_the_api_docs_load_under_the_content_security_policy(server_url, hand, browser):
    problems: list[str] = []
    page = signed_in(browser, server_url, hand[1], problems)
    page.goto(f"{server_url}/api/docs/")
    expect(page.get_by_text("/api/hands/", exact=True).first).to_be_visible()
    assert not problems, problems


@pytest.fixture
def checked_hands(server_url, make_user, tmp_path):
    """An honest hand and one whose first card was swapped after the seal, each with what
    `python -m engine verify` says of the API's answer to alice."""
    from engine.__main__ import main as engine_command

    alice, bob, carol = (make_user(name) for name in ("alice", "bob", "carol"))
    with kept_from_the_live_worker():  # nobody plays at this table: it only has records
        table = friends_table(alice, bob, carol, seat_count=3)
    honest = record_hand(table, recorded_state(SHOWDOWN_WITH_MUCK))
    tampered = record_hand(table, recorded_state(SHOWDOWN_WITH_MUCK))
    deal_first_card_from_the_bottom(tampered)
    client = Client()
    client.force_login(alice)
    verdicts = {}
    for hand in (honest, tampered):
        path = tmp_path / f"hand-{hand.pk}.json"
        path.write_bytes(client.get(f"/api/hands/{hand.pk}/").content)
        with redirect_stdout(io.StringIO()) as out:
            engine_command(["verify", str(path)])
        verdicts[hand.pk] = out.getvalue()
    return honest, tampered, verdicts, client.cookies["sessionid"].value


def test_the_browser_checks_the_deck_as_the_command_line_does(server_url, checked_hands, browser):
    honest, tampered, verdicts, cookie = checked_hands
    problems: list[str] = []
    page = signed_in(browser, server_url, cookie, problems)

    page.goto(f"{server_url}/hands/{honest.pk}/")
    verdict = page.locator("[data-fairness]")
    expect(verdict).to_have_attribute("data-verified", "yes")
    expect(verdict).to_contain_text("Deck verified")
    assert verdicts[honest.pk] == "verified\n"

    page.goto(f"{server_url}/hands/{tampered.pk}/")
    expect(verdict).to_have_attribute("data-verified", "no")
    command_line = [line.split(": ", 1)[1] for line in verdicts[tampered.pk].splitlines()]
    assert command_line and command_line[0].startswith("position 0: ")
    for problem in command_line:
        expect(verdict).to_contain_text(problem)
    assert not problems, problems
