"""A friends' table's page: the host runs it (pause, blinds for the next hand, resume),
and a friend who opens its link signed out comes back to it after signing up."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db.models import F
from playwright.sync_api import Browser, expect

from tests.support import PASSWORD
from tests.support.chromium import BROWSER_TEST, DESKTOP, outside_the_browser_loop, sign_up
from tests.support.table_pages import open_table, show_panel_tab, table_id_of, take_seat

pytestmark = BROWSER_TEST


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    return {"next_hand_seconds": 1.0}


def test_the_host_pauses_changes_the_blinds_and_resumes(server_url: str, browser: Browser) -> None:
    host = sign_up(browser, server_url, "hazel", DESKTOP)
    link = open_table(host, server_url)
    take_seat(host, 0)
    show_panel_tab(host, "Host")  # the host's controls: a tab of the side panel
    panel = host.get_by_role("region", name="Host controls")
    expect(panel).to_be_visible()
    panel.get_by_role("button", name="Pause the game").click()
    announce = host.locator("[data-announce]")
    expect(announce).to_have_text("Paused by the host")
    panel.get_by_label("Small blind").fill("25")
    panel.get_by_label("Big blind").fill("50")
    panel.get_by_role("button", name="Set for the next hand").click()
    expect(host.locator("[data-blinds]")).to_have_text("Blinds 10/20 (25/50 from the next hand)")

    guest = sign_up(browser, server_url, "ivan", DESKTOP)
    guest.goto(link)
    take_seat(guest, 1)
    expect(guest.get_by_role("region", name="Host controls")).to_be_hidden()
    expect(guest.locator("[data-announce]")).to_have_text("Paused by the host")
    guest.wait_for_timeout(1500)  # past the pause between hands: still no hand while paused
    expect(guest.locator("[data-hand-number]")).to_have_text("Waiting for players")
    expect(panel.locator("[data-host-players]")).to_contain_text("ivan")

    panel.get_by_role("button", name="Resume the game").click()
    expect(guest.locator("[data-hand-number]")).to_have_text("Hand #1")
    expect(guest.locator("[data-blinds]")).to_have_text("Blinds 25/50")
    expect(guest.locator("[data-log]")).to_contain_text("posts the big blind 50")
    # Each sees what their own cards make, under them, and only there.
    strength = re.compile(r"^(Pair of \w+|High Card, \w+)$")
    expect(guest.locator(".seat.you .strength")).to_have_text(strength)
    expect(guest.locator(".seat:not(.you) .strength")).to_have_count(0)
    guest.close()
    expect(host.locator(".seat:not(.you) .state")).to_contain_text("Offline since")


def test_a_table_link_opened_signed_out_comes_back_to_the_table_after_sign_up(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "hazel", DESKTOP)
    link = open_table(host, server_url)
    friend = browser.new_context(viewport=DESKTOP).new_page()
    friend.set_default_timeout(20_000)
    friend.goto(link)
    expect(friend.get_by_role("heading", name="Join Browser game")).to_be_visible()
    friend.get_by_role("navigation", name="Main").get_by_role("link", name="Sign up").click()
    friend.fill("#id_username", "judy")
    friend.fill("#id_email", "judy@example.com")
    friend.fill("#id_password1", PASSWORD)
    friend.fill("#id_password2", PASSWORD)
    friend.get_by_role("button", name="Create account").click()
    # Back at the table's plain address: the session that came with the key keeps it.
    friend.wait_for_url(f"{server_url}/tables/{table_id_of(link)}/")
    expect(friend.get_by_text("Welcome to Felt, judy.")).to_be_visible()
    take_seat(friend, 1)


def test_the_host_lets_a_friend_sit_and_mutes_them(server_url: str, browser: Browser) -> None:
    host = sign_up(browser, server_url, "quinn", DESKTOP)
    link = open_table(host, server_url)
    take_seat(host, 0)
    show_panel_tab(host, "Host")  # the host's controls: a tab of the side panel
    panel = host.get_by_role("region", name="Host controls")
    panel.get_by_label("Approve sit-downs").check()
    expect(panel.get_by_label("Approve sit-downs")).to_be_checked()

    guest = sign_up(browser, server_url, "rosa", DESKTOP)
    guest.goto(link)
    expect(guest.locator("[data-connection-status]")).to_have_text("Live")
    guest.get_by_role("button", name="Sit in seat 2").click()
    expect(guest.locator("[data-toast]")).to_contain_text("Asked the host")
    expect(panel.locator("[data-host-requests]")).to_contain_text("rosa asks for seat 2")
    expect(guest.locator(".seat.you")).to_have_count(0)
    panel.get_by_role("button", name="Let rosa sit").click()
    expect(guest.locator(".seat.you")).to_have_count(1)
    expect(panel.locator("[data-host-requests]")).to_be_empty()

    guest.get_by_role("group", name="Quick reactions").get_by_role("button", name="gl").click()
    expect(host.locator("[data-chat] li").last).to_have_text("rosa: gl")

    panel.get_by_role("button", name="Mute rosa").click()
    expect(panel.get_by_role("button", name="Unmute rosa")).to_be_visible()
    guest.get_by_label("Chat message").fill("hello?")
    guest.get_by_label("Chat message").press("Enter")
    expect(guest.locator("[data-toast]")).to_contain_text("muted")
    expect(host.locator("[data-chat]")).not_to_contain_text("hello?")
    guest.get_by_role("button", name="gg").click()  # a reaction is chat: muted too
    show_panel_tab(host, "Chat")
    host.get_by_label("Chat message").fill("ok")
    host.get_by_label("Chat message").press("Enter")
    expect(host.locator("[data-chat] li").last).to_have_text("quinn: ok")
    expect(host.locator("[data-chat]")).not_to_contain_text("gg")


def bust_to(loser: str, winner: str) -> None:
    """As an all-in lost to ``winner`` would: the loser's chips move to the winner."""
    from tables.models import Seat

    def move() -> None:
        lost = Seat.objects.get(user__username=loser)
        Seat.objects.filter(user__username=winner).update(stack=F("stack") + lost.stack)
        Seat.objects.filter(pk=lost.pk).update(stack=0)

    outside_the_browser_loop(move)


def test_a_busted_friend_rebuys_when_the_host_allows_and_the_ledger_nets_to_zero(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "hana", DESKTOP)
    link = open_table(host, server_url)
    take_seat(host, 0)
    show_panel_tab(host, "Host")  # the host's controls: a tab of the side panel
    panel = host.get_by_role("region", name="Host controls")
    panel.get_by_role("button", name="Pause the game").click()  # no hand while chips move
    panel.get_by_label("Approve rebuys").check()  # at once: the pause's snapshot must not untick it
    expect(panel.get_by_role("button", name="Resume the game")).to_be_visible()
    expect(panel.get_by_label("Approve rebuys")).to_be_checked()
    guest = sign_up(browser, server_url, "gus", DESKTOP)
    guest.goto(link)
    take_seat(guest, 1)

    bust_to("gus", "hana")
    guest.reload()
    busted = guest.locator("[data-busted]")
    busted.get_by_role("button", name="Rebuy 1500 chips").click()
    expect(busted.get_by_role("button", name="Rebuy 1500 chips")).to_have_text(
        "Asked the host for a rebuy…"
    )
    expect(guest.locator(".seat.you")).not_to_contain_text("1500")
    panel.get_by_role("button", name="Allow gus's rebuy").click()

    expect(busted).to_be_hidden()
    expect(guest.locator(".seat.you")).to_contain_text("1500")
    rows = guest.locator("[data-ledger] tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.filter(has_text="gus").locator("td").first).to_have_text("3000")  # bought twice
    nets = [int(text) for text in rows.locator("td:last-child").all_inner_texts()]
    assert sorted(nets) == [-1500, 1500] and sum(nets) == 0, "what one is up, the other is down"


def test_the_host_ends_the_game_and_everyone_sees_the_final_ledger(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "olga", DESKTOP)
    link = open_table(host, server_url)
    take_seat(host, 0)
    show_panel_tab(host, "Host")  # the host's controls: a tab of the side panel
    panel = host.get_by_role("region", name="Host controls")
    panel.get_by_role("button", name="Pause the game").click()  # no hand: it ends at once
    expect(panel.get_by_role("button", name="Resume the game")).to_be_visible()
    guest = sign_up(browser, server_url, "pavel", DESKTOP)
    guest.goto(link)
    take_seat(guest, 1)

    panel.get_by_role("button", name="End the game").click()
    expect(host.locator(".seat.occupied")).to_have_count(2)  # asked again, nothing sent yet
    panel.get_by_role("button", name="Sure? Click again to end the game").click()

    for page in (host, guest):
        expect(page.locator("[data-announce]")).to_have_text(
            "The host ended the game: the final ledger is in the Ledger tab"
        )
        expect(page.locator(".seat.occupied")).to_have_count(0)
        expect(page.get_by_role("button", name=re.compile(r"^Sit in seat"))).to_have_count(0)
        rows = page.locator("[data-ledger] tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.filter(has_text="pavel").locator("td").nth(1)).to_have_text("1500")
    expect(panel).to_be_hidden()
    guest.reload()  # and it stays so
    expect(guest.locator("[data-announce]")).to_contain_text("The host ended the game")
