"""The OpenAPI schema validates, documents every API view, and every path it lists answers."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import URLPattern
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from config.urls import api_patterns
from tests.tables.helpers import friends_table
from tests.tables.recorded import SHOWDOWN_WITH_MUCK, record_hand, recorded_state
from tournaments.clubs.services import club_create
from tournaments.errors import TournamentError
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]
NOT_IN_SCHEMA = {"schema", "docs"}


def test_the_schema_is_valid_openapi_3_and_names_every_api_view() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    documented = set(schema["paths"])
    views = [p for p in api_patterns if isinstance(p, URLPattern) and p.name not in NOT_IN_SCHEMA]
    for pattern in views:
        path = "/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(pattern.pattern))
        assert path in documented, path


def test_the_schema_generates_without_errors_or_warnings(tmp_path) -> None:
    # What a maintainer runs (docs/api.md); a view whose body it cannot guess is an error.
    call_command(
        "spectacular", "--file", str(tmp_path / "schema.yaml"), "--validate", "--fail-on-warn"
    )


def test_every_operation_has_a_unique_name_of_its_own() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    names = [op["operationId"] for item in schema["paths"].values() for op in item.values()]
    assert len(names) == len(set(names))
    assert not [name for name in names if re.search(r"_\d+$", name)]  # numbered: a clash
    assert {name for name in names if name.startswith(("tournaments_", "clubs_"))} == {
        *("tournaments_list", "tournaments_schedule", "tournaments_retrieve"),
        *("tournaments_register", "tournaments_unregister"),
        *("clubs_create", "clubs_retrieve", "clubs_join", "clubs_points_adjust"),
        *("clubs_points_grant_everyone", "clubs_joining_points_set"),
        *("clubs_tournaments_schedule", "clubs_series_stop"),
    }


def _untyped(schema: dict[str, Any], components: dict[str, Any], where: str) -> list[str]:
    """Where in ``schema`` a value has no type a generated client could use."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return _untyped(components[name], components, name)
    if "allOf" in schema:
        return [w for part in schema["allOf"] for w in _untyped(part, components, where)]
    if schema.get("type") == "array":
        return _untyped(schema["items"], components, f"{where}[]")
    if schema.get("type") == "object":
        if not schema.get("properties"):
            return [where]
        return [
            w
            for name, field in schema["properties"].items()
            for w in _untyped(field, components, f"{where}.{name}")
        ]
    return [] if "type" in schema or "enum" in schema else [where]


def test_tournament_club_and_stats_answers_type_every_field() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    answers = [
        (f"{method} {path} {status}", response["content"]["application/json"]["schema"])
        for path, item in schema["paths"].items()
        if path.startswith(("/api/tournaments/", "/api/clubs/", "/api/players/", "/api/me/"))
        for method, operation in item.items()
        for status, response in operation["responses"].items()
        if status.startswith("2")
    ]
    assert len(answers) == 18
    for where, body in answers:
        assert _untyped(body, components, where) == []


def _subclasses(cls: type) -> list[type]:
    return [cls] + [sub for child in cls.__subclasses__() for sub in _subclasses(child)]


def test_every_tournament_and_club_operation_documents_its_refusals() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = [
        (path, method, operation)
        for path, item in schema["paths"].items()
        if path.startswith(("/api/tournaments/", "/api/clubs/"))
        for method, operation in item.items()
    ]
    assert len(operations) == 13  # tournaments: list, schedule, one, (un)register; clubs: 8
    statuses = {str(error.status) for error in _subclasses(TournamentError)}
    assert statuses == {"400", "403", "404", "409"}  # what a refusal can answer
    for path, method, operation in operations:
        for status in statuses | {"401", "429"}:
            body = operation["responses"][status]["content"]["application/json"]["schema"]
            assert body == {"$ref": "#/components/schemas/Error"}, (path, method, status)


# The operations whose required query parameters no path states (the log holds the hand).
QUERIES = {
    "/api/fairness-log/proof/inclusion/": "?index=0",
    "/api/fairness-log/proof/consistency/": "?first=1",
}


def test_every_documented_path_answers_a_member(make_user) -> None:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    hand = record_hand(
        friends_table(alice, bob, carol, seat_count=3), recorded_state(SHOWDOWN_WITH_MUCK)
    )
    tournament = Tournament.objects.create()
    club = club_create(user=alice, name="Thursday Crew")
    api = APIClient()
    api.force_authenticate(alice)
    schema = api.get("/api/schema/?format=json").json()
    for path, operations in schema["paths"].items():
        url = path.replace("{hand_id}", str(hand.pk)).replace("{username}", "alice")
        url = url.replace("{tournament_id}", str(tournament.pk)).replace("{slug}", club.slug)
        query = QUERIES.get(path, "?format=phh" if path.endswith("/hands/export") else "")
        for method in operations:
            if method != "get":
                continue
            response = api.get(url + query)
            assert response.status_code == 200, (path, response.status_code)
            schema_errors = operations[method]["responses"]
            assert "200" in schema_errors


def test_the_docs_page_is_served_with_local_scripts_only(client, make_user) -> None:
    client.force_login(make_user())
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "cdn" not in page.lower()
    sources = re.findall(r'<script[^>]*src="([^"]+)"', page)
    assert sources and all(src.startswith("/static/") or src.startswith("/api/") for src in sources)
    assert "<script>" not in page and "<style>" not in page  # the CSP allows neither inline
    start_up = client.get(sources[-1])
    assert start_up.status_code == 200 and "SwaggerUIBundle" in start_up.content.decode()
