"""Personal API tokens: made on the profile page, shown once, stored hashed, revocable."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.tokens import MAX_TOKENS, hash_key

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]
PROFILE = reverse("accounts:profile")
CREATE = reverse("accounts:api_token_create")


def create_token(client, name="tracker") -> str:
    page = client.post(CREATE, {"name": name}).content.decode()
    return re.search(r"data-new-token>(felt_[^<]+)</textarea>", page).group(1)


def bearer(key: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return api


def test_a_new_token_is_shown_once_and_only_its_hash_is_kept(client, make_user):
    user = make_user()
    client.force_login(user)
    key = create_token(client)
    token = ApiToken.objects.get(user=user)
    assert token.key_hash == hash_key(key) and key not in token.key_hash
    assert token.name == "tracker" and key.startswith(token.prefix)
    again = client.get(PROFILE).content.decode()
    assert key not in again and token.prefix in again and "tracker" in again


def test_the_token_authenticates_api_calls_until_it_is_revoked(client, make_user):
    user = make_user()
    client.force_login(user)
    key = create_token(client)
    assert bearer(key).get("/api/me/").json()["username"] == "alice"
    token = ApiToken.objects.get(user=user)
    assert token.last_used_at is not None
    response = client.post(reverse("accounts:api_token_revoke", args=[token.pk]), follow=True)
    assert b"The token was revoked" in response.content
    refused = bearer(key).get("/api/hands/")
    assert refused.status_code in (401, 403)
    assert refused.json()["code"] == "authentication_failed"


def test_a_member_cannot_revoke_someone_elses_token(client, make_user):
    owner = make_user("bob")
    client.force_login(owner)
    create_token(client)
    token = ApiToken.objects.get(user=owner)
    client.force_login(make_user())
    response = client.post(reverse("accounts:api_token_revoke", args=[token.pk]))
    assert response.status_code == 404  # as for a token that never was
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_a_made_up_or_malformed_token_is_refused(make_user):
    make_user()
    for header in ("Bearer felt_madeup", "Bearer", "Bearer a b"):
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=header)
        response = api.get("/api/me/")
        assert response.status_code in (401, 403) and response.json()["code"], header


def test_tokens_need_a_name_and_are_limited_per_member(client, make_user):
    user = make_user()
    client.force_login(user)
    response = client.post(CREATE, {"name": "  "}, follow=True)
    assert b"Give the token a name" in response.content
    for number in range(MAX_TOKENS):
        create_token(client, f"t{number}")
    response = client.post(CREATE, {"name": "one more"}, follow=True)
    assert b"revoke one first" in response.content
    assert ApiToken.objects.filter(user=user).count() == MAX_TOKENS


def test_creating_or_revoking_needs_a_post_with_csrf(make_user):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user())
    assert client.get(CREATE).status_code == 405
    assert client.post(CREATE, {"name": "x"}).status_code == 403
    assert not ApiToken.objects.exists()


def test_staff_see_tokens_in_the_admin_without_their_hashes_and_may_revoke_them(client, make_user):
    owner = make_user("bob")
    client.force_login(owner)
    create_token(client, "bob's tracker")
    token = ApiToken.objects.get()
    client.force_login(make_user("sam", is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:accounts_apitoken_changelist")).content.decode()
    assert "bob&#x27;s tracker" in page and token.key_hash not in page
    detail = client.get(reverse("admin:accounts_apitoken_change", args=[token.pk]))
    assert token.key_hash not in detail.content.decode()
    assert client.get(reverse("admin:accounts_apitoken_add")).status_code == 403
    client.post(reverse("admin:accounts_apitoken_delete", args=[token.pk]), {"post": "yes"})
    assert not ApiToken.objects.exists()


def test_a_tokens_last_use_is_written_at_most_once_a_minute(client, make_user, time_machine):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from accounts.tokens import LAST_USED_EVERY

    time_machine.move_to(timezone.now(), tick=False)
    client.force_login(make_user())
    key = create_token(client)
    assert "never used" in client.get(PROFILE).content.decode()
    first = timezone.now()
    bearer(key).get("/api/me/")
    time_machine.shift(LAST_USED_EVERY - timedelta(seconds=1))
    with CaptureQueriesContext(connection) as queries:
        assert bearer(key).get("/api/me/").status_code == 200
    assert not [q for q in queries if q["sql"].startswith("UPDATE")], "no write this time"
    assert ApiToken.objects.get().last_used_at == first
    time_machine.shift(timedelta(seconds=1))
    bearer(key).get("/api/me/")
    assert ApiToken.objects.get().last_used_at == first + LAST_USED_EVERY
    page = client.get(PROFILE).content.decode()
    assert f'last used <time datetime="{(first + LAST_USED_EVERY).isoformat()}' in page


def test_revoking_all_of_a_members_tokens_leaves_others_tokens(client, make_user):
    from accounts.tokens import tokens_revoke_all

    alice = make_user()
    client.force_login(alice)
    keys = [create_token(client, "one"), create_token(client, "two")]
    client.force_login(make_user("bob"))
    bobs = create_token(client, "bob's")
    assert tokens_revoke_all(user=alice) == 2
    assert [bearer(key).get("/api/me/").status_code for key in keys] == [401, 401]
    assert bearer(bobs).get("/api/me/").status_code == 200
