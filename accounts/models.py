from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower


class User(AbstractUser):
    """A club member. Log-in is by username; the display name is what others see."""

    display_name = models.CharField(
        max_length=40,
        blank=True,
        help_text="Shown to other players instead of your username.",
    )

    class Meta:
        constraints = [
            # accounts/names.py says why; the constraint closes the race between two
            # members taking one name at once.
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~models.Q(display_name=""),
                name="accounts_user_display_name_unique_ci",
                violation_error_message="Another member already goes by that name.",
            ),
        ]

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        return self.display_name or self.username


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
