"""A club's welcome: the points given on joining, a grant to every member at once, the
schedule page's count of who can afford the buy-in, the invitation page a signed-out
person sees, and the new API token and invitation link shown whole with a Copy button."""

from __future__ import annotations

import re

import pytest
from django.db import IntegrityError

from accounts.models import PointsEntry
from accounts.points import points_balance
from tests.support import PASSWORD
from tests.support.tournaments import api_for
from tournaments.clubs import services as club_services
from tournaments.clubs.errors import AdminsOnly, BadClubRequest
from tournaments.models import Club, Membership

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_user) -> Club:
    owner = make_user("owner", display_name="Olive")
    return club_services.club_create(user=owner, name="Thursday Crew", description="Home game")


def owner_of(club: Club):
    return club.memberships.get(role="owner").user


def join(club: Club, user) -> None:
    club.refresh_from_db()
    club_services.club_join(slug=club.slug, user=user, token=club.invite_token)


def club_ledger_total(club: Club) -> int:
    return sum(PointsEntry.objects.filter(scope=club.scope).values_list("amount", flat=True))


# --- points given on joining ----------------------------------------------------------


def test_a_member_joining_by_the_link_is_given_the_clubs_joining_points(club, make_user):
    early = make_user("early")
    join(club, early)  # before the setting: nothing, then or later
    club_services.club_joining_points_set(slug=club.slug, admin=owner_of(club), amount=500)
    bob = make_user("bob")

    join(club, bob)

    assert points_balance(user=bob, scope=club.scope) == 500
    assert points_balance(user=early, scope=club.scope) == 0
    row = PointsEntry.objects.get(user=bob, scope=club.scope)
    assert (row.amount, row.reason, row.balance_after) == (500, "welcome", 500)
    assert row.note == "Given on joining the club"
    assert club_ledger_total(club) == 500


def test_an_approved_request_to_join_is_given_them_too(club, make_user):
    club_services.club_joining_points_set(slug=club.slug, admin=owner_of(club), amount=300)
    carol = make_user("carol")
    club_services.club_ask(slug=club.slug, user=carol)
    assert points_balance(user=carol, scope=club.scope) == 0  # asking is not joining

    club_services.club_answer(
        slug=club.slug, admin=owner_of(club), username="carol", is_approved=True
    )

    assert points_balance(user=carol, scope=club.scope) == 300


def test_leaving_and_joining_again_gives_no_second_helping(club, make_user):
    club_services.club_joining_points_set(slug=club.slug, admin=owner_of(club), amount=500)
    bob = make_user("bob")
    join(club, bob)
    club_services.club_leave(slug=club.slug, user=bob)

    join(club, bob)

    assert points_balance(user=bob, scope=club.scope) == 500
    assert PointsEntry.objects.filter(user=bob, scope=club.scope).count() == 1


def test_only_admins_set_the_joining_points_and_only_to_a_whole_number(club, make_user):
    bob = make_user("bob")
    join(club, bob)

    with pytest.raises(AdminsOnly):
        club_services.club_joining_points_set(slug=club.slug, admin=bob, amount=500)
    for amount in (-1, 1.5, "500", 10**9 + 1):
        with pytest.raises(BadClubRequest) as refused:
            club_services.club_joining_points_set(
                slug=club.slug, admin=owner_of(club), amount=amount
            )
        assert refused.value.code == "bad_amount"
    club.refresh_from_db()
    assert club.joining_points == 0


# --- a grant to every member ------------------------------------------------------------


def test_a_grant_gives_every_member_the_same_points_in_one_go(club, make_user):
    for name in ("bob", "carol", "dave"):
        join(club, make_user(name))
    owner = owner_of(club)

    given = club_services.club_points_grant_all(
        slug=club.slug, admin=owner, amount=250, reason="season start"
    )

    assert len(given) == 4  # the owner too
    for membership in club.memberships.all():
        assert points_balance(user=membership.user, scope=club.scope) == 250
    rows = PointsEntry.objects.filter(scope=club.scope)
    assert {(r.amount, r.reason, r.note, r.actor_id) for r in rows} == {
        (250, "adjustment", "season start", owner.pk)
    }
    assert club_ledger_total(club) == 1_000


def test_a_grant_leaves_out_who_only_asked_and_who_is_banned(club, make_user):
    join(club, make_user("bob"))
    club_services.club_ask(slug=club.slug, user=make_user("asker"))
    join(club, make_user("mallory"))
    club_services.club_remove(
        slug=club.slug, admin=owner_of(club), username="mallory", is_banned=True
    )

    given = club_services.club_points_grant_all(
        slug=club.slug, admin=owner_of(club), amount=100, reason="welcome back"
    )

    assert sorted(e.user.username for e in given) == ["bob", "owner"]


def test_a_grant_is_all_or_nothing(club, make_user, monkeypatch):
    """A failure half-way (here a ledger row the database refuses) leaves no member with
    points: one transaction."""
    for name in ("bob", "carol"):
        join(club, make_user(name))
    real_create = PointsEntry.objects.create
    made: list[int] = []

    def refuse_the_third(**fields):
        made.append(1)
        if len(made) == 3:
            raise IntegrityError("the third row is refused")
        return real_create(**fields)

    monkeypatch.setattr(PointsEntry.objects, "create", refuse_the_third)
    with pytest.raises(IntegrityError):
        club_services.club_points_grant_all(
            slug=club.slug, admin=owner_of(club), amount=100, reason="all or none"
        )

    assert not PointsEntry.objects.filter(scope=club.scope).exists()
    for membership in club.memberships.all():
        assert points_balance(user=membership.user, scope=club.scope) == 0


def test_a_grant_is_for_admins_and_positive_with_a_reason(club, make_user):
    bob = make_user("bob")
    join(club, bob)

    with pytest.raises(AdminsOnly):
        club_services.club_points_grant_all(slug=club.slug, admin=bob, amount=5, reason="me")
    for amount, reason, code in (
        (0, "x", "bad_amount"),
        (-5, "x", "bad_amount"),
        (5, " ", "bad_reason"),
    ):
        with pytest.raises(BadClubRequest) as refused:
            club_services.club_points_grant_all(
                slug=club.slug, admin=owner_of(club), amount=amount, reason=reason
            )
        assert refused.value.code == code
    assert not PointsEntry.objects.filter(scope=club.scope).exists()


# --- the club's page ----------------------------------------------------------------------


def test_the_admin_grants_every_member_and_sets_joining_points_from_the_club_page(
    client, club, make_user
):
    join(club, make_user("bob"))
    client.force_login(owner_of(club))

    page = client.get(f"/clubs/{club.slug}/").content.decode()
    granted = client.post(
        f"/clubs/{club.slug}/points/everyone/",
        {"grant-amount": "400", "grant-reason": "season start"},
        follow=True,
    ).content.decode()
    set_page = client.post(
        f"/clubs/{club.slug}/joining-points/", {"joining-amount": "150"}, follow=True
    ).content.decode()
    carol = make_user("carol")
    join(club, carol)

    assert "Give every member points" in page and "Points given on joining" in page
    assert "400 club points each for 2 members: season start" in granted
    assert "data-balance>400<" in granted.replace("</td>", "<")
    assert "New members are given 150 club points when they join." in set_page
    assert 'name="joining-amount" value="150"' in set_page
    assert points_balance(user=carol, scope=club.scope) == 150


def test_a_members_page_has_no_grant_or_joining_forms(client, club, make_user):
    bob = make_user("bob")
    join(club, bob)
    client.force_login(bob)

    page = client.get(f"/clubs/{club.slug}/").content.decode()
    refused = client.post(
        f"/clubs/{club.slug}/points/everyone/",
        {"grant-amount": "400", "grant-reason": "for me"},
        follow=True,
    ).content.decode()

    assert "data-grant-form" not in page and "data-joining-form" not in page
    assert "Only the club&#x27;s owner and admins can do that." in refused
    assert not PointsEntry.objects.filter(scope=club.scope).exists()


# --- the schedule page --------------------------------------------------------------------


def test_the_schedule_page_says_how_many_members_can_afford_the_buy_in(client, club, make_user):
    owner = owner_of(club)
    for name in ("bob", "carol", "dave"):
        join(club, make_user(name))
    for name, amount in (("bob", 500), ("carol", 200)):
        club_services.club_points_adjust(
            slug=club.slug, admin=owner, username=name, amount=amount, reason="cash"
        )
    client.force_login(owner)

    freeroll = client.get(f"/clubs/{club.slug}/schedule/").content.decode()
    posted = client.post(
        f"/clubs/{club.slug}/schedule/",
        {"name": "", "buy_in": "200", "starts_at": "", "time_zone": "UTC"},
    ).content.decode()

    assert "A freeroll: every member can register (4 members)." in freeroll
    assert "2 of 4 members have the 200 club points this buy-in takes." in posted
    assert re.search(r'id="member-balances"[^>]*>\[0, 0, 200, 500\]<', posted)


def test_the_line_says_when_nobody_can_afford_it(client, club, make_user):
    join(club, make_user("bob"))
    client.force_login(owner_of(club))

    page = client.post(
        f"/clubs/{club.slug}/schedule/",
        {"name": "", "buy_in": "1000", "starts_at": "", "time_zone": "UTC"},
    ).content.decode()

    assert "0 of 2 members have the 1,000 club points this buy-in takes." in page
    assert f'href="/clubs/{club.slug}/#give-points"' in page


# --- the invitation page ------------------------------------------------------------------


def invitation(club: Club) -> str:
    club.refresh_from_db()
    return f"/clubs/{club.slug}/join/{club.invite_token}/"


def test_a_signed_out_visitor_sees_the_club_and_who_invited_them(client, club):
    club_services.club_joining_points_set(slug=club.slug, admin=owner_of(club), amount=500)
    link = invitation(club)

    response = client.get(link)
    page = response.content.decode()

    assert response.status_code == 200
    assert "Join Thursday Crew" in page and "Home game" in page
    assert re.search(r"<strong data-inviter>Olive</strong> invited you to join", page)
    assert "1 member" in page and "<strong data-joining-points>500</strong>" in page
    assert f'href="/accounts/signup/?next={link}"' in page
    assert f'href="/accounts/login/?next={link}"' in page
    assert "data-join>" not in page  # no Join button to press before signing in


def test_logging_in_from_the_invitation_page_comes_back_to_it(client, club, make_user):
    make_user("bob")
    link = invitation(club)
    log_in = re.search(r'href="([^"]+)" data-invite-login', client.get(link).content.decode())
    assert log_in is not None

    logged_in = client.post(log_in[1], {"username": "bob", "password": PASSWORD})

    assert logged_in.status_code == 302 and logged_in["Location"] == link


def test_a_signed_out_post_to_the_link_joins_nobody_and_the_page_still_offers_the_way_in(
    client, club
):
    link = invitation(club)

    response = client.post(link)
    page = client.get(link)

    assert response["Location"] == f"/accounts/login/?next={link}"
    assert club.memberships.count() == 1
    assert page.status_code == 200 and "data-invite-signup" in page.content.decode()


def test_the_page_names_the_admin_who_made_the_current_link(client, club, make_user):
    ada = make_user("ada", display_name="Ada")
    join(club, ada)
    club_services.club_set_role(slug=club.slug, owner=owner_of(club), username="ada", role="admin")
    club_services.club_reset_invitation(slug=club.slug, admin=ada)

    page = client.get(invitation(club)).content.decode()
    club_services.club_remove(slug=club.slug, admin=owner_of(club), username="ada")
    after = client.get(invitation(club)).content.decode()

    assert "<strong data-inviter>Ada</strong> invited you" in page
    assert "<strong data-inviter>Olive</strong> invited you" in after  # Ada left: the owner


def test_signing_up_from_the_invitation_comes_back_to_it_and_joins(client, club):
    club_services.club_joining_points_set(slug=club.slug, admin=owner_of(club), amount=500)
    link = invitation(club)

    signed_up = client.post(
        f"/accounts/signup/?next={link}",
        {
            "username": "newbie",
            "email": "newbie@example.com",
            "password1": "a long enough password 1",
            "password2": "a long enough password 1",
            "next": link,
        },
    )
    back = client.get(signed_up["Location"]).content.decode()
    joined = client.post(link)

    assert signed_up.status_code == 302 and signed_up["Location"] == link
    assert '<button type="submit" data-join>Join Thursday Crew</button>' in back
    assert joined["Location"] == f"/clubs/{club.slug}/"
    newbie = Membership.objects.get(club=club, user__username="newbie").user
    assert points_balance(user=newbie, scope=club.scope) == 500


def test_a_link_that_no_longer_works_says_so_and_names_nobody(client, club):
    old = invitation(club)
    club_services.club_reset_invitation(slug=club.slug, admin=owner_of(club))

    response = client.get(old)
    page = response.content.decode()

    assert response.status_code == 404
    assert "This invitation link no longer works" in page
    assert "Olive" not in page and "data-invite-signup" not in page


# --- one-time secrets and links, whole and with a Copy button -----------------------------


def test_the_invitation_link_is_labelled_whole_and_has_a_copy_button(client, club):
    client.force_login(owner_of(club))
    link = f"http://testserver{invitation(club)}"

    page = client.get(f"/clubs/{club.slug}/").content.decode()

    field = re.search(
        r'<label for="invite-url">([^<]+)</label>\s*<div class="copy-row">\s*'
        r'<textarea id="invite-url"[^>]*data-invite-url>([^<]+)</textarea>\s*'
        r'<button type="button" data-copy="invite-url" hidden>Copy</button>',
        page,
    )
    assert field is not None
    assert field[1].startswith("Send this link") and field[2] == link
    assert 'src="/static/js/copy.js"' in page


def test_a_new_api_token_is_labelled_whole_and_has_a_copy_button(client, make_user):
    client.force_login(make_user("alice"))

    page = client.post("/accounts/tokens/", {"name": "tracker"}).content.decode()

    field = re.search(
        r'<label for="new-token">Your new API token</label>\s*<div class="copy-row">\s*'
        r'<textarea id="new-token"[^>]*data-new-token>(felt_[^<]+)</textarea>\s*'
        r'<button type="button" data-copy="new-token" hidden>Copy</button>',
        page,
    )
    assert field is not None and len(field[1]) > 40
    assert 'src="/static/js/copy.js"' in page


# --- the API --------------------------------------------------------------------------------


def test_the_api_sets_joining_points_and_grants_every_member(club, make_user):
    join(club, make_user("bob"))
    api = api_for(owner_of(club))

    setting = api.post(
        f"/api/clubs/{club.slug}/joining-points/", {"joining_points": 75}, format="json"
    )
    granted = api.post(
        f"/api/clubs/{club.slug}/points/everyone/",
        {"amount": 20, "reason": "a round"},
        format="json",
    )
    refused = api_for(club.memberships.get(user__username="bob").user).post(
        f"/api/clubs/{club.slug}/points/everyone/", {"amount": 20, "reason": "me"}, format="json"
    )
    bad = api.post(
        f"/api/clubs/{club.slug}/points/everyone/", {"amount": 0, "reason": "x"}, format="json"
    )

    assert setting.status_code == 200 and setting.json()["joining_points"] == 75
    assert granted.status_code == 201
    assert {k: granted.json()[k] for k in ("amount", "members", "reason")} == {
        "amount": 20,
        "members": 2,
        "reason": "a round",
    }
    assert refused.status_code == 403 and refused.json()["code"] == "admins_only"
    assert bad.status_code == 400
    assert club_ledger_total(club) == 40


def test_the_schema_documents_the_new_endpoints(make_user):
    schema = api_for(make_user("reader")).get("/api/schema/?format=json").json()

    for path in ("/api/clubs/{slug}/joining-points/", "/api/clubs/{slug}/points/everyone/"):
        assert path in schema["paths"], path
