"""A deal at the final table in Chromium: three members (one on a phone) at a
scheduled tournament's table between hands; one proposes an ICM deal from the
dock, the other two accept it, the tournament ends and its page shows the deal
and the prizes (docs/tournaments.md, "A deal at the final table")."""

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
from tournaments.models import Deal, Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = BROWSER_TEST

SECONDS = 90


def started_on_a_break(usernames: list[str]) -> Tournament:
    """Three members at one table; the clock put in a break, so once the first hand
    is over no other is dealt while the test looks at the deal."""
    from accounts.models import User

    tournament = services.schedule_tournament(
        settings=TournamentSettings(
            name="Deal Night",
            starts_at=timezone.now() + timedelta(minutes=5),
            buy_in=100,
            seats_per_table=6,
            payout_percentages=[50, 30, 20],
        )
    )
    for user in User.objects.filter(username__in=usernames):
        services.tournament_register(tournament_id=tournament.pk, user=user)
    services.mtt_start(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=6))
    Tournament.objects.filter(pk=tournament.pk).update(
        started_at=timezone.now() - timedelta(seconds=61),
        break_every_minutes=1,
        break_minutes=30,
    )
    return Tournament.objects.get(pk=tournament.pk)


def table_id_of(tournament_id: int) -> int:
    return Seat.objects.filter(table__tournament_id=tournament_id).first().table_id  # type: ignore[union-attr]


def deal_of(tournament_id: int) -> Deal:
    return Deal.objects.get(tournament_id=tournament_id)


def check_or_fold_until_a_deal_may_be_proposed(pages: list[Page]) -> None:
    deadline = time.monotonic() + SECONDS
    while not any(page.locator("[data-deal-open]").is_visible() for page in pages):
        assert time.monotonic() < deadline, "the first hand never ended"
        for page in pages:
            if page.evaluate(CAN_ACT):
                check = page.locator('[data-act="check"]')
                (check if check.is_visible() else page.locator('[data-act="fold"]')).click()
                break
        time.sleep(0.2)


def test_three_players_make_an_icm_deal_and_the_tournament_ends(
    server_url: str, browser: Browser, make_user: Any
) -> None:
    ann = sign_up(browser, server_url, "ann", PHONE)
    ben = sign_up(browser, server_url, "ben", DESKTOP)
    cy = sign_up(browser, server_url, "cy", DESKTOP)
    tournament = outside_the_browser_loop(started_on_a_break, ["ann", "ben", "cy"])
    table_id = outside_the_browser_loop(table_id_of, tournament.pk)
    pages = [ann, ben, cy]
    for page in pages:
        page.goto(f"{server_url}/tables/{table_id}/")
        expect(page.locator("[data-connection-status]")).to_have_text("Live")

    check_or_fold_until_a_deal_may_be_proposed(pages)
    panel = ann.locator("[data-deal]")
    expect(panel).to_contain_text("3 players left: you may propose a deal sharing the 300 points")
    ann.get_by_role("button", name="Propose a deal").click()
    expect(panel.locator("[data-deal-rows] tr")).to_have_count(3)
    expect(panel).to_contain_text("300 points are left to pay")
    panel.scroll_into_view_if_needed()
    ann.screenshot(path=SCREENSHOTS / "felt-deal-proposal-phone.png")
    ann.get_by_label("Custom", exact=True).check()  # an input per player, filled with ICM's
    expect(panel.get_by_label("Custom amount for ann")).to_be_visible()
    expect(panel.locator("[data-deal-sum]")).to_have_text("Your amounts add up to 300.")
    panel.get_by_label("Custom amount for ann").fill("150")
    expect(panel.locator("[data-deal-sum]")).to_have_text(
        "Your amounts add up to 350: they must add up to 300."
    )
    panel.scroll_into_view_if_needed()
    ann.screenshot(path=SCREENSHOTS / "felt-deal-custom-phone.png")
    ann.get_by_label("ICM", exact=True).check()
    expect(panel.get_by_label("Custom amount for ann")).to_be_hidden()
    ben.get_by_role("button", name="Propose a deal").click()  # the laptop's view of it
    ben.screenshot(path=SCREENSHOTS / "felt-deal-proposal-laptop.png")
    ben.get_by_role("button", name="Cancel").click()

    ann.get_by_role("button", name="Propose this deal").click()
    for page in pages:
        offer = page.locator("[data-deal]")
        expect(offer).to_contain_text("ann proposes an ICM deal")
        expect(offer).to_contain_text(re.compile(r"Answers within \d+ s"))
        expect(page.locator("[data-announce]")).to_contain_text(
            "Waiting for the players to answer a deal"
        )
    expect(ann.get_by_role("button", name="Accept")).to_be_hidden()  # proposing is accepting
    deal = outside_the_browser_loop(deal_of, tournament.pk)
    assert sum(deal.amounts.values()) == 300
    ben.locator("[data-deal]").scroll_into_view_if_needed()
    ben.screenshot(path=SCREENSHOTS / "felt-deal-offer-laptop.png")
    ann.screenshot(path=SCREENSHOTS / "felt-deal-offer-phone.png")

    ben.get_by_role("button", name="Accept").click()
    expect(cy.locator("[data-deal-rows]")).to_contain_text("Accepted")
    expect(ben.get_by_role("button", name="Accept")).to_be_hidden()
    cy.get_by_role("button", name="Accept").click()

    for page in pages:
        expect(page.locator("[data-announce]")).to_contain_text("Deal accepted")
        expect(page.locator("[data-deal]")).to_contain_text("The deal was accepted")
    ann.screenshot(path=SCREENSHOTS / "felt-deal-accepted-phone.png")
    deal = outside_the_browser_loop(deal_of, tournament.pk)
    assert deal.status == "accepted"

    ben.goto(f"{server_url}/tournaments/{tournament.pk}/")
    expect(ben.locator("[data-deal]")).to_contain_text("ICM, ending the tournament")
    for amount in deal.amounts.values():
        expect(ben.locator("[data-deal]")).to_contain_text(str(amount))
    expect(ben.locator("[data-players]")).to_contain_text(str(max(deal.amounts.values())))
    ben.screenshot(path=SCREENSHOTS / "felt-deal-tournament-page-laptop.png", full_page=True)
    ann.goto(f"{server_url}/tournaments/{tournament.pk}/")
    expect(ann.locator("[data-deal]")).to_be_visible()
    ann.screenshot(path=SCREENSHOTS / "felt-deal-tournament-page-phone.png", full_page=True)
