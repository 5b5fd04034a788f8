"""Replays of finished hands: the lean form (GameSession.replay), and the cache that
builds them off the event loop (rollem.server.replays)."""

from __future__ import annotations

import asyncio
import gzip
import itertools
import random
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import orjson
import pytest

pytest.importorskip("starlette")

from rollem.bots import make_bot
from rollem.engine import Hand
from rollem.server.game_session import GameSession
from rollem.server.replays import ReplayBody, ReplayCache, encode_body
from rollem.table import Table


def _finished_session(game: str, players: int, seed: int) -> GameSession:
    table = Table([200] * players, game=game, rng=random.Random(seed), button=0)
    hand: Hand = table.new_hand()
    bots = [make_bot("basic", random.Random(seed * 100 + s)) for s in range(players)]
    while not hand.is_over:
        p = hand.pending
        assert p is not None
        for s in p.seats:
            hand.apply(s, bots[s].act(hand.view(s)))
            if hand.is_over or hand.pending is not p:
                break
    return GameSession.of_hand(1, hand, list(range(players)), hand.source, hand.options)


@pytest.mark.parametrize(("game", "players", "seed"), [("rollem521", 10, 4), ("rollyourown", 6, 1),
                                                       ("sdr", 3, 2)])
def test_lean_replay_is_the_full_frames_without_the_repeated_log(
        game: str, players: int, seed: int) -> None:
    session = _finished_session(game, players, seed)
    names = [f"P{s}" for s in range(players)]
    for seat in (None, 0, players - 1):
        full = session.frames(seat, names)
        calls = itertools.count()
        lean = session.replay(seat, names, pause=calls.__next__)
        assert next(calls) == len(session.hand.actions)  # once after each action's frame
        assert "events" not in lean["frames"][0]
        assert lean["events"] == full[-1]["events"]
        rebuilt = [{**{k: v for k, v in f.items() if k != "events_n"},
                    "events": lean["events"][:f["events_n"]]} for f in lean["frames"]]
        assert rebuilt == full
        if game == "rollem521":  # a long 10-player hand: the log was most of it
            assert len(orjson.dumps(lean)) * 2 < len(orjson.dumps(full))


def _body(text: bytes) -> ReplayBody:
    return encode_body(text)


def test_encode_body_gzips_the_same_json() -> None:
    body = encode_body(b'{"frames": [' + b",".join([b'{"pot": 5}'] * 500) + b"]}")
    assert gzip.decompress(body.gzipped) == body.json
    assert len(body.gzipped) * 10 < len(body.json)
    assert body.size == len(body.json) + len(body.gzipped)


def test_cache_builds_once_off_the_loop_for_many_asking_at_once() -> None:
    built_on: list[int] = []
    made = 0

    def make() -> object:
        nonlocal made
        made += 1

        def build() -> ReplayBody:
            built_on.append(threading.get_ident())
            time.sleep(0.05)  # (long enough that all ten ask while it is built)
            return _body(b'{"a": 1}')
        return build

    async def run() -> list[ReplayBody]:
        cache = ReplayCache()
        got = await asyncio.gather(*(cache.get("k", make) for _ in range(10)))  # type: ignore[arg-type]
        again = await cache.get("k", make)  # type: ignore[arg-type]
        assert cache.builds == 1 and len(cache) == 1
        return [*got, again]

    bodies = asyncio.run(run())
    assert made == 1 and len(built_on) == 1
    assert built_on[0] != threading.get_ident()  # not the event loop's thread
    assert all(b.json == b'{"a": 1}' for b in bodies)


def test_cache_keeps_the_most_recently_used_within_its_budget() -> None:
    def maker(n: int) -> object:
        return lambda: (lambda: _body(b"x" * n))

    async def run() -> None:
        size = _body(b"x" * 1000).size
        cache = ReplayCache(max_bytes=2 * size)
        for key in ("a", "b"):
            await cache.get(key, maker(1000))  # type: ignore[arg-type]
        await cache.get("a", maker(1000))  # "a" used last: "b" goes first
        await cache.get("c", maker(1000))  # type: ignore[arg-type]
        await asyncio.sleep(0.05)  # (the worker thread counts the bytes as each is done)
        assert cache.builds == 3
        await cache.get("a", maker(1000))  # type: ignore[arg-type]
        assert cache.builds == 3
        await cache.get("b", maker(1000))  # type: ignore[arg-type]
        assert cache.builds == 4

    asyncio.run(run())


def test_a_body_larger_than_the_budget_drops_nothing_else() -> None:
    """A body larger than the whole budget is served, not kept, and drops none of
    the others (s61-hostile2: it dropped every kept body before itself: a table's
    ``hands.csv`` past the csv cache's 8 MB, some 50,000 hands of 6 players,
    emptied it at each ask, every other table's built again)."""
    def maker(n: int) -> object:
        return lambda: (lambda: _body(b"x" * n))

    async def run() -> None:
        size = _body(b"x" * 1000).size
        cache = ReplayCache(max_bytes=3 * size)
        for key in ("a", "b"):
            await cache.get(key, maker(1000))  # type: ignore[arg-type]
        big = await cache.get("big", maker(5000))  # type: ignore[arg-type]
        assert len(big.json) == 5000
        await asyncio.sleep(0.05)  # (the worker thread counts the bytes as each is done)
        assert cache.builds == 3 and len(cache) == 2  # (main: 0, "a" and "b" dropped)
        for key in ("a", "b"):
            await cache.get(key, maker(1000))  # type: ignore[arg-type]
        assert cache.builds == 3  # (main: 5)
        await cache.get("big", maker(5000))  # type: ignore[arg-type]
        assert cache.builds == 4  # (not kept: built again)

    asyncio.run(run())


def test_a_failed_build_raises_and_is_not_kept() -> None:
    calls = 0

    def make() -> object:
        def build() -> ReplayBody:
            nonlocal calls
            calls += 1
            if calls == 1:
                raise ValueError("bad hand")
            return _body(b"{}")
        return build

    async def run() -> None:
        cache = ReplayCache()
        with pytest.raises(ValueError, match="bad hand"):
            await cache.get("k", make)  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        assert (await cache.get("k", make)).json == b"{}"  # type: ignore[arg-type]

    asyncio.run(run())


def test_a_cancelled_asker_does_not_stop_the_build() -> None:
    release = threading.Event()

    def make() -> object:
        def build() -> ReplayBody:
            release.wait(10)
            return _body(b"{}")
        return build

    async def run() -> None:
        cache = ReplayCache()
        first = asyncio.create_task(cache.get("k", make))  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        first.cancel()
        release.set()
        assert (await cache.get("k", make)).json == b"{}"  # type: ignore[arg-type]
        assert cache.builds == 1

    asyncio.run(run())


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="max_bytes -1"):
        ReplayCache(max_bytes=-1)


class _Inline(ThreadPoolExecutor):
    """Builds at once, in the asking thread: the body is done before ``submit`` returns."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        fut: Future[Any] = Future()
        fut.set_result(fn(*args, **kwargs))
        return fut


def test_a_body_done_before_it_is_kept_does_not_stall_the_loop() -> None:
    """(A short hand's replay could be built before the cache added its callback,
    which then ran at once in the loop's thread while the cache held its lock.)"""
    cache = ReplayCache(executor=_Inline(max_workers=1))
    got: list[bytes] = []
    worker = threading.Thread(target=lambda: got.append(asyncio.run(
        cache.get("k", lambda: lambda: _body(b"{}"))).json), daemon=True)
    worker.start()
    worker.join(10)
    assert got == [b"{}"] and len(cache) == 1
