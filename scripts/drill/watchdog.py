"""The fault drill's watchdog: a drill that has not finished well past the time its
options allow is stuck somewhere (a server that never came back, a read that
never returned), and waiting for an outer timeout would say nothing of where.

When its time runs out, the watchdog writes every thread's stack and every
asyncio task's to stderr, with the last thing the drill said it was doing, then
runs ``stop`` (the drill's servers and nodes, so nothing is left running) and
ends the process with ``EXIT_CODE``: the drill could not run to its end.
"""

from __future__ import annotations

import asyncio
import faulthandler
import os
import sys
import threading
from collections.abc import Callable

EXIT_CODE = 2
STOP_SECONDS = 60.0  # for ``stop``, before the process ends regardless
TASKS_SECONDS = 2.0  # for the event loop to list its tasks


class Watchdog:
    """Ends the process ``seconds`` after ``start`` unless ``cancel`` came first."""

    def __init__(self, seconds: float, stop: Callable[[], None], where: Callable[[], str]):
        self.seconds = seconds
        self.stop = stop
        self.where = where  # the drill's last stage, for the message
        self.loop: asyncio.AbstractEventLoop | None = None
        self.cancelled = threading.Event()
        self.thread = threading.Thread(target=self.watch, name="watchdog", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def cancel(self) -> None:
        self.cancelled.set()

    def watch_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop whose tasks to list if the drill hangs in it."""
        self.loop = loop

    def watch(self) -> None:
        if self.cancelled.wait(self.seconds):
            return
        print(
            f"\nThe drill hung: not finished after {self.seconds:.0f} s; its last stage: "
            f"{self.where()}. Every thread's stack, then every task's:",
            file=sys.stderr,
            flush=True,
        )
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        self.print_tasks()
        stopping = threading.Thread(target=self.stop, daemon=True)
        stopping.start()
        stopping.join(STOP_SECONDS)
        os._exit(EXIT_CODE)  # the main thread is the one stuck: end it from here

    def print_tasks(self) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        listed = threading.Event()

        def list_tasks() -> None:
            for task in asyncio.all_tasks(loop):
                task.print_stack(limit=8, file=sys.stderr)
            listed.set()

        try:
            loop.call_soon_threadsafe(list_tasks)
        except RuntimeError:  # the loop closed meanwhile
            return
        if not listed.wait(TASKS_SECONDS):
            print("(the event loop did not answer: it is blocked)", file=sys.stderr, flush=True)
