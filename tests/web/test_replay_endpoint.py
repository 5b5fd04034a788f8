"""``GET /api/tables/<id>/hands/<n>``: a finished hand's replay in the lean form
(the event log once, each frame's ``events_n``), a watcher's gzipped when asked
(a seat's own padded and never compressed), built once per viewer and kept."""

from __future__ import annotations

import asyncio
import gzip
import threading
from typing import Any

import httpx
import pytest
from web_harness import Player, ServerThread, create_table, join

from rollem.server.game_session import GameSession


def test_replay_is_lean_gzipped_and_built_once_per_viewer(server: ServerThread) -> None:
    tid, host = create_table(server.url, game="sdr", seats=2, bots=1, bot_delay=0.0,
                             decision_seconds=0.1, time_bank_seconds=0, between_hands=120)
    seat, token = join(server.url, tid, "Ann")

    async def play() -> None:
        async with Player(server.ws_url, tid, token, host) as a:
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            await a.until(lambda st: st["hand"] is not None and st["hand"]["result"] is not None,
                          timeout=30)

    asyncio.run(play())
    url = f"{server.url}/api/tables/{tid}/hands/1"
    ann = {f"rollem_seat_{tid}": token}
    # A watcher's replay is gzipped when asked.
    raw = httpx.get(url, headers={"Accept-Encoding": "gzip"})
    assert raw.headers["content-encoding"] == "gzip"
    plain = httpx.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert raw.json() == plain.json()
    with httpx.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as r:
        assert gzip.decompress(b"".join(r.iter_raw())) == plain.content  # as sent
    # Ann's own is never compressed, and padded to the watcher's length plus an
    # allowance of it (stop 56: its own hand's words told its size; main: gzipped)
    watcher_length = len(plain.content)
    raw = httpx.get(url, cookies=ann, headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in raw.headers
    plain = httpx.get(url, cookies=ann, headers={"Accept-Encoding": "identity"})
    assert raw.content == plain.content
    assert len(plain.content) == watcher_length + 1024 + watcher_length // 4
    body = plain.json()
    assert body["seat"] == seat and body["names"][seat] == "Ann"
    # The same frames as the full form (each with its own copy of the log), as Ann saw it.
    table = server.manager.get(tid)
    session = GameSession.restore(1, table.store.load_hand(tid, 1).setup,
                                  table.store.load_actions(tid, 1))
    full = session.frames(seat, body["names"])
    assert [{**{k: v for k, v in f.items() if k != "events_n"},
             "events": body["events"][:f["events_n"]]} for f in body["frames"]] == full
    assert body["frames"][-1]["result"]["net"] == body["result"]["net"]
    # Ann's replay was built once (two asks); the watcher's (three asks) is another.
    replays = server.app.state.replays
    assert replays.builds == 2  # (the watcher's, then Ann's: built once, asked twice)
    watcher = [httpx.get(url).json() for _ in range(2)]
    assert replays.builds == 2 and watcher[0] == watcher[1] and watcher[0]["seat"] is None


def test_a_history_download_is_built_once_off_the_event_loop(
        server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 34: each download of a hand's history.toml replayed the hand (showdown
    included) on the event loop; now the player's copy is built once, on the
    replay thread, and kept."""
    tid, host = create_table(server.url, game="sdr", seats=2, bots=1, bot_delay=0.0,
                             decision_seconds=0.1, time_bank_seconds=0, between_hands=120)
    _seat, token = join(server.url, tid, "Ann")

    async def play() -> None:
        async with Player(server.ws_url, tid, token, host) as a:
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            await a.until(lambda st: st["hand"] is not None and st["hand"]["result"] is not None,
                          timeout=30)

    asyncio.run(play())
    threads: list[str] = []
    history_text = GameSession.history_text

    def counted(self: GameSession, seat: int, names: list[str], *more: Any) -> str:
        threads.append(threading.current_thread().name)
        return history_text(self, seat, names, *more)

    monkeypatch.setattr(GameSession, "history_text", counted)
    url = f"{server.url}/api/tables/{tid}/hands/1/history.toml"
    ann = {f"rollem_seat_{tid}": token}
    bodies = [httpx.get(url, cookies=ann) for _ in range(3)]
    assert all(r.status_code == 200 for r in bodies)
    assert bodies[0].text == bodies[1].text == bodies[2].text
    assert '"Ann"' in bodies[0].text and 'variant = "rollem-sdr"' in bodies[0].text
    assert bodies[0].headers["content-disposition"] == 'attachment; filename="hand-1.toml"'
    assert len(threads) == 1 and threads[0].startswith("rollem-replays"), threads
    assert server.app.state.histories.builds == 1
    # a watcher gets no copy, and nothing is built for it
    assert httpx.get(url).status_code == 403 and server.app.state.histories.builds == 1


def test_a_history_that_takes_long_is_busy_then_kept(
        server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """A download waits at most BUILD_WAIT_SECONDS for its body (a stored costly game
    file's hand may take seconds): past it a 503 ``busy`` with Retry-After; the build
    goes on and the next ask gets it, built once.  (The build is held on an event,
    not timed.)"""
    from rollem.server import app_context

    tid, host = create_table(server.url, game="sdr", seats=2, bots=1, bot_delay=0.0,
                             decision_seconds=0.1, time_bank_seconds=0, between_hands=120)
    _seat, token = join(server.url, tid, "Ann")

    async def play() -> None:
        async with Player(server.ws_url, tid, token, host) as a:
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            await a.until(lambda st: st["hand"] is not None and st["hand"]["result"] is not None,
                          timeout=30)

    asyncio.run(play())
    release = threading.Event()
    history_text = GameSession.history_text

    def held(self: GameSession, seat: int, names: list[str], *more: Any) -> str:
        release.wait(30)
        return history_text(self, seat, names, *more)

    monkeypatch.setattr(GameSession, "history_text", held)
    monkeypatch.setattr(app_context, "BUILD_WAIT_SECONDS", 0.3)
    url = f"{server.url}/api/tables/{tid}/hands/1/history.toml"
    ann = {f"rollem_seat_{tid}": token}
    try:
        busy = httpx.get(url, cookies=ann)
        assert busy.status_code == 503 and busy.json()["error"] == "busy"
        assert busy.headers["retry-after"] == "5"
    finally:
        release.set()
    monkeypatch.setattr(app_context, "BUILD_WAIT_SECONDS", 30.0)
    done = httpx.get(url, cookies=ann)
    assert done.status_code == 200 and 'variant = "rollem-sdr"' in done.text
    assert server.app.state.histories.builds == 1
