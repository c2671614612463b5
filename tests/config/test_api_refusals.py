"""What an integrator's client gets back when it asks for something wrong: a JSON
refusal with ``code`` and ``message`` and the documented status, never a 500 or an
HTML page."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.tokens import token_create

pytestmark = pytest.mark.django_db

TOO_BIG = "9223372036854775808"  # one past the largest 64-bit integer


@pytest.fixture
def signed_in(client: Client, make_user) -> Client:
    client.force_login(make_user("alice"))
    return client


@pytest.mark.parametrize(
    "url",
    [
        f"/api/hands/?table={TOO_BIG}",
        f"/api/hands/?tournament={TOO_BIG}",
        f"/api/hands/?min_pot={TOO_BIG}",
        f"/api/hands/export?format=phh&table={TOO_BIG}",
        f"/api/players/alice/stats/?tournament={TOO_BIG}",
    ],
)
def test_an_integer_filter_past_64_bits_is_a_bad_filter(signed_in: Client, url: str) -> None:
    response = signed_in.get(url)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_filter"


def test_the_history_pages_refuse_a_filter_past_64_bits_without_failing(signed_in: Client) -> None:
    assert signed_in.get(f"/hands/?table={TOO_BIG}").status_code == 200
    response = signed_in.get(f"/players/alice/?table={TOO_BIG}")
    assert response.status_code == 200  # the page, with the filter's error above the stats
    assert "table: Ensure this value is less than or equal to" in response.content.decode()


@pytest.mark.parametrize(
    "url",
    [
        f"/api/hands/{TOO_BIG}/",
        f"/api/hands/{TOO_BIG}/phh",
        f"/api/tournaments/{TOO_BIG}/",
        f"/tables/{TOO_BIG}/",
        f"/tournaments/{TOO_BIG}/",
        f"/hands/{TOO_BIG}/",
    ],
)
def test_an_id_past_64_bits_in_a_path_is_not_found(signed_in: Client, url: str) -> None:
    assert signed_in.get(url).status_code == 404


@pytest.mark.parametrize(
    "url", ["/api/hands/abc/", "/api/hands/1/phh/", "/api/hands/export/", "/api/nowhere"]
)
def test_an_unknown_api_address_is_a_json_404(signed_in: Client, url: str) -> None:
    response = signed_in.get(url)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("url", ["/api/clubs/", "/api/tournaments/1/register/"])
def test_an_empty_multipart_post_is_a_json_refusal(signed_in: Client, url: str) -> None:
    response = signed_in.post(url, b"", content_type="multipart/form-data; boundary=x")
    assert 400 <= response.status_code < 500
    assert response.json()["code"]


@pytest.mark.parametrize("authorization", [None, "Bearer felt_not-a-token", "Token abc"])
def test_missing_or_bad_credentials_are_a_401_that_says_how_to_send_them(
    client: Client, authorization: str | None
) -> None:
    headers = {"HTTP_AUTHORIZATION": authorization} if authorization else {}
    response = client.get("/api/hands/", **headers)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert response.json()["code"] in {"not_authenticated", "authentication_failed"}


def test_a_personal_token_still_works(client: Client, make_user) -> None:
    _, key = token_create(user=make_user("alice"), name="laptop")
    response = client.get("/api/hands/", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert response.status_code == 200


@pytest.mark.parametrize("size", ["0", "-5", "x", "500", "", "²", "1" * 5000])
def test_a_page_size_out_of_range_is_refused_not_changed(signed_in: Client, size: str) -> None:
    response = signed_in.get(f"/api/hands/?page_size={size}")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_filter" and body["parameters"] == ["page_size"]


def test_a_page_size_in_range_is_taken(signed_in: Client) -> None:
    assert signed_in.get("/api/hands/?page_size=200").status_code == 200


def test_a_bad_cursor_is_a_json_404(signed_in: Client) -> None:
    response = signed_in.get("/api/hands/?cursor=garbage")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_display_name_that_is_not_text_is_refused(signed_in: Client) -> None:
    response = signed_in.patch("/api/me/", {"display_name": 0}, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_a_body_the_parsers_cannot_read_is_a_415_the_schema_documents(signed_in: Client) -> None:
    from drf_spectacular.generators import SchemaGenerator

    response = signed_in.post("/api/clubs/", "a,b", content_type="text/csv")
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
    schema = SchemaGenerator().get_schema(request=None, public=True)
    writes = [
        op for item in schema["paths"].values() for op in item.values() if "requestBody" in op
    ]
    assert writes and all("415" in op["responses"] for op in writes)
