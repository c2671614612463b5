"""Finished hands as one viewer saw them: who may open a hand, and its projections.

A member may open a hand only once it has ended and only if they were dealt
into it (watching it is not enough); staff may open every finished hand and
see every card. Everything sent is built from the replayed hand through the
engine's per-viewer projections (``engine.sees_hole_cards``, ``engine.view``,
``to_phh(viewer=...)``, ``to_pokerstars(viewer=...)``); the stored
``Hand.events`` and ``Hand.phh`` hold every card and the deck, and are never
sent as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import Any, Final, Literal

from django.db.models import Prefetch, QuerySet

import engine
from engine.events import (
    AntePosted,
    BlindPosted,
    BoardDealt,
    PlayerActed,
    PotAwarded,
    UncalledBetReturned,
)
from tables import kinds
from tables.fairness_log.proofs import hand_log
from tables.models import Hand, HandPlayer

EVERY_CARD: Final = engine.EVERY_CARD


class HandNotVisible(Exception):
    """No such finished hand that this user was dealt into (a 404: say nothing more)."""


# The viewer's seat, None (saw no hole cards), or EVERY_CARD for staff.
Viewer = int | None | Literal["every card"]


@dataclass(frozen=True)
class ViewedHand:
    """A finished hand, its players, and whose eyes it is seen through."""

    hand: Hand
    state: engine.HandState
    players: list[HandPlayer]
    viewer: Viewer

    @property
    def own_seat(self) -> int | None:
        """The seat whose cards are "Dealt to" in PokerStars text (staff: theirs, if any)."""
        return self.viewer if isinstance(self.viewer, int) else None

    def sees(self, seat: int) -> bool:
        if self.viewer == EVERY_CARD:
            return True
        return engine.sees_hole_cards(self.state, self.own_seat, seat)


# How many hands an export reads at a time: two queries a batch, not a hand.
EXPORT_BATCH: Final = 100


def _finished_hands() -> QuerySet[Hand]:
    players = HandPlayer.objects.select_related("user").order_by("seat")
    return (
        Hand.objects.select_related("table", "table__tournament")
        .filter(ended_at__isnull=False)
        .prefetch_related(Prefetch("players", queryset=players))
    )


def _viewed(hand: Hand, user: Any, *, as_staff: bool = True) -> ViewedHand | None:
    """``hand`` as ``user`` saw it; None if they were not dealt in (and are not staff).
    ``as_staff=False``: a staff member too sees it only from their own seat."""
    players = list(hand.players.all())
    mine = next((p for p in players if p.user_id is not None and p.user_id == user.pk), None)
    is_staff = as_staff and user.is_staff
    if mine is None and not is_staff:
        return None
    state = engine.replay([engine.event_from_dict(e) for e in hand.events])
    viewer: Viewer = mine.seat if mine else None
    if is_staff:
        viewer = EVERY_CARD
    return ViewedHand(hand, state, players, viewer)


def hand_for_viewer(*, user: Any, hand_id: int) -> ViewedHand:
    """The hand ``hand_id`` as ``user`` saw it, or ``HandNotVisible``."""
    hand = _finished_hands().filter(pk=hand_id).first()
    viewed = None if hand is None else _viewed(hand, user)
    if viewed is None:
        raise HandNotVisible()
    return viewed


def hands_for_viewer(
    *, user: Any, hand_ids: Sequence[int], as_staff: bool = True
) -> Iterator[ViewedHand]:
    """The hands ``hand_ids`` in that order, each as ``user`` saw it, read a batch at a
    time; a hand gone since the ids were read, or not theirs to see, is left out.
    ``as_staff=False`` (a member's own data): staff too see only what their seat saw."""
    for start in range(0, len(hand_ids), EXPORT_BATCH):
        batch = hand_ids[start : start + EXPORT_BATCH]
        hands = {hand.pk: hand for hand in _finished_hands().filter(pk__in=batch)}
        for hand_id in batch:
            hand = hands.get(hand_id)
            viewed = None if hand is None else _viewed(hand, user, as_staff=as_staff)
            if viewed is not None:
                yield viewed


def hand_detail(viewed: ViewedHand) -> dict[str, Any]:
    """The hand's public record plus the hole cards this viewer saw."""
    hand, state = viewed.hand, viewed.state
    names = {p.seat: p.name for p in viewed.players}
    return {
        "id": hand.pk,
        "table": hand.table_id,
        "table_name": hand.table.name,
        "kind": hand.table.kind,
        "number": hand.number,
        "game": state.game,
        "straddle_seat": state.straddle_seat,
        "bomb_pot": state.bomb_pot,
        "started_at": hand.started_at,
        "ended_at": hand.ended_at,
        "level": hand.level + 1 if hand.table.tournament_id is not None else None,
        "small_blind": hand.small_blind,
        "big_blind": hand.big_blind,
        "ante": hand.ante,
        "button": hand.button,
        "seat_count": state.seat_count,
        "board": [engine.card_str(c) for c in state.board],
        "second_board": [engine.card_str(c) for c in state.second_board],
        "pot": hand.pot,
        "viewer_seat": viewed.own_seat,
        "players": [_player(viewed, p) for p in viewed.players],
        "actions": _actions(state, names),
        "pots": _pots(state),
        "fairness": _fairness(viewed),
    }


def _fairness(viewed: ViewedHand) -> dict[str, Any] | None:
    """The deck's commitment and leaves, the salts of the cards this viewer saw only
    (engine.fairness), and the hand's place in the public log (null until it is
    appended, seconds after the hand); None for a hand dealt before decks were sealed."""
    hand = viewed.hand
    if not hand.commitment:
        return None
    permutation = (
        None if hand.cut is None else engine.cut_permutation(bytes.fromhex(hand.cut["seed"]))
    )
    fairness = {
        "commitment": hand.commitment,
        "leaves": hand.deck_leaves,  # as committed to at the deal
        "revealed": engine.revealed(viewed.state, viewed.viewer, hand.deck_salts, permutation),
        "log": hand_log(hand.pk),
    }
    if hand.cut is not None:
        fairness["cut"] = hand.cut
    return fairness


def _player(viewed: ViewedHand, player: HandPlayer) -> dict[str, Any]:
    seat = player.seat
    return {
        "seat": seat,
        "name": player.name,
        "username": player.user.username if player.user and not player.is_bot else None,
        "is_bot": player.is_bot,
        "position": player.position,
        "starting_stack": player.starting_stack,
        "final_stack": player.final_stack,
        "net": player.net,
        "hole_cards": [engine.card_str(c) for c in viewed.state.hole_cards(seat)]
        if viewed.sees(seat)
        else None,
        "was_shown": viewed.state.has_shown[seat],
        "allin_ev": round(player.allin_ev, 2),
    }


def _actions(state: engine.HandState, names: dict[int, str]) -> list[dict[str, Any]]:
    """Every chip movement and decision in order, with its street (no cards)."""
    out: list[dict[str, Any]] = []
    street = "preflop"
    for event in state.events:
        if isinstance(event, BoardDealt):
            street = event.street
            continue
        if isinstance(event, AntePosted):
            action, amount, total, all_in = "ante", event.amount, None, event.is_all_in
        elif isinstance(event, BlindPosted):
            action, amount = f"{event.blind}_blind", event.amount
            total, all_in = event.amount, event.is_all_in
        elif isinstance(event, PlayerActed):
            action, amount, total, all_in = event.action, event.amount, event.total, event.is_all_in
        elif isinstance(event, UncalledBetReturned):
            action, amount, total, all_in = "uncalled_bet_returned", event.amount, None, False
        else:
            continue
        out.append(
            {
                "street": street,
                "seat": event.seat,
                "name": names.get(event.seat, ""),
                "action": action,
                "amount": amount,
                "total": total,
                "is_all_in": all_in,
            }
        )
    return out


def _pots(state: engine.HandState) -> list[dict[str, Any]]:
    return [
        {
            "index": e.pot_index,
            "amount": e.amount,
            "eligible": list(e.eligible),
            "winners": [{"seat": s, "amount": chips} for s, chips in e.shares if chips],
            "hand": e.description,
            "board": e.run + 1,
        }
        for e in state.events
        if isinstance(e, PotAwarded)
    ]


def phh_fields(hand: Hand) -> dict[str, Any]:
    """What a hand's PHH says beyond the play (``engine.to_phh``'s keywords): the table,
    the hand's number, its start in UTC, and its kind's own (a tournament's event and
    level). The stored history and every viewer's text are written with the same."""
    moment = hand.started_at.astimezone(UTC)
    return {
        "table": hand.table.name,
        "hand": hand.number,
        "time": moment.time().replace(microsecond=0),
        "time_zone": "UTC",
        "day": moment.day,
        "month": moment.month,
        "year": moment.year,
        **kinds.of(hand.table).history_fields(hand),
    }


def hand_phh(viewed: ViewedHand) -> str:
    """PHH text with every hole card the viewer did not see written as unknown (``??``)."""
    names = {p.seat: p.name for p in viewed.players}
    return engine.to_phh(
        viewed.state,
        viewer=viewed.viewer,
        players=[names[s] for s in engine.phh_order(viewed.state)],
        _felt_hand_id=viewed.hand.pk,
        **phh_fields(viewed.hand),
    )


def hand_pokerstars(viewed: ViewedHand) -> str:
    """PokerStars text: "Dealt to" the viewer's own cards; others only where shown."""
    names: list[str | None] = [None] * viewed.state.seat_count
    for player in viewed.players:
        names[player.seat] = player.name
    hand = viewed.hand
    meta: dict[str, Any] = {
        "table": f"{hand.table.name} #{hand.table_id}",
        "time": hand.started_at,
        "time_zone": "UTC",
    }
    meta.update(kinds.of(hand.table).pokerstars_fields(hand))  # a tournament's header, places
    return engine.to_pokerstars(
        viewed.state, hand_id=hand.pk, players=names, viewer=viewed.own_seat, **meta
    )


def hands_text(viewed_hands: Iterable[ViewedHand], text_format: str) -> Iterator[str]:
    """Many hands in one text, a hand at a time: ``"phh"`` a .phhs file (one TOML
    table per hand), else PokerStars text. Each hand through its viewer's projection."""
    for number, viewed in enumerate(viewed_hands, start=1):
        if text_format == "phh":
            yield f"[{number}]\n{hand_phh(viewed)}\n"
        else:
            yield f"{hand_pokerstars(viewed)}\n\n"
