"""Opening tables: a friends' table to share, or a practice table against bots."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from tables import lobby_news
from tables.errors import GuestsRefused, TableError
from tables.models import (
    DEFAULT_SEATS,
    MAX_ACTION_SECONDS,
    MAX_SEATS,
    MIN_ACTION_SECONDS,
    MIN_SEATS,
    MIN_STARTING_BIG_BLINDS,
    Seat,
    Table,
)
from tables.services import play as p
from tables.services.bots import bot_name
from tables.services.clock import starting_time_bank
from tables.services.options import check_options

PRACTICE_BLINDS = (10, 20)
PRACTICE_MAX_BOTS = 5  # a practice table is six-handed at most
PRACTICE_STACK = 1500


class BadTableSettings(TableError):
    code = "bad_table"
    default_message = "Those table settings are not possible."

    def __init__(self, message: str | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field  # the setting at fault, for a form to mark


class TooManyTables(TableError):
    code = "too_many_tables"
    default_message = "You have opened too many tables."


# A table counts as open while someone sits at it, or for its first hour (its
# owner may not have sat down yet).
OPEN_WHILE_EMPTY = timedelta(hours=1)


def _check_owner_limits(owner: User | None) -> None:
    """At most TABLES_OPEN_PER_USER open tables, and TABLES_CREATED_PER_HOUR new ones an
    hour, per member; call with the owner's row locked, so two requests cannot both pass."""
    now = timezone.now()
    owned = Table.objects.filter(owner=owner)
    open_tables = owned.filter(closed_at__isnull=True).filter(
        Q(seats__isnull=False) | Q(created_at__gte=now - OPEN_WHILE_EMPTY)
    )
    if open_tables.distinct().count() >= settings.TABLES_OPEN_PER_USER:
        raise TooManyTables(
            f"You already have {settings.TABLES_OPEN_PER_USER} tables open: "
            "play at one of them, or leave one, before opening another."
        )
    if owned.filter(created_at__gte=now - timedelta(hours=1)).count() >= (
        settings.TABLES_CREATED_PER_HOUR
    ):
        raise TooManyTables("You have opened too many tables this hour: try again later.")


def check_table_settings(
    *, seat_count: int, small_blind: int, big_blind: int, starting_stack: int, action_seconds: int
) -> None:
    """``BadTableSettings`` saying what is wrong; the one check (the form asks it too)."""
    if not MIN_SEATS <= seat_count <= MAX_SEATS:
        raise BadTableSettings(f"A table has {MIN_SEATS} to {MAX_SEATS} seats.", "seat_count")
    if small_blind < 1:
        raise BadTableSettings("The small blind must be at least 1.", "small_blind")
    if big_blind < small_blind:
        raise BadTableSettings("The big blind cannot be smaller than the small blind.", "big_blind")
    if starting_stack < MIN_STARTING_BIG_BLINDS * big_blind:
        raise BadTableSettings(
            f"Start with at least {MIN_STARTING_BIG_BLINDS} big blinds.", "starting_stack"
        )
    if not MIN_ACTION_SECONDS <= action_seconds <= MAX_ACTION_SECONDS:
        raise BadTableSettings(
            f"The clock must give {MIN_ACTION_SECONDS} to {MAX_ACTION_SECONDS} seconds"
            " per decision.",
            "action_seconds",
        )


def table_create(
    *,
    owner: User | None,
    name: str,
    seat_count: int = DEFAULT_SEATS,
    small_blind: int = 10,
    big_blind: int = 20,
    ante: int = 0,
    starting_stack: int = 1500,
    action_seconds: int = 20,
    kind: str = Table.Kind.FRIENDS,
    game: str = Table.Game.NO_LIMIT_HOLDEM,
    allows_straddle: bool = False,
    offers_run_it_twice: bool = False,
    bomb_pot_ante: int = 0,
    bomb_pot_every: int = 0,
    is_listed: bool = False,
) -> Table:
    """A friends' table with nobody seated yet (the owner sits by choosing a seat),
    with its game and home-game options (tables/services/options.py), reachable by
    its link only unless ``is_listed`` in the lobby."""
    check_table_settings(
        seat_count=seat_count,
        small_blind=small_blind,
        big_blind=big_blind,
        starting_stack=starting_stack,
        action_seconds=action_seconds,
    )
    check_options(
        game=game,
        bomb_pot_ante=bomb_pot_ante,
        bomb_pot_every=bomb_pot_every,
        big_blind=big_blind,
        starting_stack=starting_stack,
    )
    if owner is not None and owner.is_guest:  # guests join tables; members open them
        raise GuestsRefused()
    with transaction.atomic():
        if owner is not None:  # a member's table (Felt's own, e.g. for tests, have none)
            User.objects.select_for_update().filter(pk=owner.pk).exists()  # one at a time
            _check_owner_limits(owner)
        table = Table.objects.create(
            owner=owner,
            host=owner,  # whoever opens a table runs it, until they hand that on
            name=name.strip() or "Friends' table",
            kind=kind,
            seat_count=seat_count,
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            starting_stack=starting_stack,
            action_seconds=action_seconds,
            game=game,
            allows_straddle=allows_straddle,
            offers_run_it_twice=offers_run_it_twice,
            bomb_pot_ante=bomb_pot_ante,
            bomb_pot_every=bomb_pot_every,
            is_listed=is_listed,
        )
        if is_listed:
            lobby_news.listing_changed(table, players=0)
        return table


def last_auto_rebuy(user: User) -> bool:
    """The player's choice of automatic rebuys at their latest practice table (off at first)."""
    latest = Table.objects.filter(owner=user, kind=Table.Kind.PRACTICE).order_by("-pk")
    return bool(latest.values_list("auto_rebuy", flat=True).first())


def last_practice_pace(user: User) -> str:
    """The pace of the player's latest practice table (normal at first)."""
    latest = Table.objects.filter(owner=user, kind=Table.Kind.PRACTICE).order_by("-pk")
    return latest.values_list("pace", flat=True).first() or Table.Pace.NORMAL


def table_create_practice(
    *,
    user: User,
    bots: int,
    action_seconds: int = 20,
    game: str = Table.Game.NO_LIMIT_HOLDEM,
    pace: str = Table.Pace.NORMAL,
) -> Table:
    """A table with ``user`` in seat 0 and 1 to 5 bots, dealing ``game`` (the bots play
    both, engine/bots.py) at ``pace``; the first hand starts at once."""
    if not 1 <= bots <= PRACTICE_MAX_BOTS:
        raise BadTableSettings(f"Play against 1 to {PRACTICE_MAX_BOTS} bots.")
    with transaction.atomic():
        is_auto_rebuy = last_auto_rebuy(user)  # read before this table becomes the latest
        table = table_create(
            owner=user,
            name=f"{user.public_name}'s practice",
            seat_count=bots + 1,
            small_blind=PRACTICE_BLINDS[0],
            big_blind=PRACTICE_BLINDS[1],
            starting_stack=PRACTICE_STACK,
            action_seconds=action_seconds,
            kind=Table.Kind.PRACTICE,
            game=game,
        )
        table.auto_rebuy = is_auto_rebuy
        table.pace = pace
        table.save(update_fields=["auto_rebuy", "pace"])
        seats = [Seat(table=table, number=0, user=user, stack=PRACTICE_STACK)]
        seats += [
            Seat(table=table, number=n, is_bot=True, bot_name=bot_name(n - 1), stack=PRACTICE_STACK)
            for n in range(1, bots + 1)
        ]
        for seat in seats:
            seat.time_bank = starting_time_bank()
        Seat.objects.bulk_create(seats)
        play = p.lock(table.pk)
        p.deal(play)
        p.commit(play)
    table.refresh_from_db()
    return table
