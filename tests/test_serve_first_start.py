"""``rollem serve`` says what it waits for when the odds take long to get ready.

The README's first command on a fresh install printed "open http://127.0.0.1:8000/",
then compiled the practice odds for about 50 s (numba, the first start only) with
nothing on the screen, while the page it told the user to open hung
(s73-newcomer). Now, past :data:`~rollem.cli.serve_cmd.ODDS_NOTICE_AFTER` seconds
it says so, and says again when the page opens (the URL again).
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import run_cli


class _NoServer:
    """Stands in for ``uvicorn.Config`` and ``uvicorn.Server``: takes anything,
    serves nothing (closes the sockets it is given)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def run(self, sockets: list[Any] | None = None) -> None:
        for sock in sockets or []:
            sock.close()


class _Workers:
    """Stands in for the odds workers' ready event: not ready at the first ``wait``
    when ``slow`` (as on a first start, compiling), ready at the next; ready at
    once otherwise. No clock: the waits' timeouts are recorded."""

    def __init__(self, slow: bool) -> None:
        self.slow = slow
        self.waits: list[float | None] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout)
        return not self.slow or len(self.waits) > 1


def _serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
           workers: _Workers) -> str:
    """``rollem serve --port 0`` with ``workers`` for the odds workers' ready event
    and no real server; its standard output."""
    import uvicorn

    import rollem.server.game_session as game_session
    import rollem.server.live_table as live_table

    def warm() -> _Workers:
        return workers

    monkeypatch.setattr(live_table, "warm_odds_workers", warm)
    monkeypatch.setattr(game_session, "warm_up", lambda: 0.0)
    monkeypatch.setattr(uvicorn, "Config", _NoServer)
    monkeypatch.setattr(uvicorn, "Server", _NoServer)
    threshold, interval = gc.get_threshold(), sys.getswitchinterval()
    try:
        code, out, err = run_cli(["serve", "--port", "0", "--db", str(tmp_path / "t.db")],
                                 capsys)
    finally:  # serve tunes the process for serving; put this one back
        gc.unfreeze()
        gc.set_threshold(*threshold)
        sys.setswitchinterval(interval)
    assert code == 0, err
    return out


def test_a_slow_start_says_it_prepares_the_odds_and_when_the_page_opens(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    workers = _Workers(slow=True)
    out = _serve(tmp_path, monkeypatch, capsys, workers)
    lines = out.splitlines()
    url = lines[0].removeprefix("rollem web table: open ")
    assert url.startswith("http://127.0.0.1:") and url.endswith("/"), lines
    waiting = [i for i, line in enumerate(lines) if line.startswith("preparing the odds")]
    assert len(waiting) == 1, lines
    assert lines[waiting[0]] == ("preparing the odds (up to a minute the first time); the page "
                                 "opens after"), lines
    ready = lines[waiting[0] + 1]
    # (not "serving ...": a test reads up to the log line "serving ... workers)")
    assert ready.startswith("ready after ") and ready.endswith(f" s: open {url}"), lines
    assert workers.waits == [3.0, 57.0], workers.waits  # the notice at 3 s, at most 60 in all


def test_a_quick_start_prints_only_the_usual_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    workers = _Workers(slow=False)
    out = _serve(tmp_path, monkeypatch, capsys, workers)
    assert "preparing the odds" not in out and "ready after" not in out, out
    assert out.splitlines()[0].startswith("rollem web table: open http://127.0.0.1:"), out
    assert workers.waits == [3.0], workers.waits
