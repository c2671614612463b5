"""What a committed tournament change tells the sockets: the lobby, the table, members.

Every function registers its sends with ``transaction.on_commit``, so nothing
is told about a change that rolled back. Messages carry public facts only.
"""

from __future__ import annotations

import concurrent.futures
import threading
from typing import Any

from django.core.cache import cache
from django.db import close_old_connections, connection, transaction

from accounts.consumers import LOBBY_GROUP
from accounts.sessions import user_group
from config.platform.broadcast import Messages, log_failure, send, server_loop
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
            _tell_summary(tournament_id, [announcement])
            return
        queue_summary(tournament_id, announcement)

    transaction.on_commit(after_commit)


# Inside the server, a socket's command (a hand's end) has the summary built on this one
# thread, in order: the table's own snapshots go out meanwhile, and the thread that runs
# every table's commands is not held up (a summary reads every entry and seat).
_summary_thread = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="news")
# Summaries asked for while one of the same tournament waits its turn there are told
# with it: it reads the tournament when it runs, so it holds every change committed
# before then. A burst (the add-ons bought as the add-on level begins, several tables'
# hands ending at once) costs one summary, not one each. Tournament id -> the level
# announcements it is to carry (None: none).
_waiting: dict[int, list[str | None]] = {}
_waiting_lock = threading.Lock()


def queue_summary(tournament_id: int, announcement: str | None) -> None:
    """Has the news thread tell the tournament's summary, once for all asked meanwhile."""
    with _waiting_lock:
        waiting = _waiting.get(tournament_id)
        if waiting is not None:
            if announcement is not None:
                waiting.append(announcement)
            return
        _waiting[tournament_id] = [announcement]
    try:
        job = _summary_thread.submit(_tell_waiting_summary, tournament_id)
    except RuntimeError:  # the process is stopping: nothing will tell it
        with _waiting_lock:
            _waiting.pop(tournament_id, None)
        raise
    job.add_done_callback(log_failure)


def _tell_waiting_summary(tournament_id: int) -> None:
    with _waiting_lock:  # what is asked from now on waits for the next turn
        announcements = _waiting.pop(tournament_id)
    close_old_connections()
    try:
        _tell_summary(tournament_id, announcements)
    finally:  # its connection goes back now: the thread may wait long for the next one
        connection.close()


def _tell_summary(tournament_id: int, announcements: list[str | None]) -> None:
    """The summary once, with each level announcement asked for (or with none)."""
    from tournaments.selectors import summary

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return
    facts = summary(tournament)
    said: list[str | None] = [text for text in announcements if text is not None]
    messages: Messages = []
    for announcement in said or [None]:
        told = facts if announcement is None else {**facts, "announcement": announcement}
        message = {"type": "tournament.update", "tournament": told}
        messages.extend((group, message) for group in _audience(tournament))
    send(messages)


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
