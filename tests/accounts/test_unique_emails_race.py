"""Two sign-ups with one address at the same moment, on two connections: both forms
pass their check, the database's constraint lets one in and the other is told the
address is taken (never an error page, never two accounts)."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connections

from accounts.forms import SignUpForm
from accounts.members import member_sign_up
from accounts.models import PointsAccount, User
from tests.support import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

TAKEN = "Another account already uses that email address."


def test_two_sign_ups_with_one_address_at_once_make_one_account() -> None:
    both_checked = threading.Barrier(2, timeout=30)
    made: list[str] = []
    refused: list[dict[str, list[str]]] = []

    def sign_up(username: str, email: str) -> None:
        try:
            data = {"username": username, "email": email}
            form = SignUpForm({**data, "password1": PASSWORD, "password2": PASSWORD})
            assert form.is_valid(), form.errors
            both_checked.wait()  # neither account exists yet: both forms passed
            try:
                made.append(member_sign_up(form).username)
            except ValidationError as error:
                refused.append(error.message_dict)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=sign_up, args=("bob", "bob@example.com")),
        threading.Thread(target=sign_up, args=("robert", "BOB@example.com")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert len(made) == 1 and refused == [{"email": [TAKEN]}]
    assert list(User.objects.values_list("username", flat=True)) == made
    assert PointsAccount.objects.count() == 1, "the refused sign-up left no points behind"
