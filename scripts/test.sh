#!/usr/bin/env bash
# `make test`: the whole suite on the embedded defaults (SQLite + a private
# embedded Redis), then the Django-side suite again against PostgreSQL and
# Redis on 127.0.0.1 when both answer. Any failure, or a run that collects no
# tests (pytest exit code 5), fails the whole command.
set -uo pipefail
cd "$(dirname "$0")/.."

PYTEST=${PYTEST:-.venv/bin/pytest}  # overridable so the script itself can be tested
# Test processes per run (pytest-xdist): each has its own database, Redis and
# home (conftest.py), so tests run side by side safely. 0 runs them in one process.
PROCESSES=${FELT_TEST_PROCESSES:-2}
PG_URL=postgres://postgres@127.0.0.1:5432/felt
REDIS_TEST_URL=redis://127.0.0.1:6379/8  # databases 8-11, clear of a make run on 0-3

run_pytest() {
    local label=$1
    shift
    echo
    echo "=== $label ==="
    "$PYTEST" "$@"
    local status=$?
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

# The browser tests drive Debian's Chromium (never a browser a test tool downloads).
if [ ! -x /usr/bin/chromium ]; then
    echo "Installing Debian's chromium for the browser tests..."
    if ! { as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            as_root apt-get install -y -qq chromium >/dev/null; }; then
        echo "make test: could not install chromium; run 'apt-get install chromium' as root." >&2
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

failed=0

# The embedded run must not talk to external services even if the caller's
# shell names them, hence the subshell without DATABASE_URL and REDIS_URL.
(
    unset DATABASE_URL REDIS_URL
    run_pytest "Embedded: SQLite + embedded Redis" tests -n "$PROCESSES" \
        --cov=engine --cov-branch --cov-report=term-missing
) || failed=1

if answers 127.0.0.1 5432 && answers 127.0.0.1 6379; then
    # The engine tests touch no service, and the browser tests check what a page
    # shows (the embedded run has them), so this run leaves both out.
    DATABASE_URL=$PG_URL REDIS_URL=$REDIS_TEST_URL \
        run_pytest "External: PostgreSQL + Redis on 127.0.0.1" tests -n "$PROCESSES" \
        --ignore=tests/engine -m "not browser" -p no:cov || failed=1
else
    echo
    echo "=== External run SKIPPED: PostgreSQL (127.0.0.1:5432) or Redis (127.0.0.1:6379) does not answer ==="
fi

if [ "$failed" -ne 0 ]; then
    echo "make test: FAILED" >&2
    exit 1
fi
echo "make test: all runs passed"
