"""Packaging (issue 14): the wheel ships the LICENSE (MIT, as pyproject says);
the sdist carries no tests (they need the whole repository); both build from
a copy of the tree with the setuptools the build backend asks for (the
``built_dists`` fixture of conftest.py, shared with test_rules.py)."""

from __future__ import annotations

import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_ships_the_license_and_sdist_no_tests(built_dists: tuple[Path, Path]) -> None:
    sdist_path, wheel_path = built_dists  # (conftest.py: built once for the run)
    with zipfile.ZipFile(wheel_path) as wheel:
        names = wheel.namelist()
        licence = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
        assert licence, names
        assert wheel.read(licence[0]).decode().startswith("MIT License")
        meta = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        assert "License-Expression: MIT" in meta
        assert "rollem/rules/sdr.md" in names and "rollem/narration/story.py" in names
    with tarfile.open(sdist_path) as sdist:
        members = sdist.getnames()
    assert any(m.endswith("/LICENSE") for m in members)
    assert not [m for m in members if "/tests/" in m or m.endswith("/tests")], members
