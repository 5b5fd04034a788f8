"""The host's tools over HTTP and websockets, across ``kill -9`` of ``rollem
serve`` mid-hand, on SQLite and on PostgreSQL (issue 27): a private table with
a password (wrong attempts refused, then rate-limited), its newcomers and
watchers approved by the host, stacks adjusted and a rebuy waiting for the host,
the watcher delay, and each player's whole session as one ``.phhs`` (the same
hands as the per-hand downloads, only the player's own)."""

from __future__ import annotations

import asyncio
import contextlib
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_harness import Player, ServerProcess, create_table

from rollem.phh import copy_phh_dict
from rollem.server.app import host_cookie, seat_cookie, watch_cookie


async def _fold_out(players: list[Player], hand_no: int) -> dict[str, Any]:
    """Each player to act folds (checks where it cannot) until hand ``hand_no`` ends."""
    while True:
        for p in players:
            st = p.state
            hand = st["hand"] if st is not None else None
            if hand is not None and hand["hand_no"] == hand_no and hand["result"] is not None:
                return st  # type: ignore[return-value]
            if p.my_decision() and hand is not None and hand["hand_no"] == hand_no:
                legal = hand["legal"]["actions"]
                await p.send({"type": "action", "hand": hand_no, "seq": st["seq"],  # type: ignore[index]
                              "action": {"kind": "fold" if "fold" in legal else "check"}})
        for p in players:
            with contextlib.suppress(TimeoutError):
                await p.recv(0.2)


def _watch(base: str, tid: str, password: str | None, cookie: str | None = None,
           ) -> httpx.Response:
    cookies = {watch_cookie(tid): cookie} if cookie else {}
    return httpx.post(f"{base}/api/tables/{tid}/watch", json={"name": "Wat",
                      **({"password": password} if password is not None else {})},
                      cookies=cookies)


def _phhs(base: str, tid: str, token: str) -> httpx.Response:
    return httpx.get(f"{base}/api/tables/{tid}/history.phhs",
                     cookies={seat_cookie(tid): token})


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_host_tools_survive_kill_9(tmp_path: Path, kind: str,
                                   request: pytest.FixtureRequest) -> None:
    db: Any = tmp_path / "tools.db"
    if kind == "postgresql":
        db = request.getfixturevalue("pg_cluster").new_database()
    first = ServerProcess(db, hand_floors=False)
    port = first.port
    base = first.url
    tid, host = create_table(base, game="holdem", seats=3, bots=0, stack=100,
                             structure="no-limit", private=True, watcher_delay=True,
                             rebuy_approval=True, rebuy_cap=1, between_hands=600,
                             decision_seconds=300, small_bet=2)
    tokens = []
    for seat, name in enumerate(("Ann", "Bob", "Cy")):
        cookies = {host_cookie(tid): host} if seat == 0 else {}
        r = httpx.post(f"{base}/api/tables/{tid}/join", json={"name": name, "seat": seat},
                       cookies=cookies)
        assert r.status_code == 200, r.text
        tokens.append(r.cookies[seat_cookie(tid)])
    watcher: dict[str, str] = {}

    async def part_one() -> None:
        async with Player(first.ws_url, tid, tokens[0], host) as a, \
                Player(first.ws_url, tid, tokens[1]) as b, \
                Player(first.ws_url, tid, tokens[2]) as c:
            st = await a.until(lambda st: st["table"].get("waiting") == [1, 2])
            for seat in (1, 2):  # a private table: newcomers wait for the host
                await a.send({"type": "host", "op": "approve", "seat": seat})
            await a.send({"type": "host", "op": "password", "password": "hunter22"})
            st = await a.until(lambda st: st["table"]["has_password"]
                               and st["table"]["waiting"] == [])
            # Watching needs the password, then the host; attempts are limited.
            assert _watch(base, tid, None).json()["error"] == "bad_password"
            wrong = _watch(base, tid, "hunter2")
            assert (wrong.status_code, wrong.json()["error"]) == (403, "bad_password")
            ok = _watch(base, tid, "hunter22")
            assert ok.status_code == 200 and ok.json() == {"watch": "waiting"}
            watcher["token"] = ok.cookies[watch_cookie(tid)]
            assert [_watch(base, tid, "nope").status_code for _ in range(3)] == [403, 403, 429]
            assert httpx.get(f"{base}/api/tables/{tid}/hands",
                             cookies={watch_cookie(tid): watcher["token"]}).status_code == 403
            await a.send({"type": "start", "seq": st["seq"]})
            st = await _fold_out([a, b, c], 1)
            # The unapproved watcher gets nothing of it over HTTP either.
            wc = {watch_cookie(tid): watcher["token"]}
            for path in ("hands", "hands/1", "hands.csv", "ledger.csv", "stats",
                         "history.phhs"):
                got = httpx.get(f"{base}/api/tables/{tid}/{path}", cookies=wc)
                assert (got.status_code, got.json()["error"]) == (403, "private"), path
            info = httpx.get(f"{base}/api/tables/{tid}", cookies=wc).json()
            assert info == {"id": tid, "name": "Home game", "locked": True, "private": True,
                            "has_password": True, "closed": False, "you": None}
            # Between hands: Cy's stack to 0 (then a rebuy waits), Bob's +50.
            await a.send({"type": "host", "op": "adjust_stack", "seat": 2, "stack": 0})
            await a.send({"type": "host", "op": "adjust_stack", "seat": 1,
                          "stack": st["table"]["ledger"][1]["stack"] + 50})
            st = await c.until(lambda st: len(st["table"]["adjustments"]) == 2)
            await c.send({"type": "rebuy", "seq": st["seq"]})
            st = await a.until(lambda st: st["table"]["rebuy_requests"] == [2])
            await a.send({"type": "host", "op": "deal_now"})
            await a.until(lambda st: st["hand"] is not None and st["hand"]["hand_no"] == 2)

    asyncio.run(part_one())
    first.kill()  # SIGKILL mid-hand 2

    second = ServerProcess(db, port=port, hand_floors=False)
    base = second.url
    try:
        async def part_two() -> None:
            async with Player(second.ws_url, tid, tokens[0], host) as a, \
                    Player(second.ws_url, tid, tokens[1]) as b:
                st = await a.until(lambda st: st["hand"] is not None)
                t = st["table"]
                assert st["hand"]["hand_no"] == 2 and t["has_password"]
                assert [(x["seat"], x["stack"]) for x in t["adjustments"]] == [
                    (2, 0), (1, t["adjustments"][1]["stack"])]
                assert t["adjustments"][1]["by"] == 50
                assert t["rebuy_requests"] == [2]
                assert t["watch_requests"] == [{"id": 1, "name": "Wat"}]
                assert sum(x["net"] for x in t["ledger"]) == 0
                await a.send({"type": "host", "op": "approve_watcher", "watcher": 1})
                await a.until(lambda st: st["table"]["watchers"] == [{"id": 1, "name": "Wat"}])
                async with Player(second.ws_url, tid) as stranger:
                    st = await stranger.until(lambda st: True)
                    assert st["table"]["locked"] and st["hand"] is None  # (no cookie)
                watching = Player(second.ws_url, tid)
                watching.headers["Cookie"] = f"{watch_cookie(tid)}={watcher['token']}"
                async with watching as w:
                    st = await w.until(lambda st: True)
                    # approved, one hand behind: hand 1 as it ended, nothing of hand 2
                    assert "locked" not in st["table"] and st["table"]["hand_in_play"]
                    assert st["hand"]["hand_no"] == 1 and st["hand"]["result"] is not None
                    assert st["table"]["hand_no"] == 1
                await a.send({"type": "host", "op": "approve_rebuy", "seat": 2})
                st = await a.until(lambda st: st["table"]["rebuy_requests"] == [])
                assert st["table"]["ledger"][2]["stack"] == 100
                await _fold_out([a, b], 2)

        asyncio.run(part_two())

        async def watcher_view() -> None:
            player = Player(second.ws_url, tid)
            player.headers["Cookie"] = f"{watch_cookie(tid)}={watcher['token']}"
            async with player as w:
                st = await w.until(lambda st: True)
                # approved: the table, and hand 2 once it ended
                assert "locked" not in st["table"] and st["hand"]["hand_no"] == 2
                assert st["hand"]["result"] is not None

        asyncio.run(watcher_view())
        # Each player's whole session: their own copies, the same as hand by hand.
        for seat, hands in ((0, [1, 2]), (2, [1])):
            r = _phhs(base, tid, tokens[seat])
            assert r.status_code == 200, r.text
            assert r.headers["content-disposition"].endswith(f'session-{tid}.phhs"')
            bulk = tomllib.loads(r.text)
            assert [bulk[k]["_hand"] for k in sorted(bulk, key=int)] == hands
            for k in bulk:
                one = httpx.get(f"{base}/api/tables/{tid}/hands/{bulk[k]['_hand']}/history.toml",
                                cookies={seat_cookie(tid): tokens[seat]})
                assert one.status_code == 200
                expected = copy_phh_dict(tomllib.loads(one.text))
                assert bulk[k] == {"_hand": bulk[k]["_hand"], **expected}
                assert bulk[k]["variant"] == "NT"
        assert httpx.get(f"{base}/api/tables/{tid}/history.phhs").status_code == 403
        # The password and the watcher's approval are stored: a new watcher waits.
        again = _watch(base, tid, "hunter22")
        assert again.json() == {"watch": "waiting"}
    finally:
        second.kill()
