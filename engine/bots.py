"""A bot player that decides from what its own seat may see.

``choose_action(seen, rng)`` takes ``engine.view(state, seat)`` for the seat
to act, never the hand itself, so a bot cannot peek at other players' cards
or at the deck: it knows its hole cards, the board, the chips and the public
log, like a person at the table.

The strategy is deliberately simple and readable, the same in both games
(the view's ``game``) but for how a hand is rated:

- Hand strength is Monte-Carlo equity against random hands of the game (a
  few hundred samples, from the ``rng`` passed in), which weighs the hand
  made so far and the draws to better ones alike. Before the flop a Hold'em
  hand is ranked by its equity against one random hand, a standard preflop
  ranking; an Omaha hand by ``omaha_start_strength``, which counts what
  makes four cards play well together (pairs, suits, connected ranks, high
  cards), since equity against random hands barely tells them apart.
- Pot odds: a bet is called when the equity beats the price with a margin
  that grows with each raise on the street (raisers hold better than random).
- Position: the later the seat acts after the flop, the looser it plays.
- A little randomness: an occasional bluff or slow-play, and bets of half
  pot or pot, pushed all-in when most of the stack would go in anyway (in
  pot-limit Omaha, as far as the pot allows).

>>> from random import Random
>>> from engine.deal import new_hand
>>> from engine.view import view
>>> state = new_hand([1000, 1000], button=0, small_blind=5, big_blind=10, rng=Random(7))
>>> action = choose_action(view(state, state.actor), Random(1))
>>> type(action).__name__ in {"Fold", "Call", "RaiseTo"}
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from random import Random
from typing import Any

from engine.actions import Action, Call, Check, Fold, RaiseTo
from engine.cards import card
from engine.equity import equity_vs_random
from engine.games import NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA

SAMPLES = 400
"""Monte-Carlo samples per decision: about a millisecond, strength within ~2.5%."""

SLOW_PLAY_CHANCE = 0.15  # a strong hand sometimes just checks or calls, to stay hard to read
BLUFF_CHANCE = 0.04  # a weak hand sometimes bets when checked to ...
LATE_BLUFF_CHANCE = 0.12  # ... more often the later it acts
BLUFF_RAISE_CHANCE = 0.03  # and rarely raises a bet after the flop
ALL_IN_SHARE = 2 / 3  # a raise that would commit this share of the stack goes all-in

# How much more equity than the price a call needs after the flop, plus a little more
# for each bet or raise on the street (raisers hold better than random hands). Omaha's
# equities against random hands bunch up near an even share, draws keep most hands
# alive, so it asks for more.
CALL_MARGIN = {NO_LIMIT_HOLDEM: (0.04, 0.04), POT_LIMIT_OMAHA: (0.10, 0.06)}


@dataclass(frozen=True, slots=True)
class Spot:
    """The facts a bot decides from, all read from its seat's view.

    ``lateness`` is 0 for the first live player to act after the flop and 1
    for the last (the button when still in). ``raises`` counts the bets and
    raises made on this street (blinds excluded). ``pot`` is every chip in
    the middle, this street's bets included. ``all_in_to`` is the street
    total the bot's whole stack would make.
    """

    game: str
    hole: tuple[int, ...]
    board: tuple[int, ...]
    street: str
    opponents: int
    lateness: float
    raises: int
    pot: int
    current_bet: int
    can_check: bool
    call_amount: int
    min_raise_to: int | None
    max_raise_to: int | None
    all_in_to: int

    @property
    def price(self) -> float:
        """The share of the final pot a call costs (0 when checking is free)."""
        return self.call_amount / (self.pot + self.call_amount)


def choose_action(seen: dict[str, Any], rng: Random) -> Action:
    """Pick a legal action for the viewer of ``seen`` (``engine.view`` of the seat to act).

    Only the viewer's hole cards and public information are read; ``rng`` is
    the only randomness (equity sampling, bluffs, sizes), so a seeded rng
    gives the same decision for the same view. Raises ``ValueError`` when the
    view offers no decision (not the viewer's turn, a spectator, hand over).
    """
    spot = read_spot(seen)
    if spot.street == "preflop" and spot.game == POT_LIMIT_OMAHA:
        return _omaha_preflop(spot, omaha_start_strength(spot.hole), rng)
    if spot.street == "preflop":
        strength = equity_vs_random(spot.hole, (), 1, SAMPLES, rng=rng)
        return _preflop(spot, strength, rng)
    opponents = min(spot.opponents, 9)
    strength = equity_vs_random(spot.hole, spot.board, opponents, SAMPLES, rng=rng)
    return _postflop(spot, strength, rng)


def read_spot(seen: dict[str, Any]) -> Spot:
    """The decision facts in a view; ``ValueError`` if the view offers no decision."""
    legal = seen.get("legal_actions")
    if legal is None or seen.get("hole_cards") is None:
        raise ValueError(
            "a bot can only act on the view of the seat to act: this view offers no decision"
        )
    me = seen["viewer"]
    seats = seen["seats"]
    live = [s["seat"] for s in seats if s["is_dealt_in"] and not s["has_folded"]]
    # order after the flop: from the first seat left of the button round to the button
    order = sorted(live, key=lambda s: (s - seen["button"] - 1) % len(seats))
    street = seen["street"]
    mine = seats[me]
    return Spot(
        game=seen.get("game", NO_LIMIT_HOLDEM),  # a view from before Omaha is Hold'em's
        hole=tuple(card(c) for c in seen["hole_cards"]),
        board=tuple(card(c) for c in seen["board"]),
        street=street,
        opponents=len(live) - 1,
        lateness=order.index(me) / (len(order) - 1),
        raises=sum(
            e["kind"] == "player_acted"
            and e["street"] == street
            and e["action"] in ("bet", "raise")
            for e in seen["log"]
        ),
        pot=sum(p["amount"] for p in seen["pots"]) + sum(s["bet"] for s in seats),
        current_bet=seen["current_bet"],
        can_check=legal["can_check"],
        call_amount=legal["call_amount"],
        min_raise_to=legal["min_raise_to"],
        max_raise_to=legal["max_raise_to"],
        all_in_to=mine["bet"] + mine["stack"],
    )


def _preflop(spot: Spot, strength: float, rng: Random) -> Action:
    """Raise strong hands, call playable ones at a fair price, fold (or check) junk.

    ``strength`` is the hand's equity against one random hand (AA 0.85, 72o
    0.34). Each raise already made tightens both bars; sitting later loosens
    them. The raising bar stays below aces, kings and queens, so those are
    never folded.
    """
    raise_bar = min(0.62 + 0.05 * spot.raises - 0.08 * spot.lateness, 0.78)
    call_bar = 0.54 + 0.05 * spot.raises - 0.05 * spot.lateness
    if strength >= raise_bar:
        if rng.random() < SLOW_PLAY_CHANCE:
            return _stay_in(spot)
        return _raise(spot, 1.0)
    if spot.can_check:
        return Check()  # the big blind's free option with a hand not worth a raise
    discounted = strength - 0.04 * spot.raises  # raisers hold better than random hands
    if strength >= call_bar and discounted >= spot.price + 0.02:
        return Call()
    return Fold()


def omaha_start_strength(hole: tuple[int, ...]) -> float:
    """How well four Omaha hole cards play together, from 0 (junk) to 1 (the best).

    Points for each rank from ten up; for a pair, more the higher it is (a
    third or fourth card of a rank is dead weight and costs points); for two
    cards of a suit, a flush draw, more when the ace or king leads it; and for
    every two ranks close enough to make a straight together (the ace also
    low). Aces and kings double-suited score near 1; three or four cards of a
    suit, gaps and low unpaired cards score little:

    >>> from engine.cards import cards
    >>> [round(omaha_start_strength(cards(h)), 2) for h in ("AsAhKsKh", "JsTs9h8h", "2c7d9hQs")]
    [0.97, 0.47, 0.15]
    """
    ranks = [c >> 2 for c in hole]
    counts = Counter(ranks)
    points = float(sum(rank - 7 for rank in counts if rank > 7))
    for rank, count in counts.items():
        if count >= 2:
            points += 2 + rank / 3 - 3 * (count - 2)
    for suit, count in Counter(c & 3 for c in hole).items():
        if count >= 2:
            top = max(c >> 2 for c in hole if c & 3 == suit)
            points += {2: 2.0, 3: 1.0}.get(count, 0.0) + {12: 1.5, 11: 0.8}.get(top, 0.0)
    low_ace = [-1] if 12 in counts else []  # the ace plays low in a wheel too
    for low, high in combinations(sorted([*low_ace, *counts]), 2):
        if high - low <= 3 and (low, high) != (-1, 12):
            points += (4 - (high - low)) / 2
    return max(0.0, min(points / 30, 1.0))


def _omaha_preflop(spot: Spot, strength: float, rng: Random) -> Action:
    """Raise the pot with strong starting hands, call with playable ones, fold the rest.

    ``strength`` is ``omaha_start_strength`` (AAKK double-suited 0.97, a
    middling hand about 0.33, 2-7-9-Q rainbow 0.15). As in Hold'em, each
    raise already made tightens both bars and sitting later loosens them;
    the raising bar never rises above 0.9, so the very best hands always
    play. Pot-limit bets are small against the pot, so the price a call
    gets hardly varies and is not weighed.
    """
    raise_bar = min(0.55 + 0.1 * spot.raises - 0.08 * spot.lateness, 0.9)
    call_bar = 0.38 + 0.06 * spot.raises - 0.06 * spot.lateness
    if strength >= raise_bar:
        if rng.random() < SLOW_PLAY_CHANCE:
            return _stay_in(spot)
        return _raise(spot, 1.0)
    if spot.can_check:
        return Check()
    if strength >= call_bar:
        return Call()
    return Fold()


def _postflop(spot: Spot, strength: float, rng: Random) -> Action:
    """Bet or raise for value, call on pot odds, bluff now and then, else check or fold.

    ``strength`` is the equity against the live opponents; ``relative`` scales
    it by a fair share of the pot (1 = an average hand, ``opponents + 1`` = the
    nuts), so the bars mean the same thing heads-up and multiway.
    """
    relative = strength * (spot.opponents + 1)
    nuts = 0.9 * (spot.opponents + 1)  # the bars never rise above a near-certain winner
    if spot.can_check:
        if relative >= min(1.5 - 0.2 * spot.lateness, nuts):
            if rng.random() < SLOW_PLAY_CHANCE:
                return Check()
            return _raise(spot, rng.choice((0.5, 1.0)))
        if rng.random() < BLUFF_CHANCE + LATE_BLUFF_CHANCE * spot.lateness:
            return _raise(spot, 0.5)
        return Check()
    if relative >= min(1.7 + 0.15 * spot.raises - 0.1 * spot.lateness, nuts):
        if rng.random() < SLOW_PLAY_CHANCE:
            return Call()
        return _raise(spot, 1.0)
    margin, per_raise = CALL_MARGIN[spot.game]
    if strength >= spot.price + margin + per_raise * spot.raises:
        return Call()
    if rng.random() < BLUFF_RAISE_CHANCE:
        return _raise(spot, 0.5)
    return Fold()


def _raise(spot: Spot, pot_fraction: float) -> Action:
    """Raise to the current bet plus ``pot_fraction`` of the pot after calling.

    Clipped to the legal range, and all-in when it would commit most of the
    stack anyway. When raising is not allowed, call (or check) instead.
    """
    if spot.min_raise_to is None or spot.max_raise_to is None:
        return _stay_in(spot)
    target = spot.current_bet + round(pot_fraction * (spot.pot + spot.call_amount))
    target = max(spot.min_raise_to, min(target, spot.max_raise_to))
    if target >= ALL_IN_SHARE * spot.all_in_to:
        target = spot.max_raise_to  # all-in, or the pot limit when the pot is smaller
    return RaiseTo(target)


def _stay_in(spot: Spot) -> Action:
    """Continue without raising: check when free, else call."""
    return Check() if spot.can_check else Call()
