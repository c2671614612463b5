"""What the end-to-end tests share: a real Felt server (Daphne and a Celery worker as
child processes), Debian's Chromium driven by Playwright, and a plain file server for
the pages that need only the static files.

The fixtures (``browser``, ``server_url``, ``live_server_options``, ``static_url``)
are offered to every test by tests/conftest.py. A module whose server needs other
settings overrides ``live_server_options``.

The servers are started as fresh interpreters (never forked from pytest, whose
threads and event loops a fork would copy half-alive) on the test database
and the test session's Redis, exactly as `make run` would serve them.

Starting the pair costs a few seconds of processor time, so the browser tests
share them: ``LiveServers`` keeps the servers a test process has started, one
per set of options, and hands the same one to every test that asks for those
options; options that differ only in the pauses (between hands, the bots') are
given to a running pair (tests/support/server_timing.py). Tests stay apart
because each ends with the database flushed (``transactional_db``) and its
pending tasks revoked; ids are never reused within a session, so nothing a
server remembers of one test (a cached table, a presence entry) can be
mistaken for another's. A shared server's Celery worker
consumes a queue of its own, which the test process publishes to only while a
test uses that server: the tasks other tests queue never reach it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright

from accounts.forms import SignUpForm
from accounts.members import member_sign_up
from config.adapters.tcp_keepalive import PING_SECONDS
from config.celery import app as celery_app
from config.platform.embedded import die_with_parent
from tests.support import PASSWORD, server_timing

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0
# Servers kept running per test process: enough for the browser modules that
# ask for different options to interleave on one process, few enough to leave
# memory for everything else.
KEPT_SERVERS = 3

# The server's settings: the test database, static files straight from the
# source folders (a fresh clone has run no collectstatic), the pauses the test
# chose (which follow the tests' changes: tests/support/server_timing.py), the
# server's own Celery queue, and the test process's password hasher.
SERVER_SETTINGS = """
import os
from pathlib import Path
from config.settings import *  # noqa: F403
from tests.support import server_timing

DATABASES["default"]["NAME"] = os.environ["LIVE_SERVER_DATABASE_NAME"]  # noqa: F405
_timing = Path(os.environ["LIVE_SERVER_TIMING"])
globals().update(server_timing.read(_timing)[1])
server_timing.follow(_timing)
CELERY_TASK_DEFAULT_QUEUE = os.environ["LIVE_SERVER_QUEUE"]
WHITENOISE_USE_FINDERS = True
# conftest.py's: a real hash costs 0.2 s of the server's time per sign-up or log-in.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_listening(port: int, children: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if any(child.poll() is not None for child in children):
            raise RuntimeError("a server process exited while starting")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.2)
    raise RuntimeError(f"nothing listens on port {port} after {START_TIMEOUT} s")


def stop(children: list[subprocess.Popen[bytes]]) -> None:
    for child in children:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGTERM)
    for child in children:
        try:
            child.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()


@dataclass
class Server:
    """One running Daphne + Celery worker pair."""

    url: str
    queue: str  # the Celery queue its worker consumes, and its worker's node name
    children: list[subprocess.Popen[bytes]]
    log_path: Path
    timing_path: Path  # its pauses (tests/support/server_timing.py)
    timing: dict[str, Any]
    timing_version: int = 1
    log_offset: int = 0  # where the current test's part of the log starts
    environment: dict[str, str] = field(default_factory=dict)  # the processes' own

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    @property
    def web(self) -> subprocess.Popen[bytes]:
        return self.children[0]

    @property
    def alive(self) -> bool:
        return all(child.poll() is None for child in self.children)

    @property
    def worker_name(self) -> str:
        return f"{self.queue}@felt-tests"

    def stop(self) -> None:
        stop(self.children)

    def use_timing(self, timing: dict[str, Any]) -> None:
        """Give both processes these pauses, and wait until they use them."""
        if timing == self.timing:
            return
        self.timing_version += 1
        self.timing = timing
        server_timing.write(self.timing_path, self.timing_version, timing)
        pids = [child.pid for child in self.children]
        server_timing.wait_until_applied(self.timing_path, self.timing_version, pids)

    def log_since_offset(self) -> str:
        return self.log_path.read_bytes()[self.log_offset :].decode(errors="replace")


def web_command(port: int) -> list[str]:
    return [
        "daphne", "-b", "127.0.0.1", "-p", str(port),
        "--ping-interval", str(PING_SECONDS), "config.asgi:application",
    ]  # fmt: skip


def spawn(command: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    """``python -m <command>`` in a session of its own, its output added to the log."""
    with log_path.open("ab") as log:
        return subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            [sys.executable, "-m", *command],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=die_with_parent,  # noqa: PLW1509 - no orphans if pytest is killed
        )


def start_server(
    *,
    database_name: str,
    workdir: Path,
    host: str = "127.0.0.1",
    environment: dict[str, str] | None = None,
    beat: bool = False,
    **timing_options: Any,
) -> Server:
    """Start Daphne and a Celery worker and wait until Daphne listens.
    ``timing_options`` are ``server_timing.timing_settings``'s (``next_hand_seconds``
    at least). ``environment`` adds variables to the server's (settings read from
    it, such as ``SOCKET_HANDSHAKES_PER_USER``). ``beat``: a Celery beat too, as
    ``make run`` starts, for a test that restarts Daphne: the timers it held are
    lost with it, and beat's sweep applies what they would have."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "live_server_settings.py").write_text(SERVER_SETTINGS)
    timing = server_timing.timing_settings(**timing_options)
    timing_path = workdir / "timing.json"
    server_timing.write(timing_path, 1, timing)
    port = free_port()
    queue = f"live-{port}"
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="live_server_settings",
        PYTHONPATH=os.pathsep.join([str(workdir), str(ROOT)]),
        LIVE_SERVER_DATABASE_NAME=database_name,
        LIVE_SERVER_QUEUE=queue,
        LIVE_SERVER_TIMING=str(timing_path),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        # Every browser test signs its players up from 127.0.0.1, and the session's
        # Redis keeps the count from test to test.
        SIGNUP_ADDRESS_LIMIT="10000",
        # Celery's worker runs Django's system checks as it starts (0.23 s of
        # processor time, dozens of starts per make test); they read the settings,
        # which are the same for every server a test starts.
        CELERY_SKIP_CHECKS="1",
        **(environment or {}),
    )
    log_path = workdir / "server.log"
    commands = [
        web_command(port),
        ["celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "WARNING",
         "--hostname", f"{queue}@felt-tests"],
    ]  # fmt: skip
    if beat:
        commands.append(
            ["celery", "-A", "config", "beat", "--loglevel", "WARNING",
             "--schedule", str(workdir / "celerybeat-schedule")]
        )  # fmt: skip
    children = [spawn(command, env, log_path) for command in commands]
    server = Server(
        f"http://{host}:{port}", queue, children, log_path, timing_path, timing, environment=env
    )
    try:
        wait_until_listening(port, children)
    except BaseException:
        server.stop()
        print(log_path.read_text()[-3000:])
        raise
    return server


@contextlib.contextmanager
def live_server(*, workdir: Path, **options: Any) -> Iterator[str]:
    """A server of the block's own until the block ends; yields the base URL
    (``http://host:port``). For the tests that load it hard or need it alone;
    the options are ``start_server``'s."""
    server = start_server(workdir=workdir, **options)
    _serving[server.url] = server
    try:
        with publishing_to(server.queue):
            yield server.url
    finally:
        del _serving[server.url]
        server.stop()
        print(server.log_path.read_text()[-3000:])  # shown only when a test fails


@contextlib.contextmanager
def publishing_to(queue: str) -> Iterator[None]:
    """Tasks the test process queues (``delay``, ``apply_async``) go to ``queue``
    while the block runs: the live server's worker picks them up."""
    # Celery builds the app's list of queues once, from the default queue of that
    # moment. Built first inside this block, it would hold ``queue`` alone, emptied
    # below: a worker started later in this process (the celery_worker fixture)
    # would then consume nothing its ping could reach.
    celery_app.amqp.queues  # noqa: B018 - built now, around the usual default queue
    before = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    try:
        yield
    finally:
        celery_app.conf.task_default_queue = before
        # Publishing declared the queue in the app's list, which a worker started in
        # the test process (the celery_worker fixture) would consume from.
        celery_app.amqp.queues.pop(queue, None)


@contextlib.contextmanager
def kept_from_the_live_worker() -> Iterator[None]:
    """Tasks queued in the block go to a queue no worker reads, and are dropped: for
    data a test writes straight to the database (recorded hands at a table nobody
    plays) that the server's worker must not deal on from."""
    held_back = "held-back"
    try:
        with publishing_to(held_back):
            yield
    finally:
        purge(held_back)


def purge(queue: str) -> None:
    with celery_app.connection_for_write() as connection:
        connection.default_channel.queue_purge(queue)


def revoke_pending(server: Server) -> None:
    """Revoke the tasks the server's worker holds for later (wake-ups with a countdown,
    a tournament's start), and drop the queued ones: they belong to the test that
    has just ended."""
    purge(server.queue)
    inspect = celery_app.control.inspect(destination=[server.worker_name], timeout=5)
    held = (inspect.scheduled() or {}).get(server.worker_name, [])
    ids = [entry["request"]["id"] for entry in held]
    if ids:
        celery_app.control.revoke(ids, destination=[server.worker_name])


class LiveServers:
    """The servers one test process shares between its tests, by their options."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.running: dict[str, Server] = {}  # by options; the most recently used last
        self.started = 0

    @contextlib.contextmanager
    def serving(self, **options: Any) -> Iterator[Server]:
        """A server with ``options``; one that differs only in its pauses is given
        the new ones rather than started afresh."""
        pauses = {name: options.pop(name) for name in server_timing.OPTIONS if name in options}
        key = repr(sorted(options.items()))
        server = self.running.pop(key, None)
        if server is not None and not server.alive:
            server.stop()
            server = None
        if server is None:
            while len(self.running) >= KEPT_SERVERS:
                self.running.pop(next(iter(self.running))).stop()
            self.started += 1
            server = start_server(
                workdir=self.workdir / f"server-{self.started}", **options, **pauses
            )
        server.use_timing(server_timing.timing_settings(**pauses))
        self.running[key] = server
        _serving[server.url] = server
        server.log_offset = server.log_path.stat().st_size
        purge(server.queue)
        try:
            with publishing_to(server.queue):
                yield server
        finally:
            del _serving[server.url]
            if server.alive:
                revoke_pending(server)
            else:  # a test stopped it (stop_web_server): the next one gets a new pair
                self.running.pop(key).stop()
            print(server.log_since_offset()[-3000:])  # shown only when a test fails

    def close(self) -> None:
        for server in self.running.values():
            server.stop()
        self.running.clear()


# The server a test is using, by its base URL: a test stops its Daphne to see what
# the page does when the server goes away (stop_web_server).
_serving: dict[str, Server] = {}


def stop_web_server(url: str) -> None:
    """Kill the Daphne behind ``url`` at once, as a crash or a lost network would: every
    open socket drops without a closing handshake. Celery and Redis stay up."""
    web = _serving[url].web
    with contextlib.suppress(ProcessLookupError):
        os.killpg(web.pid, signal.SIGKILL)
    web.wait()


def restart_web_server(url: str) -> None:
    """Kill the Daphne behind ``url`` as ``stop_web_server`` does, then start a new one
    on the same port, as a supervisor (``make run``, systemd) would, and wait until it
    listens: every socket drops, and the clients may come back."""
    server = _serving[url]
    stop_web_server(url)
    server.children[0] = spawn(web_command(server.port), server.environment, server.log_path)
    wait_until_listening(server.port, server.children)


# Chromium, driven by Playwright.

# Debian's headless shell of Chromium (package chromium-headless-shell): the same
# build, Blink and V8 as /usr/bin/chromium, without the browser's own windows. The
# full browser opened a window per browser context, each with two preloaded
# chrome://omnibox-popup.top-chrome pages in renderers of their own: two browser
# modules cost 32 s of Chromium's processor time with it and 14 s with the shell.
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path("/tmp")

# `pytestmark = BROWSER_TEST` in every module that drives the browser.
BROWSER_TEST = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason=f"Debian's chromium-headless-shell is not installed at {CHROMIUM}",
    ),
]

Result = TypeVar("Result")


class SharedChromium:
    """One Chromium, and one Playwright driver, per test process.

    Playwright's sync API drives the browser from an event loop that it leaves
    marked as running on the test's thread after every call, and Django refuses
    ORM calls while a loop runs there. A browser kept for the whole session would
    leave that mark on the tests that come after a browser test, so the mark is
    set for each browser test and taken off when it ends; between tests the loop
    only waits (nothing switches to it), and every context a test opened is closed.
    Launching a browser and its driver per test cost about 0.45 s of processor
    time each on the 2-core VM.
    """

    def __init__(self) -> None:
        self.playwright: Playwright | None = None
        self.browser: Browser | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def for_a_test(self) -> Browser:
        if self.browser is not None and self.browser.is_connected():
            asyncio._set_running_loop(self.loop)  # as the last Playwright call left it
            return self.browser
        self.close()
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        self.loop = asyncio.get_running_loop()
        return self.browser

    def after_a_test(self) -> None:
        try:
            if self.browser is not None and self.browser.is_connected():
                for context in self.browser.contexts:
                    context.close()
        finally:
            asyncio._set_running_loop(None)

    def close(self) -> None:
        if self.playwright is None:
            return
        asyncio._set_running_loop(self.loop)
        try:
            if self.browser is not None and self.browser.is_connected():
                self.browser.close()
            self.playwright.stop()
        finally:
            asyncio._set_running_loop(None)
            self.playwright = self.browser = self.loop = None


@pytest.fixture(scope="session")
def shared_chromium() -> Iterator[SharedChromium]:
    chromium = SharedChromium()
    yield chromium
    chromium.close()


@pytest.fixture
def browser(shared_chromium: SharedChromium) -> Iterator[Browser]:
    """The test process's Chromium, with no context open; the test's contexts are
    closed when it ends."""
    try:
        yield shared_chromium.for_a_test()
    finally:
        shared_chromium.after_a_test()


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    """Keyword arguments for ``start_server``: a pause between hands long enough to see
    a finished hand (the first hand waits for it too)."""
    return {"next_hand_seconds": 3.0}


@pytest.fixture(scope="session")
def live_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServers]:
    servers = LiveServers(tmp_path_factory.mktemp("live-servers"))
    yield servers
    servers.close()


@pytest.fixture
def server_url(
    transactional_db: None, live_servers: LiveServers, live_server_options: dict[str, Any]
) -> Iterator[str]:
    """The base URL of a live server with ``live_server_options``, shared with the other
    tests of this process that ask for the same options."""
    database_name = str(connection.settings_dict["NAME"])
    options = {"host": "localhost", **live_server_options}
    with live_servers.serving(database_name=database_name, **options) as server:
        yield server.url


class StaticFiles(SimpleHTTPRequestHandler):
    """/static/... from the source folder, and an empty page at any other path."""

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        if self.path.startswith("/static/"):
            self.path = self.path.removeprefix("/static")
            super().do_GET()
            return
        body = b"<!doctype html><title>Felt test page</title>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        pass


@pytest.fixture(scope="session")
def static_url() -> Iterator[str]:
    """A plain file server of static/, for the pages that test browser code alone
    (the modules load from its /static/): no database, Daphne or worker to start."""
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(StaticFiles, directory=str(ROOT / "static"))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def outside_the_browser_loop(call: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
    """Run ``call`` (ORM work) on a thread of its own: the test's thread has
    Playwright's event loop, where Django refuses to run queries."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call, *args, **kwargs).result()


def new_member_session(username: str) -> str:
    """A member made as the sign-up page makes one (``accounts/members.py``), logged
    in; their session's key."""
    form = SignUpForm(
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
    )
    if not form.is_valid():
        raise ValueError(f"cannot sign {username} up: {form.errors.as_text()}")
    user = member_sign_up(form)
    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def sign_up(
    browser: Browser,
    server_url: str,
    username: str,
    viewport: dict[str, int],
    **context_options: Any,
) -> Page:
    """A new member, logged in, on the lobby, in a browser context of their own
    (``context_options``: Playwright's, such as ``timezone_id``).

    They are signed up as the sign-up page would and handed its session cookie:
    ``sign_up_on_the_page`` fills the page's form, two page loads more, for the
    tests of signing up in a browser."""
    session_key = outside_the_browser_loop(new_member_session, username)
    context = browser.new_context(viewport=viewport, **context_options)
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session_key, "url": server_url}]
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{server_url}/")
    # Signed in (on a narrow screen the button is in the closed menu).
    expect(
        page.get_by_role("button", name="Log out", exact=True, include_hidden=True)
    ).to_be_attached()
    return page


def sign_up_on_the_page(
    browser: Browser, server_url: str, username: str, viewport: dict[str, int]
) -> Page:
    """A new member who has filled in the sign-up page, in a browser context of their
    own, on the lobby with its welcome."""
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{server_url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_text(f"Welcome to Felt, {username}.")).to_be_visible()
    return page
