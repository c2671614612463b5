"""In Chromium: an unlisted table's id alone shows a stranger "not found"; its link,
key and all, seats a friend; the host's New link stops the old link for newcomers
while the friend already there plays on."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.support.chromium import BROWSER_TEST, DESKTOP, SCREENSHOTS, sign_up
from tests.support.table_pages import open_table, show_panel_tab, table_id_of, take_seat

pytestmark = BROWSER_TEST


def test_the_id_alone_finds_nothing_the_link_seats_a_friend_and_a_new_link_stops_it(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "hazel", DESKTOP)
    old_link = open_table(host, server_url)
    take_seat(host, 0)
    guessed = f"{server_url}/tables/{table_id_of(old_link)}/"

    stranger = sign_up(browser, server_url, "mallory", DESKTOP)
    assert stranger.goto(guessed).status == 404
    expect(stranger.locator("[data-seats]")).to_have_count(0)

    friend = sign_up(browser, server_url, "ivan", DESKTOP)
    friend.goto(old_link)
    take_seat(friend, 1)

    show_panel_tab(host, "Host")
    host.screenshot(path=SCREENSHOTS / "felt-host-new-link-1280.png")
    host.get_by_role("region", name="Host controls").get_by_role("button", name="New link").click()
    host.wait_for_url(lambda url: url != old_link and "?key=" in url)
    new_link = host.url
    assert host.input_value("[data-share-link]") == new_link, "Invite copies the new link"
    expect(host.locator("[data-connection-status]")).to_have_text("Live")
    expect(host.locator(".seat.you")).to_have_count(1)

    assert stranger.goto(old_link).status == 404, "the old link lets nobody new in"
    friend.reload()  # already at the table: stays, by the plain address too
    expect(friend.locator("[data-connection-status]")).to_have_text("Live")
    expect(friend.locator(".seat.you")).to_have_count(1)
    assert stranger.goto(new_link).status == 200
    expect(stranger.locator("[data-connection-status]")).to_have_text("Live")
