"""Opening sit-n-gos, registering and unregistering.

Each function owns its transaction and locks the tournament row first (then
points accounts). The sixth registration starts the SNG in its own
transaction (``start.tournament_start``) and opens a fresh one of the same kind.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts import points
from accounts.models import PointsEntry
from tables.models import Table
from tournaments import broadcast
from tournaments.clubs.access import check_can_see
from tournaments.errors import (
    AlreadyRegistered,
    Full,
    GuestsRefused,
    NoReentriesLeft,
    NotEnoughPoints,
    NotRegistered,
    NotRegistering,
    SignInRequired,
    TournamentNotFound,
)
from tournaments.models import Entry, Tournament
from tournaments.services.start import tournament_start

_CLOSED: dict[str, str] = {
    Tournament.Status.RUNNING: "This sit-n-go has already started.",
    Tournament.Status.FINISHED: "This sit-n-go has finished.",
    Tournament.Status.CANCELLED: "This sit-n-go was cancelled.",
}


def locked(tournament_id: int) -> Tournament:
    """The tournament's row, locked (call inside a transaction)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentNotFound()
    return tournament


def sng_open(*, structure: str, buy_in: int, game: str = Table.Game.NO_LIMIT_HOLDEM) -> Tournament:
    """A lobby SNG taking registrations (one per game, structure and buy-in: a constraint)."""
    return Tournament.objects.create(
        kind=Tournament.Kind.SNG,
        structure=structure,
        buy_in=buy_in,
        game=game,
        level_seconds=settings.TOURNAMENTS_LEVEL_SECONDS or None,
    )


def sng_kinds() -> list[tuple[str, str, int]]:
    """The lobby's SNGs as (game, structure, buy-in): Hold'em at every structure and
    buy-in of the settings, and the Omaha ones they name."""
    holdem = [
        (Table.Game.NO_LIMIT_HOLDEM.value, structure, buy_in)
        for structure in settings.TOURNAMENTS_STRUCTURES
        for buy_in in settings.TOURNAMENTS_BUY_INS
    ]
    omaha = [
        (Table.Game.POT_LIMIT_OMAHA.value, structure, buy_in)
        for structure, buy_in in settings.TOURNAMENTS_OMAHA_SNGS
    ]
    return holdem + omaha


def sngs_ensure_open() -> int:
    """Open an SNG of each of the lobby's kinds that has none; how many."""
    opened = 0
    for game, structure, buy_in in sng_kinds():
        waiting = Tournament.objects.filter(
            kind=Tournament.Kind.SNG,
            status=Tournament.Status.REGISTERING,
            game=game,
            structure=structure,
            buy_in=buy_in,
        )
        if waiting.exists():
            continue
        try:
            with transaction.atomic():
                tournament = sng_open(structure=structure, buy_in=buy_in, game=game)
                broadcast.lobby_update(tournament.pk)
        except IntegrityError:  # opened by a registration that filled one meanwhile
            continue
        opened += 1
    return opened


def check_member(user: Any) -> None:
    """A signed-in, active member; a guest plays at friends' tables only."""
    if user is None or not user.is_authenticated or not user.is_active:
        raise SignInRequired()
    if user.is_guest:
        raise GuestsRefused()


def closed_message(tournament: Tournament, message: str | None) -> str | None:
    """The SNG's sentence, said of a scheduled tournament when it is one."""
    if message is None or not tournament.is_multi_table:
        return message
    return message.replace("sit-n-go", "tournament")


IN_THE_MONEY = "Registration has closed: this tournament has reached the money."


def _check_open(tournament: Tournament, now: datetime) -> None:
    if tournament.is_late_registration_open(now):
        # A late entry finishes above everyone already out, moving their places down,
        # and may make more places paid: it comes in only while the players still in
        # fill every paid place, before it and with it.
        # Nobody out has been paid, nor would be with the new entry.
        entries = tournament.entries.count()
        left = tournament.entries.filter(place=None).count()
        paid_now, paid_then = len(tournament.prizes(entries)), len(tournament.prizes(entries + 1))
        if left < paid_now or left + 1 < paid_then:
            raise NotRegistering(IN_THE_MONEY)
        return
    if tournament.status != Tournament.Status.REGISTERING:
        raise NotRegistering(closed_message(tournament, _CLOSED.get(tournament.status)))


def tournament_register(*, tournament_id: int, user: Any) -> Tournament:
    """Register ``user``, paying the buy-in; the last seat starts the SNG at once."""
    check_member(user)
    with transaction.atomic():
        tournament = locked(tournament_id)
        check_can_see(tournament, user)  # a club's: its members only
        now = timezone.now()
        _check_open(tournament, now)
        if tournament.kind == Tournament.Kind.PRACTICE:
            raise NotRegistering("A practice sit-n-go is its owner's alone.")
        _check_may_enter(tournament, user)
        registered = tournament.entries.count()
        if registered >= tournament.entrant_limit:
            raise Full(closed_message(tournament, Full.default_message))
        if tournament.buy_in:
            try:
                points.points_move(
                    user=user,
                    amount=-tournament.buy_in,
                    reason=PointsEntry.Reason.BUY_IN,
                    tournament=tournament,
                    scope=tournament.points_scope,
                )
            except points.NotEnoughPoints as error:
                raise NotEnoughPoints(error.message) from None
        entry = Entry.objects.create(
            tournament=tournament,
            user=user,
            name=user.public_name,
            buy_in=tournament.buy_in,
            paid=tournament.buy_in,
            bounty=tournament.bounty,  # a knockout's part of the buy-in: on their head
        )
        tournament.prize_pool += tournament.buy_in - tournament.bounty
        tournament.save(update_fields=["prize_pool"])
        if tournament.status == Tournament.Status.RUNNING:  # late: a seat at once
            from tournaments.services.late import seat_late_entry

            # everyone already out finishes below the new entry (none was paid)
            tournament.entries.filter(place__isnull=False).update(place=F("place") + 1)
            seat_late_entry(tournament, entry)
        if tournament.kind == Tournament.Kind.SNG and registered + 1 == tournament.seats:
            tournament_start(tournament=tournament, now=timezone.now())
            fresh = sng_open(
                structure=tournament.structure, buy_in=tournament.buy_in, game=tournament.game
            )
            broadcast.lobby_update(fresh.pk)
        broadcast.lobby_update(tournament.pk)
        return tournament


def _check_may_enter(tournament: Tournament, user: Any) -> None:
    """One entry still in per member; out of it, another only as a re-entry, during
    late registration, up to the tournament's re-entries."""
    entries = list(tournament.entries.filter(user=user).values_list("place", flat=True))
    if not entries:
        return
    if any(place is None for place in entries) or not tournament.max_reentries:
        raise AlreadyRegistered(closed_message(tournament, AlreadyRegistered.default_message))
    if len(entries) > tournament.max_reentries:
        raise NoReentriesLeft(
            f"You have re-entered {tournament.max_reentries} "
            f"time{'s' if tournament.max_reentries > 1 else ''}: that is the most."
        )


def tournament_unregister(*, tournament_id: int, user: Any) -> Tournament:
    """Take ``user`` off the list before the start, refunding the buy-in in full."""
    check_member(user)
    with transaction.atomic():
        tournament = locked(tournament_id)
        entry = tournament.entries.filter(user=user).first()
        if tournament.status != Tournament.Status.REGISTERING:
            message = _CLOSED.get(tournament.status)
            if tournament.status == Tournament.Status.RUNNING and entry is not None:
                message = "This sit-n-go has started: you can no longer unregister."
            raise NotRegistering(closed_message(tournament, message))
        if entry is None:
            raise NotRegistered(closed_message(tournament, NotRegistered.default_message))
        refund_entry(tournament, entry)
        return tournament


def registrations_release(*, user: Any) -> int:
    """Before ``user``'s account is deleted or deactivated: every registration to a
    tournament not yet started is taken back and refunded, each tournament locked on
    its own (a deleted member's buy-in would otherwise stay in a pool nobody plays
    for, and a cancellation could not refund it). Returns how many."""
    waiting = Entry.objects.filter(user=user, tournament__status=Tournament.Status.REGISTERING)
    released = 0
    for tournament_id in waiting.values_list("tournament_id", flat=True).distinct():
        with transaction.atomic():
            tournament = locked(tournament_id)
            entry = tournament.entries.filter(user=user).first()
            if tournament.status == Tournament.Status.REGISTERING and entry is not None:
                refund_entry(tournament, entry)
                released += 1
    return released


def refund_entry(tournament: Tournament, entry: Entry) -> None:
    """Take a registration back before the start (tournament row locked): the buy-in
    refunded, the entry deleted, the pool lowered."""
    _refund(tournament, entry)
    entry.delete()
    tournament.save(update_fields=["prize_pool"])
    broadcast.lobby_update(tournament.pk)


def _refund(tournament: Tournament, entry: Entry) -> None:
    """Every point the entry paid in back (before the start: its buy-in), out of the
    pool. A cancel gives back only what is left of the pool (``services/cancel.py``)."""
    refund = entry.paid or entry.buy_in  # entries made before Entry.paid have only buy_in
    if not refund:
        return
    if entry.user is not None:
        points.points_move(
            user=entry.user,
            amount=refund,
            reason=PointsEntry.Reason.REFUND,
            tournament=tournament,
            scope=tournament.points_scope,
        )
    else:  # a member deleted since: nobody to pay, but the pool gives it back
        points.points_record_without_account(
            amount=refund,
            reason=PointsEntry.Reason.REFUND,
            tournament=tournament,
            scope=tournament.points_scope,
        )
    tournament.prize_pool -= refund - tournament.bounty  # the bounty never was in it
