"""The admin never shows a hand still being played, even to staff who play."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

import engine
from tables.models import Hand
from tests.tables.helpers import deal, friends_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, make_user):
    admin_user = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    return client


def every_hole_card(state: engine.HandState) -> list[str]:
    return [engine.card_str(c) for seat in state.players for c in state.hole_cards(seat)]


class PageText(HTMLParser):
    """The text a person reads on a page: no tags, no attributes (icons' SVG paths hold
    things like "2h" that are not cards)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def shows_card(html: str, card: str) -> bool:
    """The card as a token of its own in the page's text (quoted in JSON, or bare)."""
    reader = PageText()
    reader.feed(html)
    text = " ".join(reader.parts)
    return re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", text) is not None


def test_a_table_in_play_shows_no_card_in_the_admin(staff_client, make_user):
    table = friends_table(make_user("alice"), make_user("bob"))
    state = deal(table)
    page = staff_client.get(reverse("admin:tables_table_change", args=[table.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Friday game" in html
    assert not any(shows_card(html, card) for card in every_hole_card(state))


def test_an_unfinished_hand_shows_no_hole_cards_or_log_in_the_admin(staff_client, make_user):
    table = friends_table(make_user("alice"), make_user("bob"))
    state = deal(table)
    hand = Hand.objects.get(table=table)
    page = staff_client.get(reverse("admin:tables_hand_change", args=[hand.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert not any(shows_card(html, card) for card in every_hole_card(state))


def test_a_finished_hand_shows_its_players_and_history(staff_client, make_user):
    table = friends_table(make_user("alice"), make_user("bob"))
    state = deal(table)
    hand = Hand.objects.get(table=table)
    hand.ended_at = hand.started_at
    hand.save(update_fields=["ended_at"])
    html = staff_client.get(reverse("admin:tables_hand_change", args=[hand.pk])).content.decode()
    assert all(shows_card(html, card) for card in every_hole_card(state))


@pytest.mark.parametrize(
    ("admin_page", "lookup"),
    [
        ("admin:tables_table_changelist", "hand_events__icontains"),
        ("admin:tables_table_changelist", "hand_events__contains"),
        ("admin:tables_table_changelist", "seats__hand_players__hole_cards__icontains"),
        ("admin:tables_hand_changelist", "events__icontains"),
        ("admin:tables_hand_changelist", "events__regex"),
        ("admin:tables_hand_changelist", "phh__icontains"),
        ("admin:tables_hand_changelist", "players__hole_cards__icontains"),
    ],
)
def test_a_change_list_lookup_cannot_probe_a_live_hand_for_cards(
    staff_client, make_user, admin_page, lookup
):
    table = friends_table(make_user("alice"), make_user("bob"))
    state = deal(table)
    held = every_hole_card(state)
    not_held = next(engine.card_str(c) for c in range(52) if engine.card_str(c) not in held)
    url = reverse(admin_page)
    answers = {card: staff_client.get(url, {lookup: f'"{card}"'}) for card in (held[0], not_held)}
    # Refused whatever the value, so a held card and a card nobody holds read the same.
    assert {card: page.status_code for card, page in answers.items()} == {
        held[0]: 400,
        not_held: 400,
    }


def test_the_sidebar_filter_still_works(staff_client, make_user):
    friends_table(make_user("alice"), make_user("bob"))
    page = staff_client.get(reverse("admin:tables_table_changelist"), {"kind__exact": "friends"})
    assert page.status_code == 200
    assert "Friday game" in page.content.decode()
