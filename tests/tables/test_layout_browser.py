"""Table layouts: a full ring of 9 seats where no seat covers another, and the phone
(390x844) with every control of a player's turn on one screen, big enough to touch."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from tables import services
from tables.models import Seat
from tests.support.chromium import (
    BROWSER_TEST,
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
)
from tests.support.table_pages import TABLE_LINK, show_panel_tab, table_id_of, take_seat

pytestmark = BROWSER_TEST

TOUCH_MIN = 44  # px: the smallest comfortable touch target


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    return {"next_hand_seconds": 0.5}


def open_table_of(page: Page, server_url: str, seats: int, game: str = "nlhe") -> str:
    page.goto(f"{server_url}/tables/new/")
    page.fill("#id_name", "Full ring")
    page.fill("#id_seat_count", str(seats))
    page.select_option("#id_game", game)
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(TABLE_LINK)
    return page.url


def fill_the_other_seats(table_id: int, seats: int = 9) -> None:
    """The other friends sit down (outside Playwright's event loop: the ORM refuses one)."""

    def sit_everyone() -> None:
        for number in range(seats):
            if not Seat.objects.filter(table_id=table_id, number=number).exists():
                user = User.objects.create_user(f"ring{number}", f"ring{number}@example.com")
                services.seat_take(table_id=table_id, user=user, seat=number)
        # None of them has the page open: the longest line a seat shows.
        friends = Seat.objects.filter(table_id=table_id, user__username__startswith="ring")
        friends.update(disconnected_at=timezone.now())

    outside_the_browser_loop(sit_everyone)


def seat_boxes(page: Page) -> list[dict[str, Any]]:
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-seats] .seat')].map((seat) => {
            const box = seat.getBoundingClientRect();
            return {x: box.left, y: box.top, right: box.right, bottom: box.bottom,
                    clock: (() => {
                        const clock = seat.querySelector("[data-clock]");
                        if (!clock) return 0;
                        const margin = parseFloat(getComputedStyle(clock).marginTop);
                        return clock.getBoundingClientRect().height + margin;
                    })()};
        })"""
    )


# The seat to act grows a clock (its bar and seconds) in its plate, half up and half
# down as seats are centred on their place: no seat may cover another whichever
# one holds the clock.
CLOCK_HEIGHT = 23  # px, when no seat shows one to measure


def with_clock_on(boxes: list[dict[str, Any]], holder: int) -> list[dict[str, Any]]:
    """The boxes as they would be with the clock on seat ``holder`` alone."""
    clock = max((box["clock"] for box in boxes), default=0) or CLOCK_HEIGHT
    moved = []
    for index, box in enumerate(boxes):
        grow = (clock if index == holder else 0) - box["clock"]
        moved.append({**box, "y": box["y"] - grow / 2, "bottom": box["bottom"] + grow / 2})
    return moved


def overlapping(boxes: list[dict[str, Any]]) -> list[tuple[int, int]]:
    pairs = set()
    for holder in range(len(boxes)):
        moved = with_clock_on(boxes, holder)
        for i, a in enumerate(moved):
            for j, b in enumerate(moved[i + 1 :], start=i + 1):
                apart = (
                    a["right"] <= b["x"]
                    or b["right"] <= a["x"]
                    or a["bottom"] <= b["y"]
                    or b["bottom"] <= a["y"]
                )
                if not apart:
                    pairs.add((i, j))
    return sorted(pairs)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_nine_seats_sit_round_the_oval_without_covering_each_other(
    server_url: str, browser: Browser, viewport: dict[str, int]
) -> None:
    page = sign_up(browser, server_url, "kim", viewport)
    open_table_of(page, server_url, 9)
    expect(page.get_by_role("button", name=re.compile(r"^Sit in seat \d$"))).to_have_count(9)
    assert overlapping(seat_boxes(page)) == []
    take_seat(page, 4)
    show_panel_tab(page, "Host")  # the host's controls: a tab of the side panel
    host = page.get_by_role("region", name="Host controls")
    host.get_by_role("button", name="Pause the game").click()  # the first hand for all nine
    expect(host.get_by_role("button", name="Resume the game")).to_be_visible()
    fill_the_other_seats(table_id_of(page.url))
    page.reload()
    expect(page.locator("[data-seats] .seat.occupied")).to_have_count(9)
    show_panel_tab(page, "Host")
    host.get_by_role("button", name="Resume the game").click()
    # In a hand, when every seat holds cards and they take the most room.
    expect(page.locator("[data-seats] .card.back")).to_have_count(16)
    boxes = seat_boxes(page)
    assert overlapping(boxes) == [], boxes


def cards_outside_their_seat(page: Page) -> list[str]:
    """Each seat whose hole cards stick out of its sides."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('[data-seats] .seat.occupied')].flatMap((seat) => {
            const box = seat.getBoundingClientRect();
            const cards = [...seat.querySelectorAll('.hole .card')]
                .map((card) => card.getBoundingClientRect());
            if (!cards.length) return [];
            const left = Math.min(...cards.map((c) => c.left));
            const right = Math.max(...cards.map((c) => c.right));
            const name = seat.getAttribute("aria-label");
            return left < box.left - 0.5 || right > box.right + 0.5
                ? [`${name}: cards ${left}..${right}, seat ${box.left}..${box.right}`]
                : [];
        })"""
    )
    return found


@pytest.mark.parametrize("seats", [6, 9])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["laptop", "phone"])
def test_four_omaha_cards_fit_every_seat(
    server_url: str, browser: Browser, viewport: dict[str, int], seats: int
) -> None:
    page = sign_up(browser, server_url, f"omar{seats}", viewport)
    open_table_of(page, server_url, seats, game="plo")
    take_seat(page, 0)
    show_panel_tab(page, "Host")
    host = page.get_by_role("region", name="Host controls")
    host.get_by_role("button", name="Pause the game").click()
    expect(host.get_by_role("button", name="Resume the game")).to_be_visible()
    fill_the_other_seats(table_id_of(page.url), seats)
    page.reload()
    expect(page.locator("[data-seats] .seat.occupied")).to_have_count(seats)
    show_panel_tab(page, "Host")
    host.get_by_role("button", name="Resume the game").click()
    expect(page.locator("[data-seats] .seat.you .card.face")).to_have_count(4)
    expect(page.locator("[data-seats] .card.back")).to_have_count(4 * (seats - 1))
    if page.locator("[data-panel-close]").is_visible():
        page.locator("[data-panel-close]").click()
    name = "laptop" if viewport == DESKTOP else "phone"
    page.screenshot(path=SCREENSHOTS / f"felt-omaha-{seats}-{name}.png")
    boxes = seat_boxes(page)
    assert overlapping(boxes) == [], boxes
    assert cards_outside_their_seat(page) == []


CONTROLS_OF_A_TURN = "[data-controls] button, [data-controls] input, [data-seat-controls] button"


def controls_out_of_reach(page: Page) -> list[str]:
    """Each visible control of the player's turn that is off the screen (with the page
    scrolled to the top) or smaller than a fingertip, with its box."""
    found: list[str] = page.evaluate(
        """([selector, least]) => {
            window.scrollTo(0, 0);
            const problems = [];
            const shown = (el) => el.getClientRects().length > 0;
            for (const el of document.querySelectorAll(selector)) {
                if (!shown(el)) continue;
                const box = el.getBoundingClientRect();
                const name = el.getAttribute("aria-label") || el.textContent.trim();
                const inside = box.left >= 0 && box.top >= 0 &&
                    box.right <= window.innerWidth && box.bottom <= window.innerHeight;
                if (!inside) problems.push(`${name} off screen at ${box.top}..${box.bottom}`);
                if (box.width < least || box.height < least) {
                    problems.push(`${name} is ${box.width}x${box.height}`);
                }
            }
            for (const seat of document.querySelectorAll("[data-seats] .seat")) {
                const box = seat.getBoundingClientRect();
                if (box.top < 0 || box.bottom > window.innerHeight || box.left < 0 ||
                    box.right > window.innerWidth) {
                    problems.push(`${seat.getAttribute("aria-label")} off screen`);
                }
            }
            return problems;
        }""",
        [CONTROLS_OF_A_TURN, TOUCH_MIN],
    )
    return found


@pytest.mark.parametrize("seats", [6, 9])
def test_on_a_phone_a_players_turn_fits_one_screen_with_big_targets(
    server_url: str, browser: Browser, seats: int
) -> None:
    desk = sign_up(browser, server_url, f"lena{seats}", DESKTOP)
    link = open_table_of(desk, server_url, seats)
    take_seat(desk, 0)
    phone = sign_up(browser, server_url, f"milo{seats}", PHONE)
    phone.goto(link)
    take_seat(phone, 3)
    for page in (desk, phone):
        expect(page.locator("[data-hand-number]")).to_have_text("Hand #1")
    # Whoever acts first: the desktop player calls, so the phone has a turn with a raise.
    if desk.locator("[data-controls]").is_visible():
        desk.locator('[data-act="call"]').click()
    controls = phone.locator("[data-controls]")
    expect(controls).to_be_visible()
    expect(phone.locator("[data-raise-box]")).to_be_visible()
    problems = controls_out_of_reach(phone)
    assert problems == [], "\n".join(problems)
