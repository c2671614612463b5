"""A deal at a tournament's final table, proposed and answered from the table
(rule 28; the tournament's side is ``TableBehaviour.propose_deal`` and
``answer_deal``, ``tournaments/services/deals.py``)."""

from __future__ import annotations

from accounts.models import User
from tables import kinds
from tables.services.seats import at_own_seat


def deal_propose(
    *,
    table_id: int,
    user: User,
    method: str,
    amounts: dict[int, int] | None,
    kept_for_winner: int,
) -> int:
    """The player proposes a deal between hands; play pauses while the others answer."""
    return at_own_seat(
        table_id,
        user,
        lambda play, seat: kinds.of(play.table).propose_deal(
            play, seat, method, amounts, kept_for_winner
        ),
    )


def deal_answer(*, table_id: int, user: User, accept: bool) -> int:
    """The player accepts or refuses the deal waiting for their answer."""
    return at_own_seat(
        table_id, user, lambda play, seat: kinds.of(play.table).answer_deal(play, seat, accept)
    )
