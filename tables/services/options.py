"""A friends' table's game and home-game options (docs/rules.md rules 23-25).

The host chooses the game (No-Limit Hold'em or Pot-Limit Omaha), whether
straddles are allowed, whether players all-in are offered to run it twice, and
bomb pots: their stake, every how many hands, or one called for the next hand.
Each takes effect from the next hand dealt (``play.home_options``). A player
ticks whether they straddle when under the gun. The host also chooses whether the
table is listed in the lobby or reachable by its link only (at once), and may
replace the key its link carries.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from tables import lobby_news
from tables.errors import BadOptions
from tables.models import MAX_BOMB_POT_EVERY, Table
from tables.models.table import new_invite_key
from tables.services import play as p
from tables.services.host import lock_as_host
from tables.services.seats import own_seat

GAMES = {code for code, _ in Table.Game.choices}


def check_options(
    *, game: str, bomb_pot_ante: int, bomb_pot_every: int, big_blind: int, starting_stack: int
) -> None:
    """``BadOptions`` saying what is wrong; the one check (the form asks it too)."""
    if game not in GAMES:
        raise BadOptions("The game is No-Limit Hold'em or Pot-Limit Omaha.", "game")
    if bomb_pot_ante and not big_blind <= bomb_pot_ante <= starting_stack:
        raise BadOptions(
            f"A bomb pot's stake is from the big blind ({big_blind}) to the starting stack"
            f" ({starting_stack}), or 0 for no bomb pots.",
            "bomb_pot_ante",
        )
    if bomb_pot_every and not 2 <= bomb_pot_every <= MAX_BOMB_POT_EVERY:
        raise BadOptions(
            f"A bomb pot comes every 2 to {MAX_BOMB_POT_EVERY} hands, or 0 for only when"
            " the host calls one.",
            "bomb_pot_every",
        )
    if bomb_pot_every and not bomb_pot_ante:
        raise BadOptions("Set the bomb pot's stake to deal one every few hands.", "bomb_pot_ante")


def table_set_options(
    *,
    table_id: int,
    user: User,
    game: str,
    allows_straddle: bool,
    offers_run_it_twice: bool,
    bomb_pot_ante: int,
    bomb_pot_every: int,
) -> int:
    """The table's game and options from the next hand on (the hand in play keeps its own)."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        table = play.table
        big_blind = table.next_big_blind or table.big_blind
        check_options(
            game=game,
            bomb_pot_ante=bomb_pot_ante,
            bomb_pot_every=bomb_pot_every,
            big_blind=big_blind,
            starting_stack=table.starting_stack,
        )
        table.game = game
        table.allows_straddle = allows_straddle
        table.offers_run_it_twice = offers_run_it_twice
        table.bomb_pot_ante = bomb_pot_ante
        table.bomb_pot_every = bomb_pot_every
        table.bomb_pot_next = table.bomb_pot_next and bool(bomb_pot_ante)
        p.commit(play)
        return table.seq


def table_call_bomb_pot(*, table_id: int, user: User, on: bool) -> int:
    """The host calls a bomb pot for the next hand (``on``), or calls it off."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        if on and not play.table.bomb_pot_ante:
            raise BadOptions("Set the bomb pot's stake first.", "bomb_pot_ante")
        play.table.bomb_pot_next = on
        p.commit(play)
        return play.table.seq


def table_set_listed(*, table_id: int, user: User, listed: bool) -> int:
    """The table shows in every member's lobby (``listed``), or only to its players."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        play.table.is_listed = listed
        p.commit(play)
        lobby_news.listing_changed(play.table, players=len(play.seats))
        return play.table.seq


def table_new_invite_key(*, table_id: int, user: User) -> str:
    """The host replaces the key the table's link carries (tables/links.py) and gets
    the new one: the old link admits nobody new; whoever it let in stays."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        key = new_invite_key()
        Table.objects.filter(pk=play.table.pk).update(invite_key=key)
        play.table.invite_key = key
        return key


def seat_straddle(*, table_id: int, user: User, on: bool) -> int:
    """The player straddles whenever they are under the gun (``on``), or stops."""
    with transaction.atomic():
        play = p.lock(table_id)
        seat = own_seat(play, user)
        if on and not play.table.allows_straddle:
            raise BadOptions("This table does not allow straddles.")
        seat.wants_straddle = on
        p.commit(play)
        return play.table.seq
