"""docs/hosting.md's systemd unit (the ``systemd`` recipe), checked as a host
would check it (stop 58's host try-out): ``systemd-analyze verify`` accepts it
with no word (an unknown key is only a warning there, so its output is read
too), and every ``ROLLEM_...`` variable it sets is one ``rollem serve`` reads."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from rollem.cli.app import app

ROOT = Path(__file__).resolve().parent.parent


def _unit() -> str:
    text = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- recipe: systemd -->\s*```\w*\n(.*?)```", text, re.S)
    assert found, "docs/hosting.md has no systemd recipe"
    return found.group(1)


def test_the_unit_sets_only_variables_rollem_serve_reads() -> None:
    unit = _unit()
    serve = app.get_command(click.Context(app), "serve")
    assert serve is not None
    read = {str(p.envvar) for p in serve.params if isinstance(p, click.Option) and p.envvar}
    set_ = re.findall(r"^Environment=(ROLLEM_\w+)=", unit, re.M)
    assert set_ == ["ROLLEM_DB", "ROLLEM_PUBLIC_URL", "ROLLEM_HOST", "ROLLEM_PORT"], set_
    assert set(set_) <= read, set(set_) - read
    assert "ExecStart=/opt/rollem/.venv/bin/rollem serve\n" in unit
    # ProtectSystem=strict makes /tmp read-only; the practice-odds workers' folder
    # goes to a private one, not into the database's folder
    assert "ProtectSystem=strict\n" in unit and "PrivateTmp=true\n" in unit


def test_systemd_analyze_verifies_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian's systemd package)")
    rollem = Path(sys.executable).parent / "rollem"
    if not rollem.exists():
        pytest.skip(f"no rollem script beside {sys.executable} (pip install -e .)")
    unit = tmp_path / "rollem.service"
    unit.write_text(_unit().replace("/opt/rollem/.venv/bin/rollem", str(rollem)))
    out = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True,
                         timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (0, "", ""), out
