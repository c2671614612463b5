"""Refusals of club commands and reads: each a ``ClubError``, so whatever refuses a
tournament (a page's message, the API's ``code`` and status) refuses these the same way."""

from __future__ import annotations

from tournaments.errors import TournamentError


class ClubError(TournamentError):
    """A club refused a command (or a read): who may do what in it, or a bad request."""


class ClubNotFound(ClubError):
    code = "club_not_found"
    status = 404
    default_message = "There is no such club."


class MembersOnly(ClubError):
    code = "members_only"
    status = 403
    default_message = "Only the club's members see its tournaments and tables: ask to join."


class AdminsOnly(ClubError):
    code = "admins_only"
    status = 403
    default_message = "Only the club's owner and admins can do that."


class OwnerOnly(ClubError):
    code = "owner_only"
    status = 403
    default_message = "Only the club's owner can do that."


class Banned(ClubError):
    code = "banned"
    status = 403
    default_message = "You are banned from this club."


class BadInvitation(ClubError):
    code = "bad_token"
    status = 403
    default_message = "This invitation link is not valid (any more): ask an admin for a new one."


class AlreadyMember(ClubError):
    code = "already_member"
    default_message = "You are already a member of this club."


class AlreadyAsked(ClubError):
    code = "already_asked"
    default_message = "You have already asked to join: an admin will answer."


class NoSuchMember(ClubError):
    code = "no_such_member"
    status = 404
    default_message = "That person is not a member of this club."


class BadClubRequest(ClubError):
    """A club's setting or an admin's request refused; ``code`` names what."""

    status = 400

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)
