"""What the transport alone costs per action: ``python scripts/bench_transport.py
[--tables 50] [--seconds 20] [--runs 3] [--shapes views,one-message,...]``.

Felt's stack with none of the game in it: two Daphne processes sharing one
listening socket (as ``make run`` starts them), Channels, the batched pub/sub
channel layer (config/adapters/channel_layer.py) on a Redis of its own. Each
table has six sockets; an "action" is one frame in, the change's group
messages, and a frame out to each of the six sockets, whose player whose turn
it is answers at once. No database, no snapshot building, no checks, no
Celery. It prints the actions per second and the processor time of the
Daphnes and Redis per action: the floor under the load test's figures
(docs/performance.md).

``--shapes`` runs other ways of carrying a change turn about with today's
(``views``: seven group messages, the spectators' and each player's, each with
a ~4 KB view): ``one-message`` (one group message per change holding every
viewer's frame, each socket picking its own), ``patches`` (frames of what an
action changes, ~400 bytes) and both together.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SEATS = 6
# The size of a player's view of a six-handed table in the middle of a hand.
VIEW_BYTES = 4000
# The size of a patch: what one action changes in that view (a seat, the pot,
# the log's new line, the decision and its deadline).
PATCH_BYTES = 400
# How a change reaches the sockets: one group message per viewer (the spectators'
# and each player's), or one per change holding every viewer's frame, each
# socket picking its own; with frames of a whole view or of a patch.
SHAPES = ("views", "one-message", "patches", "one-message-patches")


def make_application() -> Any:
    """The ASGI app each Daphne serves (imported by Daphne as ``bench_transport:application``)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    from config.platform.broadcast import send_all

    shape = os.environ["BENCH_TRANSPORT_SHAPE"]
    size = PATCH_BYTES if shape.endswith("patches") else VIEW_BYTES
    frame = '{"type":"snapshot","seq":%d,"viewer":%d,"table":{"padding":"' + "x" * size + '"}}'
    is_one_message = shape.startswith("one-message")

    class Seat(AsyncWebsocketConsumer):
        async def connect(self) -> None:
            kwargs = self.scope["url_route"]["kwargs"]
            self.table, self.seat = kwargs["table"], kwargs["seat"]
            group = f"b{self.table}" if is_one_message else f"b{self.table}-{self.seat}"
            await self.channel_layer.group_add(group, self.channel_name)
            await self.accept()

        async def receive(self, text_data: str | None = None, bytes_data: Any = None) -> None:
            seq = int(text_data or 0) + 1
            # Every viewer's frame differs (its own cards), the spectators' too.
            frames = {str(viewer): frame % (seq, viewer) for viewer in range(-1, SEATS)}
            if is_one_message:
                messages = [(f"b{self.table}", {"type": "frames", "frames": frames})]
            else:
                groups = {str(n): f"b{self.table}-{n}" for n in range(SEATS)}
                groups["-1"] = f"b{self.table}-public"
                messages = [
                    (groups[viewer], {"type": "frame", "frame": text})
                    for viewer, text in frames.items()
                ]
            await send_all(self.channel_layer, messages)

        async def frame(self, event: dict[str, Any]) -> None:
            await self.send(text_data=event["frame"])

        async def frames(self, event: dict[str, Any]) -> None:
            await self.send(text_data=event["frames"][str(self.seat)])

    # Django's path() is typed for views; Channels' URLRouter takes ASGI apps in it.
    routes: list[Any] = [path("ws/<int:table>/<int:seat>/", Seat.as_asgi())]  # type: ignore[arg-type]
    return ProtocolTypeRouter({"websocket": URLRouter(routes)})


if __name__ != "__main__" and os.environ.get("BENCH_TRANSPORT_SERVER") == "1":
    application = make_application()


async def play(tables: int, seconds: float, port: int, servers: list[Any]) -> tuple[float, float]:
    """Actions per second over ``seconds`` after a 5 s warm-up, and the ``servers``'
    processor time (ms) per action over the same time."""
    import websockets

    actions = 0

    async def table(number: int) -> None:
        nonlocal actions
        url = f"ws://127.0.0.1:{port}/ws/{number}/%d/"
        sockets = [await websockets.connect(url % seat, max_size=None) for seat in range(SEATS)]

        async def player(seat: int) -> None:
            nonlocal actions
            async for frame in sockets[seat]:
                start = str(frame).index('"seq":') + 6
                seq = int(str(frame)[start : str(frame).index(",", start)])
                if seq % SEATS == seat:  # this seat's turn: answer at once
                    actions += 1
                    await sockets[seat].send(str(seq))

        await sockets[0].send("0")
        await asyncio.gather(*(player(seat) for seat in range(SEATS)))

    running = [asyncio.create_task(table(number)) for number in range(tables)]
    await asyncio.sleep(5)
    before, started, cpu_before = actions, time.monotonic(), processor_seconds(servers)
    await asyncio.sleep(seconds)
    made, took = actions - before, time.monotonic() - started
    cpu = processor_seconds(servers) - cpu_before
    for task in running:
        task.cancel()
    return made / took, cpu * 1000 / made


def processor_seconds(processes: list[Any]) -> float:
    return sum(sum(process.cpu_times()[:2]) for process in processes)


def one_run(shape: str, tables: int, seconds: float) -> tuple[float, float]:
    import psutil

    from config.platform.embedded import EmbeddedRedis

    with tempfile.TemporaryDirectory(prefix="felt-bench-transport-") as home:
        redis = EmbeddedRedis(Path(home), persistent=False)
        redis.start()
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1024)
        listener.set_inheritable(True)
        port = listener.getsockname()[1]
        env = dict(
            os.environ,
            BENCH_TRANSPORT_SERVER="1",
            BENCH_TRANSPORT_SHAPE=shape,
            SECRET_KEY="bench-transport-only",
            REDIS_URL=redis.url,
            FELT_HOME=home,
            PYTHONPATH=str(ROOT / "scripts"),
        )
        env.pop("DATABASE_URL", None)
        command = [sys.executable, "-m", "daphne", "--fd", str(listener.fileno())]
        daphnes = [
            subprocess.Popen(
                [*command, "bench_transport:application"],
                pass_fds=(listener.fileno(),),
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(2)
        ]
        try:
            time.sleep(4)  # Django and Channels load
            assert redis.process is not None
            servers = [psutil.Process(p.pid) for p in [*daphnes, redis.process]]
            return asyncio.run(play(tables, seconds, port, servers))
        finally:
            for daphne in daphnes:
                daphne.terminate()
                daphne.wait()
            redis.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--shapes",
        default="views",
        help=f"comma-separated, run turn about: {', '.join(SHAPES)} (default: views)",
    )
    options = parser.parse_args()
    shapes = options.shapes.split(",")
    if not set(shapes) <= set(SHAPES):
        parser.error(f"--shapes: one or more of {', '.join(SHAPES)}")
    results: dict[str, list[tuple[float, float]]] = {shape: [] for shape in shapes}
    for run in range(1, options.runs + 1):
        for shape in shapes:
            rate, cpu = one_run(shape, options.tables, options.seconds)
            results[shape].append((rate, cpu))
            print(
                f"run {run} {shape}: {rate:.1f} actions/s, server CPU {cpu:.2f} ms per action",
                flush=True,
            )
    for shape, runs in results.items():
        rate = statistics.median(r for r, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"{shape}, median of {len(runs)}: {rate:.1f} actions/s, server CPU {cpu:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
