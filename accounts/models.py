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
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="accounts_user_email_unique_ci",
                violation_error_message="An account with this email address already exists.",
            ),
        ]

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        return self.display_name or self.username
