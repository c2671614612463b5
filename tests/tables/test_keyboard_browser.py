"""Playing from the keyboard and choosing before one's turn, in a real browser against
another signed-up player at a live heads-up table."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Page, expect

from tests.support.chromium import BROWSER_TEST, DESKTOP, SCREENSHOTS, sign_up
from tests.support.table_pages import log_text, open_table, take_seat

pytestmark = BROWSER_TEST


def heads_up(browser: Browser, server_url: str) -> dict[str, Page]:
    """alice and bob seated at a heads-up table, the first hand dealt."""
    pages = {
        "alice": sign_up(browser, server_url, "alice", DESKTOP),
        "bob": sign_up(browser, server_url, "bob", DESKTOP),
    }
    link = open_table(pages["alice"], server_url)
    pages["bob"].goto(link)
    take_seat(pages["alice"], 0)
    take_seat(pages["bob"], 1)
    for page in pages.values():
        expect(page.locator("[data-hand-number]")).to_have_text("Hand #1")
    return pages


def to_act(pages: dict[str, Page]) -> tuple[str, str]:
    """(the name of the player whose controls are up, the other's)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for name, page in pages.items():
            if page.locator("[data-controls]").is_visible():
                return name, next(other for other in pages if other != name)
        time.sleep(0.1)
    raise AssertionError("nobody was given the controls")


def test_f_c_and_r_play_a_hand_from_the_keyboard(server_url: str, browser: Browser) -> None:
    pages = heads_up(browser, server_url)
    first, second = to_act(pages)  # heads-up, the button (the small blind) acts first
    page = pages[first]
    for act, key in (("fold", "F"), ("call", "C"), ("raise", "R")):
        expect(page.locator(f'[data-act="{act}"] kbd')).to_have_text(key)  # the hints

    page.keyboard.press("c")  # calls the big blind

    page = pages[second]
    expect(page.locator("[data-controls]")).to_be_visible()
    page.keyboard.press("r")
    box = page.locator("[data-raise-amount]")
    expect(box).to_be_focused()
    smallest = int(box.input_value())
    assert smallest == 40
    page.keyboard.press("ArrowUp")  # one big blind more
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    expect(box).to_have_value(str(smallest + 20))
    expect(page.locator('[data-act="raise"]')).to_have_text(re.compile(r"^Raise to 60"))
    page.keyboard.press("Enter")

    page = pages[first]
    expect(page.locator("[data-controls]")).to_be_visible()
    expect(page.locator('[data-act="call"]')).to_have_text(re.compile(r"^Call 40"))
    page.keyboard.press("f")

    for page in pages.values():
        expect(page.locator("[data-log]")).to_contain_text(f"{second} wins")
        log = log_text(page)
        assert f"{first} calls 10" in log
        assert f"{second} raises to 60" in log
        assert f"{first} folds" in log


def test_choices_made_before_the_turn(server_url: str, browser: Browser) -> None:
    pages = heads_up(browser, server_url)
    button, blind = to_act(pages)
    waiting = pages[blind].locator("[data-pre-actions]")
    expect(waiting).to_be_visible()
    expect(pages[button].locator("[data-pre-actions]")).to_be_hidden()  # it is their turn
    # The big blind faces nothing more yet: check/fold, check, call any (no "Call N").
    expect(waiting.get_by_role("button")).to_have_text(["Check/Fold", "Check", "Call any"])

    check_fold = waiting.get_by_role("button", name="Check/Fold")
    check_fold.click()
    expect(check_fold).to_have_attribute("aria-pressed", "true")
    pages[blind].screenshot(path=SCREENSHOTS / "felt-pre-actions-desktop.png")
    pages[button].locator('[data-act="raise"]').click()  # a raise: the bet changed

    controls = pages[blind].locator("[data-controls]")
    expect(controls).to_be_visible()  # not folded for them: they choose again
    expect(waiting.locator('[data-pre-action="check_fold"]')).to_have_attribute(
        "aria-pressed", "false"
    )
    assert f"{blind} folds" not in log_text(pages[blind])
    pages[blind].locator('[data-act="call"]').click()

    # The flop: the big blind acts first now; the button picks "Call any", then is bet into.
    expect(pages[blind].locator("[data-log]")).to_contain_text("Flop:")
    expect(controls).to_be_visible()
    waiting = pages[button].locator("[data-pre-actions]")
    call_any = waiting.get_by_role("button", name="Call any")
    call_any.click()
    expect(call_any).to_have_attribute("aria-pressed", "true")
    pages[blind].locator('[data-act="raise"]').click()  # bets the smallest bet, 20

    # Nobody clicks for the button: the call goes by itself.
    expect(pages[button].locator("[data-log]")).to_contain_text(f"{button} calls 20")
    expect(pages[button].locator("[data-log]")).to_contain_text("Turn:")
    expect(pages[button].locator("[data-controls]")).to_be_hidden()
