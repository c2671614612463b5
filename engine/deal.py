"""Starting a hand: antes and blinds posted, hole cards dealt, the first actor found.

>>> from engine.cards import DECK, cards_str
>>> hand = new_hand([100, 100, 100], button=0, small_blind=1, big_blind=2, ante=1, deck=DECK)
>>> hand.stacks, hand.bets, hand.actor
((99, 98, 97), (0, 1, 2), 0)
>>> cards_str(hand.hole_cards(1))
'2c2s'
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from random import Random
from typing import Any

from engine.cards import new_deck
from engine.events import AntePosted, BlindPosted, Event, HandStarted, hole_cards_dealt
from engine.games import NO_LIMIT_HOLDEM, game_named
from engine.state import NO_SMALL_BLIND, HandState, from_fields
from engine.streets import start_preflop

_CARDS = frozenset(range(52))


def new_hand(
    stacks: Sequence[int | None],
    button: int,
    small_blind: int = 1,
    big_blind: int = 2,
    ante: int = 0,
    small_blind_seat: int | None = None,
    big_blind_seat: int | None = None,
    deck: Sequence[int] | None = None,
    rng: Random | None = None,
    game: str = NO_LIMIT_HOLDEM,
    straddle: bool = False,
    bomb_pot: int = 0,
    run_it_twice: bool = False,
) -> HandState:
    """Start a hand: post antes then blinds, deal hole cards, find the first actor.

    ``stacks`` are chips per seat in clockwise order; ``None`` (or 0) is a
    seat without a player in this hand. ``button`` may be an empty seat (dead
    button), except heads-up, where the button is a player and posts the
    small blind (rules 8, 18; ``engine.positions`` seats them so). By default
    the small blind is the first player left of the button and the big blind
    the next one. ``small_blind_seat`` / ``big_blind_seat`` override
    that for dead-button positions (see ``engine.positions``), and
    ``small_blind_seat=NO_SMALL_BLIND`` plays the hand with no small blind.

    ``game`` is No-Limit Hold'em (``"nlhe"``) or Pot-Limit Omaha (``"plo"``,
    ``engine.games``). Antes are posted first, then blinds (rule 10); anyone
    short posts what they have and is all-in (rules 9, 10). Hole cards are
    dealt one at a time from the front of ``deck``, starting with the first
    player left of the button, two rounds (four in Omaha); the board follows,
    without burn cards. ``deck=None`` shuffles a new deck with ``rng``
    (``secrets`` when ``rng`` is None). If nobody can make a decision (all-in
    from the blinds), the board is dealt at once and the hand is over.

    The home-game options: ``straddle`` has the first player left of the big
    blind post two big blinds after the blinds (rule 23; at least three
    players, and the straddler must cover it). ``bomb_pot`` (chips) deals a
    bomb pot: everyone posts that amount instead of antes and blinds, nobody
    bets before the flop, and the hand starts on the flop (rule 24).
    ``run_it_twice`` lets the players choose two run-outs when they are
    all-in before the river: the hand then waits for ``choose_runouts``
    (rule 25).
    """
    seats = _check_stacks(stacks)
    hole_count = game_named(game).hole_card_count
    count = len(seats)
    dealt = tuple([chips > 0 for chips in seats])
    _check_seat(button, count, "button")
    sb_seat, bb_seat = _blind_seats(dealt, button, small_blind_seat, big_blind_seat)
    _check_amounts(small_blind, big_blind, ante)
    players = tuple([seat for seat in range(count) if dealt[seat]])
    first = bisect_right(players, button)
    order = players[first:] + players[:first]  # dealing order, from left of the button
    straddle_seat = _straddle_seat(seats, bb_seat, ante, big_blind) if straddle else None
    if type(bomb_pot) is not int or bomb_pot < 0 or (bomb_pot and straddle):
        raise ValueError("a bomb pot is a whole number of chips, and has no straddle")
    if deck is None:
        full_deck = new_deck(rng)  # 52 distinct cards: enough for ten players, run twice
    else:
        full_deck = tuple(deck)
        _check_deck(full_deck, hole_count * len(order) + (10 if run_it_twice else 5))
    chips, bets, contributed = list(seats), [0] * count, [0] * count
    starting_stacks = tuple(stacks)
    events: list[Event] = [
        HandStarted(
            starting_stacks,
            button,
            small_blind,
            big_blind,
            ante,
            sb_seat,
            bb_seat,
            full_deck,
            game,
            straddle_seat,
            bomb_pot,
            run_it_twice,
        )
    ]
    blinds: tuple[tuple[int | None, str, int], ...] = ()
    if not bomb_pot:  # rule 24: a bomb pot has no blinds, only everyone's equal stake
        blinds = ((sb_seat, "small", small_blind), (bb_seat, "big", big_blind))
    if straddle_seat is not None:
        blinds += ((straddle_seat, "straddle", 2 * big_blind),)
    _post_forced_bets(events, chips, bets, contributed, order, bomb_pot or ante, blinds)
    # rule 9: the full big blind (or straddle) is owed even when it was posted short
    owed = 0 if bomb_pot else big_blind if straddle_seat is None else 2 * big_blind
    holes = _deal_hole_cards(events, full_deck, order, count, hole_count)
    # from_fields: the dataclass __init__ costs more than the rest of this function
    fields: dict[str, Any] = {
        "game": game,
        "small_blind": small_blind,
        "big_blind": big_blind,
        "ante": ante,
        "button": button,
        "small_blind_seat": sb_seat,
        "big_blind_seat": bb_seat,
        "straddle_seat": straddle_seat,
        "bomb_pot": bomb_pot,
        "run_it_twice": run_it_twice,
        "runout_pending": False,
        "second_board": (),
        "starting_stacks": starting_stacks,
        "deck": full_deck,
        "is_dealt_in": dealt,
        "players": players,
        "stacks": tuple(chips),
        "bets": tuple(bets),
        "contributed": tuple(contributed),
        "has_folded": (False,) * count,
        "acted_at": (-1,) * count,
        "has_shown": (False,) * count,
        "holes": holes,
        "board": (),
        "next_card": hole_count * len(order),
        "street": "preflop",
        "actor": None,
        "current_bet": owed,
        "min_raise_increment": max(owed, big_blind),  # rule 23: a straddle is raised by itself
        "last_aggressor": None,
        "events": tuple(events),
    }
    return start_preflop(from_fields(fields))


def under_the_gun(stacks: Sequence[int | None], big_blind_seat: int) -> int:
    """The seat that acts first before the flop, the one that may straddle: the
    first player left of the big blind."""
    return next_seat(tuple([bool(chips) for chips in stacks]), big_blind_seat)


def _straddle_seat(seats: tuple[int, ...], bb_seat: int, ante: int, big_blind: int) -> int:
    if sum([chips > 0 for chips in seats]) < 3:
        raise ValueError("a straddle needs at least three players")
    seat = under_the_gun(seats, bb_seat)
    if seats[seat] < ante + 2 * big_blind:
        raise ValueError(f"seat {seat} cannot cover a straddle of {2 * big_blind}")
    return seat


def _check_stacks(stacks: Sequence[int | None]) -> tuple[int, ...]:
    seats = tuple([0 if chips is None else chips for chips in stacks])
    if not 2 <= len(seats) <= 10:
        raise ValueError(f"a table has 2 to 10 seats, not {len(seats)}")
    if not all([type(chips) is int and chips >= 0 for chips in seats]):
        raise ValueError("stacks must be whole numbers of chips, at least 0 (or None)")
    if sum([chips > 0 for chips in seats]) < 2:
        raise ValueError("a hand needs at least two players with chips")
    return seats


def _check_seat(seat: int, count: int, role: str) -> None:
    if type(seat) is not int or not 0 <= seat < count:
        raise ValueError(f"the {role} must be a seat number from 0 to {count - 1}, not {seat!r}")


def _check_amounts(small_blind: int, big_blind: int, ante: int) -> None:
    if not 1 <= small_blind <= big_blind or ante < 0:
        raise ValueError("blinds must satisfy 1 <= small blind <= big blind, and the ante >= 0")


def _check_deck(deck: tuple[int, ...], needed: int) -> None:
    if len(set(deck)) != len(deck) or not _CARDS.issuperset(deck):
        raise ValueError("the deck must hold distinct cards 0..51")
    if len(deck) < needed:
        raise ValueError(f"the deck needs at least {needed} cards for this hand")


def next_seat(flags: Sequence[bool], seat: int) -> int:
    """The first seat after ``seat`` (clockwise) whose flag is set (``seat`` itself last)."""
    after = [*flags[seat + 1 :], *flags[: seat + 1]]  # clockwise from the next seat
    return (seat + 1 + after.index(True)) % len(flags)


def _blind_seats(
    dealt: tuple[bool, ...], button: int, sb_override: int | None, bb_override: int | None
) -> tuple[int | None, int]:
    count = len(dealt)
    heads_up = sum(dealt) == 2
    if sb_override is None:
        sb: int | None = button if heads_up else next_seat(dealt, button)  # rule 8
    elif sb_override == NO_SMALL_BLIND:
        sb = None
    else:
        _check_seat(sb_override, count, "small blind seat")
        sb = sb_override
    if bb_override is None:
        bb = next_seat(dealt, button if sb is None else sb)
    else:
        _check_seat(bb_override, count, "big blind seat")
        bb = bb_override
    if heads_up and (sb != button or not dealt[button]):
        raise ValueError("heads-up the button must be on a player, who posts the small blind")
    if (sb is not None and not dealt[sb]) or not dealt[bb]:
        raise ValueError("the blinds must be posted by seats with chips")
    if sb == bb:
        raise ValueError("one seat cannot post both blinds")
    return sb, bb


def _post_forced_bets(
    events: list[Event],
    chips: list[int],
    bets: list[int],
    contributed: list[int],
    order: tuple[int, ...],
    ante: int,
    blinds: tuple[tuple[int | None, str, int], ...],
) -> None:
    """Post antes, then blinds, into the given lists (the hand being built)."""
    if ante:
        for seat in order:  # rule 10: antes first, short antes go all-in
            paid = min(ante, chips[seat])
            chips[seat] -= paid
            contributed[seat] += paid
            events.append(AntePosted(seat, paid, chips[seat] == 0))
    for blind_seat, blind, amount in blinds:
        if blind_seat is None or chips[blind_seat] == 0:
            continue
        paid = min(amount, chips[blind_seat])  # rule 9: a short blind is all-in
        chips[blind_seat] -= paid
        bets[blind_seat] = paid
        contributed[blind_seat] += paid
        events.append(BlindPosted(blind_seat, blind, paid, chips[blind_seat] == 0))


def _deal_hole_cards(
    events: list[Event], deck: tuple[int, ...], order: tuple[int, ...], count: int, rounds: int
) -> tuple[tuple[int, ...], ...]:
    """``rounds`` rounds, one card at a time, in ``order``; logs who got what."""
    holes: list[tuple[int, ...]] = [()] * count
    players = len(order)
    for index, seat in enumerate(order):
        holes[seat] = deck[index : rounds * players : players]
        events.append(hole_cards_dealt(seat, holes[seat]))
    return tuple(holes)
