"""A tournament's page and the lobby say only what is true in each state: before
the start, while it runs (a deal waiting included), once finished (what each
player was actually paid, and how) and once cancelled; places read as ordinals."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.db.models import Sum

from accounts.models import PointsEntry
from tables.models import Seat
from tests.support.tournaments import registered, scheduled
from tests.tournaments.helpers import members, play_to_the_end, register, sng, table_of
from tests.tournaments.test_bounties import knockout_tournament
from tests.tournaments.test_bounties import play_to_the_end as shove_to_the_end
from tests.tournaments.test_deals import answer, final_table, finish_the_hand, propose, seats
from tournaments import services
from tournaments.models import Deal, Tournament

pytestmark = pytest.mark.django_db

LOBBY = "/tournaments/"


def page_of(client: Any, tournament: Tournament) -> str:
    return client.get(f"/tournaments/{tournament.pk}/").content.decode()


def text_of(page: str, attribute: str) -> str:
    """The words of the first element carrying ``attribute``, as a reader sees them."""
    found = re.search(rf"<(\w+)[^>]*\b{attribute}\b[^>]*>(.*?)</\1>", page, re.S)
    assert found is not None, f"no {attribute} on the page"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found[2])).split())


ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "6th"}


def player_rows(page: str) -> dict[str, list[str]]:
    """The players table: each row's cells by the player's name."""
    body = re.search(r"<tbody data-players>(.*?)</tbody>", page, re.S)
    assert body is not None
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", body[1], re.S):
        cells = [
            " ".join(re.sub(r"<[^>]+>", "", c).split())
            for c in re.findall(r"<td>(.*?)</td>", row, re.S)
        ]
        rows[cells[0]] = cells
    return rows


def headings(page: str) -> list[str]:
    return re.findall(r'<th data-column="\w+">([^<]*)</th>', page)


def ledger_paid(tournament: Tournament, user: Any) -> int:
    """Prize and bounty points the ledger paid ``user`` from ``tournament``."""
    rows = PointsEntry.objects.filter(
        tournament=tournament,
        user=user,
        reason__in=[PointsEntry.Reason.PRIZE, PointsEntry.Reason.BOUNTY],
    )
    return int(rows.aggregate(total=Sum("amount"))["total"] or 0)


def an_icm_deal_ends(make_user: Any) -> Tournament:
    """Three players left of a 300-point pool (planned 150/90/60) agree an ICM deal
    on unequal stacks, which ends the tournament."""
    tournament = final_table(make_user, 3)
    at = seats(tournament)
    for seat, chips in zip(at, (2500, 1200, 800), strict=True):
        Seat.objects.filter(pk=seat.pk).update(stack=chips)
    propose(at[1])
    for seat in (at[0], at[2]):
        answer(seat)
    return Tournament.objects.get(pk=tournament.pk)


def test_a_finished_tournament_shows_what_a_deal_paid_each_player_and_how(client, make_user):
    tournament = an_icm_deal_ends(make_user)
    deal = Deal.objects.get(tournament=tournament)
    entries = list(tournament.entries.select_related("user").order_by("place"))
    client.force_login(entries[0].user)

    page = page_of(client, tournament)

    paid = text_of(page, "data-payouts")
    expected = " · ".join(
        f"{('1st', '2nd', '3rd')[e.place - 1]} {e.name} {deal.amount_of(e.pk)}" for e in entries
    )
    assert paid == f"{expected}, by an ICM deal", "the deal's amounts, not the planned 150/90/60"
    assert "150" not in paid
    rows = player_rows(page)
    assert headings(page) == ["Player", "Place", "Prize", "Deal", "Paid in all"]
    for entry in entries:
        name, place, prize, dealt, total = rows[entry.name]
        assert (place, prize, dealt) == (("1st", "2nd", "3rd")[entry.place - 1], "", dealt)
        assert int(dealt) == deal.amount_of(entry.pk)
        assert int(total) == ledger_paid(tournament, entry.user), "the ledger's own figure"
    winner = entries[0]
    assert text_of(page, "data-your-result") == (
        f"You finished 1st of 3 and were paid {winner.prize} points: {winner.prize} from the deal."
    )
    assert "You finished 1," not in page


def test_a_knockout_winner_is_shown_paid_their_own_bounty_too(client, make_user):
    tournament = shove_to_the_end(knockout_tournament(make_user))
    winner = tournament.entries.select_related("user").get(place=1)
    client.force_login(winner.user)

    page = page_of(client, tournament)

    rows = player_rows(page)
    assert headings(page) == ["Player", "Bounties won", "Place", "Prize", "Paid in all"]
    for entry in tournament.entries.select_related("user"):
        _, bounties, place, prize, total = rows[entry.name]
        assert int(total or 0) == ledger_paid(tournament, entry.user)
        assert int(bounties or 0) + int(prize or 0) == int(total or 0)
    own_bounty_and_knockouts = ledger_paid(tournament, winner.user) - winner.prize
    assert rows[winner.name][1] == str(own_bounty_and_knockouts)
    assert text_of(page, "data-your-result") == (
        f"You finished 1st of 4 and were paid {winner.prize + own_bounty_and_knockouts} "
        f"points: {winner.prize} for the place, {own_bounty_and_knockouts} in bounties."
    )


def test_places_read_as_ordinals_on_the_page_and_in_the_lobby(client, make_user):
    players = members(make_user, 6)
    tournament = register(sng(buy_in=100), players)
    finish_the_hand(table_of(tournament))
    # Unequal stacks (the same chips in all): players out in one hand get places of their own.
    for seat, change in zip(
        Seat.objects.filter(table__tournament=tournament), range(-250, 300, 100), strict=True
    ):
        Seat.objects.filter(pk=seat.pk).update(stack=seat.stack + change)
    tournament = play_to_the_end(tournament)
    second = tournament.entries.select_related("user").get(place=2)
    winner = tournament.entries.get(place=1)
    client.force_login(second.user)

    page = page_of(client, tournament)
    lobby = client.get(LOBBY).content.decode()

    assert text_of(page, "data-your-result") == "You finished 2nd of 6 and were paid 210 points."
    rows = player_rows(page)
    # Two players out in one hand with equal stacks share a place (the stacks made
    # unequal above can meet again in play): the page reads each entry's own.
    places = tournament.entries.values_list("place", flat=True)
    assert sorted(row[1] for row in rows.values()) == sorted(ORDINALS[place] for place in places)
    assert {row[1] for row in rows.values()} >= {"1st", "2nd"}
    assert text_of(page, "data-payouts") == f"1st {winner.name} 390 · 2nd {second.name} 210"
    assert f"1st {winner.name} (390), 2nd {second.name} (210)" in lobby


def test_an_empty_sit_n_go_shows_what_a_full_table_pays_and_a_freeroll_no_prizes(client, make_user):
    paying = sng(structure="hyper", buy_in=100)
    freeroll = sng(structure="turbo", buy_in=0)
    client.force_login(make_user("alice"))

    lobby = client.get(LOBBY).content.decode()

    assert "0 / 0" not in lobby
    row = re.search(rf'data-tournament-id="{paying.pk}".*?</tr>', lobby, re.S)
    assert row is not None and "<td data-payouts>390 / 210</td>" in row[0]
    row = re.search(rf'data-tournament-id="{freeroll.pk}".*?</tr>', lobby, re.S)
    assert row is not None and "<td data-payouts>—</td>" in row[0]
    assert text_of(page_of(client, paying), "data-payouts") == "1st 390 · 2nd 210"
    assert text_of(page_of(client, freeroll), "data-payouts") == "None: a freeroll"


def test_before_the_start_the_page_shows_no_chips_places_or_clock(client, make_user):
    alice = make_user("alice")
    tournament = registered(scheduled(buy_in=100, seats_per_table=6), [alice])
    client.force_login(alice)

    page = page_of(client, tournament)

    assert headings(page) == ["Player"]
    assert "The tables are drawn when the tournament starts." in page
    assert "Next level" not in page and "data-your-result" not in page
    assert text_of(page, "data-payouts") == "1st 100"


def test_a_finished_multi_table_tournament_says_nothing_of_drawing_tables_or_levels_to_come(
    client, make_user
):
    tournament = an_icm_deal_ends(make_user)
    client.force_login(tournament.entries.first().user)  # type: ignore[union-attr]

    page = page_of(client, tournament)

    assert "The tables are drawn when the tournament starts." not in page
    assert "Next level" not in page and "Chips" not in headings(page)
    assert "Last level" in page and "See the final table" in page
    assert "Watch the table" not in page and "so far" not in page
    assert text_of(page, "data-count") == "3"


def test_a_running_page_says_when_play_waits_for_a_deal(client, make_user):
    tournament = final_table(make_user, 3)
    at = seats(tournament)
    client.force_login(at[0].user)
    waiting = re.compile(r"<dd data-deal-pending( hidden)?>")

    before = waiting.search(page_of(client, tournament))
    propose(at[0])
    during = waiting.search(page_of(client, tournament))

    assert before is not None and before[1] == " hidden"
    assert during is not None and during[1] is None, "the line shows while answers are due"


def test_a_cancelled_tournament_says_what_went_back_not_what_it_would_have_paid(client, make_user):
    players = members(make_user, 6)
    tournament = register(sng(buy_in=100), players)
    services.tournament_cancel(tournament_id=tournament.pk)
    client.force_login(players[0])

    page = page_of(client, Tournament.objects.get(pk=tournament.pk))

    assert text_of(page, "data-refunded") == (
        "600 points went back to the players when it was cancelled"
    )
    assert "data-payouts" not in page and "Prize pool" not in page
    assert "Watch the table" not in page and "Take your seat" not in page
