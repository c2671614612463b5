"""The money reached in Chromium, in a rebuy tournament's rebuy period: three
members, three places paid; two of them move all in at each other (the third
folds) until one is out of chips, who says no to the rebuy and takes 3rd
place and its prize, so rebuys and the add-on close (rule 34). The two left
hear it in a toast and their pages stop offering a rebuy, at a phone's size
and a laptop's (docs/tournaments.md, "Rebuys and add-ons")."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from tests.support.live import (
    BROWSER_TEST,
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
)
from tests.support.table_pages import CAN_ACT
from tests.tournaments.test_rebuy_browser import SECONDS, table_id_of
from tournaments import services
from tournaments.models import Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = BROWSER_TEST

CLOSED = "Rebuys and the add-on have closed: a paid place has been given"


def started_with_three_paid(usernames: list[str]) -> Tournament:
    from accounts.models import User

    tournament = services.schedule_tournament(
        settings=TournamentSettings(
            name="Bubble Night",
            starts_at=timezone.now() + timedelta(minutes=5),
            buy_in=100,
            seats_per_table=6,
            rebuy_levels=2,
            max_rebuys=2,
            addon_chips=3000,
            addon_price=50,
            payout_percentages=[50, 30, 20],
        )
    )
    for user in User.objects.filter(username__in=usernames):
        services.tournament_register(tournament_id=tournament.pk, user=user)
    services.mtt_start(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=6))
    return Tournament.objects.get(pk=tournament.pk)


def shove_until_an_offer(shovers: list[Page], folder: Page) -> Page:
    """The two ``shovers`` move all in or call, ``folder`` checks or folds, until one of
    the shovers is offered a rebuy."""
    deadline = time.monotonic() + SECONDS
    while True:
        for page in shovers:
            if page.get_by_role("button", name="No, I'm out").is_visible():
                return page
        assert time.monotonic() < deadline, "nobody went out of chips"
        for page in [*shovers, folder]:
            if not page.evaluate(CAN_ACT):
                continue
            all_in = page.get_by_role("button", name="All-in amount")
            if page is folder:
                call = page.locator('[data-act="call"]')
                can_check = call.get_attribute("aria-label") == "Check"
                (call if can_check else page.locator('[data-act="fold"]')).click()
            elif all_in.is_visible():
                all_in.click()
                page.locator('[data-act="raise"]').click()
            else:
                page.locator('[data-act="call"]').click()
            break
        time.sleep(0.2)


def test_the_players_left_see_rebuys_close_once_a_paid_place_is_given(
    server_url: str, browser: Browser, make_user: Any
) -> None:
    pages = [sign_up(browser, server_url, name, PHONE) for name in ("ann", "ben", "cat")]
    tournament = outside_the_browser_loop(started_with_three_paid, ["ann", "ben", "cat"])
    table_id = outside_the_browser_loop(table_id_of, tournament.pk)
    for page in pages:
        page.goto(f"{server_url}/tables/{table_id}/")
        expect(page.locator("[data-connection-status]")).to_have_text("Live")
        expect(page.locator("[data-purchases]")).to_contain_text("Rebuys are open")

    out = shove_until_an_offer(pages[:2], pages[2])
    out.get_by_role("button", name="No, I'm out").click()

    left = [page for page in pages if page is not out]
    for page in left:
        expect(page.locator("[data-toast]")).to_have_text(CLOSED)
        expect(page.locator("[data-purchases]")).to_be_hidden()  # no rebuy on offer
    for page, size in zip(left, ("phone", "laptop"), strict=True):
        if size == "laptop":
            page.set_viewport_size(DESKTOP)
        page.screenshot(path=SCREENSHOTS / f"felt-money-reached-{size}.png")
    expect(out.locator("[data-notice-text]")).to_contain_text("You finished 3rd of 3: 60 points")
