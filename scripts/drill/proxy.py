"""The balancer in front of a fault drill's nodes: haproxy where it is installed, else
a small TCP proxy of the drill's own (``tcp_proxy.py``), each started as a child
process on ``127.0.0.1:port``.

haproxy checks each node every second, on ``/healthz/live`` where the code has
that check of the node itself, else by opening a TCP connection (``/healthz``
answers 503 on every node at once when Redis or PostgreSQL blinks, which would
leave a balancer no server); a request that finds its node gone, or that its node
dies under before it answers (a GET, not a POST), is sent to the other
(``option redispatch``, ``retry-on``). The TCP proxy tries the nodes in turn for each
connection and takes the first that accepts.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
START_TIMEOUT = 15.0
LIVE_CHECK = "/healthz/live"

HAPROXY_CONFIG = """\
global
    maxconn 4096

defaults
    mode http
    option forwardfor
    # The players' side probed by the kernel, as Daphne's own sockets are: a player
    # who vanished is let go within 50 s (config/adapters/tcp_keepalive.py).
    option clitcpka
    clitcpka-idle 20s
    clitcpka-intvl 10s
    clitcpka-cnt 3
    timeout connect 2s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    retries 3
    option redispatch
    retry-on conn-failure empty-response response-timeout

frontend felt
    bind 127.0.0.1:{port}
    # A request under way when its node died is sent to the other; not a form's POST,
    # which may have been applied before the node went.
    http-request disable-l7-retry if METH_POST
    default_backend nodes

backend nodes
    balance roundrobin
    {check}
    default-server inter 1s fall 2 rise 2
{servers}
"""


def has_live_check(node_url: str) -> bool:
    """Whether the node answers ``/healthz/live`` (a check of itself alone)."""
    try:
        with urllib.request.urlopen(node_url + LIVE_CHECK, timeout=5) as answer:  # noqa: S310
            return bool(answer.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def wait_until_listening(port: int, process: subprocess.Popen[bytes], name: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), 1):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start listening on {port}") from None
            time.sleep(0.1)


class Balancer:
    """haproxy or the drill's TCP proxy, as a child process."""

    def __init__(self, kind: str, port: int, backends: list[tuple[str, int]], home: Path):
        self.kind = kind  # "haproxy" or "builtin"
        self.port = port
        self.backends = backends
        self.home = home
        self.process: subprocess.Popen[bytes] | None = None
        self.check = "TCP connect"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @staticmethod
    def choose(wanted: str) -> str:
        """``auto``: haproxy where installed, else the builtin proxy."""
        if wanted == "auto":
            return "haproxy" if shutil.which("haproxy") else "builtin"
        if wanted == "haproxy" and not shutil.which("haproxy"):
            raise RuntimeError("haproxy is not installed (apt-get install haproxy), or use "
                               "--proxy builtin")  # fmt: skip
        return wanted

    def start(self) -> None:
        log = (self.home / f"{self.kind}.log").open("ab")
        if self.kind == "haproxy":
            config = self.home / "haproxy.cfg"
            config.write_text(self.haproxy_config())
            command = ["haproxy", "-f", str(config), "-db"]
        else:
            addresses = [f"{host}:{port}" for host, port in self.backends]
            command = [sys.executable, str(HERE / "tcp_proxy.py"), str(self.port), *addresses]
        with log:
            self.process = subprocess.Popen(  # noqa: S603 - a fixed program, our arguments
                command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        wait_until_listening(self.port, self.process, self.kind)

    def haproxy_config(self) -> str:
        host, port = self.backends[0]
        if has_live_check(f"http://{host}:{port}"):
            self.check = f"GET {LIVE_CHECK}"
            check = f"option httpchk GET {LIVE_CHECK}"
        else:
            check = "# no /healthz/live on this code: a TCP connect is the check"
        servers = "\n".join(
            f"    server node{number} {host}:{port} check"
            for number, (host, port) in enumerate(self.backends, 1)
        )
        return HAPROXY_CONFIG.format(port=self.port, check=check, servers=servers)

    def describe(self) -> str:
        if self.kind == "haproxy":
            return f"haproxy on {self.port}, checking each node by {self.check} every second"
        return f"the drill's TCP proxy on {self.port} (haproxy is not installed)"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
