"""A fault drill: Felt's nodes behind a balancer, soak players playing through it,
and one fault after another, each judged on what the players saw.

    .venv/bin/python scripts/fault_drill.py [--nodes 2] [--faults node,beat-node,redis,postgres]

By default it starts its own Redis and its own PostgreSQL cluster (in a
temporary directory, on ports from ``--port``), so the faults it makes touch
nobody else's servers; ``--redis-url`` and ``--database-url`` name others
instead, and then it does not restart them. Each node is ``scripts/run.py``
(what ``make run`` starts: Daphne, a Celery worker and Celery beat; with
``--beat one``, beat on the first node only). Then, in turn: ``node`` kills -9
every process of the node without the beat, ``beat-node`` those of the node
with it, ``redis`` kills Redis and starts it again (empty) after ``--outage``
seconds, ``postgres`` stops PostgreSQL at once (``-m immediate``) and starts
it again after ``--outage`` seconds. A killed node is started again once its
fault's window has ended.

For each fault it prints how long until every table played again, the tables
that did not, hands lost, chips off, HTTP 5xx and error frames shown to
players, their reconnects, and what the nodes' logs said; and whether that
meets issue 42's bar (``tables/loadtest/faults.py``). Exit code 0 when every
fault does, 1 when one misses it, 2 when the drill could not be set up or hung:
a drill still running well past what its options allow is ended by its
watchdog (``drill/watchdog.py``), which prints every stack, stops what the
drill started and leaves its directory for reading.
``docs/deploy.md``, "Fault drill", says more.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import logging
import os
import secrets
import shutil
import signal
import socket
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from random import Random
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from drill.nodes import Node  # noqa: E402
from drill.proxy import Balancer  # noqa: E402
from drill.servers import PrivateCluster, PrivateRedis, ServerError, create_database  # noqa: E402
from drill.watchdog import Watchdog  # noqa: E402

FAULTS = ("node", "beat-node", "redis", "postgres")
DATABASE_NAME = "felt_drill"
# Every pause short, so a table that plays moves at least every few seconds and
# "played again" is measured to within one.
NODE_SETTINGS = {
    "TABLES_NEXT_HAND_SECONDS": "1",
    "TABLES_SHOWDOWN_SECONDS": "1.5",
    "TABLES_RUNOUT_STREET_SECONDS": "0.3",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "LOG_LEVEL": "WARNING",
}


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add = parser.add_argument
    add("--nodes", type=int, choices=(1, 2), default=2)
    add("--faults", default=",".join(FAULTS), help=f"in order, from {', '.join(FAULTS)}")
    add(
        "--proxy",
        choices=("auto", "haproxy", "builtin", "none"),
        default="auto",
        help="the balancer in front of the nodes (none: one node, reached straight)",
    )
    add(
        "--beat",
        choices=("one", "every"),
        default="every",
        help="Celery beat on each node (docs/deploy.md), or on the first only, as "
        "deployments did before issue 42",
    )
    add("--redis-url", help="a Redis to use instead of the drill's own (not restarted)")
    add("--database-url", help="a PostgreSQL database to use instead (not restarted)")
    add(
        "--port",
        type=int,
        default=18400,
        help="the balancer's port; the nodes take the next two, Redis and PostgreSQL the "
        "tenth and eleventh after it (0: any free ports)",
    )
    add("--web-processes", type=int, default=1, help="Daphnes per node")
    add("--practice", type=int, default=6, help="practice tables")
    add("--friends", type=int, default=6, help="friends' tables")
    add(
        "--steady",
        type=float,
        default=8.0,
        help="seconds of play before the first fault and after each",
    )
    add(
        "--watch",
        type=float,
        default=30.0,
        help="seconds each fault is watched for every table to play again",
    )
    add("--outage", type=float, default=3.0, help="seconds Redis or PostgreSQL stays down")
    add("--seed", type=int, default=1)
    add("--json", type=Path, help="also write the figures here, as JSON")
    add("--keep", action="store_true", help="keep the drill's directory")
    options = parser.parse_args(argv)
    options.fault_list = [name.strip() for name in options.faults.split(",") if name.strip()]
    unknown = [name for name in options.fault_list if name not in FAULTS]
    if unknown:
        parser.error(f"unknown faults {unknown}: choose from {', '.join(FAULTS)}")
    if options.nodes == 1 and {"node", "beat-node"} & set(options.fault_list):
        parser.error("killing a node needs two (--nodes 2): the other serves meanwhile")
    if options.nodes == 2 and options.proxy == "none":
        parser.error("two nodes need a balancer in front (--proxy auto, haproxy or builtin)")
    return options


STARTED = time.monotonic()
last_said = ["starting"]  # for the watchdog's message


def say(text: str) -> None:
    """Where the drill is, on stderr (the report goes to stdout)."""
    line = f"[+{time.monotonic() - STARTED:5.1f} s] {text}"
    last_said[0] = line
    print(line, file=sys.stderr, flush=True)


def seconds_allowed(options: argparse.Namespace) -> float:
    """Time the drill may take before the watchdog calls it hung: every server and node
    started at their slowest, and each fault's window, mending and steady play, with
    a margin for the database reads between them."""
    setup = 60.0 + 90.0 * float(options.nodes)
    each_fault = float(options.outage + 2 * options.watch + options.steady) + 120.0
    return setup + float(options.steady) + len(options.fault_list) * each_fault + 60.0


def is_free(port: int) -> bool:
    with socket.socket() as probe:
        # As the servers do: connections of an earlier run left in TIME_WAIT do not count.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def drill_ports(first: int) -> dict[str, int]:
    """The balancer on ``first``, the nodes on the next two, Redis and PostgreSQL on the
    tenth and eleventh after it; any free ports when ``first`` is 0."""
    offsets = {"balancer": 0, "node a": 1, "node b": 2, "redis": 10, "postgresql": 11}
    if first == 0:
        return {name: any_free_port() for name in offsets}
    ports = {name: first + offset for name, offset in offsets.items()}
    if busy := sorted(port for port in ports.values() if not is_free(port)):
        raise ServerError(f"ports {busy} are in use: choose others with --port")
    return ports


def any_free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Site:
    """Everything the drill started, to stop again."""

    workdir: Path
    redis_url: str = ""
    database_url: str = ""
    redis: PrivateRedis | None = None
    cluster: PrivateCluster | None = None
    nodes: list[Node] = field(default_factory=list)
    balancer: Balancer | None = None

    @property
    def url(self) -> str:
        return self.balancer.url if self.balancer else self.nodes[0].url

    def log_counts(self) -> Counter[str]:
        counts: Counter[str] = Counter()
        for node in self.nodes:
            counts += node.log_counts()
        return counts

    def revive(self) -> list[str]:
        """Nodes whose launcher gave up, started again."""
        notes = []
        for node in self.nodes:
            if not node.is_running:
                notes.append(f"node {node.name}'s launcher had stopped; started it again")
                node.start()
        return notes

    def stop(self) -> None:
        if self.balancer:
            self.balancer.stop()
        for node in self.nodes:
            node.stop()
        if self.redis:
            self.redis.stop()
        if self.cluster:
            self.cluster.stop()


def start_site(options: argparse.Namespace, site: Site) -> dict[str, str]:
    """The servers, then the nodes one after the other (the first migrates), then the
    balancer; the environment the drill's own Django needs."""
    ports = drill_ports(options.port)
    if options.redis_url:
        site.redis_url = options.redis_url
    else:
        site.redis = PrivateRedis(ports["redis"], site.workdir / "redis")
        site.redis.start()
        site.redis_url = site.redis.url
    if options.database_url:
        site.database_url = options.database_url
    else:
        site.cluster = PrivateCluster(ports["postgresql"], site.workdir / "postgresql")
        site.cluster.create()
        site.cluster.start()
        site.database_url = site.cluster.url(DATABASE_NAME)
    create_database(site.database_url)
    say(f"Redis at {site.redis_url}, PostgreSQL at {site.database_url}")
    env = dict(
        os.environ,
        **NODE_SETTINGS,
        DATABASE_URL=site.database_url,
        REDIS_URL=site.redis_url,
        SECRET_KEY=secrets.token_urlsafe(50),
        WEB_PROCESSES=str(options.web_processes),
    )
    for number in range(options.nodes):
        name = "ab"[number]
        node = Node(name, ports[f"node {name}"], site.workdir / f"node-{name}", env,
                    beat=number == 0 or options.beat == "every")  # fmt: skip
        site.nodes.append(node)
        node.start()
        say(f"node {name} serves at {node.url} (log: {node.log_path})")
    if options.proxy != "none":
        kind = Balancer.choose(options.proxy)
        backends = [("127.0.0.1", node.port) for node in site.nodes]
        site.balancer = Balancer(kind, ports["balancer"], backends, site.workdir)
        site.balancer.start()
        say(site.balancer.describe())
    home = str(site.workdir / "drill")
    return dict(env, FELT_HOME=home, DJANGO_SETTINGS_MODULE="config.settings")


def faults(options: argparse.Namespace, site: Site) -> tuple[list[Any], list[str]]:
    """The faults to make, in order, and those skipped (with why)."""
    from tables.loadtest.drill import Fault

    def node_fault(node: Node) -> Any:
        parts = "web, worker" + (", beat" if node.runs_beat else "")

        def mend() -> list[str]:
            node.start()
            return [f"node {node.name} started again after the window", *site.revive()]

        return Fault(f"kill -9 of node {node.name} ({parts})", make=node.kill, mend=mend)

    made, skipped = [], []
    for name in options.fault_list:
        if name == "node":
            made.append(node_fault(site.nodes[1] if site.nodes[0].runs_beat else site.nodes[0]))
        elif name == "beat-node":
            made.append(node_fault(site.nodes[0]))
        elif name == "redis" and site.redis:
            made.append(
                Fault(
                    f"Redis killed, back empty after {options.outage:g} s",
                    make=partial(site.redis.restart, options.outage),
                    mend=site.revive,
                )
            )
        elif name == "postgres" and site.cluster:
            made.append(
                Fault(
                    f"PostgreSQL stopped at once, back after {options.outage:g} s",
                    make=partial(site.cluster.restart, options.outage),
                    mend=site.revive,
                )
            )
        else:
            skipped.append(f"{name}: not restarted, the server is not the drill's own")
    return [announced(fault) for fault in made], skipped


def announced(fault: Any) -> Any:
    """The fault, saying when it is made and when the server is back."""

    def make() -> None:
        say(f"fault: {fault.name}")
        fault.make()
        say("watching the tables" + (" (the server is back)" if fault.name[0] != "k" else ""))

    return dataclasses.replace(fault, make=make)


def play(
    options: argparse.Namespace, site: Site, env: dict[str, str], watchdog: Watchdog
) -> dict[str, Any]:
    """Django set up on the site's servers, the soak's tables made, the faults played."""
    os.environ.update(env)
    import django

    django.setup()
    # The drill's own pool says so whenever it drops a connection PostgreSQL closed.
    logging.getLogger("psycopg.pool").setLevel(logging.ERROR)
    from tables.loadtest.drill import Drill, drill_tables
    from tables.loadtest.driver import clean_up
    from tables.loadtest.faults import with_the_database

    run = with_the_database(
        lambda: drill_tables(options.practice, options.friends, Random(options.seed))
    )
    drill = Drill(run, site.url, site.log_counts)
    made, skipped = faults(options, site)

    async def watched() -> None:
        watchdog.watch_loop(asyncio.get_running_loop())
        await drill.play(made, steady=options.steady, watch=options.watch)

    try:
        asyncio.run(watched())
    finally:
        if options.database_url:  # someone else's database: leave it as found
            with_the_database(partial(clean_up, run.practice))
            with_the_database(partial(clean_up, run.friends))
    return {
        "setup": {
            "nodes": len(site.nodes),
            "beat": "every node" if options.beat == "every" else "node a only",
            "balancer": site.balancer.describe() if site.balancer else "none: one node, straight",
            "redis": "the drill's own" if site.redis else options.redis_url,
            "postgresql": "the drill's own cluster" if site.cluster else options.database_url,
            "tables": f"{options.practice} practice, {options.friends} friends'",
            "players": len(drill.clients),
        },
        "faults": [result.as_json() for result in drill.results],
        "lines": [line for result in drill.results for line in result.lines()],
        "notes": drill.notes + skipped,
        "passed": all(not result.failures() for result in drill.results),
    }


def stop_on_signal(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(f"stopped by {signal.Signals(signum).name}")


def main(argv: list[str]) -> int:
    options = parse(argv)
    signal.signal(signal.SIGTERM, stop_on_signal)
    site = Site(Path(tempfile.mkdtemp(prefix="felt-drill-")))
    site.workdir.chmod(0o711)  # PostgreSQL's own user reaches its cluster's folder inside
    watchdog = Watchdog(seconds_allowed(options), site.stop, lambda: last_said[0])
    watchdog.start()
    say(f"the drill ends itself if not done in {watchdog.seconds:.0f} s (in {site.workdir})")
    try:
        env = start_site(options, site)
        figures = play(options, site, env, watchdog)
    except (ServerError, RuntimeError) as error:
        print(f"The drill could not run: {error}", file=sys.stderr, flush=True)
        return 2
    finally:
        watchdog.cancel()
        site.stop()
        if not options.keep:
            shutil.rmtree(site.workdir, ignore_errors=True)
    print("\n".join(f"{name}: {value}" for name, value in figures["setup"].items()))
    print("\n".join(figures["lines"]))
    for note in figures["notes"]:
        print(f"note: {note}")
    missed = sum(1 for fault in figures["faults"] if fault["failures"])
    print(f"summary: {len(figures['faults'])} faults, {missed} missed the bar")
    if options.json:
        options.json.write_text(json.dumps(figures, indent=2))
    return 0 if figures["passed"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
