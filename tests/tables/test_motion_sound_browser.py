"""Motion at the table only for those who want it, and a sound switch the browser remembers."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.chromium import BROWSER_TEST, DESKTOP, sign_up
from tests.support.table_pages import TABLE_LINK, open_table, take_seat

pytestmark = BROWSER_TEST


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    return {"next_hand_seconds": 0.5}


def animation_of(page: Page, selector: str, pseudo: str | None = None) -> str:
    return page.eval_on_selector(
        selector, "(el, pseudo) => getComputedStyle(el, pseudo).animationName", pseudo
    )


def test_the_turn_pulses_unless_the_player_asked_for_less_motion(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "nora", DESKTOP)
    link = open_table(host, server_url)
    take_seat(host, 0)
    guest = sign_up(browser, server_url, "otto", DESKTOP)
    guest.emulate_media(reduced_motion="reduce")
    guest.goto(link)
    take_seat(guest, 1)
    for page in (host, guest):
        expect(page.locator(".seat.to-act")).to_have_count(1)
    host.emulate_media(reduced_motion="no-preference")
    assert animation_of(host, ".seat.to-act .plate", "::after") == "turn-pulse"
    assert animation_of(guest, ".seat.to-act .plate", "::after") == "none"
    assert animation_of(guest, ".seat.you .hole .card") == "none"
    # A few beats, then the page is still while the player thinks: the glow stays lit,
    # the clock's bar steps without a transition, and nothing animates on (each frame
    # of an animation cost the screen's processor). Sampled over a second, as the clock
    # ticks four times a second.
    host.wait_for_function(
        """() => document.getAnimations().every((a) => a.playState === "finished")""",
        timeout=8_000,
    )
    still = host.evaluate(
        """() => new Promise((done) => {
            let running = 0;
            const look = setInterval(() => {
                running += document.getAnimations().filter((a) => a.playState === "running").length;
            }, 50);
            setTimeout(() => { clearInterval(look); done(running); }, 1_000);
        })"""
    )
    assert still == 0
    glow = host.eval_on_selector(
        ".seat.to-act .plate", "(el) => getComputedStyle(el, '::after').opacity"
    )
    assert glow == "1"


def test_the_sound_switch_is_remembered(server_url: str, browser: Browser) -> None:
    page = sign_up(browser, server_url, "pia", DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_table(page, server_url)
    switch = page.get_by_role("button", name="Turn sound on")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(page.get_by_role("button", name="Turn sound off")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.reload()
    expect(page.get_by_role("button", name="Turn sound off")).to_have_attribute(
        "aria-pressed", "true"
    )
    take_seat(page, 0)  # the table goes on drawing with sound on
    page.get_by_role("button", name="Turn sound off").click()
    page.reload()
    expect(page.get_by_role("button", name="Turn sound on")).to_be_visible()
    assert errors == []


# Every note the page starts, by frequency (Hz), recorded as WebAudio plays it.
RECORD_NOTES = """
window.notesPlayed = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.notesPlayed.push(Math.round(this.frequency.value));
  return start.apply(this, args);
};
"""
CHECK_KNOCK, CHIPS_CLICK, CLOCK_BEEP = 196, 1320, 988


def notes_heard(page: Page) -> list[int]:
    return page.evaluate("() => window.notesPlayed.splice(0)")


def test_checks_chips_and_a_running_clock_are_heard_with_sound_on(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "quinn", DESKTOP)
    host.goto(f"{server_url}/tables/new/")
    host.fill("#id_name", "Sound check")
    host.fill("#id_seat_count", "2")
    host.fill("#id_action_seconds", "8")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url(TABLE_LINK)
    link = host.url
    take_seat(host, 0)
    guest = sign_up(browser, server_url, "rosa", DESKTOP)
    guest.add_init_script(RECORD_NOTES)
    guest.goto(link)
    guest.get_by_role("button", name="Turn sound on").click()
    take_seat(guest, 1)
    for page in (host, guest):
        expect(page.locator("[data-hand-number]")).to_have_text("Hand #1")
    notes_heard(guest)

    # Heads-up: the button (small blind) acts first preflop, then the other player.
    expect(host.locator(".seat.to-act")).to_have_count(1)
    is_host_first = host.locator(".seat.you.to-act").count() == 1
    first, second = (host, guest) if is_host_first else (guest, host)
    first.locator('[data-act="call"]').click()
    expect(second.locator('[data-act="call"]')).to_be_visible()
    second.locator('[data-act="call"]').click()
    expect(guest.locator("[data-log]")).to_contain_text("Flop:")
    heard = notes_heard(guest)
    assert CHIPS_CLICK in heard and CHECK_KNOCK in heard, heard

    # After the flop the big blind (second) acts first; then the other player's clock runs.
    expect(second.locator('[data-act="call"]')).to_be_visible()
    second.locator('[data-act="call"]').click()
    expect(first.locator("[data-controls]")).to_be_visible()
    if first is guest:
        guest.wait_for_timeout(4000)  # 8 s clock: past the last 5 s
        assert notes_heard(guest).count(CLOCK_BEEP) == 3, "three beeps, once"
    else:
        host.wait_for_timeout(4000)
        assert CLOCK_BEEP not in notes_heard(guest), "another player's clock is not yours"
