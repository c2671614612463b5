"""The players' cut at a live table (docs/fairness.md, "The cut"; engine/cut.py).

The order of one table's hands, N-1 and N:

1. Commit: the table takes commitments for the hand named by ``Table.cut["open"]``
   (an opaque reference, never the table or the hand's number), one per seated
   player, from their ``cut`` message; a new one replaces the seat's last.
2. Seal: once hand N is planned (the end of hand N-1, or a first hand's plan), its
   deck is shuffled and sealed (``SealedDeck``), the open list is closed into
   ``sealed`` (those still seated, humans, not away and connected), and a new
   reference opens for the hand after.
3. Reveal: each player on the list sends its value; a value that does not open its
   commitment is refused.
4. Cut and deal: at its time, the deal waits up to ``TABLES_CUT_WAIT_SECONDS`` for a
   value still missing (one that then arrives deals at once), then cuts with the
   values it has (``engine.make_cut``) and deals the sealed deck in the cut's order.

The players' messages are tables/services/contributions.py.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils.dateparse import parse_datetime

import engine
from config.adapters.compiled_query import CompiledQuery
from tables.failures import note_failure
from tables.models import SealedDeck
from tables.play import Play, is_away
from tables.snapshot import iso
from tables.sql import save_fields

REF_BYTES = 16
SEALED_FIELDS = ("hand_ref", "commitment", "cards", "salts", "leaves")
_sealed_deck = CompiledQuery(lambda table_id: SealedDeck.objects.filter(table_id=table_id))


def new_ref() -> str:
    """A hand's reference in the cut: random, so it tells nothing of table or number."""
    return secrets.token_hex(REF_BYTES)


def open_for_commitments(play: Play) -> None:
    """Make sure the table takes commitments for some hand (a new table, or one from
    before the cut)."""
    cut = play.table.cut
    if "open" not in cut:
        play.table.cut = {**cut, "open": {"hand": new_ref(), "commitments": {}}}


def may_contribute(play: Play, seat_key: str) -> bool:
    """A seat whose player can reveal in time: seated, human, not away, connected."""
    seat = next((s for s in play.seats.values() if str(s.pk) == seat_key), None)
    return (
        seat is not None and not seat.is_bot and not is_away(seat) and seat.disconnected_at is None
    )


def seal_next_deck(play: Play) -> None:
    """Shuffle and seal the next hand's deck and close its list of commitments, unless
    one is sealed already (its values may be out: it is never sealed again)."""
    open_for_commitments(play)
    cut = play.table.cut
    if "sealed" in cut:
        return
    cards = engine.new_deck()
    seal = engine.seal_deck(cards)
    row = SealedDeck(
        table_id=play.table.pk,
        hand_ref=cut["open"]["hand"],
        commitment=seal.commitment,
        cards=list(cards),
        salts=list(seal.salts),
        leaves=list(seal.leaves),
    )
    if not save_fields(row, SEALED_FIELDS):  # one row per table, written over each hand
        row.save(force_insert=True)
    listed = {
        key: commitment
        for key, commitment in cut["open"]["commitments"].items()
        if may_contribute(play, key)
    }
    play.table.cut = {
        **cut,
        "open": {"hand": new_ref(), "commitments": {}},
        "sealed": {
            "hand": cut["open"]["hand"],
            "seal": seal.commitment,
            "commitments": listed,
            "values": {},
        },
    }


def missing_values(sealed: dict[str, Any]) -> bool:
    """Whether a value on the sealed hand's list has not been revealed."""
    return len(sealed["values"]) < len(sealed["commitments"])


def is_waiting_for_values(play: Play) -> bool:
    """Hand N is due but a listed value is missing: wait for it, up to the bound. The
    first time, the wait's end is set and the deal moved to it."""
    sealed = play.table.cut.get("sealed")
    if sealed is None or not missing_values(sealed):
        return False
    until = sealed.get("wait_until")
    if until is None:
        planned = play.table.next_hand_at or play.now
        moment = max(planned, play.now) + timedelta(seconds=settings.TABLES_CUT_WAIT_SECONDS)
        play.table.cut = {**play.table.cut, "sealed": {**sealed, "wait_until": iso(moment)}}
        play.table.next_hand_at = play.table.wake_at = moment
        return True
    until_moment = parse_datetime(until)
    return until_moment is not None and play.now < until_moment


def deck_for_deal(play: Play) -> tuple[tuple[int, ...], engine.DeckSeal, dict[str, Any]]:
    """The deck hand N is dealt (the sealed deck in the cut's order), its seal over the
    sealed order, and the cut's record; the next hand opens for commitments."""
    seal_next_deck(play)  # a hand dealt at once (a practice table's first) is cut by nobody
    cut = play.table.cut
    sealed = cut["sealed"]
    row = next(iter(_sealed_deck.rows(play.table.pk)), None)
    if row is None or (row.hand_ref, row.commitment) != (sealed["hand"], sealed["seal"]):
        # Never written apart (seal_next_deck): a row lost by hand, say.
        note_failure(
            "cut",
            table_id=play.table.pk,
            hand_number=play.table.hand_number,
            error=RuntimeError("the sealed deck is missing; dealing uncut"),
        )
        play.table.cut = {"open": cut["open"]}
        seal_next_deck(play)
        return deck_for_deal(play)
    values = sealed["values"]
    contributions = [(c, values.get(key)) for key, c in sealed["commitments"].items()]
    made = engine.make_cut(sealed["hand"], row.commitment, contributions)
    seal = engine.DeckSeal(tuple(row.salts), tuple(row.leaves), row.commitment)
    record = made.as_json()
    play.table.cut = {"open": cut["open"], "dealt": record}
    return engine.cut_deck(row.cards, made.permutation), seal, record
