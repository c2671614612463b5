"""The one kind of refusal every app raises: a command refused, nothing changed.

Each refusal carries a stable ``code``, the HTTP ``status`` the API answers it
with and a ``message`` sentence for the member. Each surface turns any refusal
into its own shape in one place: the API in ``config/platform/api_errors.py``, the table
socket in ``tables/consumers.py`` (an error frame) and a page's form with
``add_to_form`` below. Apps subclass it (``TableError``, ``TournamentError``,
``PointsError``); this module sits below them all, so it imports none of them.
"""

from __future__ import annotations

from django import forms


class DomainError(Exception):
    code = "error"
    status = 409  # refused as things stand; subclasses say 400, 403 or 404 where they mean it
    default_message = "That is not possible right now."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)


def add_to_form(form: forms.BaseForm, error: DomainError, field: str | None = None) -> None:
    """Show the refusal on ``form``: on ``field``, or above the form's fields."""
    form.add_error(field, error.message)
