"""Clubs and their members: who may schedule, register and see a club's tournaments."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Club(models.Model):
    """A club: its members play its tournaments, paid in its own points (``scope``).

    Written only by ``tournaments.clubs.services``, which locks this row first.
    """

    name = models.CharField(max_length=60)
    slug = models.SlugField(max_length=70, unique=True)
    description = models.CharField(max_length=280, blank=True)
    # The secret of the invitation link; an admin's reset makes old links useless.
    invite_token = models.CharField(max_length=64, unique=True)
    # Who made the current link (the creator, then whoever reset it): the invitation
    # page names them. Empty once their account is gone, and the page names the owner.
    invite_made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # Club points each new member is given when they join (once per member), so they
    # can register without waiting for an admin's grant; 0 gives none.
    joining_points = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def scope(self) -> str:
        """The points scope of the club's balances, buy-ins and prizes."""
        return f"club:{self.pk}"


class Membership(models.Model):
    """A member's place in a club: asking to join, a member (with a role), or banned."""

    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        ADMIN = "admin", "Admin"
        MEMBER = "member", "Member"

    class Status(models.TextChoices):
        PENDING = "pending", "Asked to join"
        ACTIVE = "active", "Member"
        BANNED = "banned", "Banned"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="tournaments_one_membership"),
            models.UniqueConstraint(
                fields=["club"], condition=Q(role="owner"), name="tournaments_one_club_owner"
            ),
            # Only a member holds a role above member; the owner is never pending or banned.
            models.CheckConstraint(
                condition=Q(role="member") | Q(status="active"),
                name="tournaments_roles_are_members",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role}, {self.status})"

    @property
    def is_admin(self) -> bool:
        """Owners and admins run the club (members, points, tournaments)."""
        return self.status == self.Status.ACTIVE and self.role != self.Role.MEMBER
