"""The table is one screen (docs/table.md): at every common size, with the player
to act at a full table, every control of the turn is in sight with nothing covering
anything, the player's own cards are the largest on the screen with the name of their
hand clear of them, and no label is cut short; chat, hand log, ledger and host
controls are one tap away in the side panel. When the connection drops:
test_connection_banner_browser.py."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

import engine
from accounts.models import User
from tables import services
from tables.models import Seat, Table
from tests.support import PASSWORD
from tests.support.chromium import BROWSER_TEST, SCREENSHOTS, outside_the_browser_loop, sign_up
from tests.support.table_pages import (
    TABLE_LINK,
    open_table,
    show_panel_tab,
    table_id_of,
    take_seat,
)
from tests.tables.helpers import act, state_of

pytestmark = BROWSER_TEST

VIEWPORTS = [
    (1280, 720),
    (1366, 768),
    (1920, 1080),
    (768, 1024),
    (390, 844),
    (412, 915),
    (844, 390),
]
# The viewer's cards and the flop: a ten half covered by the next card (a ten's "10"
# is the widest rank) and a hand whose name is long: "Two Pair, Queens and Tens".
DEALS = {
    "nlhe": ("Tc Qd", "Qh Ts 9c"),
    "plo": ("Th 9d Qc Js", "Qh Tc 9c"),
}
FLOP_BET = 40  # a friend's bet on the flop: the viewer may fold, call or raise
TOUCH_MIN = 44  # px: the smallest comfortable touch target


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    return {"next_hand_seconds": 0.5}


def open_ring(page: Page, server_url: str, seats: int, game: str = "nlhe") -> int:
    """A friends' table of ``seats`` seats with a long clock; the page's player in seat 0."""
    page.goto(f"{server_url}/tables/new/")
    page.fill("#id_name", "Thursday ring game")
    page.fill("#id_seat_count", str(seats))
    page.select_option("#id_game", game)
    page.fill("#id_action_seconds", "120")
    page.check("#id_allows_straddle")  # one more seat control: "Straddle"
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(TABLE_LINK)
    take_seat(page, 0)
    return table_id_of(page.url)


def stack_the_deck(table_id: int, seat: int, hole: str, flop: str) -> None:
    """Before anyone acts in the hand just dealt: ``seat`` holds ``hole`` and the flop
    will be ``flop`` (cards swapped in the deck the hand is dealt from, and in what the
    log says was dealt from it)."""
    table = Table.objects.get(pk=table_id)
    events = table.hand_events
    state = engine.replay([engine.event_from_dict(event) for event in events])
    deck = list(events[0]["deck"])  # as text: "Tc"
    positions = [deck.index(engine.card_str(card)) for card in state.hole_cards(seat)]
    positions += range(state.next_card, state.next_card + 3)  # no burn cards
    stacked = list(deck)
    for position, card in zip(positions, f"{hole} {flop}".split(), strict=True):
        other = stacked.index(card)
        stacked[position], stacked[other] = stacked[other], stacked[position]
    renamed = dict(zip(deck, stacked, strict=True))
    for event in events:
        for field in ("deck", "cards"):
            if field in event:
                event[field] = [renamed[card] for card in event[field]]
    rebuilt = engine.replay([engine.event_from_dict(event) for event in events])
    assert rebuilt.hole_cards(seat) == engine.cards(hole)
    Table.objects.filter(pk=table_id).update(hand_events=events)


def friends_act_until(table_id: int, username: str, street: int) -> None:
    """The friends check or call until ``username`` is to act on ``street`` (0: preflop,
    1: the flop, where the first of them bets: ``username`` then has three buttons)."""
    table = Table.objects.get(pk=table_id)
    deadline = time.monotonic() + 30
    while True:
        state = state_of(table)
        actor = Seat.objects.get(table=table, number=state.actor).user.username
        on_the_flop = bool(street and state.board)
        if actor == username and (not street or (on_the_flop and state.current_bet)):
            return
        assert time.monotonic() < deadline, "the turn never came round"
        if on_the_flop and state.current_bet == 0 and actor != username:
            act(table, "raise", FLOP_BET)
        else:  # the viewer first to act on the flop checks
            check_or_call(table)


def check_or_call(table: Table) -> None:
    state = state_of(table)
    act(table, "check" if state.current_bet == state.bets[state.actor] else "call")


def fill_and_play_to_the_flop(table_id: int, seats: int, username: str, game: str) -> None:
    """Friends (none with the page open) fill the other seats; the hand is dealt with
    ``DEALS[game]`` for ``username``, and everyone checks or calls until ``username`` is
    to act on the flop."""

    def sit() -> None:
        host = User.objects.get(username=username)
        services.table_pause(table_id=table_id, user=host)  # one hand for everyone
        for number in range(1, seats):
            # One long name, which the ledger must wrap rather than push Net out of sight.
            name = "friend1_christopher" if number == 1 else f"friend{number}"
            user = User.objects.create_user(name, f"friend{number}@example.com")
            services.seat_take(table_id=table_id, user=user, seat=number)
        friends = Seat.objects.filter(table_id=table_id, user__username__startswith="friend")
        friends.update(disconnected_at=timezone.now())  # the longest line a seat shows
        services.table_resume(table_id=table_id, user=host)

    def play() -> None:
        stack_the_deck(table_id, 0, *DEALS[game])
        friends_act_until(table_id, username, street=0)
        check_or_call(Table.objects.get(pk=table_id))
        friends_act_until(table_id, username, street=1)

    outside_the_browser_loop(sit)
    deadline = time.monotonic() + 30
    dealt = Table.objects.filter(pk=table_id, hands__isnull=False)
    while not outside_the_browser_loop(dealt.exists):
        assert time.monotonic() < deadline, "no hand was dealt"
        time.sleep(0.1)
    outside_the_browser_loop(play)


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


def unreadable_on_screen(page: Page) -> list[str]:
    """Everything hard to read: the viewer's cards smaller than another card or under
    the name of their hand, a rank covered, a label cut short, the head covered."""
    found: list[str] = page.evaluate(
        """() => {
            const problems = [];
            const shown = (el) => el.getClientRects().length > 0;
            const meet = (one, two) => !(one.right <= two.left || two.right <= one.left ||
                one.bottom <= two.top || two.bottom <= one.top);
            const own = [...document.querySelectorAll(".seat.you .hole .card")];
            if (!own.length) problems.push("your cards are not drawn");
            const ownBoxes = own.map((card) => card.getBoundingClientRect());
            const smallest = Math.min(...ownBoxes.map((box) => box.width));
            for (const card of document.querySelectorAll(".card")) {
                if (!shown(card) || own.includes(card)) continue;
                const width = card.getBoundingClientRect().width;
                if (width > smallest + 0.5) {
                    const where = card.closest("[data-board]") ? "the board's" : "a seat's";
                    problems.push(`${where} card is ${width} px wide, yours ${smallest}`);
                }
            }
            const strength = document.querySelector(".seat.you .strength");
            if (!strength || !shown(strength)) problems.push("your hand's name is not shown");
            else if (ownBoxes.some((box) => meet(box, strength.getBoundingClientRect()))) {
                problems.push(`"${strength.textContent}" covers your cards`);
            }
            // Every rank in sight: inside its card, not under the card dealt after it.
            for (const rank of document.querySelectorAll(".card .rank")) {
                const card = rank.closest(".card");
                if (!shown(card)) continue;
                const box = rank.getBoundingClientRect();
                const next = card.nextElementSibling;
                const edge = next && next.matches(".card") ?
                    next.getBoundingClientRect().left : Infinity;
                if (box.right > Math.min(card.getBoundingClientRect().right, edge) + 0.5) {
                    problems.push(`the rank of ${card.dataset.card} is covered`);
                }
            }
            // A seat's name may end in "…" (its aria-label has it whole); nothing else may.
            const labels = document.querySelectorAll(
                ".seat .state, .seat .strength, .seat .strength span, .table-name," +
                " [data-ledger] th, [data-ledger] td, [data-ledger]");
            for (const label of labels) {
                if (!shown(label)) continue;
                if (label.scrollWidth > label.clientWidth + 1 ||
                    label.scrollHeight > label.clientHeight + 1) {
                    problems.push(`"${label.textContent.trim().slice(0, 40)}" is cut short`);
                }
            }
            const pot = document.querySelector("[data-pot]");
            const you = document.querySelector(".seat.you");
            if (pot.textContent && meet(pot.getBoundingClientRect(), you.getBoundingClientRect())) {
                problems.push("your seat covers the pot");
            }
            const head = document.querySelector(".table-head").getBoundingClientRect();
            const name = document.querySelector(".table-name");
            if (!shown(name)) problems.push("the table's name is not shown");
            for (const near of document.querySelectorAll("[data-dock] > *, [data-seats] .seat")) {
                if (shown(near) && meet(head, near.getBoundingClientRect())) {
                    const what = near.getAttribute("aria-label") || near.className;
                    problems.push(`the head covers ${what}`);
                }
            }
            return problems;
        }"""
    )
    return found


@pytest.mark.parametrize(("seats", "game"), [(6, "nlhe"), (9, "nlhe"), (9, "plo")])
def test_a_turn_at_a_full_table_fits_every_screen_size(
    server_url: str, browser: Browser, seats: int, game: str
) -> None:
    page = sign_up(browser, server_url, f"ada{seats}", {"width": 1280, "height": 720})
    table_id = open_ring(page, server_url, seats, game)
    fill_and_play_to_the_flop(table_id, seats, f"ada{seats}", game)
    expect(page.locator("[data-seats] .seat.occupied")).to_have_count(seats)
    expect(page.locator(".seat.you.to-act")).to_have_count(1)
    expect(page.locator("[data-board] .card")).to_have_count(3)
    expect(page.locator(".seat.you .strength")).to_have_text("Two Pair, Queens and Tens")
    expect(page.locator('[data-act="fold"]')).to_be_visible()  # Fold, Call 40, Raise
    expect(page.locator("[data-raise-box]")).to_be_visible()
    page.locator('[data-preset="max"]').click()  # the longest label: "All-in 1500"
    expect(page.locator("[data-motion] .bet")).to_have_count(0)  # the bets in the pot
    problems = []
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        expect(page.locator('[data-act="raise"]')).to_be_in_viewport()
        if page.locator("[data-panel-toggle]").is_hidden():  # the panel beside the felt
            show_panel_tab(page, "Ledger")
        name = f"felt-table-{seats}-seats-{game}-{width}x{height}.png"
        page.screenshot(path=SCREENSHOTS / name, animations="disabled")
        found = problems_on_screen(page) + unreadable_on_screen(page)
        problems += [f"{width}x{height}: {problem}" for problem in found]
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


def test_the_welcome_passes_over_the_table_without_pushing_the_felt_down(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "hal", {"width": 1280, "height": 720})
    link = open_table(host, server_url)
    # A friend with the link signs up, and is brought back to the table with a welcome.
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{server_url}/accounts/signup/?next={link.removeprefix(server_url)}")
    page.fill("#id_username", "ivy")
    page.fill("#id_email", "ivy@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(link)
    welcome = page.get_by_text("Welcome to Felt, ivy.")
    expect(welcome).to_be_visible()
    expect(page.locator("[data-connection-status]")).to_have_text("Live")
    felt = page.locator("[data-felt]").bounding_box()
    expect(welcome).to_be_hidden(timeout=10_000)  # it goes by itself
    page.reload()
    expect(page.locator("[data-connection-status]")).to_have_text("Live")
    expect(welcome).to_have_count(0)
    assert felt == page.locator("[data-felt]").bounding_box()


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
