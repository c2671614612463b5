"""Run it twice at a table that offers it (docs/rules.md rule 25): the players'
answers, and the question's time running out.

When the players in the pot are all-in before the river, the engine stops with
``runout_pending`` and ``play.ask_runouts`` asks each of them, for
``TABLES_RUNOUT_QUESTION_SECONDS``: the board runs twice only if every one of
them says yes. One "no" settles it at once; a player who does not answer, is
away (rule 20) or has left says no; a bot says yes, so it never stands in the
humans' way. The answers so far are ``Table.runout_answers``, by seat.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from tables.errors import IllegalMove, NotSeated
from tables.services import play as p


def runout_answer(*, table_id: int, user: User, run_twice: bool) -> int:
    """The seated ``user``, in the pot, answers whether to run the board twice;
    returns the new seq."""
    with transaction.atomic():
        play = p.lock(table_id)
        seat = play.seat_of(user)
        if seat is None:
            raise NotSeated()
        state = play.state
        if state is None or not state.runout_pending:
            raise IllegalMove("Nobody is being asked to run it twice now.")
        if seat.number not in p.runout_askees(state):
            raise IllegalMove("Only the players in the pot choose how to run the board.")
        if str(seat.number) in play.table.runout_answers:
            raise IllegalMove("You have already answered.")
        play.table.runout_answers = {**play.table.runout_answers, str(seat.number): run_twice}
        p.settle_runouts_if_answered(play)
        p.commit(play)
        return play.table.seq


def runout_timeout(*, table_id: int, seq: int) -> bool:
    """The question's time ran out: whoever did not answer said no. False if not due."""
    with transaction.atomic():
        play = p.lock(table_id, seq)
        state = play.state
        deadline = play.table.deadline
        if state is None or not state.runout_pending or deadline is None or deadline > play.now:
            return False
        p.settle_runouts(play, 1)
        p.commit(play)
        return True
