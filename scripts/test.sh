#!/usr/bin/env bash
# Set up and run every check: lint (ruff), types (mypy --strict on the
# library), the whole test suite (pytest). Safe to run on a fresh Debian
# machine with Python 3.11 and pip; re-running reuses .venv.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[web,dev]"

echo "== ruff"
.venv/bin/ruff check src tests bench
echo "== mypy (strict, library)"
.venv/bin/mypy
echo "== pytest"
.venv/bin/pytest "$@"
