"""A table as one viewer sees it: the protocol's TABLE (docs/protocol.md).

A snapshot is built ONLY from ``engine.views(state, viewer_seats)`` plus public
seat data, so it can never carry cards the viewer may not see. The host's part
(``host_fields``: who runs the table, whether it is paused, the blinds set for
the next hand, the approval settings and the sit-down requests) is the same for
every viewer and holds nothing secret.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import orjson

import engine
from tables import kinds
from tables.cut_view import public_cut
from tables.hand_results import hand_winners, your_hand
from tables.host_view import host_word_fields
from tables.ledger_summary import ledger_summary
from tables.models import Seat, Table
from tables.play import Play
from tables.reveal import hold_back, is_revealing, revealed_views


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with milliseconds and a Z, as the protocol writes times."""
    if moment is None:
        return None
    text = moment.astimezone(UTC).isoformat(timespec="milliseconds")
    return text.replace("+00:00", "Z")


def was_dealt_in(table: Table, seat: Seat, state: engine.HandState | None) -> bool:
    """True when this seat's current occupant plays (or played) the hand on display."""
    return (
        state is not None
        and seat.joined_at_hand < table.hand_number
        and state.is_dealt_in[seat.number]
    )


def decision_id(table: Table, state: engine.HandState | None) -> str | None:
    """Names the decision pending at the table: the hand and how far its log has got.

    An action names the decision it answers, and is refused only when that
    decision is gone (someone acted, or the hand ended). Nothing else that
    changes the table (a player sitting out elsewhere, a time bank starting)
    touches the hand's log, so an action in flight survives it.
    """
    if state is None or state.is_over or state.actor is None:
        return None
    return f"{table.hand_number}.{len(state.events)}"


def snapshot_frame(snapshot: dict[str, Any]) -> str:
    """The protocol's ``snapshot`` frame for one viewer's TABLE, as sent on the socket.

    Encoded with orjson: every change encodes one view per seated player, and the
    standard library's encoder took 16 times as long over a 4 KB view, a tenth of
    a live server's processor time (docs/performance.md). Integer keys become
    strings, as ``json.dumps`` writes them.
    """
    frame = {"type": "snapshot", "seq": snapshot["seq"], "table": snapshot}
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def build_snapshot(
    table: Table,
    seats: Mapping[int, Seat],
    state: engine.HandState | None,
    viewer: Seat | None,
    now: datetime,
) -> dict[str, Any]:
    """The protocol's TABLE for one viewer (``viewer`` None: a spectator)."""
    return build_snapshots(table, seats, state, [viewer], now)[0]


def build_snapshots(
    table: Table,
    seats: Mapping[int, Seat],
    state: engine.HandState | None,
    viewers: Sequence[Seat | None],
    now: datetime,
) -> list[dict[str, Any]]:
    """``build_snapshot`` for each of ``viewers``, sharing what they all see.

    The spectator's TABLE is built once; a viewer's differs from it only in their
    own seat's entry, their hand's log (their own cards dealt) and the fields
    named for them, so those are all a viewer's snapshot builds again. Every other
    seat's entry shows the same to any viewer: cards only once turned face up.
    """
    viewer_seats = [
        viewer.number if viewer and was_dealt_in(table, viewer, state) else None
        for viewer in viewers
    ]
    hand_views = engine.views(state, {None, *viewer_seats}) if state is not None else {}
    if is_revealing(table):  # an all-in run-out shown street by street (rule 30)
        hand_views = revealed_views(table, hand_views)
    public_hand = hand_views.get(None)
    seated = {viewer.user_id: viewer for viewer in viewers if viewer and viewer.user_id}
    results = kinds.of(table).results(table, seated) if seated else {}
    purchases = kinds.of(table).purchases(table, seated, now) if seated else {}
    is_running = state is not None and (not state.is_over or is_revealing(table))
    deal = kinds.of(table).deal_fields(table, seats, is_running, now)
    spectators = {
        **_snapshot(table, seats, state, None, public_hand, now),
        "ledger": ledger_summary(table, seats),
        **host_fields(table),
        **rebuy_fields(table),
        **kinds.of(table).public_fields(table, seats),
        "waiting_for": waiting_for(table, seats, state, now),
        "cut": public_cut(table.cut, is_hand_running=is_running),
        "your_result": None,
        "your_purchases": None,
        "deal": deal["deal"],
        "deal_figures": deal["deal_figures"],
        "can_propose_deal": False,
    }
    snapshots = [
        _viewer_snapshot(
            spectators,
            public_hand,
            viewer,
            hand_views.get(seat),
            (results, purchases, deal["deal_proposers"]),
            table,
            seats,
            state,
        )
        if viewer is not None
        else dict(spectators)
        for viewer, seat in zip(viewers, viewer_seats, strict=True)
    ]
    if is_revealing(table):
        for snapshot in snapshots:
            hold_back(snapshot)
    return snapshots


def _viewer_snapshot(
    spectators: dict[str, Any],
    public_hand: dict[str, Any] | None,
    viewer: Seat,
    hand_view: dict[str, Any] | None,
    kind_fields: tuple[Mapping[int, Any], Mapping[int, Any], Sequence[int]],
    table: Table,
    seats: Mapping[int, Seat],
    state: engine.HandState | None,
) -> dict[str, Any]:
    """The spectators' TABLE with what is ``viewer``'s own put in (``kind_fields``:
    the kind's results and purchases by user id, and the seats that may propose a deal)."""
    results, purchases, proposers = kind_fields
    seat_entries = list(spectators["seats"])
    if 0 <= viewer.number < len(seat_entries):
        own = seats.get(viewer.number)
        seat_entries[viewer.number] = _seat_entry(
            table, viewer.number, own, hand_view, state, viewer
        )
    # A viewer not dealt in sees the hand as a spectator does: the same object.
    is_spectators_hand = hand_view is public_hand
    return {
        **spectators,
        "your_seat": viewer.number,
        "your_hand": your_hand(hand_view, viewer),
        "your_hand_second_board": your_hand(hand_view, viewer, run=1),
        "seats": seat_entries,
        "hand": spectators["hand"] if is_spectators_hand else _hand_entry(table, hand_view),
        "legal": _legal(hand_view),
        "your_result": results.get(viewer.user_id) if viewer.user_id else None,
        "your_purchases": purchases.get(viewer.user_id) if viewer.user_id else None,
        "can_propose_deal": viewer.number in proposers,
    }


def waiting_for(
    table: Table, seats: Mapping[int, Seat], state: engine.HandState | None, now: datetime
) -> str | None:
    """Why the table deals nothing, in words; None while a hand is in play or coming.

    The table's kind answers from the same seats and rules the write path uses
    to decide whether to deal (``TableBehaviour.waiting_for``).
    """
    if state is not None and not state.is_over:
        return None
    return kinds.of(table).waiting_for(Play(table, dict(seats), state, now))


def rebuy_fields(table: Table) -> dict[str, Any]:
    """Whether a busted player here may rebuy, and (practice tables) whether they get a
    fresh stack by themselves when they bust; null where that is not offered."""
    behaviour = kinds.of(table)
    return {
        "rebuys": behaviour.allows_rebuys,
        "auto_rebuy": table.auto_rebuy if behaviour.offers_auto_rebuy else None,
    }


def _snapshot(
    table: Table,
    seats: Mapping[int, Seat],
    state: engine.HandState | None,
    viewer: Seat | None,
    hand_view: dict[str, Any] | None,
    now: datetime,
) -> dict[str, Any]:
    is_running = state is not None and not state.is_over
    to_act = state.actor if is_running and state is not None else None
    return {
        "id": table.pk,
        "seq": table.seq,
        "name": table.name,
        "kind": table.kind,
        "seat_count": table.seat_count,
        "small_blind": table.small_blind,
        "big_blind": table.big_blind,
        "ante": table.ante,
        # A tournament's level (1 = the first) and when the next one starts.
        "tournament_id": table.tournament_id,
        "level": table.level + 1 if table.tournament_id is not None else None,
        "level_ends_at": iso(table.level_ends_at),
        "starting_stack": table.starting_stack,
        "action_seconds": table.action_seconds,
        "game": table.game,  # the next hand's; the hand on display says its own
        "options": options_fields(table),
        "hand_number": table.hand_number,
        "your_seat": viewer.number if viewer else None,
        "your_hand": your_hand(hand_view, viewer),
        "your_hand_second_board": your_hand(hand_view, viewer, run=1),
        "seats": [
            _seat_entry(table, number, seats.get(number), hand_view, state, viewer)
            for number in range(table.seat_count)
        ],
        "hand": _hand_entry(table, hand_view),
        "to_act": to_act,
        "decision": decision_id(table, state),
        "commitment": table.commitment or None,  # the hand on display's sealed deck
        "deadline": iso(table.deadline) if is_running else None,
        "server_time": iso(now),
        "is_time_bank": table.is_time_bank if is_running else False,
        "next_hand_at": iso(table.next_hand_at) if not is_running else None,
        # The host ended the game: when (null while it goes on), or will after this hand.
        "closed_at": iso(table.closed_at),
        "closes_after_hand": table.closes_after_hand,
        "legal": _legal(hand_view),
    }


def _seat_entry(
    table: Table,
    number: int,
    seat: Seat | None,
    hand_view: dict[str, Any] | None,
    state: engine.HandState | None,
    viewer: Seat | None,
) -> dict[str, Any]:
    if seat is None:
        return {"seat": number, "occupied": False}
    in_hand = hand_view is not None and was_dealt_in(table, seat, state)
    played = hand_view["seats"][seat.number] if hand_view is not None and in_hand else None
    roles = hand_view or {}
    return {
        "seat": seat.number,
        "occupied": True,
        "name": seat.name,
        "is_bot": seat.is_bot,
        "is_you": viewer is not None and viewer.number == seat.number,
        # Once the hand is over the seat's own stack is the one to show: the hand's
        # final stack, or a rebuy made since.
        "stack": played["stack"] if played and not roles.get("is_over") else seat.stack,
        "bet": played["bet"] if played else 0,
        "is_sitting_out": seat.is_sitting_out,
        "has_timed_out": seat.has_timed_out,
        "waits_for_big_blind": seat.has_missed_big_blind and not seat.is_sitting_out,
        "is_leaving": seat.is_leaving,
        "is_removed": seat.is_removed,
        "disconnected_since": iso(seat.disconnected_at),
        "wants_rebuy": seat.wants_rebuy,
        "is_muted": seat.user_id is not None and seat.user_id in table.muted_user_ids,
        "is_dealt_in": played is not None,
        "has_folded": bool(played and played["has_folded"]),
        "is_all_in": bool(played and played["is_all_in"]),
        "is_to_act": bool(played and played["is_to_act"]),
        "is_button": roles.get("button") == seat.number,
        "is_small_blind": roles.get("small_blind_seat") == seat.number,
        "is_big_blind": roles.get("big_blind_seat") == seat.number,
        "is_straddle": roles.get("straddle_seat") == seat.number,
        "wants_straddle": seat.wants_straddle,
        "cards": played["cards"] if played else None,
        "time_bank": round(seat.time_bank, 1),
    }


def _hand_entry(table: Table, hand_view: dict[str, Any] | None) -> dict[str, Any] | None:
    if hand_view is None:
        return None
    log = hand_view["log"]
    if table.timed_out_events:  # the log's entries are shared between viewers: copies
        log = list(log)
        for index in table.timed_out_events:
            if index < len(log):
                log[index] = {**log[index], "timed_out": True}
    return {
        "game": hand_view["game"],
        "street": hand_view["street"],
        "is_over": hand_view["is_over"],
        "board": hand_view["board"],
        "second_board": hand_view["second_board"],
        "straddle_seat": hand_view["straddle_seat"],
        "bomb_pot": hand_view["bomb_pot"],
        "runout": _runout_question(table, hand_view),
        "pots": [{"amount": p["amount"], "seats": p["eligible"]} for p in hand_view["pots"]],
        "current_bet": hand_view["current_bet"],
        "button": hand_view["button"],
        "small_blind_seat": hand_view["small_blind_seat"],
        "big_blind_seat": hand_view["big_blind_seat"],
        "log": log,
        "winners": hand_winners(log, hand_view) if hand_view["is_over"] else [],
        "is_revealing": hand_view.get("is_revealing", False),
        "names": table.hand_names or None,
    }


def _runout_question(table: Table, hand_view: dict[str, Any]) -> dict[str, Any] | None:
    """While the players all-in choose whether to run it twice (rule 25): who is
    asked, and who has answered what; the question closes at the snapshot's deadline."""
    if not hand_view["runout_pending"]:
        return None
    asked = [s["seat"] for s in hand_view["seats"] if s["is_dealt_in"] and not s["has_folded"]]
    return {"seats": asked, "answers": {int(n): yes for n, yes in table.runout_answers.items()}}


def options_fields(table: Table) -> dict[str, Any]:
    """The table's home-game options for the next hand (docs/rules.md rules 23-25)."""
    return {
        "straddle": table.allows_straddle,
        "run_it_twice": table.offers_run_it_twice,
        "bomb_pot_ante": table.bomb_pot_ante,
        "bomb_pot_every": table.bomb_pot_every,
        "bomb_pot_next": table.bomb_pot_next,
    }


def _legal(hand_view: dict[str, Any] | None) -> dict[str, Any] | None:
    legal = hand_view["legal_actions"] if hand_view else None
    if not legal or hand_view is None or hand_view["is_over"]:
        return None
    return {
        "can_check": legal["can_check"],
        "call_amount": legal["call_amount"],
        "min_raise_to": legal["min_raise_to"],
        "max_raise_to": legal["max_raise_to"],
    }


def host_fields(table: Table) -> dict[str, Any]:
    if not kinds.of(table).has_host:
        return {
            "host_user_id": None,
            "is_paused": False,
            "next_blinds": None,
            "rebuy_approval": False,
            "seat_approval": False,
            "listed": False,
            **host_word_fields(table),
        }
    return {
        "host_user_id": table.host_id,
        "is_paused": table.is_paused,
        "next_blinds": _next_blinds(table),
        "rebuy_approval": table.is_rebuy_approved_by_host,
        "seat_approval": table.is_seating_approved_by_host,
        "listed": table.is_listed,  # in the lobby, or by its link only
        **host_word_fields(table),
    }


def _next_blinds(table: Table) -> dict[str, int] | None:
    if table.next_small_blind is None or table.next_big_blind is None:
        return None
    return {
        "small_blind": table.next_small_blind,
        "big_blind": table.next_big_blind,
        "ante": table.next_ante or 0,
    }
