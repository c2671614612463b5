"""Every REST API view answers a malformed or absurdly nested body with a 400, never a 500."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, reverse

from config.urls import api_patterns

NESTED = "[" * 100_000 + "]" * 100_000
WRITES = ("post", "put", "patch", "delete")


def api_views() -> list[URLPattern]:
    views = [pattern for pattern in api_patterns if isinstance(pattern, URLPattern)]
    assert views, "the API has views"
    return views


@pytest.mark.django_db
@pytest.mark.parametrize("pattern", api_views(), ids=lambda p: str(p.pattern))
@pytest.mark.parametrize("body", [NESTED, "{not json", '{"display_name": ' * 5000])
def test_a_bad_json_body_is_a_400_for_every_write_an_api_view_allows(
    client, make_user, pattern: URLPattern, body: str
) -> None:
    client.force_login(make_user(is_staff=True))  # past every view's permission, to the body
    kwargs = {name: 1 if name.endswith("_id") else "alice" for name in pattern.pattern.converters}
    url = reverse(f"api:{pattern.name}", kwargs=kwargs)
    view = pattern.callback.cls  # type: ignore[attr-defined]
    writes = [method for method in WRITES if hasattr(view, method)]  # what the view handles
    answers = {
        method: getattr(client, method)(url, body, content_type="application/json").status_code
        for method in writes
    }
    assert all(code == 400 for code in answers.values()), answers
