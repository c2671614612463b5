"""Refusals of tournament commands; each has a code (the API's and the page's) and a
sentence for the member. A refused command changed nothing."""

from __future__ import annotations

from accounts.guests import GUESTS_REFUSED
from config.platform.domain_errors import DomainError


class TournamentError(DomainError):
    """A refused tournament or club command (409 unless it says otherwise)."""


class TournamentNotFound(TournamentError):
    code = "not_found"
    status = 404
    default_message = "There is no such tournament."


class SignInRequired(TournamentError):
    code = "not_signed_in"
    status = 403
    default_message = "Sign in to register for tournaments."


class GuestsRefused(TournamentError):
    code = "guest"
    status = 403
    default_message = GUESTS_REFUSED


class Full(TournamentError):
    code = "full"
    default_message = "This sit-n-go is full: register for the next one."


class NotRegistering(TournamentError):
    code = "not_registering"
    default_message = "This sit-n-go is no longer taking registrations."


class AlreadyRegistered(TournamentError):
    code = "already_registered"
    default_message = "You are already registered for this sit-n-go."


class NoReentriesLeft(TournamentError):
    code = "no_reentries_left"
    default_message = "You have used every re-entry of this tournament."


class NotRegistered(TournamentError):
    code = "not_registered"
    default_message = "You are not registered for this sit-n-go."


class NotEnoughPoints(TournamentError):
    code = "not_enough_points"
    default_message = "You do not have enough points for this buy-in."


class CannotCancel(TournamentError):
    code = "cannot_cancel"
    default_message = "Only a tournament that has not finished can be cancelled."


class BadSettings(TournamentError):
    """A scheduled tournament's setting refused; ``code`` names the setting, and
    ``number`` which level or break it is about (1 = the first), when one is."""

    status = 400
    default_message = "That setting is not possible."

    def __init__(self, code: str, message: str, number: int | None = None) -> None:
        self.code, self.number = code, number
        super().__init__(message)
