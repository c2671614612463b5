from collections.abc import Collection
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower

from accounts.name_keys import name_key

NAME_TAKEN = "Another member already goes by that name."
EMAIL_UNIQUE = "accounts_user_email_unique_ci"  # the constraint's name, in its errors
EMAIL_TAKEN = "Another account already uses that email address."
# Told a member whose address another member kept (migration 0012_unique_emails).
EMAIL_CLEARED = (
    "Your email address was also another member's, who signed up with it first. "
    "Enter an address of your own on your profile, so that Felt can reach you."
)


class User(AbstractUser):
    """A club member. Log-in is by username; the display name is what others see."""

    display_name = models.CharField(
        max_length=40,
        blank=True,
        help_text="Shown to other players instead of your username.",
    )
    # A guest joined a friends' table by its link with a nickname only: no email, no
    # usable password, no points; it lives in one browser's session until it is made
    # a full account (accounts/guests.py, docs/accounts.md).
    is_guest = models.BooleanField(
        default=False,
        help_text="Made from a table's link with a nickname only; plays at friends' tables.",
    )
    # Each name's look-alike key (accounts/name_keys.py), worked out again whenever the
    # name changes (save). Empty: no display name, or one that looked like an earlier
    # member's before keys were kept (fill_name_keys), or a row bulk-created.
    username_key = models.TextField(blank=True, default="", editable=False, db_index=True)
    display_name_key = models.TextField(blank=True, default="", editable=False)
    # The address a link in the member's mail confirmed, and when (accounts/addresses.py).
    # Only a confirmed address gets password-reset mail; the email field changing by any
    # path (the admin included) leaves it unconfirmed, since the two then differ.
    confirmed_email = models.EmailField(blank=True, default="", editable=False)
    email_confirmed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Set by the migration that made addresses unique, on a later member whose address
    # an earlier one kept: they are asked for a new one until they give it.
    must_replace_email = models.BooleanField(default=False, editable=False)

    class Meta:
        constraints = [
            # accounts/names.py says why; the constraints close the race between two
            # members taking one name at once.
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~models.Q(display_name=""),
                name="accounts_user_display_name_unique_ci",
                violation_error_message=NAME_TAKEN,
            ),
            # One account per address, in any case; guests have none (docs/accounts.md).
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name=EMAIL_UNIQUE,
                violation_error_message=EMAIL_TAKEN,
            ),
            models.UniqueConstraint(
                fields=["display_name_key"],
                condition=~models.Q(display_name_key=""),
                name="accounts_user_display_name_key_unique",
                violation_error_message=NAME_TAKEN,
            ),
        ]

    # The names as their keys were last worked out (loaded or saved): a name changed
    # since gets its key again when it is saved.
    _keyed_names: tuple[str | None, str | None] = (None, None)

    @classmethod
    def from_db(
        cls, db: str | None, field_names: Collection[str], values: Collection[Any], **kwargs: Any
    ) -> "User":
        user: User = super().from_db(db, field_names, values, **kwargs)
        user._keyed_names = (user.__dict__.get("username"), user.__dict__.get("display_name"))
        return user

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Saved with the keys of the names saved, worked out again for a name that
        changed (a display name without a key keeps none until it changes)."""
        update_fields = kwargs.get("update_fields")
        saving = {"username", "display_name"} if update_fields is None else set(update_fields)
        username, display_name = self._keyed_names
        keys = []
        if "username" in saving and self.username != username:
            self.username_key, username = name_key(self.username), self.username
            keys.append("username_key")
        if "display_name" in saving and self.display_name != display_name:
            self.display_name_key = name_key(self.display_name) if self.display_name else ""
            display_name = self.display_name
            keys.append("display_name_key")
        if update_fields is not None and keys:
            kwargs["update_fields"] = [*update_fields, *keys]
        super().save(*args, **kwargs)
        self._keyed_names = (username, display_name)

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    @property
    def email_is_confirmed(self) -> bool:
        """True once a link sent to the current address was followed."""
        return bool(self.email) and self.confirmed_email.casefold() == self.email.casefold()


# --- Points ---------------------------------------------------------------------

SITE_SCOPE = "site"  # the site's points; a club's are "club:<id>" (tournaments.models.Club)
STARTING_POINTS = 10_000


class PointsAccount(models.Model):
    """A member's balance in one scope, kept equal to the sum of their ledger rows.

    Written only by ``accounts.points`` in the transaction that writes the
    ledger row; the constraint makes an overdraft impossible whatever the code does.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="points_accounts")
    scope = models.CharField(max_length=40, default=SITE_SCOPE)
    balance = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "scope"], name="accounts_points_one_per_scope"),
            models.CheckConstraint(
                condition=models.Q(balance__gte=0),
                name="accounts_points_balance_not_negative",
                violation_error_message="A points balance cannot go below zero.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.scope}: {self.balance}"


class PointsEntry(models.Model):
    """One movement of points, never changed or deleted (append-only).

    The user is kept as NULL if the member's account is deleted, so the ledger
    of a tournament still adds up.
    """

    class Reason(models.TextChoices):
        WELCOME = "welcome", "Welcome grant"
        BUY_IN = "buy_in", "Tournament buy-in"
        REFUND = "refund", "Buy-in refund"
        PRIZE = "prize", "Tournament prize"
        REBUY = "rebuy", "Tournament rebuy"
        ADD_ON = "add_on", "Tournament add-on"
        BOUNTY = "bounty", "Tournament bounty"
        GRANT = "grant", "Admin's grant"
        ADJUSTMENT = "adjustment", "Club admin's adjustment"

    user = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="points_entries"
    )
    scope = models.CharField(max_length=40, default=SITE_SCOPE)
    amount = models.BigIntegerField()
    balance_after = models.BigIntegerField()
    reason = models.CharField(max_length=12, choices=Reason.choices)
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="points_entries",
    )
    # Why a club admin moved the points, and who did (clubs settle up away from Felt).
    note = models.CharField(max_length=200, blank=True)
    actor = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "points entries"
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(amount=0), name="accounts_points_entry_moves_something"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+} {self.get_reason_display()} ({self.user})"


class ApiToken(models.Model):
    """A personal API token: only its SHA-256 is stored; the key is shown once.

    The key is 256 random bits (accounts/tokens.py), so a fast hash is enough:
    nobody can guess one to test against a leaked hash.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=12)  # the key's first characters, to tell tokens apart
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user}"


class MemberSession(models.Model):
    """What a member's profile shows of one of their log-ins: the browser and address it
    was last seen with, and when (accounts/member_sessions.py).

    Django's session row stays the authority on whether the log-in stands; this row
    goes with it (log-out, a session ended from the profile), and the list leaves out
    sessions that expired or whose password hash is no longer the member's. The id
    is what the profile names a session by: the session key is the cookie itself.
    """

    session = models.OneToOneField(
        "sessions.Session", on_delete=models.CASCADE, related_name="member_session"
    )
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="member_sessions")
    user_agent = models.CharField(max_length=400, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    # Empty for the log-ins that were open before this list was kept (migration 0010).
    created_at = models.DateTimeField(null=True, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = [models.F("last_seen_at").desc(nulls_last=True), "-pk"]

    def __str__(self) -> str:
        return f"{self.user}'s session {self.pk}"


class DataExport(models.Model):
    """A member's copy of their data: asked for on the profile, built as a zip by a
    Celery task, downloaded once through a link that expires (accounts/data_export.py).

    The file lives under FELT_HOME, named by ``key``; the row says where it stands.
    """

    class Status(models.TextChoices):
        PREPARING = "preparing", "Preparing"
        READY = "ready", "Ready to download"
        TAKEN = "taken", "Downloaded"
        EXPIRED = "expired", "Expired"
        FAILED = "failed", "Failed"

    OPEN = (Status.PREPARING, Status.READY)

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="data_exports")
    key = models.CharField(max_length=64, unique=True)  # names the file and the link
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PREPARING)
    requested_at = models.DateTimeField(auto_now_add=True)
    ready_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        constraints = [
            # One export at a time: a second request while one is open is refused, and
            # two requests racing cannot both make one.
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status__in=["preparing", "ready"]),
                name="accounts_one_open_data_export",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}'s data ({self.get_status_display()})"
