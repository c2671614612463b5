"""The offer of a rebuy to a player out of chips in a tournament's rebuy period,
made in the transaction that ends their hand (``tournaments/services/results.py``);
what happens to it is ``tournaments/services/rebuys.py``'s."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from accounts import points
from tournaments.models import Entry, Tournament

OfferScheduler = Callable[[int, datetime], None]
_offer_scheduler: OfferScheduler | None = None


def set_offer_scheduler(scheduler: OfferScheduler) -> None:
    """The app's ready() gives the function that expires offers when they end."""
    global _offer_scheduler
    _offer_scheduler = scheduler


def offer_rebuys(tournament: Tournament, busted: Iterable[Entry], now: datetime) -> list[Entry]:
    """Of the entries out of chips in a hand just ended, those offered a rebuy (each
    entry's ``rebuy_offer_until`` set, not yet saved); the others are out."""
    if not tournament.is_rebuy_open(now):
        return []
    until = now + timedelta(seconds=settings.TOURNAMENTS_REBUY_OFFER_SECONDS)
    offered = []
    for entry in busted:
        if entry.user is None or entry.is_bot or entry.rebuys >= tournament.max_rebuys:
            continue
        balance = points.points_balance(user=entry.user, scope=tournament.points_scope)
        if balance < tournament.buy_in:
            continue
        entry.rebuy_offer_until = until
        offered.append(entry)
    if offered:  # the table page shows the offer
        _schedule_offers_end(tournament, until)
    return offered


def end_offers_if_rebuy_closed(tournament: Tournament, now: datetime) -> None:
    """Once the rebuy has closed (its period ended, or the money reached: rule 34),
    offers still waiting end at once rather than when their time passes: nobody can
    take them, and their tables wait on them."""
    if not tournament.has_rebuys:
        return
    waiting = tournament.entries.filter(place=None, rebuy_offer_until__gt=now)
    if waiting.exists() and not tournament.is_rebuy_open(now):
        _schedule_offers_end(tournament, now)


def _schedule_offers_end(tournament: Tournament, at: datetime) -> None:
    if _offer_scheduler is not None:
        scheduler = _offer_scheduler
        transaction.on_commit(lambda: scheduler(tournament.pk, at))
