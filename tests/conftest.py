"""Fixtures shared by the tests of every folder."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def built_dists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist and the wheel of the tree, built once for the run: ``(sdist, wheel)``
    paths.  Built from a copy of the tree (``src``, ``pyproject.toml``, ``README.md``,
    ``LICENSE``, ``MANIFEST.in``, ``tests/histories`` and a stray ``tests/test_x.py``
    the sdist must leave out) by ``setuptools.build_meta`` in a child process, with
    the setuptools of this environment: the one the build backend asks for
    (``setuptools>=77``; the dev extra pins it).  Skips the test where it is older."""
    import setuptools

    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip("needs setuptools>=77 (the dev extra pins it; pip install -e '.[dev]')")
    tree = tmp_path_factory.mktemp("tree")
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
    return tree / "dist" / sdist_name, tree / "dist" / wheel_name
