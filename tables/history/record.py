"""Hand history: the Hand row at the start, completed with its players at the end.

``hand_new`` and ``hand_end`` build the rows, for live play here and for
``manage.py seed_hands``. Live play writes them inside the transaction that
changes the table, so history never disagrees with play; only an all-in's EV
is filled in after commit (tables/history/allin_ev.py). The per-player facts follow the tracker
definitions in docs/history.md, decided in tables/history/facts.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import cache
from typing import Any, Protocol

from django.db import connection, transaction
from django.db.models import Field

import engine
from config.adapters.compiled_query import CompiledQuery
from engine.formats.phh import phh_order
from tables.history import allin_ev
from tables.history.facts import hand_facts, has_allin_ev
from tables.history.projection import phh_fields
from tables.history.stats import totals_add
from tables.models import Hand, HandPlayer, Seat, Table
from tables.sql import column_name, save_fields, table_name


class Player(Protocol):
    """Who played a seat, as the hand's rows remember them (a ``Seat`` is one)."""

    @property
    def user(self) -> Any: ...

    @property
    def name(self) -> str: ...

    @property
    def is_bot(self) -> bool: ...


def hand_new(table: Table, state: engine.HandState, started_at: datetime) -> Hand:
    """The table's next ``Hand`` as ``state`` was dealt (not saved)."""
    return Hand(
        table=table,
        number=table.hand_number,
        button=state.button,
        small_blind_seat=state.small_blind_seat,
        big_blind_seat=state.big_blind_seat,
        small_blind=state.small_blind,
        big_blind=state.big_blind,
        ante=state.ante,
        level=table.level,
        game=state.game,
        straddle_seat=state.straddle_seat,
        bomb_pot=state.bomb_pot,
        started_at=started_at,
        events=[event.to_dict() for event in state.events],
    )


def hand_end(
    hand: Hand,
    state: engine.HandState,
    players: Mapping[int, Player],
    *,
    ended_at: datetime,
    phh_fields: Mapping[str, Any] | None,
    with_allin_ev: bool,
) -> list[HandPlayer]:
    """Complete ``hand`` with how ``state`` ended and build its players' rows, saving
    nothing: live play writes one hand's in the transaction that ends it
    (``hand_finish``), ``seed_hands`` a batch at a time.

    ``phh_fields`` None stores no PHH text. ``with_allin_ev=False`` leaves the all-in
    EV at the actual result, and the hand pending when there is one to fill in.
    """
    events = [event.to_dict() for event in state.events]
    hand.ended_at = ended_at
    hand.board = [engine.card_str(c) for c in state.board]
    hand.second_board = [engine.card_str(c) for c in state.second_board]
    hand.pots = [e for e in events if e["kind"] == "pot_awarded"]
    hand.events = events
    hand.final_stacks = list(state.stacks)
    hand.phh = (
        ""
        if phh_fields is None
        else engine.to_phh(state, players=[players[n].name for n in phh_order(state)], **phh_fields)
    )
    hand.pot = sum(e["amount"] for e in hand.pots)
    hand.allin_ev_pending = not with_allin_ev and has_allin_ev(state)
    hand.log_pending = bool(hand.commitment)  # appended to the public log after commit
    facts = hand_facts(state, with_allin_ev=with_allin_ev)
    return [_hand_player(hand, n, players[n], state, facts[n]) for n in state.players]


def hand_begin(
    table: Table,
    state: engine.HandState,
    now: datetime,
    seal: engine.DeckSeal | None = None,
    cut: dict[str, Any] | None = None,
) -> Hand:
    """The Hand row, with the deck sealed (engine.fairness) before any card is shown:
    ``seal`` made over the sealed deck before the players' ``cut`` (live tables,
    tables/services/cut.py; ``cut`` is its record, ``Cut.as_json``), or else made now
    over the deck as dealt."""
    if seal is None:
        seal = engine.seal_deck(state.deck)
    table.commitment = seal.commitment
    hand = hand_new(table, state, now)
    hand.commitment = seal.commitment
    hand.deck_leaves = list(seal.leaves)
    hand.deck_salts = list(seal.salts)
    hand.cut = cut
    hand.save(force_insert=True)
    return hand


# What ``hand_end`` writes into a hand begun by ``hand_begin``: the rest (its deck's
# seal above all, a hundred strings) is neither read nor written again at its end.
END_FIELDS = [
    "ended_at",
    "board",
    "second_board",
    "pots",
    "events",
    "final_stacks",
    "phh",
    "pot",
    "allin_ev_pending",
    "log_pending",
]
_NOT_READ_AT_END = [
    *("deck_leaves", "deck_salts", "cut", "events", "phh", "board", "second_board", "pots"),
]
_hand_at_end = CompiledQuery(
    lambda table_id, number: Hand.objects.defer(*_NOT_READ_AT_END).filter(
        table_id=table_id, number=number
    )
)


def hand_finish(
    table: Table, seats: Mapping[int, Seat], state: engine.HandState, now: datetime
) -> Hand:
    (hand,) = _hand_at_end.rows(table.pk, table.hand_number)
    hand.table = table  # the locked row, which the PHH names: not read again
    # The all-in EV's equity would hold the table's lock too long: filled in after.
    players = hand_end(
        hand, state, seats, ended_at=now, phh_fields=phh_fields(hand), with_allin_ev=False
    )
    save_fields(hand, END_FIELDS)
    insert_players(players)
    totals_add(players)  # as built: reading the rows back would give the same
    if hand.allin_ev_pending:
        hand_id = hand.pk
        transaction.on_commit(lambda: allin_ev.request(hand_id))
    return hand


# HandPlayer's columns whose values go to the database as they are (numbers,
# booleans, text, the keys' ids); the others (its time, the JSON hole cards) are
# prepared by their fields.
_PLAIN_TYPES = {
    "BooleanField",
    "CharField",
    "FloatField",
    "ForeignKey",
    "IntegerField",
    "BigIntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SmallIntegerField",
}


def insert_players(rows: Sequence[HandPlayer]) -> None:
    """Write ``rows`` (their ids are not needed) in one statement: what ``bulk_create``
    writes, without building its SQL value by value, which cost a hand's end more
    than the write itself (docs/performance.md)."""
    if not rows:
        return
    fields, prepared, statement = _player_insert(connection.vendor)

    def value(row: HandPlayer, field: Field[Any, Any]) -> Any:
        raw = getattr(row, field.attname)
        return field.get_db_prep_save(raw, connection) if field.attname in prepared else raw

    with connection.cursor() as cursor:
        cursor.executemany(statement, [[value(row, field) for field in fields] for row in rows])


@cache
def _player_insert(vendor: str) -> tuple[list[Field[Any, Any]], frozenset[str], str]:
    """HandPlayer's columns, those its fields prepare, and the INSERT of one row."""
    fields = [f for f in HandPlayer._meta.concrete_fields if not f.primary_key]
    prepared = frozenset(f.attname for f in fields if f.get_internal_type() not in _PLAIN_TYPES)
    columns = ", ".join(column_name(HandPlayer, f.name) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return fields, prepared, f"INSERT INTO {table_name(HandPlayer)} ({columns}) VALUES ({marks})"


def _hand_player(
    hand: Hand, number: int, player: Player, state: engine.HandState, facts: dict[str, Any]
) -> HandPlayer:
    start = state.starting_stacks[number] or 0
    return HandPlayer(
        hand=hand,
        user=player.user,
        started_at=hand.started_at,
        seat=number,
        name=player.name,
        is_bot=player.is_bot,
        hole_cards=[engine.card_str(c) for c in state.hole_cards(number)],
        starting_stack=start,
        final_stack=state.stacks[number],
        net=state.stacks[number] - start,
        was_shown=state.has_shown[number],
        is_button=state.button == number,
        is_small_blind=state.small_blind_seat == number,
        is_big_blind=state.big_blind_seat == number,
        **facts,
    )
