"""schemathesis, an outside tool, drives every operation of the live schema and finds
no server error and no answer the schema does not describe (status, body, content
type), as a member with a hand, a club and tournaments. In-process through Felt's WSGI
application, each operation inside a database test: nothing it writes outlives it.

Bounded: 25 generated requests per operation (valid and invalid ones), one process,
a fixed seed. schemathesis' coverage phase (boundary values of every field) is off:
it sends some 2,000 more requests, about half a minute.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.utils import timezone
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from tests.config.api_data import Member, member_with_data, wsgi_app_in_test

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]
EXAMPLES_PER_OPERATION = 25
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
)
CONFIG = SchemathesisConfig.from_dict(
    {
        "seed": 22,
        "generation": {
            "max-examples": EXAMPLES_PER_OPERATION,
            "deterministic": True,
            "database": "none",
        },
        "phases": {"coverage": {"enabled": False}},
        "checks": {"enabled": False, **{name: {"enabled": True} for name in CHECKS}},
    }
)
# The schema as the server serves it (read once, when the tests are collected).
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", WSGIHandler(), config=CONFIG)


@pytest.fixture
def member(make_user: Any) -> Iterator[Member]:
    found = member_with_data(make_user)
    for _app in wsgi_app_in_test():
        yield found


@schema.parametrize()
# The member's data is made once per operation, not per example: on purpose.
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_operation_answers_as_its_schema_says(case: Any, member: Member) -> None:
    aim_at_the_members_data(case, member)
    case.call_and_validate(headers={"Authorization": f"Bearer {member.token}"})


def aim_at_the_members_data(case: Any, member: Member) -> None:
    """Path ids the member's own (random ones are only 404s); in a valid body, the
    values no schema can state: a start still to come, a member of the club."""
    ids: dict[str, Any] = {"hand_id": member.hand_id, "username": member.username}
    ids |= {"slug": member.club_slug, "tournament_id": member.open_tournament_id}
    ids["series_id"] = member.series_id
    if case.operation.definition.raw.get("operationId") == "tournaments_retrieve":
        ids["tournament_id"] = member.running_tournament_id
    for name in case.path_parameters or {}:
        case.path_parameters[name] = ids[name]
    is_valid = case.meta is not None and case.meta.generation.mode == GenerationMode.POSITIVE
    if is_valid and isinstance(case.body, dict):
        if "starts_at" in case.body:
            case.body["starts_at"] = (timezone.now() + timedelta(days=1)).isoformat()
        if "amount" in case.body:
            case.body["username"] = member.club_member
