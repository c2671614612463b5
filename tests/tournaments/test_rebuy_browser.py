"""A rebuy knockout tournament in Chromium: two members move all in until one is
out of chips, who rebuys from the offer on their table page (a phone), plays on,
and both take the add-on once the rebuy period is over; on the break after it
the two make a deal that ends the tournament. The seats show the bounties and
the tournament's page counts it all (docs/tournaments.md, "Rebuys and add-ons",
"Knockout bounties", "A deal at the final table")."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from typing import Any

from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from tables.models import Seat
from tests.support.chromium import (
    BROWSER_TEST,
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    outside_the_browser_loop,
    sign_up,
)
from tests.support.table_pages import CAN_ACT
from tournaments import services
from tournaments.models import Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = BROWSER_TEST

SECONDS = 90


def started_with_rebuys(usernames: list[str], **changes: Any) -> Tournament:
    """A rebuy knockout tournament of ``usernames``, started (``changes`` to its settings)."""
    from accounts.models import User

    options = {
        "name": "Rebuy Night",
        "buy_in": 100,
        "bounty": 40,
        "seats_per_table": 6,
        "rebuy_levels": 1,
        "max_rebuys": 2,
        "addon_chips": 3000,
        "addon_price": 50,
        **changes,
    }
    starts_at = timezone.now() + timedelta(minutes=5)
    tournament = services.schedule_tournament(
        settings=TournamentSettings(starts_at=starts_at, **options)
    )
    for user in User.objects.filter(username__in=usernames):
        services.tournament_register(tournament_id=tournament.pk, user=user)
    services.mtt_start(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=6))
    return Tournament.objects.get(pk=tournament.pk)


def table_id_of(tournament_id: int) -> int:
    return Seat.objects.filter(table__tournament_id=tournament_id).first().table_id  # type: ignore[union-attr]


def to_the_add_on(tournament_id: int) -> None:
    """The clock to the level after the rebuy period: 60-second levels, in the second."""
    Tournament.objects.filter(pk=tournament_id).update(
        started_at=timezone.now() - timedelta(seconds=61), level_seconds=60.0
    )


def to_a_break_after_the_add_on(tournament_id: int) -> None:
    """Two 60-second levels played (the add-on's is over), then a 30-minute break."""
    Tournament.objects.filter(pk=tournament_id).update(
        started_at=timezone.now() - timedelta(seconds=125),
        level_seconds=60.0,
        level_breaks=[{"after_level": 2, "minutes": 30}],
    )


def move_in_until_an_offer(pages: list[Page], folder: Page | None = None) -> Page:
    """Whoever is to act moves all in or calls (``folder`` checks or folds), until one
    page offers a rebuy."""
    deadline = time.monotonic() + SECONDS
    while True:
        for page in pages:
            if page.get_by_role("button", name="No, I'm out").is_visible():
                return page
        assert time.monotonic() < deadline, "nobody went out of chips"
        for page in [*pages, *([folder] if folder else [])]:
            if page.evaluate(CAN_ACT):
                all_in = page.get_by_role("button", name="All-in amount")
                call = page.locator('[data-act="call"]')
                if page is folder:
                    is_check = call.get_attribute("aria-label") == "Check"
                    (call if is_check else page.locator('[data-act="fold"]')).click()
                elif all_in.is_visible():
                    all_in.click()
                    page.locator('[data-act="raise"]').click()
                else:
                    page.locator('[data-act="call"]').click()
                break
        time.sleep(0.2)


def test_a_player_out_of_chips_rebuys_and_both_take_the_add_on(
    server_url: str, browser: Browser, make_user: Any
) -> None:
    ann = sign_up(browser, server_url, "ann", PHONE)
    ben = sign_up(browser, server_url, "ben", DESKTOP)
    tournament = outside_the_browser_loop(started_with_rebuys, ["ann", "ben"])
    table_id = outside_the_browser_loop(table_id_of, tournament.pk)
    pages = [ann, ben]
    for page in pages:
        page.goto(f"{server_url}/tables/{table_id}/")
        expect(page.locator("[data-connection-status]")).to_have_text("Live")
        expect(page.locator("[data-purchases]")).to_contain_text("Rebuys are open (2 rebuys left)")
        expect(page.get_by_label("Bounty: 40 points for knocking ann out")).to_be_visible()

    out = move_in_until_an_offer(pages)
    panel = out.locator("[data-purchases]")
    expect(panel).to_contain_text("You are out of chips: rebuy within")
    expect(out.locator("[data-busted]")).to_be_hidden()  # the offer asks instead
    out.screenshot(path=SCREENSHOTS / f"felt-rebuy-offer-{'phone' if out is ann else 'laptop'}.png")
    out.get_by_role("button", name=re.compile(r"^Rebuy 1500 chips for 100 points")).click()
    # dealt in again with the starting stack, one rebuy left
    expect(out.locator(".seat.you .stack")).to_have_text(re.compile(r"^\d+$"), timeout=20_000)
    expect(out.locator("[data-purchases]")).to_contain_text("1 rebuy left", timeout=20_000)

    outside_the_browser_loop(to_the_add_on, tournament.pk)
    for page in pages:  # the next snapshot (any action, or the next deal) offers it
        add_on = page.get_by_role("button", name="Add-on: 3000 chips for 50 points")
        deadline = time.monotonic() + SECONDS
        while not add_on.is_visible():
            assert time.monotonic() < deadline, "the add-on never came"
            for each in pages:
                if each.evaluate(CAN_ACT):
                    each.locator('[data-act="call"]').click()
                    break
            time.sleep(0.2)
        page.screenshot(
            path=SCREENSHOTS / f"felt-add-on-{'phone' if page is ann else 'laptop'}.png"
        )
        add_on.click()
        expect(add_on).to_be_hidden()

    # On the break after the add-on, the two left make an ICM deal (rule 28).
    outside_the_browser_loop(to_a_break_after_the_add_on, tournament.pk)
    deadline = time.monotonic() + SECONDS
    while not ann.locator("[data-deal-open]").is_visible():
        assert time.monotonic() < deadline, "the hand in play never ended"
        for page in pages:
            if page.evaluate(CAN_ACT):
                page.locator('[data-act="call"]').click()  # check or call it down
                break
        time.sleep(0.2)
    ann.get_by_role("button", name="Propose a deal").click()
    ann.get_by_role("button", name="Propose this deal").click()
    ben.get_by_role("button", name="Accept").click()
    for page in pages:
        expect(page.locator("[data-announce]")).to_contain_text("Deal accepted")
    ann.screenshot(path=SCREENSHOTS / "felt-rebuy-deal-phone.png")

    ben.goto(f"{server_url}/tournaments/{tournament.pk}/")
    expect(ben.locator("[data-status]")).to_have_text("Finished")
    expect(ben.locator("[data-deal]")).to_contain_text("ICM, ending the tournament")
    expect(ben.locator("[data-rebuys]")).to_contain_text("1 rebuy, 2 add-ons in all")
    # two buy-ins less their bounties, a rebuy and two add-ons
    expect(ben.locator("[data-pool]")).to_have_text("320 points")
    expect(ben.locator("[data-bounties]")).to_contain_text("Knockout: 40 points")
    ben.screenshot(path=SCREENSHOTS / "felt-rebuy-tournament-page-laptop.png", full_page=True)
    ann.goto(f"{server_url}/tournaments/{tournament.pk}/")
    expect(ann.locator("[data-players]")).to_contain_text("1 + add-on")
    ann.screenshot(path=SCREENSHOTS / "felt-rebuy-tournament-page-phone.png", full_page=True)
    ann.goto(f"{server_url}/tournaments/")
    ann.screenshot(path=SCREENSHOTS / "felt-rebuy-lobby-phone.png", full_page=True)
