"""The session store reads what Django's database store reads: a stored session's
data while it has not expired, and nothing (its key dropped) otherwise."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from config.adapters.session_store import SessionStore

pytestmark = pytest.mark.django_db


def saved_session(data: dict[str, object]) -> str:
    session = SessionStore()
    session.update(data)
    session.save()
    assert session.session_key is not None
    return session.session_key


def test_a_stored_session_loads_the_data_djangos_store_loads():
    key = saved_session({"_auth_user_id": "7", "note": "Zoë"})

    loaded = SessionStore(key).load()

    assert loaded == db.SessionStore(key).load() == {"_auth_user_id": "7", "note": "Zoë"}


def test_an_expired_session_loads_nothing_and_drops_its_key():
    key = saved_session({"_auth_user_id": "7"})
    Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    store = SessionStore(key)

    assert store.load() == {}
    assert store.session_key is None


@pytest.mark.parametrize("key", ["no-such-session-key-000000000000", None])
def test_an_unknown_or_missing_key_loads_nothing(key):
    store = SessionStore(key)

    assert store.load() == {}
    assert store.session_key is None


def test_a_signed_in_page_reads_its_session_through_this_store(client, django_user_model):
    member = django_user_model.objects.create_user(username="reader", password="pw-reader-1!")
    client.force_login(member)

    assert client.session.__class__ is SessionStore
    assert client.get("/").wsgi_request.user == member


def test_a_session_read_again_says_the_same_and_each_reader_gets_its_own_copy():
    key = saved_session({"_auth_user_id": "7", "admitted": [3, 5]})

    first = SessionStore(key).load()
    first["admitted"].append(9)  # a reader changing its copy in place
    again = SessionStore(key).load()

    assert again == db.SessionStore(key).load() == {"_auth_user_id": "7", "admitted": [3, 5]}


def test_a_text_already_read_is_not_decoded_again_and_a_changed_one_is(monkeypatch):
    key = saved_session({"_auth_user_id": "7", "note": "first"})
    decoded: list[str] = []
    decode = db.SessionStore.decode

    def counted(store: db.SessionStore, session_data: str) -> dict[str, object]:
        decoded.append(session_data)
        return decode(store, session_data)

    monkeypatch.setattr(db.SessionStore, "decode", counted)
    SessionStore(key).load()
    SessionStore(key).load()
    store = SessionStore(key)
    store["note"] = "second"
    store.save()

    assert SessionStore(key).load() == {"_auth_user_id": "7", "note": "second"}
    assert len(decoded) <= 2, "each text decoded at most once"


def test_a_session_signed_with_a_retired_key_reads_as_nothing(settings):
    key = saved_session({"_auth_user_id": "7"})
    assert SessionStore(key).load() == {"_auth_user_id": "7"}

    settings.SECRET_KEY = "a-new-secret-key-with-no-fallback-to-the-old-one"

    assert SessionStore(key).load() == {}
