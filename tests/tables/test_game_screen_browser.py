"""The table is one screen (docs/table.md): at every common size, with the player
to act at a full table, every control of the turn is in sight with nothing covering
anything; chat, hand log, ledger and host controls are one tap away in the side panel;
and when the connection drops the table says so over the felt."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from tables import services
from tables.models import Seat, Table
from tests.support.live import (
    BROWSER_TEST,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
    stop_web_server,
)
from tests.support.table_pages import (
    TABLE_LINK,
    open_table,
    show_panel_tab,
    table_id_of,
    take_seat,
)
from tests.tables.helpers import act, state_of

pytestmark = BROWSER_TEST

VIEWPORTS = [(1280, 720), (1366, 768), (1920, 1080), (768, 1024), (390, 844), (844, 390)]
TOUCH_MIN = 44  # px: the smallest comfortable touch target
BANNER_SECONDS = 3.0  # the longest a dropped connection may go unsaid


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    return {"next_hand_seconds": 0.5}


def open_ring(page: Page, server_url: str, seats: int) -> int:
    """A friends' table of ``seats`` seats with a long clock; the page's player in seat 0."""
    page.goto(f"{server_url}/tables/new/")
    page.fill("#id_name", "Thursday ring game")
    page.fill("#id_seat_count", str(seats))
    page.fill("#id_action_seconds", "120")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(TABLE_LINK)
    take_seat(page, 0)
    return table_id_of(page.url)


def fill_and_play_to(table_id: int, seats: int, username: str) -> None:
    """Friends (none with the page open) fill the other seats; once the hand is dealt
    they call until ``username`` is to act."""

    def sit() -> None:
        host = User.objects.get(username=username)
        services.table_pause(table_id=table_id, user=host)  # one hand for everyone
        for number in range(1, seats):
            user = User.objects.create_user(f"friend{number}", f"friend{number}@example.com")
            services.seat_take(table_id=table_id, user=user, seat=number)
        friends = Seat.objects.filter(table_id=table_id, user__username__startswith="friend")
        friends.update(disconnected_at=timezone.now())  # the longest line a seat shows
        services.table_resume(table_id=table_id, user=host)

    def call_round() -> None:
        table = Table.objects.get(pk=table_id)
        deadline = time.monotonic() + 30
        while Seat.objects.get(table=table, number=state_of(table).actor).user.username != username:
            assert time.monotonic() < deadline, "the turn never came round"
            act(table, "call")

    outside_the_browser_loop(sit)
    deadline = time.monotonic() + 30
    dealt = Table.objects.filter(pk=table_id, hands__isnull=False)
    while not outside_the_browser_loop(dealt.exists):
        assert time.monotonic() < deadline, "no hand was dealt"
        time.sleep(0.1)
    outside_the_browser_loop(call_round)


def problems_on_screen(page: Page) -> list[str]:
    """Everything wrong with the screen as it stands: a control of the turn out of
    sight or too small to touch, boxes that cover each other, a page that scrolls."""
    found: list[str] = page.evaluate(
        """(least) => {
            const problems = [];
            const shown = (el) => el.getClientRects().length > 0;
            const inside = (box) => box.left >= 0 && box.top >= 0 &&
                box.right <= window.innerWidth + 0.5 && box.bottom <= window.innerHeight + 0.5;
            const controls = document.querySelectorAll(
                "[data-controls] button, [data-controls] input, [data-seat-controls] button," +
                "[data-seat-controls] label");
            for (const el of controls) {
                if (!shown(el)) continue;
                const box = el.getBoundingClientRect();
                const name = el.getAttribute("aria-label") || el.textContent.trim();
                if (!inside(box)) problems.push(`${name} off screen at ${box.top}..${box.bottom}`);
                if (box.width < least || box.height < least) {
                    problems.push(`${name} is ${box.width}x${box.height}`);
                }
            }
            const boxes = [...document.querySelectorAll("[data-seats] .seat")].map((seat) => [
                seat.getAttribute("aria-label"), seat.getBoundingClientRect()]);
            const boxOf = (selector) => document.querySelector(selector).getBoundingClientRect();
            boxes.push(["the board", boxOf("[data-board]")]);
            boxes.push(["the action bar", boxOf("[data-controls]")]);
            boxes.push(["the seat controls", boxOf("[data-seat-controls]")]);
            for (const [name, box] of boxes) {
                if (!inside(box)) problems.push(`${name} off screen`);
            }
            for (let i = 0; i < boxes.length; i++) {
                for (let j = i + 1; j < boxes.length; j++) {
                    const [a, one] = boxes[i];
                    const [b, two] = boxes[j];
                    const apart = one.right <= two.left || two.right <= one.left ||
                        one.bottom <= two.top || two.bottom <= one.top;
                    if (!apart) problems.push(`${a} covers ${b}`);
                }
            }
            const page = document.documentElement;
            if (page.scrollHeight > window.innerHeight || page.scrollWidth > window.innerWidth) {
                problems.push(`the page scrolls: ${page.scrollWidth}x${page.scrollHeight}`);
            }
            return problems;
        }""",
        TOUCH_MIN,
    )
    return found


@pytest.mark.parametrize("seats", [6, 9])
def test_a_turn_at_a_full_table_fits_every_screen_size(
    server_url: str, browser: Browser, seats: int
) -> None:
    page = sign_up(browser, server_url, f"ada{seats}", {"width": 1280, "height": 720})
    table_id = open_ring(page, server_url, seats)
    fill_and_play_to(table_id, seats, f"ada{seats}")
    expect(page.locator("[data-seats] .seat.occupied")).to_have_count(seats)
    expect(page.locator(".seat.you.to-act")).to_have_count(1)
    expect(page.locator("[data-raise-box]")).to_be_visible()
    page.locator('[data-preset="max"]').click()  # the longest label: "All-in 1500"
    problems = []
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        expect(page.locator('[data-act="raise"]')).to_be_in_viewport()
        page.screenshot(path=SCREENSHOTS / f"felt-table-{seats}-seats-{width}x{height}.png")
        problems += [f"{width}x{height}: {problem}" for problem in problems_on_screen(page)]
    assert problems == [], "\n".join(problems)


def test_chat_and_the_ledger_are_one_tap_away_with_unread_chat_marked(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "bea", {"width": 1280, "height": 720})
    link = open_table(host, server_url)
    take_seat(host, 0)
    guest = sign_up(browser, server_url, "cyd", {"width": 390, "height": 844})
    guest.goto(link)
    take_seat(guest, 1)
    mark = "[data-unread]"

    # Wide: the panel is beside the felt. Chat read elsewhere in it is marked on its tab.
    show_panel_tab(host, "Hand log")
    expect(host.locator("[data-log]")).to_be_visible()
    guest_says(guest, "evening all")
    chat_tab = host.get_by_role("tab", name=re.compile("^Chat"))
    expect(chat_tab.locator(mark)).to_have_text("1")
    chat_tab.click()
    expect(host.locator("[data-chat]")).to_contain_text("cyd: evening all")
    expect(chat_tab.locator(mark)).to_be_hidden()
    show_panel_tab(host, "Ledger")
    expect(host.get_by_role("region", name="Ledger")).to_be_visible()
    expect(host.locator("[data-ledger] tbody tr")).to_have_count(2)

    # Narrow: a drawer over the table, opened by a button in the head that shows unread chat.
    toggle = guest.locator("[data-panel-toggle]")
    expect(guest.locator("[data-chat]")).to_be_hidden()
    show_panel_tab(host, "Chat")
    host.get_by_label("Chat message").fill("welcome")
    host.get_by_label("Chat message").press("Enter")
    expect(toggle.locator(mark)).to_have_text("1")
    toggle.click()
    expect(guest.locator("[data-chat]")).to_contain_text("bea: welcome")
    expect(toggle.locator(mark)).to_be_hidden()
    show_panel_tab(guest, "Ledger")
    expect(guest.locator("[data-ledger] tbody tr")).to_have_count(2)
    guest.screenshot(path=SCREENSHOTS / "felt-table-drawer-390x844.png")
    guest.get_by_role("button", name="Close the panel").click()
    expect(guest.locator("[data-ledger]")).to_be_hidden()
    expect(guest.locator("[data-seats]")).to_be_visible()


def guest_says(page: Page, text: str) -> None:
    """Sends a chat line from ``page``, opening its chat first (a phone's is a drawer)."""
    show_panel_tab(page, "Chat")
    page.get_by_label("Chat message").fill(text)
    page.get_by_label("Chat message").press("Enter")
    page.get_by_role("button", name="Close the panel").click()


def test_the_invite_button_copies_the_link_or_shows_it(server_url: str, browser: Browser) -> None:
    page = sign_up(browser, server_url, "dov", {"width": 1280, "height": 720})
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    link = open_table(page, server_url)
    # Waiting for players: no deck exists, so no "Deck sealed" (a button's display rule
    # once showed it through its hidden attribute).
    expect(page.locator("[data-hand-number]")).to_have_text("Waiting for players")
    expect(page.locator("[data-sealed]")).to_be_hidden()
    sound = page.get_by_role("button", name="Turn sound on")  # an SVG speaker, not an emoji
    expect(sound.locator("svg")).to_have_count(1)
    assert "🔇" not in sound.inner_text()
    invite = page.get_by_role("button", name="Invite: copy the table's link")
    invite.click()
    expect(invite).to_have_text("Copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    expect(invite).to_have_text("Invite")
    # No clipboard (a page served over plain http from another machine): the link to copy.
    page.add_init_script("delete Navigator.prototype.clipboard;")
    page.reload()
    invite.click()
    shown = page.get_by_label("Copy this link and send it to your friends")
    expect(shown).to_be_visible()
    expect(shown).to_have_value(link)
    expect(shown).to_be_focused()


def test_a_dropped_connection_shows_over_the_felt_and_stops_the_clock(
    server_url: str, browser: Browser
) -> None:
    eli = sign_up(browser, server_url, "eli", {"width": 1280, "height": 720})
    link = open_table(eli, server_url)
    take_seat(eli, 0)
    fay = sign_up(browser, server_url, "fay", {"width": 390, "height": 844})
    fay.goto(link)
    take_seat(fay, 1)
    expect(eli.locator(".seat.to-act")).to_have_count(1)
    to_act = eli if eli.locator(".seat.you.to-act").count() else fay
    expect(to_act.locator("[data-controls]")).to_be_visible()
    banner = to_act.locator("[data-connection-status]")
    expect(banner).to_be_hidden()
    expect(to_act.locator("[data-sealed] svg")).to_be_visible()  # with a hand: the lock

    stop_web_server(server_url)
    expect(banner).to_be_visible(timeout=BANNER_SECONDS * 1000)
    expect(banner).to_have_text(re.compile(r"^Connection lost — reconnecting"))
    felt, box = to_act.locator("[data-felt]").bounding_box(), banner.bounding_box()
    assert felt and box, "both drawn"
    assert felt["y"] <= box["y"] and box["y"] + box["height"] <= felt["y"] + felt["height"]
    expect(to_act.locator(".seat.you .clock-text")).to_have_text("Paused: offline")
    to_act.wait_for_timeout(1000)
    expect(to_act.locator(".seat.you .clock")).not_to_have_class(re.compile("urgent"))
    expect(to_act.locator("[data-dock]")).to_have_attribute("inert", "")
    expect(to_act.locator("[data-dock-reason]")).to_have_text(
        "Not connected: your buttons work again once the table is back."
    )
    to_act.screenshot(path=SCREENSHOTS / "felt-table-connection-lost.png")
    # The button is switched off: a click reaches nothing.
    to_act.locator('[data-act="call"]').click(force=True)
    expect(to_act.locator("[data-toast]")).to_be_hidden()


# Few sockets a minute per member: a few reloads of the table are refused with 4430.
FEW_SOCKETS = {"next_hand_seconds": 0.5, "environment": {"SOCKET_HANDSHAKES_PER_USER": "3"}}


@pytest.mark.parametrize("live_server_options", [FEW_SOCKETS])
def test_a_socket_refused_for_too_many_connections_says_it_will_reconnect(
    server_url: str, browser: Browser
) -> None:
    page = sign_up(browser, server_url, "gil", {"width": 390, "height": 844})
    page.goto(f"{server_url}/tables/new/")
    page.get_by_role("button", name="Open the table").click()
    # A reload while the table page is still loading is Chromium's to refuse.
    page.wait_for_url(TABLE_LINK)
    banner = page.locator("[data-connection-status]")
    refused = re.compile(r"^Too many connections just now — reconnecting")
    for _ in range(6):
        page.reload()
        try:
            expect(banner).to_have_text(refused, timeout=3_000)
            break
        except AssertionError:
            expect(banner).to_have_text("Live")
    expect(banner).to_have_text(refused)
    expect(banner).to_be_visible()
    expect(page.locator("[data-dock]")).to_have_attribute("inert", "")
