"""The host's word on the page: a request reaches the host at once (a toast with
Approve and Refuse, and counts on the Host tab and the panel's toggle; Approve from
the toast seats the player, at 1280x720 and 390x844), a removed player sees why and
no seat, and the host's stack changes show in everyone's hand log and ledger; a
player who sits while the host types an amount is in the host's lists at once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.chromium import BROWSER_TEST, PHONE, SCREENSHOTS, sign_up
from tests.support.table_pages import open_table, show_panel_tab, take_seat
from tests.tables.test_motion_sound_browser import RECORD_NOTES, notes_heard

pytestmark = BROWSER_TEST

LAPTOP = {"width": 1280, "height": 720}
DOORBELL = [784, 587]  # static/js/sounds.js: someone asks the host


def _inside_the_window(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["y"] >= 0, f"{selector} starts off the window"
    assert box["x"] + box["width"] <= size["width"], f"{selector} ends right of the window"
    assert box["y"] + box["height"] <= size["height"], f"{selector} ends below the window"
    assert box["width"] >= 44 and box["height"] >= 44, f"{selector} is too small to tap"


def _paused_table(browser: Browser, server_url: str, viewport: dict[str, int]) -> tuple[Page, str]:
    """The host seated at a new table they paused (no hand: stacks stay put), with the
    Host tab open, and the table's link."""
    host = sign_up(browser, server_url, "hazel", viewport)
    link = open_table(host, server_url)
    take_seat(host, 0)
    show_panel_tab(host, "Host")
    host.get_by_role("button", name="Pause the game").click()
    return host, link


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280x720", "390x844"])
def test_the_host_approves_a_sit_down_from_the_toast(
    server_url: str, browser: Browser, viewport: dict[str, int]
) -> None:
    host = sign_up(browser, server_url, "hazel", viewport)
    host.add_init_script(RECORD_NOTES)
    link = open_table(host, server_url)
    host.get_by_role("button", name="Turn sound on").click()
    take_seat(host, 0)
    show_panel_tab(host, "Host")
    host.get_by_label("Approve sit-downs").check()
    expect(host.get_by_label("Approve sit-downs")).to_be_checked()
    show_panel_tab(host, "Chat")  # looking elsewhere: the chat, or the felt on a phone
    host.keyboard.press("Escape")

    friend = sign_up(browser, server_url, "ivan", viewport)
    friend.goto(link)
    expect(friend.locator("[data-connection-status]")).to_have_text("Live")
    notes_heard(host)
    friend.get_by_role("button", name="Sit in seat 2").click()

    toast = host.get_by_role("group", name="ivan asks for seat 2")
    expect(toast).to_be_visible()
    heard = notes_heard(host)
    assert [note for note in heard if note in DOORBELL] == DOORBELL, heard
    badge = "[data-panel-toggle] [data-request-count]"
    if viewport == LAPTOP:
        badge = "[data-tab=host] [data-request-count]"
    expect(host.locator(badge)).to_have_text("1")
    _inside_the_window(host, "[data-request-toasts] .request-toast button:text-is('Approve')")
    size = f"{viewport['width']}x{viewport['height']}"
    host.screenshot(path=str(SCREENSHOTS / f"host-request-toast-{size}.png"))

    toast.get_by_role("button", name="Approve: ivan asks for seat 2").click()
    expect(friend.locator(".seat.you")).to_have_count(1)
    expect(host.locator("[data-request-toasts]")).to_be_hidden()
    expect(host.locator(badge)).to_be_hidden()
    expect(host.locator(".seat:not(.you)")).to_contain_text("ivan")


def test_a_removed_player_sees_why_and_no_seat_until_let_back(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "hazel", LAPTOP)
    link = open_table(host, server_url)
    take_seat(host, 0)
    friend = sign_up(browser, server_url, "ivan", LAPTOP)
    friend.goto(link)
    take_seat(friend, 1)
    show_panel_tab(host, "Host")
    host.get_by_role("button", name="Remove ivan").click()

    expect(friend.locator("[data-removed]")).to_contain_text("once the host lets you back")
    friend.reload()  # opening the link again changes nothing
    expect(friend.locator("[data-removed]")).to_contain_text("once the host lets you back")
    expect(friend.get_by_role("button", name="Sit in seat 2")).to_have_count(0)

    host.get_by_role("button", name="Allow ivan back").click()
    expect(friend.locator("[data-removed]")).to_be_hidden()
    take_seat(friend, 1)


def test_the_host_corrects_and_moves_stacks_and_everyone_reads_it(
    server_url: str, browser: Browser
) -> None:
    host, link = _paused_table(browser, server_url, LAPTOP)
    friend = sign_up(browser, server_url, "ivan", LAPTOP)
    friend.goto(link)
    take_seat(friend, 1)

    move = host.locator("[data-stack-form=move_chips]")
    move.get_by_label("Move").fill("200")
    move.get_by_label("from").select_option("0")
    move.get_by_label("to").select_option("1")
    move.get_by_role("button", name="Move the chips").click()
    expect(friend.locator(".seat.you")).to_contain_text("1700")
    correct = host.locator("[data-stack-form=set_stack]")
    correct.get_by_label("Stack of").select_option("1")
    correct.get_by_label("to").fill("1000")
    correct.get_by_role("button", name="Set the stack").click()
    expect(friend.locator(".seat.you")).to_contain_text("1000")

    show_panel_tab(friend, "Hand log")
    expect(friend.locator("[data-log]")).to_contain_text("Host moved 200 from hazel to ivan")
    expect(friend.locator("[data-log]")).to_contain_text("Host set ivan's stack from 1700 to 1000")
    show_panel_tab(friend, "Ledger")
    ivan = friend.locator("[data-ledger] tbody tr", has_text="ivan")
    expect(ivan).to_contain_text("-700 corrected, +200 moved")
    # Refused amounts say why, and change nothing.
    move.get_by_label("Move").fill("5000")
    move.get_by_label("from").select_option("1")
    move.get_by_label("to").select_option("0")
    move.get_by_role("button", name="Move the chips").click()
    expect(host.locator("[data-toast]")).to_have_text("ivan has only 1000.")
    expect(friend.locator(".seat.you")).to_contain_text("1000")


def test_a_player_who_sits_while_the_host_types_an_amount_is_in_the_host_lists(
    server_url: str, browser: Browser
) -> None:
    host, link = _paused_table(browser, server_url, LAPTOP)
    move = host.locator("[data-stack-form=move_chips]")
    move.get_by_label("Move").fill("300")  # the cursor stays in the amount
    friend = sign_up(browser, server_url, "ivan", LAPTOP)
    friend.goto(link)
    take_seat(friend, 1)

    for field in ("from", "to"):
        expect(move.get_by_label(field).locator("option")).to_have_text(
            [re.compile(r"^hazel \(\d+\)$"), re.compile(r"^ivan \(\d+\)$")]
        )
    assert host.evaluate("document.activeElement.name") == "amount"
    move.get_by_label("to").select_option("1")
    move.get_by_role("button", name="Move the chips").click()
    expect(friend.locator(".seat.you")).to_contain_text("1800")


def test_a_busted_players_rebuy_is_approved_from_the_toast_on_a_phone(
    server_url: str, browser: Browser
) -> None:
    host, link = _paused_table(browser, server_url, PHONE)
    host.get_by_label("Approve rebuys").check()
    friend = sign_up(browser, server_url, "ivan", PHONE)
    friend.goto(link)
    take_seat(friend, 1)
    correct = host.locator("[data-stack-form=set_stack]")
    correct.get_by_label("Stack of").select_option("1")
    correct.get_by_label("to").fill("0")  # as if he had lost it all
    correct.get_by_role("button", name="Set the stack").click()
    host.keyboard.press("Escape")  # the drawer closed: the host looks at the felt

    friend.get_by_role("button", name="Rebuy 1500 chips").click()
    toast = host.get_by_role("group", name="ivan asks for a rebuy")
    expect(toast).to_be_visible()
    expect(host.locator("[data-panel-toggle] [data-request-count]")).to_have_text("1")
    toast.get_by_role("button", name="Approve: ivan asks for a rebuy").click()
    expect(friend.locator(".seat.you")).to_contain_text("1500")
    expect(host.locator("[data-request-toasts]")).to_be_hidden()
