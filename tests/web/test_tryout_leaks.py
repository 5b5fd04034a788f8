"""What a new user's hostile client found at the web table (try-out of stop 39):
each test fails on the code before its fix."""

from __future__ import annotations

import asyncio

import httpx
from test_server_gamefiles import play_out
from web_harness import Player, ServerThread, create_table, join


def test_public_stats_tell_no_pair_kept_at_a_secret_discard(server: ServerThread) -> None:
    """``/api/tables/<id>/stats`` is public at the table (any watcher reads it), so it
    counts nothing from hidden cards: Roll Your Own's discard to the pool is secret
    (R-RYO-2), and which cards a player kept stays secret even when they show at the
    end; ``kept_pairs`` told every watcher, after each hand, whether a player (one
    who folded too) kept a pair.  The other figures stay."""
    tid, host = create_table(server.url, game="rollyourown", seats=3, bots=2, bot_delay=0.0,
                             decision_seconds=5, time_bank_seconds=0, between_hands=120,
                             bot_level="random")
    _, token = join(server.url, tid, "Ann")

    async def play() -> None:
        async with Player(server.ws_url, tid, token, host) as ann:
            await ann.until(lambda st: st["you"]["host"])
            await ann.send({"type": "start", "seq": ann.state["seq"]})
            await asyncio.wait_for(play_out(ann, 1), 60)

    asyncio.run(play())
    out = httpx.get(f"{server.url}/api/tables/{tid}/stats").json()  # (a watcher: no cookie)
    assert out["hands"] == 1 and set(out["players"]) == {"Ann", "Bot 1 (random)",
                                                         "Bot 2 (random)"}
    figures = [*out["players"].values(), *out["games"]["rollyourown"].values()]
    for one in figures:
        assert "kept_pairs" not in one, one
        assert one["hands"] == 1 and one["discards"] == 1  # (that each discarded is public)
