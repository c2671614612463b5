"""Every page names Felt's icon, and the icon (and /favicon.ico) is there to fetch."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

from tables.models import Table


@pytest.mark.django_db
def test_every_page_links_the_icon_and_the_icon_loads(client, make_user):
    user = make_user()
    table = Table.objects.create(name="Friday", owner=user)
    pages = [reverse("lobby")]
    client.force_login(user)
    pages += [
        reverse("tournaments:tournament_list"),
        reverse("tables:hand_history_list"),
        reverse("tables:table_detail", kwargs={"table_id": table.pk}),
        reverse("tables:table_new"),
    ]
    for url in pages:
        page = client.get(url).content.decode()
        icon = re.search(r'<link rel="icon" type="image/svg\+xml" href="([^"]+)">', page)
        assert icon, url
        assert icon.group(1) == f"{settings.STATIC_URL}favicon.svg", url
    found = finders.find("favicon.svg")  # what collectstatic gathers and the server serves
    assert found and "<svg" in Path(found).read_text()


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == f"{settings.STATIC_URL}favicon.svg"
