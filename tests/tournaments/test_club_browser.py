"""A club in a real browser: the owner creates it and sends its link, two friends join,
the owner credits their club points and schedules a tournament from the club's page,
they register there, and at its start they are told where to sit (tests/support/live.py
has the set-up)."""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from tests.support.chromium import (
    BROWSER_TEST,
    DESKTOP,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
)
from tournaments import tasks
from tournaments.models import Tournament

pytestmark = BROWSER_TEST


def join_by_link(page: Page, server_url: str, link: str) -> None:
    page.goto(f"{server_url}/clubs/")
    page.fill("#id_link", link)
    page.get_by_role("button", name="Join", exact=True).click()
    page.get_by_role("button", name="Join Thursday Crew").click()
    expect(page.get_by_text("Welcome to Thursday Crew.")).to_be_visible()


def credit(owner: Page, username: str, amount: int) -> None:
    form = owner.locator("[data-points-form]")
    form.locator("#id_username").select_option(username)
    form.locator("#id_amount").fill(str(amount))
    form.locator("#id_reason").fill("bought in with cash")
    form.get_by_role("button", name="Record").click()
    expect(owner.get_by_text(f"+{amount:,} club points for {username}")).to_be_visible()


def make_it_due(tournament_id: int) -> None:
    """Its start time reached: beat's sweep starts what is due (the queued task would
    at the scheduled minute, a day away here)."""
    past = timezone.now() - timedelta(seconds=1)
    Tournament.objects.filter(pk=tournament_id).update(starts_at=past)
    tasks.sweep()


def test_an_admin_schedules_members_register_from_the_club_page_and_it_starts(
    server_url: str, browser: Browser
) -> None:
    owner = sign_up(browser, server_url, "olive", DESKTOP)
    owner.get_by_role("link", name="Clubs").click()
    owner.fill("#id_name", "Thursday Crew")
    owner.fill("#id_description", "Our home game, online")
    owner.get_by_role("button", name="Create the club").click()
    expect(owner.get_by_role("heading", name="Thursday Crew")).to_be_visible()
    link = owner.locator("[data-invite-url]").input_value()
    assert re.fullmatch(rf"{server_url}/clubs/thursday-crew/join/[-\w]+/", link), link

    friends = [sign_up(browser, server_url, name, DESKTOP) for name in ("bob", "carol")]
    for page in friends:
        join_by_link(page, server_url, link)
    owner.reload()
    expect(owner.locator("[data-members] tr[data-member]")).to_have_count(3)
    for name in ("bob", "carol"):
        credit(owner, name, 500)
    expect(owner.locator('tr[data-member="bob"] [data-balance]')).to_have_text("500")

    owner.get_by_role("link", name="Schedule a tournament").click()
    starts = timezone.localtime(timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    owner.fill("#id_name", "Club Night")
    owner.fill("#id_starts_at", starts)
    owner.fill("#id_buy_in", "100")
    owner.fill("#id_seats_per_table", "6")
    owner.fill("#id_payout_percentages", "100")
    owner.get_by_role("button", name="Schedule").click()
    owner.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    expect(owner.locator("[data-club]")).to_contain_text("Thursday Crew")
    tournament_id = int(owner.url.rstrip("/").rsplit("/", 1)[1])

    for page in friends:
        page.goto(f"{server_url}/clubs/thursday-crew/")
        row = page.locator(f'[data-upcoming] tr[data-tournament-id="{tournament_id}"]')
        row.get_by_role("button", name="Register").click()
        expect(
            page.get_by_text("You are registered. You have 400 club points left.")
        ).to_be_visible()
        expect(page.locator("[data-my-club-points]")).to_have_text("400")
        expect(row.get_by_role("button", name="Unregister")).to_be_visible()
    owner.goto(f"{server_url}/clubs/thursday-crew/")
    owner.screenshot(path=SCREENSHOTS / "felt-club-page.png", full_page=True)
    for page in friends:  # each waits on the tournament's page, its socket live
        page.goto(f"{server_url}/tournaments/{tournament_id}/")
        expect(page.locator("[data-connection-status]")).to_have_text("Live")

    outside_the_browser_loop(make_it_due, tournament_id)

    for page in friends:
        notice = page.locator("#site-notice")
        expect(notice).to_contain_text("Club Night has started: you are at Table 1")
        notice.get_by_role("link", name="Take your seat").click()
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        expect(page.locator(".seat.occupied")).to_have_count(2)
    tournament = outside_the_browser_loop(Tournament.objects.get, pk=tournament_id)
    assert (tournament.status, tournament.prize_pool) == ("running", 200)
