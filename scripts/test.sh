#!/usr/bin/env bash
# Set up and run every check: lint (ruff), types (mypy --strict on the
# library), the whole test suite (pytest). Safe to run on a fresh Debian
# machine with Python 3.11 and pip; re-running reuses .venv.
set -euo pipefail
cd "$(dirname "$0")/.."

# Browser tests drive Debian's Chromium through Playwright (its own browser
# download is not available here): its headless shell, the same build without the
# browser's own layers, for about two thirds of the CPU (tests/web/table_ui.py
# TEST_CHROMIUM; docs/dev/test-suite-time.md, stop 54); the hosting tests put
# Debian's Caddy and nginx in front of the server (docs/hosting.md), and
# check its systemd unit with Debian's systemd-analyze (tests/test_hosting_unit.py).
missing=""
command -v systemd-analyze >/dev/null 2>&1 || missing="$missing systemd"
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v caddy >/dev/null 2>&1 || missing="$missing caddy"
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing="$missing nginx-light"
if [ -n "$missing" ]; then
    echo "== installing Debian's$missing for the browser and hosting tests"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing >/dev/null
fi

# The headless shell only makes the browser tests cheaper: if it cannot be installed
# they drive chromium, as before.
if ! command -v chromium-headless-shell >/dev/null 2>&1; then
    echo "== installing Debian's chromium-headless-shell for the browser tests"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    { $SUDO apt-get update -q >/dev/null \
        && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium-headless-shell >/dev/null; } \
        || echo "== (not installed: the browser tests drive chromium, about 1.6 times the CPU)"
fi

# The failing-disk tests make a small ext4 image (mkfs.ext4) and mark the
# database immutable (chattr): Debian's e2fsprogs.
if ! command -v mkfs.ext4 >/dev/null 2>&1 || ! command -v chattr >/dev/null 2>&1; then
    echo "== installing Debian's e2fsprogs for the failing-disk tests"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q e2fsprogs >/dev/null
fi

# The server tests also run on PostgreSQL (issue 17): Debian's postgresql
# (the tests start a private cluster of their own in a temporary directory).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "== installing Debian's postgresql for the PostgreSQL store tests"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q postgresql >/dev/null
fi

# A re-run reuses .venv as it is when pyproject.toml has not changed since the last
# install (its hash is kept in .venv); a fresh clone makes and fills it.
if [ ! -x .venv/bin/python ]; then
    # (Debian's own python3 makes a venv only with its python3-venv package)
    if ! python3 -m venv .venv; then
        echo "== installing Debian's python3-venv for the test environment"
        if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
        $SUDO apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q python3-venv >/dev/null
        rm -rf .venv && python3 -m venv .venv
    fi
    .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
fi
# rl: OpenSpiel, PettingZoo and Gymnasium, so the tests of rollem.rl run too;
# distributed: Ray, for the test that starts a two-node cluster (issue 30)
extras="web,dev,rl,distributed"
installed="$extras $(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ "$(cat .venv/.rollem-installed 2>/dev/null)" != "$installed" ]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[$extras]"
    echo "$installed" > .venv/.rollem-installed
fi

# The accessibility tests run axe-core (MPL-2.0) in the browser: from the npm
# registry into .node/ (git-ignored); without npm they are skipped.
if command -v npm >/dev/null 2>&1 && [ ! -f .node/node_modules/axe-core/axe.min.js ]; then
    echo "== installing axe-core for the accessibility tests"
    npm install -q --prefix .node --no-save --no-package-lock --no-audit --no-fund axe-core@4.14.1 >/dev/null
fi

# (the seconds each stage took: what a fresh clone spends before pytest, stop 60)
echo "== ruff (setup took ${SECONDS} s)"
.venv/bin/ruff check src tests bench scripts
# mypy runs beside pytest, at a low priority, and its report comes after pytest's: on
# a fresh clone (no .mypy_cache) it takes about 45 CPU-s, while pytest's two workers
# leave the cores idle about half the time (browsers, servers, PostgreSQL); on a
# re-run with its cache it takes about a second. Either failing fails the command.
mypy_log=$(mktemp)
nice -n 10 .venv/bin/mypy >"$mypy_log" 2>&1 &
mypy_pid=$!
trap 'kill "$mypy_pid" 2>/dev/null || true; rm -f "$mypy_log"' EXIT
# Keep Python's bytecode caches (git-ignored __pycache__): with PYTHONDONTWRITEBYTECODE
# set (some containers set it) pytest rewrites the asserts of all 200-odd test modules
# again in each worker at collection (about 18 CPU-s a worker) and every Python child
# (`rollem serve`, the CLI tests' commands) compiles rollem's sources again (about
# 0.5 CPU-s each); docs/dev/test-suite-time.md, stop 44.
unset PYTHONDONTWRITEBYTECODE
echo "== pytest (two workers, each test file on one: pytest-xdist)"
pytest_rc=0
pytest_from=$SECONDS
.venv/bin/pytest -n 2 --dist loadfile "$@" || pytest_rc=$?
echo "== mypy (strict, library; ran beside pytest, which took $((SECONDS - pytest_from)) s)"
mypy_rc=0
mypy_from=$SECONDS
wait "$mypy_pid" || mypy_rc=$?
echo "== (mypy done $((SECONDS - mypy_from)) s after pytest; the whole command ${SECONDS} s)"
trap 'rm -f "$mypy_log"' EXIT  # (its process is gone: nothing to stop)
cat "$mypy_log"
if [ "$pytest_rc" -ne 0 ]; then exit "$pytest_rc"; fi
exit "$mypy_rc"
