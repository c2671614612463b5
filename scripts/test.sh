#!/usr/bin/env bash
# `make test`: the whole suite on the embedded defaults (SQLite + a private
# embedded Redis; the engine's tests measure its branch coverage), and the
# Django-side suite again against PostgreSQL and Redis on 127.0.0.1 when both
# answer. Any failure, or a run that collects no
# tests (pytest exit code 5), fails the whole command.
set -uo pipefail
cd "$(dirname "$0")/.."

PYTEST=${PYTEST:-.venv/bin/pytest}  # overridable so the script itself can be tested
MYPY=${MYPY:-.venv/bin/mypy}        # likewise
# Test processes per run (pytest-xdist): each has its own database, Redis and
# home (conftest.py), so tests run side by side safely. 0 runs them in one process.
# worksteal: an idle process takes queued tests from a busy one, so the few long
# tests (a whole SNG, a browser session) do not leave one process working alone.
PROCESSES=${FELT_TEST_PROCESSES:-2}
# The embedded run waits most (browsers, live servers, bots' pauses): a third
# process fills those waits.
EMBEDDED_PROCESSES=${FELT_EMBEDDED_TEST_PROCESSES:-3}
PG_URL=postgres://postgres@127.0.0.1:5432/felt
# Four Redis databases per test process from database 8 (conftest.py): 8 to 15 for
# two, clear of a make run on 0-3.
REDIS_TEST_URL=redis://127.0.0.1:6379/8

began=$(date +%s)

run_pytest() {
    local label=$1
    shift
    echo
    echo "=== $label ==="
    # The slowest tests and set-ups of each run are listed at its end: they are
    # where make test's time goes, and the first place to look to shorten it.
    "$PYTEST" "$@" --durations=15
    local status=$?
    # The runs overlap, so which one ends last is what to shorten. A run's own
    # figure leaves out its start, which a starved run at nice 19 can wait minutes for.
    echo "($label: ended $(($(date +%s) - began)) s after make test's runs began)"
    if [ "$status" -eq 5 ]; then
        echo "$label: no tests were collected; that is a failure." >&2
        return 1
    fi
    return "$status"
}

answers() { # host port
    timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi
}

# The browser tests drive Debian's Chromium in its headless shell (never a browser a
# test tool downloads).
if [ ! -x /usr/bin/chromium-headless-shell ]; then
    echo "Installing Debian's chromium-headless-shell for the browser tests..."
    if ! { as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            as_root apt-get install -y -qq chromium-headless-shell >/dev/null; }; then
        echo "make test: could not install chromium-headless-shell;" \
            "run 'apt-get install chromium-headless-shell' as root." >&2
        exit 1
    fi
fi

# Start the machine's PostgreSQL and Redis when they are installed but stopped,
# so the second run happens wherever it can.
if ! answers 127.0.0.1 5432 && command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start \
        >/dev/null 2>&1 || true
fi
if ! answers 127.0.0.1 6379 && command -v redis-server >/dev/null; then
    as_root redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" >/dev/null 2>&1 || true
fi

# Where PYTHONDONTWRITEBYTECODE is set (as on these machines) no process writes
# bytecode, so every test process, and every server, worker and `make run` the
# tests start, would compile Felt's modules (and pytest its rewritten test
# modules) from source again. The tests let them keep it in __pycache__.
unset PYTHONDONTWRITEBYTECODE

failed=0
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# The embedded run must not talk to external services even if the caller's
# shell names them, hence the subshell without DATABASE_URL and REDIS_URL.
# The tests marked waits_long wait minutes on a worker's pauses: where the PostgreSQL
# run happens they run there (it ends minutes before this one), else here.
embedded_run() {
    unset DATABASE_URL REDIS_URL
    local waits=()
    if $has_servers; then waits=(-m "not waits_long"); fi
    run_pytest "Embedded: SQLite + embedded Redis" tests -n "$EMBEDDED_PROCESSES" --dist worksteal \
        --ignore=tests/engine -p no:cov "${waits[@]}"
}

# The engine's own tests reach every branch of it (pyproject.toml requires 100%),
# so coverage is measured over them alone: its tracer made every other test that
# plays hands about 1.7 times as slow (41.7 s against 72.3 s for the bot and
# multi-table tests), for no line the engine tests had not already covered.
# The exhaustive engine tests (thousands of hands against PokerKit, every hand
# evaluated) run with the tracer paused (conftest.py): it doubled their time (9.9 s
# against 4.8 s of processor time for the PokerKit import test), and the other
# engine tests reach every branch without them.
engine_run() {
    unset DATABASE_URL REDIS_URL
    run_pytest "Engine, with branch coverage" tests/engine -n "$PROCESSES" --dist worksteal \
        --cov=engine --cov-branch --cov-report=term-missing
}

# This run is for what the database and Redis do: locks, races, migrations,
# queries. So it leaves to the others the engine tests (no service), the browser
# tests (what a page shows), the launcher's tests (they start `make run` on the
# embedded defaults whatever the run: tests/config/test_launcher.py), the long
# games (game logic or a format over hundreds of hands) and the load and soak
# runs (the load-test tools against live servers): their database and Redis
# paths have shorter tests here. And the tests marked pure (they touch neither a
# database nor Redis: documents, settings parsing, the import graph). The
# embedded run has them all.
external_run() {
    DATABASE_URL=$PG_URL REDIS_URL=$REDIS_TEST_URL \
        run_pytest "External: PostgreSQL + Redis on 127.0.0.1" tests -n "$PROCESSES" \
        --dist worksteal --ignore=tests/engine --ignore=tests/config/test_launcher.py \
        -m "not browser and not long_game and not load and not pure and not fault" -p no:cov
}

# The runs share nothing (their own databases, Redis and homes), and all start at
# once. The embedded and PostgreSQL runs spend much of their time waiting on
# servers, workers, browsers and timers; the engine's run and the type check are
# all computation, so they run at the lowest priority (nice 19) and take the
# processor time the others leave idle instead of stretching them.
# Each run's output is shown whole once it has finished.
has_servers=false
if answers 127.0.0.1 5432 && answers 127.0.0.1 6379; then has_servers=true; fi
(embedded_run) >"$logs/embedded" 2>&1 &
embedded_pid=$!
(
    renice -n 19 -p "$BASHPID" >/dev/null 2>&1
    SECRET_KEY=typecheck-only "$MYPY"
) >"$logs/typecheck" 2>&1 &
typecheck_pid=$!
(
    renice -n 19 -p "$BASHPID" >/dev/null 2>&1
    engine_run
) >"$logs/engine" 2>&1 &
engine_pid=$!
external_pid=
if $has_servers; then
    (external_run) >"$logs/external" 2>&1 &
    external_pid=$!
fi

wait "$embedded_pid" || failed=1
cat "$logs/embedded"
echo
echo "=== Type check (mypy --strict) ==="
if ! wait "$typecheck_pid"; then
    failed=1
    echo "The type check failed." >&2
fi
cat "$logs/typecheck"
wait "$engine_pid" || failed=1
cat "$logs/engine"
if $has_servers; then
    wait "$external_pid" || failed=1
    cat "$logs/external"
else
    echo
    echo "=== External run SKIPPED: PostgreSQL (127.0.0.1:5432) or Redis (127.0.0.1:6379) does not answer ==="
fi

if [ "$failed" -ne 0 ]; then
    echo "make test: FAILED" >&2
    exit 1
fi
echo "make test: all runs passed"
