"""What a committed tournament change tells the sockets: the lobby, the table, members.

Every function registers its sends with ``transaction.on_commit``, so nothing
is told about a change that rolled back. Messages carry public facts only.
"""

from __future__ import annotations

import concurrent.futures
from typing import Any

from django.core.cache import cache
from django.db import close_old_connections, connection, transaction

from accounts.consumers import LOBBY_GROUP
from accounts.sessions import user_group
from config.platform.broadcast import log_failure, send, server_loop
from tables.groups import public_group
from tournaments.models import Membership, Tournament

# Stacks change every hand; the lobby and the tournament's page hear of a hand that
# put nobody out at most this often per tournament (eliminations, starts, levels and
# finishes always go at once).
STACKS_EVERY = 5.0  # seconds


def lobby_update(
    tournament_id: int, *, is_stacks_only: bool = False, announcement: str | None = None
) -> None:
    """Once committed: the tournament's summary to every lobby socket (with the level
    ``announcement``, "Blinds 25/50 from the next hand", when a level begins); a club's
    tournament only to its members' sockets."""
    if is_stacks_only:
        try:
            if not cache.add(f"tournaments:stacks:{tournament_id}", 1, STACKS_EVERY):
                return
        except Exception:  # no cache: tell the lobby, as if it were due
            pass

    def after_commit() -> None:
        if server_loop() is None:  # a Celery task, a view, a script: told at once
            _tell_summary(tournament_id, announcement)
            return
        job = _summary_thread.submit(_tell_summary_from_own_thread, tournament_id, announcement)
        job.add_done_callback(log_failure)

    transaction.on_commit(after_commit)


# Inside the server, a socket's command (a hand's end) has the summary built on this one
# thread, in order: the table's own snapshots go out meanwhile, and the thread that runs
# every table's commands is not held up (a summary reads every entry and seat).
_summary_thread = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="news")


def _tell_summary_from_own_thread(tournament_id: int, announcement: str | None) -> None:
    close_old_connections()
    try:
        _tell_summary(tournament_id, announcement)
    finally:  # its connection goes back now: the thread may wait long for the next one
        connection.close()


def _tell_summary(tournament_id: int, announcement: str | None) -> None:
    from tournaments.selectors import summary

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:
        facts = summary(tournament)
        if announcement is not None:
            facts["announcement"] = announcement
        message = {"type": "tournament.update", "tournament": facts}
        send([(group, message) for group in _audience(tournament)])


def _audience(tournament: Tournament) -> list[str]:
    if tournament.club_id is None:
        return [LOBBY_GROUP]
    members = Membership.objects.filter(
        club_id=tournament.club_id, status=Membership.Status.ACTIVE
    ).values_list("user_id", flat=True)
    return [user_group(user_id) for user_id in members]


def user_notices(notices: list[tuple[int, dict[str, Any]]]) -> None:
    """Once committed: each (user id, notice) to every open Felt page of that member."""
    messages = [(user_group(uid), {"type": "user.notice", "notice": n}) for uid, n in notices]
    if messages:
        transaction.on_commit(lambda: send(messages))


def table_notice(table_id: int, notice: dict[str, Any]) -> None:
    """Once committed: a notice to everyone at the table, spectators and players (every
    socket at a table is in its public group)."""
    message = {"type": "table.notice", "notice": notice}
    transaction.on_commit(lambda: send([(public_group(table_id), message)]))
