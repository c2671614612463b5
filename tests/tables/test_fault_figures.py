"""What the fault drill reports of each fault (`tables/loadtest/faults.py`): when every
table played again, hands lost, and the bar each fault is held to."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter

import pytest

from tables.loadtest.clients import Player
from tables.loadtest.drill import stop_all
from tables.loadtest.faults import (
    Books,
    DrillClient,
    Progress,
    Tally,
    Visitor,
    hands_lost,
    judge,
)
from tables.loadtest.soak import SoakStats
from tables.models import Hand
from tests.support.live import free_port
from tests.tables.helpers import act, deal, friends_table


def test_a_table_plays_again_at_its_first_move_after_the_server_came_back() -> None:
    progress = Progress()
    for seq, at in [(3, 1.0), (4, 2.0), (4, 2.5), (2, 3.0), (5, 7.0)]:
        progress.saw(1, seq, at)  # the same seq again, or an older one, is no move
    assert progress.moves[1] == [1.0, 2.0, 7.0]
    assert progress.first_move_after(1, 2.0) == 7.0
    assert progress.first_move_after(1, 7.0) is None
    assert progress.first_move_after(2, 0.0) is None, "a table never seen never moved"


def test_a_drill_player_notes_each_snapshot_of_its_table() -> None:
    progress = Progress()
    stats = SoakStats()
    client = DrillClient(Player(7, 0, "key", "drill-a"), "http://x", stats, [], progress)
    seats = [{"seat": 0, "occupied": True, "is_you": True, "stack": 100}]
    table = {"id": 7, "seq": 9, "seats": seats, "hand": None, "legal": None, "decision": None}
    table |= {"next_hand_at": "soon", "waiting_for": None, "hand_number": 1}
    client.on_frame({"type": "snapshot", "seq": 9, "table": table}, received_at=1.0)
    assert progress.seq == {7: 9}


@pytest.mark.django_db
def test_a_hand_dealt_without_a_record_or_left_unfinished_is_lost(alice, bob) -> None:
    table = friends_table(alice, bob)
    deal(table)
    act(table, "fold")
    deal(table)
    assert hands_lost([table.pk]) == [], "the hand in play is not lost"
    Hand.objects.filter(table=table, number=1).update(ended_at=None)
    assert hands_lost([table.pk]) == [f"table {table.pk} hand 1: never ended"]
    Hand.objects.filter(table=table, number=1).delete()
    assert hands_lost([table.pk]) == [f"table {table.pk} hand 1: dealt, never recorded"]


def tally(**changes: object) -> Tally:
    counts: dict[str, object] = {
        "drops": 0, "reconnects": 0, "away": 0, "timed_out": 0,
        "failed_handshakes": Counter(), "server_errors": Counter(),
        "refused_players": Counter(), "visits": Counter(),
    }  # fmt: skip
    return Tally(**(counts | changes))  # type: ignore[arg-type]


def test_a_fault_meets_the_bar_only_with_every_table_back_and_nothing_shown_or_lost() -> None:
    progress = Progress()
    progress.saw(1, 5, 12.0)
    progress.saw(2, 8, 14.5)
    stats = SoakStats(reconnects=[0.5, 1.5])

    def fault(after: Tally, books: Books | None = None) -> list[str]:
        return judge(
            "a fault", window=(9.0, 10.0, 30.0), progress=progress, table_ids=[1, 2],
            counts=(tally(), after), stats=stats, books=(Books(), books or Books()),
            server_log=(Counter(), Counter()),
        ).failures()  # fmt: skip

    clean = judge(
        "a fault", window=(9.0, 10.0, 30.0), progress=progress, table_ids=[1, 2],
        counts=(tally(), tally(drops=2, reconnects=2)), stats=stats, books=(Books(), Books()),
        server_log=(Counter(), Counter({"tracebacks": 1})),
    )  # fmt: skip
    assert clean.failures() == [] and clean.recovered_in == 4.5 and clean.slowest_table == 2
    assert clean.reconnect_seconds == [0.5, 1.5] and clean.server_log == {"tracebacks": 1}
    assert fault(tally(refused_players=Counter(a=1))) == [], "one refused command is allowed"
    assert fault(tally(refused_players=Counter(a=2))) == ["a player was refused 2 commands ({})"]
    assert fault(tally(failed_handshakes=Counter({"HTTP 500": 2, "refused": 9}))) == [
        "HTTP 5xx shown: {'handshake 500': 2}"
    ]
    assert fault(tally(visits=Counter({"page 500": 1, "socket HTTP 503": 1, "page 200": 5}))) == [
        "HTTP 5xx shown: {'page 500': 1, 'socket HTTP 503': 1}"
    ]
    assert fault(tally(), Books(1, ["table 1: off"], ["table 1 hand 2: never ended"])) == [
        "1 hands lost: ['table 1 hand 2: never ended']",
        "chips off: ['table 1: off']",
    ]
    assert fault(tally(away=1)) == ["1 players never came back"]
    progress.moves[2] = [9.5]  # table 2 has not moved since the server came back
    assert fault(tally()) == ["1 tables did not play again: [2]"]
    progress.moves[2] = [21.0]
    assert fault(tally()) == ["every table played again only after 11.0 s"]


async def test_a_visitor_counts_what_a_page_and_a_socket_answered_when_nothing_serves() -> None:
    visitor = Visitor()
    player = Player(1, 0, "key", "drill-a")
    url = f"http://127.0.0.1:{free_port()}"
    assert await visitor.open(DrillClient(player, url, SoakStats(), [], Progress())) == "refused"
    assert Visitor.load(url, "sessionid=key") == "no answer"


async def test_the_drill_stops_a_player_that_missed_its_cancellation() -> None:
    still_playing = []

    async def player_that_swallows_one_cancellation() -> None:
        # As 3.11's asyncio.wait_for does when a frame arrives at that moment.
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(3600)
        still_playing.append(True)
        await asyncio.sleep(3600)

    playing = [asyncio.create_task(player_that_swallows_one_cancellation())]
    await asyncio.sleep(0)  # the player is under way
    async with asyncio.timeout(10):
        await stop_all(playing)
    assert still_playing == [True]  # it did play on after the first cancellation
    assert playing[0].cancelled()
