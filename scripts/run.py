"""Start Felt on one machine: `make run` calls this.

Starts the embedded Redis (unless REDIS_URL is set), migrates the database,
collects static files, then runs Daphne (HTTP and websockets; one process per
core by default, all accepting on one listening socket), a Celery worker and
Celery beat as children. Ctrl-C or SIGTERM, or any child dying,
stops all of them and then Redis; nothing is left running. Under `make run`
(`--started-by-make`) so does a signal sent to make's process alone.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from django.core.exceptions import ImproperlyConfigured  # noqa: E402

from config.adapters.tcp_keepalive import PING_SECONDS  # noqa: E402
from config.environment import MailServer  # noqa: E402
from config.platform.embedded import EmbeddedRedis, die_with_parent  # noqa: E402
from config.platform.private_files import make_private_home, use_private_umask  # noqa: E402

STOP_TIMEOUT = 15.0  # seconds children get to exit after SIGTERM
READY_TIMEOUT = 60.0
# A child that dies is started again after a pause that doubles each time (up to
# MAX_BACKOFF); one that dies RESTART_LIMIT times within RESTART_WINDOW seconds
# keeps dying for a reason a restart will not fix, and everything stops.
FIRST_BACKOFF = 1.0
MAX_BACKOFF = 30.0
RESTART_LIMIT = int(os.environ.get("FELT_RESTART_LIMIT", "5"))
RESTART_WINDOW = 60.0


# Told one of these, GNU make passes it on to no one: it sets the signal back
# to its default, waits for its recipe (this launcher) to end and only then
# exits. So `kill -INT <make>` alone would leave Felt running; the launcher
# looks at make's signal handlers (Linux's /proc) this often instead. make
# does pass SIGTERM on, which reaches on_signal directly.
SIGNALS_MAKE_KEEPS = (signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)
MAKE_WATCH_PERIOD = 0.5  # seconds


PREPARE = """
import os
import django
from django.core.management import call_command
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
call_command("migrate", interactive=False)
call_command("collectstatic", interactive=False, verbosity=0)
"""


class Shutdown(Exception):
    """Raised by a signal handler to leave the supervision loop."""


def ignore_stop_signals() -> None:
    """The clean-up that follows must not be cut short by a second signal."""
    signal.setitimer(signal.ITIMER_REAL, 0)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM):
        signal.signal(signum, signal.SIG_IGN)


def on_signal(signum: int, frame: FrameType | None) -> None:
    ignore_stop_signals()
    raise Shutdown(signal.Signals(signum).name)


def signal_dispositions(pid: int) -> dict[str, int] | None:
    """The ignored (SigIgn) and caught (SigCgt) signal masks of ``pid``;
    None once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return {name: int(fields[name], 16) for name in ("SigIgn", "SigCgt")}


def why_make_stops(make_pid: int) -> str | None:
    """What make was told, if it has been told to stop (or is gone)."""
    masks = signal_dispositions(make_pid)
    if masks is None or os.getppid() != make_pid:
        return "make has exited"
    for signum in SIGNALS_MAKE_KEEPS:
        bit = 1 << (signum - 1)
        if not (masks["SigIgn"] | masks["SigCgt"]) & bit:  # back to its default
            return f"{signum.name} to make"
    return None


def watch_make() -> None:
    """Stop, as on_signal does, once make (our parent) is told to stop."""
    make_pid = os.getppid()

    def look(signum: int, frame: FrameType | None) -> None:
        if (why := why_make_stops(make_pid)) is not None:
            ignore_stop_signals()
            raise Shutdown(why)

    # A timer signal, so the watch interrupts whatever the launcher is doing
    # (migrating, waiting for Daphne, a restart's pause) as a signal would.
    signal.signal(signal.SIGALRM, look)
    signal.setitimer(signal.ITIMER_REAL, MAKE_WATCH_PERIOD, MAKE_WATCH_PERIOD)


def felt_home() -> Path:
    return make_private_home(Path(os.environ.get("FELT_HOME", ROOT / "var")).resolve())


def secret_key(home: Path) -> str:
    """The key made on the first run and kept in FELT_HOME/secret_key (mode 600)."""
    path = home / "secret_key"
    if not path.exists():
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


def where_mail_goes(home: Path) -> str:
    """What `make run` says about Felt's mail (config/settings.py reads the same)."""
    url = os.environ.get("EMAIL_URL", "")
    return (MailServer.from_url(url) if url else MailServer.in_home(home)).where()


def child_environment(home: Path) -> dict[str, str]:
    env = dict(os.environ, FELT_HOME=str(home), PYTHONUNBUFFERED="1")
    env.setdefault("ALLOWED_HOSTS", "localhost,127.0.0.1")
    if env.get("DEBUG", "").lower() not in {"1", "true", "yes", "on"}:
        env.setdefault("SECRET_KEY", secret_key(home))
    return env


def listen(bind: str, port: int) -> socket.socket:
    """The one listening socket every Daphne process accepts on (the kernel shares it out)."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        server.bind((bind, port))
    except OSError as error:
        server.close()
        sys.exit(f"Cannot listen on {bind}:{port} ({error.strerror}); set PORT to a free port.")
    server.listen(1024)
    server.set_inheritable(True)
    return server


def web_processes() -> int:
    raw = os.environ.get("WEB_PROCESSES") or str(os.cpu_count() or 1)
    if not raw.isdigit() or not 1 <= int(raw) <= 64:
        sys.exit(f"WEB_PROCESSES={raw!r} must be a whole number from 1 to 64.")
    return int(raw)


def wait_until_serving(url: str, daphnes: list[subprocess.Popen[bytes]]) -> None:
    """Until Daphne answers HTTP: the socket itself accepts before any Daphne is up."""
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline and all(d.poll() is None for d in daphnes):
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return  # an answer, even 503 from /healthz, means Daphne serves
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("Daphne did not start serving; see the log above.")


class Supervisor:
    """Runs the children, each in its own process group, restarts one that dies,
    and stops them all."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.children: dict[str, subprocess.Popen[bytes]] = {}
        self.commands: dict[str, tuple[tuple[str, ...], tuple[int, ...]]] = {}
        self.deaths: dict[str, list[float]] = {}

    def prepare(self) -> None:
        """The database migrated and the static files collected, in one interpreter:
        as two `manage.py` commands each paid Django's start-up (about 2 s of
        processor time) again."""
        subprocess.run([sys.executable, "-c", PREPARE], cwd=ROOT, env=self.env, check=True)

    def start(
        self, name: str, *args: str, pass_fds: tuple[int, ...] = ()
    ) -> subprocess.Popen[bytes]:
        child = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            [sys.executable, "-m", *args],
            cwd=ROOT,
            env=self.env,
            pass_fds=pass_fds,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C reaches only us; we stop the children in order
            preexec_fn=die_with_parent,  # noqa: PLW1509 - the launcher has no threads
        )
        self.children[name] = child
        self.commands[name] = (args, pass_fds)
        return child

    def first_dead_child(self) -> str | None:
        for name, child in self.children.items():
            if child.poll() is not None:
                return name
        return None

    def restart(self, name: str) -> None:
        """Log why ``name`` died and start it again after its back-off pause;
        ``RuntimeError`` once it keeps dying."""
        code = self.children[name].returncode
        why = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
        now = time.monotonic()
        recent = [t for t in self.deaths.get(name, []) if now - t < RESTART_WINDOW] + [now]
        self.deaths[name] = recent
        if len(recent) >= RESTART_LIMIT:
            raise RuntimeError(
                f"{name} exited ({why}) {len(recent)} times in {RESTART_WINDOW:.0f} s; giving up"
            )
        pause = min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** (len(recent) - 1))
        print(f"\n{name} exited ({why}); starting it again in {pause:.0f} s.", flush=True)
        time.sleep(pause)
        args, pass_fds = self.commands[name]
        self.start(name, *args, pass_fds=pass_fds)

    def stop_all(self) -> None:
        for child in self.children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        for child in self.children.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(max(0.0, deadline - time.monotonic()))
        for child in self.children.values():
            # The whole group: this also reaches Celery's pool processes.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, signal.SIGKILL)
            child.wait()


def serve(
    supervisor: Supervisor, server: socket.socket, processes: int, home: Path, mail: str
) -> None:
    supervisor.prepare()
    # Trusting X-Forwarded-For is right only behind a proxy that sets it;
    # otherwise any client could fake its address past log-in throttling.
    proxy = ["--proxy-headers"] if os.environ.get("PROXY_HEADERS") == "1" else []
    fd = server.fileno()
    daphnes = [
        supervisor.start(
            "daphne" if number == 1 else f"daphne #{number}",
            "daphne",
            "--fd",
            str(fd),
            # The kernel finds vanished players (config/adapters/tcp_keepalive.py).
            "--ping-interval",
            str(PING_SECONDS),
            *proxy,
            "config.asgi:application",
            pass_fds=(fd,),
        )  # fmt: skip
        for number in range(1, processes + 1)
    ]
    supervisor.start(
        "celery worker", "celery", "-A", "config", "worker",
        "--concurrency", "2", "--loglevel", "INFO", "--hostname", "felt@%h",
    )  # fmt: skip
    # RUN_BEAT=0: a node without a beat (the fault drill's ``--beat one``); a site runs
    # a beat on every node (docs/deploy.md).
    if os.environ.get("RUN_BEAT", "1") != "0":
        supervisor.start(
            "celery beat", "celery", "-A", "config", "beat", "--loglevel", "INFO",
            "--schedule", str(home / "celerybeat-schedule"),
        )  # fmt: skip
    bind, port = server.getsockname()[:2]
    shown_host = "127.0.0.1" if bind in {"0.0.0.0", ""} else bind
    wait_until_serving(f"http://{shown_host}:{port}/healthz", daphnes)
    print(f"\nFelt is running at http://{shown_host}:{port}/  (Ctrl-C stops it)", flush=True)
    print(f"Its mail (password resets, address confirmations) is {mail}.\n", flush=True)
    while True:
        time.sleep(0.5)
        if (dead := supervisor.first_dead_child()) is not None:
            supervisor.restart(dead)


def main(args: list[str]) -> int:
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    if args == ["--started-by-make"]:
        watch_make()
    elif args:
        sys.exit("usage: scripts/run.py [--started-by-make]")
    use_private_umask()  # the database, Redis' files, beat's schedule: 0600
    bind = os.environ.get("BIND", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    home = felt_home()
    try:
        mail = where_mail_goes(home)
    except ImproperlyConfigured as error:
        sys.exit(f"Felt did not start: {error}")
    processes = web_processes()
    server = listen(bind, port)
    env = child_environment(home)
    redis: EmbeddedRedis | None = None
    supervisor = Supervisor(env)
    status = 0
    try:
        if "REDIS_URL" not in env:
            redis = EmbeddedRedis(home)
            redis.start()
            env["REDIS_URL"] = redis.url
        serve(supervisor, server, processes, home, mail)
    except Shutdown as stop:
        print(f"\nStopping Felt ({stop}).", flush=True)
    except (RuntimeError, ValueError, subprocess.CalledProcessError) as error:
        print(f"\nFelt stopped: {error}", file=sys.stderr, flush=True)
        status = 1
    finally:
        ignore_stop_signals()
        supervisor.stop_all()
        server.close()
        if redis is not None:
            redis.stop()
    print("Felt has stopped.", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
