"""scripts/gen_cli_reference.py: a proper command line (--help, --check)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "gen_cli_reference.py"
TARGET = ROOT / "docs" / "cli-reference.md"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, check=False, cwd=ROOT)


def test_help_prints_usage_and_writes_nothing() -> None:
    before = TARGET.stat().st_mtime_ns
    proc = _run("--help")
    assert proc.returncode == 0
    assert "--check" in proc.stdout and "usage:" in proc.stdout
    assert "wrote" not in proc.stdout
    assert TARGET.stat().st_mtime_ns == before


def test_unknown_argument_is_refused_and_writes_nothing() -> None:
    before = TARGET.stat().st_mtime_ns
    proc = _run("--frobnicate")
    assert proc.returncode == 2 and "unrecognized arguments" in proc.stderr
    assert TARGET.stat().st_mtime_ns == before


def test_check_matches_the_committed_file() -> None:
    proc = _run("--check")
    assert proc.returncode == 0, proc.stdout
