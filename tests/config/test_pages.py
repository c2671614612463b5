import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_the_lobby_invites_visitors_to_sign_up(client):
    page = client.get(reverse("lobby")).content
    assert b"Sign up" in page
    assert b"lobby.js" not in page, "the live panel needs a signed-in user"


@pytest.mark.django_db
def test_the_lobby_loads_the_live_panel_for_a_member(client, make_user):
    client.force_login(make_user())
    page = client.get(reverse("lobby")).content
    assert b'data-socket-path="/ws/lobby/"' in page
    assert b"js/lobby.js" in page


@pytest.mark.django_db
def test_every_page_has_the_navigation_and_no_outside_assets(client, make_user):
    client.force_login(make_user())
    for name in ["lobby", "tournaments:tournament_list", "tables:hand_history_list"]:
        page = client.get(reverse(name)).content.decode()
        for label in ["Lobby", "Tournaments", "Hand histories", "Profile", "Log out"]:
            assert f">{label}<" in page, (name, label)
        assert "https://" not in page and 'src="//' not in page, "no CDN: the server may be offline"
        assert 'name="viewport"' in page


@pytest.mark.django_db
def test_the_tournament_list_says_when_none_are_scheduled(client):
    assert (
        b"No tournaments are scheduled."
        in client.get(reverse("tournaments:tournament_list")).content
    )


@pytest.mark.django_db
def test_hand_histories_need_a_log_in_and_say_when_there_are_none(client, make_user):
    url = reverse("tables:hand_history_list")
    assert client.get(url).status_code == 302
    client.force_login(make_user())
    assert b"You have not played any hands yet." in client.get(url).content
