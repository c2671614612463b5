"""Run it twice at a table that offers it (docs/rules.md rule 25): the players'
answers, and the question's time running out.

When the players in the pot are all-in before the river, the engine stops with
``runout_pending`` and ``play.ask_runouts`` asks each of them, for
``TABLES_RUNOUT_QUESTION_SECONDS``: the board runs twice only if every one of
them says yes. One "no" settles it at once; a player who does not answer, is
away (rule 20) or has left says no; a bot says yes, so it never stands in the
humans' way. The answers so far are ``Table.runout_answers``, by seat.

Every all-in run-out, once or twice, is then revealed one step at a time
(docs/rules.md rule 30): ``play.finish_hand`` sets ``Table.runout_revealed``
to 0 and each wake-up (``runout_reveal``) puts one more street on the felt,
then the result, so the snapshots learn nothing before the felt shows it.
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


def runout_reveal(*, table_id: int, seq: int) -> bool:
    """The next step of an all-in run-out's reveal is due (the wake task or the sweep):
    one more street, or the result. False if not due."""
    with transaction.atomic():
        play = p.lock(table_id, seq)
        table = play.table
        due = table.wake_at
        if table.runout_revealed is None or due is None or due > play.now:
            return False
        p.runout_reveal_step(play)
        p.commit(play)
        return True
