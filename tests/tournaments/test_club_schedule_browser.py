"""Scheduling a club tournament in Chromium from New York: the owner starts from a
preset, removes, adds and moves levels, adds a break and moves it with the keyboard;
the start typed in New York time is kept as the right UTC instant, and shown back in
New York time to the owner and in Paris time to a member in Paris, each zone named."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, expect

from tests.support.chromium import BROWSER_TEST, SCREENSHOTS, outside_the_browser_loop, sign_up
from tournaments.models import Tournament

pytestmark = BROWSER_TEST

WIDE = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
YEAR = timezone.now().year + 1


def sign_up_in(
    browser: Browser, server_url: str, username: str, zone: str, *, has_script: bool = True
) -> Page:
    """A member whose browser is set to ``zone``."""
    return sign_up(
        browser, server_url, username, WIDE, timezone_id=zone, java_script_enabled=has_script
    )


def level_rows(page: Page) -> Locator:
    return page.locator("[data-level-rows] > [data-row]")


def shown_rows(page: Page) -> list[str]:
    """Each row as the page shows it: "Level 3 25/50/0 5" or "Break 10"."""
    shown = []
    for row in level_rows(page).all():
        label = row.locator("[data-row-label]").inner_text()
        minutes = row.locator('[name="row_minutes"]').input_value()
        if label == "Break":
            shown.append(f"Break {minutes}")
        else:
            blinds = "/".join(
                row.locator(f'[name="row_{name}"]').input_value()
                for name in ("small_blind", "big_blind", "ante")
            )
            shown.append(f"{label} {blinds} {minutes}")
    return shown


def test_an_owner_in_new_york_schedules_with_the_level_editor_and_sees_new_york_time(
    server_url: str, browser: Browser
) -> None:
    owner = sign_up_in(browser, server_url, "olive", "America/New_York")
    owner.goto(f"{server_url}/clubs/")
    owner.fill("#id_name", "Thursday Crew")
    owner.get_by_role("button", name="Create the club").click()
    link = owner.locator("[data-invite-url]").input_value()
    owner.get_by_role("link", name="Schedule a tournament").click()
    expect(owner.locator("[data-zone-name]")).to_have_text("America/New_York")
    expect(level_rows(owner)).to_have_count(18)  # the regular preset, no blank rows

    owner.get_by_role("button", name="Turbo").click()
    expect(owner.locator("[data-editor-status]")).to_have_text("Turbo levels loaded: 18 levels.")
    assert shown_rows(owner)[:2] == ["Level 1 10/20/0 5", "Level 2 15/30/0 5"]
    assert owner.locator("#id_starting_stack").input_value() == "1500"

    owner.get_by_role("button", name="Remove: Level 18").click()  # 3000/6000
    owner.get_by_role("button", name="Add a level").click()  # after 2000/4000, ante 500
    assert shown_rows(owner)[-1] == "Level 18 4000/8000/1000 5"

    # a level moved down and back up with the keyboard: the numbers follow
    owner.get_by_role("button", name="Move down: Level 2").focus()
    owner.keyboard.press("Enter")
    assert shown_rows(owner)[1:3] == ["Level 2 25/50/0 5", "Level 3 15/30/0 5"]
    expect(owner.get_by_role("button", name="Move down: Level 3")).to_be_focused()
    owner.keyboard.press("Shift+Tab")
    expect(owner.get_by_role("button", name="Move up: Level 3")).to_be_focused()
    owner.keyboard.press("Enter")
    assert shown_rows(owner)[1:3] == ["Level 2 15/30/0 5", "Level 3 25/50/0 5"]

    # a break after level 4, then moved up a row with the keyboard: after level 3
    owner.get_by_label("Level 4: minutes").click()
    owner.get_by_role("button", name="Add a break").click()
    expect(owner.get_by_label("Break after level 4: minutes")).to_be_focused()
    owner.keyboard.press("Tab")  # the break's first button: move up
    expect(owner.get_by_role("button", name="Move up: Break after level 4")).to_be_focused()
    owner.keyboard.press("Enter")
    assert shown_rows(owner)[2:5] == ["Level 3 25/50/0 5", "Break 10", "Level 4 50/100/0 5"]
    owner.get_by_label("Break after level 3: minutes").fill("15")
    expect(owner.locator("[data-editor-summary]")).to_contain_text("18 levels, 1 break.")

    owner.fill("#id_name", "Club Night")
    owner.fill("#id_starts_at", f"{YEAR}-01-15T18:30")  # New York, winter: UTC-5
    owner.fill("#id_payout_percentages", "100")
    owner.set_viewport_size(PHONE)
    owner.screenshot(path=SCREENSHOTS / "felt-club-schedule-phone.png", full_page=True)
    owner.set_viewport_size(WIDE)
    owner.screenshot(path=SCREENSHOTS / "felt-club-schedule-wide.png", full_page=True)
    owner.get_by_role("button", name="Schedule", exact=True).click()
    owner.wait_for_url(re.compile(r"/tournaments/\d+/$"))

    tournament = outside_the_browser_loop(Tournament.objects.get, name="Club Night")
    assert tournament.starts_at == datetime(YEAR, 1, 15, 23, 30, tzinfo=UTC)
    assert len(tournament.custom_levels) == 18
    assert tournament.custom_levels[-1] == {
        "small_blind": 4000, "big_blind": 8000, "ante": 1000, "minutes": 5
    }  # fmt: skip
    assert tournament.level_breaks == [{"after_level": 3, "minutes": 15}]
    day = datetime(YEAR, 1, 15)
    new_york = f"{day:%a} 15 Jan, 18:30 (America/New_York)"
    expect(owner.locator("[data-starts-at]")).to_have_text(new_york)
    expect(owner.locator("[data-break-row]")).to_have_count(1)
    owner.screenshot(path=SCREENSHOTS / "felt-club-tournament-page.png", full_page=True)
    owner.goto(f"{server_url}/clubs/thursday-crew/")
    expect(owner.locator("[data-upcoming] [data-starts-at]")).to_have_text(new_york)

    member = sign_up_in(browser, server_url, "pierre", "Europe/Paris")
    member.goto(link)
    member.get_by_role("button", name="Join Thursday Crew").click()
    paris = f"{datetime(YEAR, 1, 16):%a} 16 Jan, 00:30 (Europe/Paris)"
    expect(member.locator("[data-upcoming] [data-starts-at]")).to_have_text(paris)
    member.goto(f"{server_url}/clubs/")
    expect(member.locator("[data-next-tournament]")).to_contain_text(paris)


def test_a_refused_row_is_marked_where_it_is(server_url: str, browser: Browser) -> None:
    owner = sign_up_in(browser, server_url, "olive", "Asia/Tokyo")
    owner.goto(f"{server_url}/clubs/")
    owner.fill("#id_name", "Thursday Crew")
    owner.get_by_role("button", name="Create the club").click()
    owner.get_by_role("link", name="Schedule a tournament").click()
    owner.fill("#id_name", "Club Night")
    owner.fill("#id_starts_at", f"{YEAR}-01-15T18:30")
    owner.get_by_label("Level 3: big blind").fill("20")  # below level 2's 30

    owner.get_by_role("button", name="Schedule", exact=True).click()

    expect(owner.locator("[data-form-errors]")).to_contain_text("see the rows marked below")
    marked = level_rows(owner).nth(2)
    expect(marked.locator("[data-row-error]")).to_have_text(
        "Level 3's big blind must be a whole number from 25 to 1,000,000,000."
    )
    expect(marked.locator('[name="row_big_blind"]')).to_have_value("20")
    for size, name in ((PHONE, "phone"), (WIDE, "wide")):
        owner.set_viewport_size(size)
        marked.scroll_into_view_if_needed()
        owner.screenshot(path=SCREENSHOTS / f"felt-club-schedule-error-{name}.png")
    assert outside_the_browser_loop(Tournament.objects.count) == 0


def test_without_javascript_the_rows_are_edited_in_place_and_the_start_is_utc(
    server_url: str, browser: Browser
) -> None:
    owner = sign_up_in(browser, server_url, "olive", "Europe/Paris", has_script=False)
    owner.goto(f"{server_url}/clubs/")
    owner.fill("#id_name", "Thursday Crew")
    owner.get_by_role("button", name="Create the club").click()
    owner.get_by_role("link", name="Schedule a tournament").click()
    expect(owner.locator("[data-zone-name]")).to_have_text("UTC")
    owner.fill("#id_name", "Club Night")
    owner.get_by_role("button", name="Hyper").click()  # posts: the rows come back as Hyper's
    expect(owner.locator("#id_name")).to_have_value("Club Night")
    expect(owner.locator('[name="row_minutes"]').first).to_have_value("3")
    expect(level_rows(owner)).to_have_count(18 + 3)  # with blank rows to fill in
    level_rows(owner).nth(4).locator('[name="row_kind"]').select_option("break")  # 75/150 out
    level_rows(owner).nth(4).locator('[name="row_minutes"]').fill("10")
    level_rows(owner).nth(18).locator('[name="row_small_blind"]').fill("4000")
    level_rows(owner).nth(18).locator('[name="row_big_blind"]').fill("8000")
    level_rows(owner).nth(18).locator('[name="row_ante"]').fill("1000")
    level_rows(owner).nth(18).locator('[name="row_minutes"]').fill("3")
    owner.fill("#id_starts_at", f"{YEAR}-01-15T18:30")
    owner.set_viewport_size(PHONE)
    owner.screenshot(path=SCREENSHOTS / "felt-club-schedule-no-script-phone.png", full_page=True)

    owner.get_by_role("button", name="Schedule", exact=True).click()

    owner.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    tournament = outside_the_browser_loop(Tournament.objects.get, name="Club Night")
    assert tournament.starts_at == datetime(YEAR, 1, 15, 18, 30, tzinfo=UTC)
    assert tournament.level_breaks == [{"after_level": 4, "minutes": 10}]
    assert [level["big_blind"] for level in tournament.custom_levels][3:5] == [100, 200]
    assert tournament.custom_levels[-1]["big_blind"] == 8000
    assert (tournament.starting_stack, tournament.structure) == (500, "hyper")
    expect(owner.locator("[data-starts-at]")).to_have_text(
        f"{datetime(YEAR, 1, 15):%a} 15 Jan, 18:30 (UTC)"
    )
