"""Packaging (issue 14): the wheel ships the LICENSE (MIT, as pyproject says);
the sdist carries no tests (they need the whole repository); both build from
a copy of the tree with the setuptools the build backend asks for."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_ships_the_license_and_sdist_no_tests(tmp_path: Path) -> None:
    import setuptools

    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip("needs setuptools>=77 (the dev extra pins it; pip install -e '.[dev]')")
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(ROOT / "src", tree / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    shutil.copytree(ROOT / "tests" / "histories", tree / "tests" / "histories")
    (tree / "tests" / "test_x.py").write_text("def test_x() -> None: ...\n")
    code = ("import sys\nfrom setuptools import build_meta as b\n"
            "names = b.build_sdist('dist'), b.build_wheel('dist')\n"
            "print('BUILT', *names)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    sdist_name, wheel_name = out.stdout.strip().splitlines()[-1].split()[1:]
    with zipfile.ZipFile(tree / "dist" / wheel_name) as wheel:
        names = wheel.namelist()
        licence = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
        assert licence, names
        assert wheel.read(licence[0]).decode().startswith("MIT License")
        meta = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        assert "License-Expression: MIT" in meta
        assert "rollem/rules/sdr.md" in names and "rollem/narration/story.py" in names
    with tarfile.open(tree / "dist" / sdist_name) as sdist:
        members = sdist.getnames()
    assert any(m.endswith("/LICENSE") for m in members)
    assert not [m for m in members if "/tests/" in m or m.endswith("/tests")], members
