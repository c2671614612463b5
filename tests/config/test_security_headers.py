"""Every page tells the browser to run only Felt's own scripts and styles."""

from __future__ import annotations

import pytest
from django.urls import reverse


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/healthz", "/admin/login/", "/api/me/"])
def test_every_response_carries_a_strict_content_security_policy(client, url):
    response = client.get(url)
    policy = dict(
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'" and "unsafe" not in response["Content-Security-Policy"]
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"
    assert "camera=()" in response["Permissions-Policy"]
    assert "microphone=()" in response["Permissions-Policy"]


@pytest.mark.django_db
def test_the_pages_themselves_hold_no_inline_script_or_style(client, make_user):
    client.force_login(make_user())
    for url in ["/", reverse("accounts:profile"), reverse("tables:table_new")]:
        page = client.get(url).content.decode()
        assert "<script>" not in page and "style=" not in page, url
