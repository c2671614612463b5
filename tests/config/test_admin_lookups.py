"""The admin gives no secret away: no page shows one, no change list's query string
can probe one (config/platform/admin_lookups.py), and staff mint and read no DRF tokens."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Group
from django.urls import reverse

from accounts.tokens import token_create
from tournaments.clubs.services import club_create
from tournaments.services import sng_open

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, make_user):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def held(make_user) -> SimpleNamespace:
    """A member with a personal API token who owns a club: every kind of secret."""
    owner = make_user("olive")
    club = club_create(user=owner, name="Thursday club")
    token, key = token_create(user=owner, name="script")
    return SimpleNamespace(owner=owner, club=club, token=token, key=key)


def other_first_character(secret: str) -> str:
    return next(c for c in "abcdef0123456789" if not secret.startswith(c))


def secret_named(held: SimpleNamespace, name: str) -> str:
    return {
        "password hash": held.owner.password,
        "token hash": held.token.key_hash,
        "invitation": held.club.invite_token,
        "gone": "a",  # DRF's token key: no such field any more
    }[name]


USERS = "admin:accounts_user_changelist"
TOKENS = "admin:accounts_apitoken_changelist"
CLUBS = "admin:tournaments_club_changelist"
TOURNAMENTS = "admin:tournaments_tournament_changelist"


@pytest.mark.parametrize(
    ("page", "lookup", "secret"),
    [
        (USERS, "auth_token__key__startswith", "gone"),
        (USERS, "password__startswith", "password hash"),
        (USERS, "api_tokens__key_hash__startswith", "token hash"),
        (TOKENS, "key_hash__startswith", "token hash"),
        (TOKENS, "user__password__startswith", "password hash"),
        (CLUBS, "invite_token__startswith", "invitation"),
        (CLUBS, "invite_token__regex", "invitation"),
        (TOURNAMENTS, "club__invite_token__regex", "invitation"),
    ],
)
def test_a_change_list_lookup_cannot_probe_a_secret(staff_client, held, page, lookup, secret):
    value = secret_named(held, secret)
    right, wrong = value[:1], other_first_character(value)
    if lookup.endswith("__regex"):
        right, wrong = f"^{right}", f"^{wrong}"
    answers = {guess: staff_client.get(reverse(page), {lookup: guess}) for guess in (right, wrong)}
    # Refused whatever the value, so a right guess and a wrong one read the same.
    assert {guess: answer.status_code for guess, answer in answers.items()} == {
        right: 400,
        wrong: 400,
    }


def test_a_refused_lookup_is_a_quiet_400_with_one_log_line(staff_client, held, caplog):
    with caplog.at_level(logging.INFO):
        answer = staff_client.get(reverse(CLUBS), {"invite_token__regex": "^a"})

    assert answer.status_code == 400
    logged = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert [record.exc_info for record in logged] == [None], "one line, no traceback"
    line = logged[0].getMessage()
    assert "invite_token__regex" in line and "/admin/tournaments/club/" in line
    assert "^a" not in line, "the value guessed is not written down"


def test_the_members_sidebar_filters_and_search_still_work(staff_client, held, make_user):
    make_user("paul")
    group = Group.objects.create(name="Dealers")
    held.owner.groups.add(group)
    changelist = reverse("admin:accounts_user_changelist")

    def listed(**query: Any) -> set[str]:
        page = staff_client.get(changelist, query)
        assert page.status_code == 200
        return {user.username for user in page.context["cl"].result_list}

    assert listed(is_staff__exact="1") == {"root"}
    assert listed(is_superuser__exact="0", is_active__exact="1") == {"olive", "paul"}
    assert listed(groups__id__exact=str(group.pk)) == {"olive"}
    assert listed(q="pau") == {"paul"}


def test_the_tournaments_sidebar_filters_still_work(staff_client):
    turbo = sng_open(structure="turbo", buy_in=100)
    sng_open(structure="hyper", buy_in=100)
    page = staff_client.get(
        reverse("admin:tournaments_tournament_changelist"),
        {"status__exact": "registering", "kind__exact": "sng", "structure__exact": "turbo"},
    )
    assert page.status_code == 200
    assert list(page.context["cl"].result_list) == [turbo]


def test_clubs_and_tokens_are_still_searched(staff_client, held):
    clubs = staff_client.get(reverse("admin:tournaments_club_changelist"), {"q": "thursday"})
    tokens = staff_client.get(reverse("admin:accounts_apitoken_changelist"), {"q": "olive"})
    assert list(clubs.context["cl"].result_list) == [held.club]
    assert list(tokens.context["cl"].result_list) == [held.token]


def test_staff_can_neither_mint_nor_read_drf_tokens(staff_client):
    assert not apps.is_installed("rest_framework.authtoken")
    assert staff_client.get("/admin/authtoken/tokenproxy/").status_code == 404
    assert staff_client.get("/admin/authtoken/tokenproxy/add/").status_code == 404


def test_no_admin_page_shows_a_token_key_a_hash_or_an_invitation(staff_client, held):
    secrets = {
        "the token's key": held.key,
        "the token's hash": held.token.key_hash,
        "the invitation token": held.club.invite_token,
        "the password hash": held.owner.password,
    }
    pages = 0
    for model in admin.site._registry:
        info = (model._meta.app_label, model._meta.model_name)
        urls = [reverse("admin:{}_{}_changelist".format(*info))]
        urls += [
            reverse("admin:{}_{}_change".format(*info), args=[obj.pk])
            for obj in model._default_manager.all()[:5]
        ]
        for url in urls:
            html = staff_client.get(url).content.decode()
            shown = [name for name, secret in secrets.items() if secret in html]
            assert not shown, f"{url} shows {shown}"
            pages += 1
    assert pages > len(admin.site._registry), "change pages were read, not only lists"
