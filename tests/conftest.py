"""Fixtures shared by the tests of every folder."""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

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


_COMPILE: list[subprocess.Popen[bytes]] = []
"""The child compiling the odds' kernels for the run (:func:`pytest_configure`)."""


def pytest_configure(config: pytest.Config) -> None:
    """A run with several workers (scripts/test.sh: ``-n 2 --dist loadfile``) starts
    numba's compile of the odds' kernels in a child process of its own as it starts,
    before the workers collect: on a fresh clone (no disk cache) the compile takes
    about 40 CPU-s (43 at stop 72), and the first test of each worker that needs the kernels waited
    for it, one worker compiling and the other waiting on its lock
    (``rollem.odds.compiled._compile_lock``), both idle for tests: 52.8 and 46.6 s in
    CI's first two tests (docs/dev/test-suite-time.md, stop 72).  The child takes the
    same lock and writes the cache; a worker's own warm-up then waits for the lock,
    if the child still holds it, and loads the cache (about 1 CPU-s), and the tests
    that run meanwhile use the cores.  Nothing is asked of the child: a child that
    fails leaves each worker to compile as before.  Not in the workers, a plain
    run or ``ROLLEM_NO_NUMBA``."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    import os

    if os.environ.get("ROLLEM_NO_NUMBA"):
        return
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]))
    code = ("from rollem.odds import compiled\n"
            "if compiled.AVAILABLE:\n    compiled.wait(None)\n")
    _COMPILE.append(subprocess.Popen([sys.executable, "-c", code], env=env, cwd=ROOT,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL))


def pytest_unconfigure(config: pytest.Config) -> None:
    """The compiling child stopped if it is still at work (a short run)."""
    for child in _COMPILE:
        if child.poll() is None:
            child.terminate()
        child.wait()
    _COMPILE.clear()


FILE_TIMES = Path(__file__).with_name("file_times.txt")
"""Each test file's seconds in a measured run (``SECONDS PATH`` a line, the path
as pytest's node ids give it), written by ``scripts/file_times.py`` from a
``--junitxml`` report; read by :func:`pytest_xdist_make_scheduler`."""


def file_seconds(path: Path = FILE_TIMES) -> dict[str, float]:
    """The seconds of each test file in :data:`FILE_TIMES` (``{}`` if it is missing);
    blank lines and ``#`` comments are skipped."""
    if not path.exists():
        return {}
    out: dict[str, float] = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            seconds, name = line.split(None, 1)
            out[name] = float(seconds)
    return out


_KERNEL_WORDS = ("odds", "compiled", "ryo_views")
"""Words of a test file that may wait for the odds' compiled kernels (play's odds,
``ryo_views``' seeded views, a server's odds workers): :func:`may_wait_for_kernels`."""


@functools.cache
def may_wait_for_kernels(name: str) -> bool:
    """Whether the test file ``name`` (as pytest's node ids give it) may wait for the
    odds' compiled kernels: one of :data:`_KERNEL_WORDS` in its text (115 of 450
    files; some of them never wait, which only puts them later at the start)."""
    try:
        text = (ROOT / name).read_text(encoding="utf-8")
    except OSError:
        return True
    return any(word in text for word in _KERNEL_WORDS)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` (scripts/test.sh) hands out the longest test files first.

    pytest-xdist puts each test file on one worker and, by default, hands out the
    files with the most tests first; the number of tests says little about the
    time (a file of 60 quick unit tests, another of 3 browser tests of a minute
    each), and a long file handed out last keeps one worker busy while the other
    is idle.  Here the files go out by their measured seconds
    (:data:`FILE_TIMES`), longest first; a file not measured yet goes before the
    measured ones (in xdist's order), so a new long file is never the last.  While
    the run's compile of the odds' kernels is at work (:func:`pytest_configure`), the
    first file in that order that does not wait for them goes out instead
    (:func:`may_wait_for_kernels`): the workers test while it compiles."""
    if config.getvalue("dist") != "loadfile":
        return None
    from collections import OrderedDict

    from xdist.scheduler import LoadFileScheduling

    class LongestFirst(LoadFileScheduling):  # type: ignore[misc]
        ordered = False

        def _assign_work_unit(self, node: Any) -> None:
            if not self.ordered:   # (the first call: the whole collection is queued)
                self.ordered = True
                seconds = file_seconds()
                order = sorted(self.workqueue, key=lambda f: -seconds.get(f, float("inf")))
                self.workqueue = OrderedDict((f, self.workqueue[f]) for f in order)
            if _COMPILE and _COMPILE[0].poll() is None:  # (the kernels still compiling)
                for name in self.workqueue:
                    if not may_wait_for_kernels(name):
                        self.workqueue.move_to_end(name, last=False)
                        break
            super()._assign_work_unit(node)

    return LongestFirst(config, log)


WEB = ROOT / "tests" / "web"
"""The tests that start a real server (and, for most, Chromium): their pace is the
loaded machine's (two pytest workers, each with a server, a browser and its pages
on two cores)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test under ``tests/web`` that fails is run once more (pytest-rerunfailures),
    as Playwright's own runner does on CI: one that fails twice fails the run, and
    each second try is listed in the summary (``RERUN``, ``-ra``) so a test that
    needed it is seen, not hidden.  A test with its own ``flaky`` mark keeps it."""
    if not config.pluginmanager.hasplugin("rerunfailures"):
        return
    for item in items:
        if item.path.is_relative_to(WEB) and item.get_closest_marker("flaky") is None:
            item.add_marker(pytest.mark.flaky(reruns=1))


_FIRST_TRIES: list[tuple[str, str]] = []
"""The tests tried again: (node id, the first try's failure in one line)."""


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Keeps why a test tried again failed its first try (shown at the end)."""
    if report.outcome == "rerun":
        crash = getattr(report.longrepr, "reprcrash", None)
        why = crash.message if crash is not None else str(report.longrepr)
        _FIRST_TRIES.append((report.nodeid, why.splitlines()[0] if why else ""))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Lists each test that passed or failed only on its second try, with why the
    first failed: a test that needs it often is a test to make steady."""
    if _FIRST_TRIES:
        terminalreporter.section("tests tried again (the first try's failure)")
        for nodeid, why in _FIRST_TRIES:
            terminalreporter.write_line(f"{nodeid}: {why[:300]}")
