"""A web table stored with a game file accepted before the stricter checks of
check-game restores and deals as it did (the file is read as it was accepted);
a new table with that file is still refused; a stored table whose file cannot be
read at all is refused in one line naming why, and the other tables still open.

Each test on SQLite and on PostgreSQL (where tables are leased), tables with one
computer player: a few seconds each.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_server_gamefiles import play_out
from web_harness import Player, ServerThread, create_table, join

from rollem.server.config import ConfigError, parse_config

OLD_HISTORY = (Path(__file__).parents[1] / "histories" / "stored"
               / "old_deuces_unused_house_option.toml")


def old_file() -> str:
    """wild_duplicates = 7 and table_talk (named by no step): accepted before."""
    return str(tomllib.loads(OLD_HISTORY.read_text())["_game_file"])


def new_file() -> str:
    """The same game as today's checks want it."""
    return old_file().replace("wild_duplicates = 7", "wild_duplicates = true").replace(
        "table_talk = true\n", "")


def store_instead(db: str, tid: str, before: str, after: str, **config: Any) -> None:
    """Put ``after`` where the store (a SQLite file or a PostgreSQL URL) holds the
    game file ``before`` (the table's configuration and every hand's setup): a
    table as it was stored back then."""
    if db.startswith("postgresql:"):
        import psycopg

        con: Any = psycopg.connect(db)
        mark = "%s"
    else:
        con = sqlite3.connect(db)
        mark = "?"

    def run(sql: str, *args: Any) -> list[Any]:
        cur = con.execute(sql.replace("?", mark), args)
        return list(cur.fetchall()) if sql.startswith("SELECT") else []

    with con:
        row = json.loads(run("SELECT config FROM tables WHERE id = ?", tid)[0][0])
        assert row["game_file"] == before
        row.update(game_file=after, **config)
        run("UPDATE tables SET config = ? WHERE id = ?", json.dumps(row), tid)
        for hand_no, setup_text in run("SELECT hand_no, setup FROM hands WHERE table_id = ?",
                                       tid):
            setup = json.loads(setup_text)
            assert setup["game_file"] == before
            setup["game_file"] = after
            run("UPDATE hands SET setup = ? WHERE table_id = ? AND hand_no = ?",
                json.dumps(setup), tid, hand_no)
    con.close()


def test_a_table_stored_with_an_old_game_file_restores_and_deals(db: str) -> None:
    with pytest.raises(ConfigError, match=r"game_file: house\.wild_duplicates: must be true or "
                                          "false, got 7"):
        parse_config({"game_file": old_file()})  # a new table: every check
    first = ServerThread(db)  # type: ignore[arg-type]
    try:
        r = httpx.post(first.url + "/api/tables", json={"game_file": old_file()})
        assert r.status_code == 400 and "house.wild_duplicates" in r.json()["message"]
        tid, host = create_table(first.url, game="old-deuces", game_file=new_file(), seats=2,
                                 bots=1, bot_level="basic", bot_delay=0, between_hands=600,
                                 decision_seconds=300)
        _, ann = join(first.url, tid, "Ann")

        async def first_hand() -> dict[str, Any]:
            async with Player(first.ws_url, tid, ann, host) as p:
                await p.until(lambda st: st["you"]["host"])
                await p.send({"type": "start", "seq": p.state["seq"]})  # type: ignore[index]
                return await play_out(p, 1)

        st = asyncio.run(first_hand())
        assert st["table"]["last_result"]["hand"] == 1
    finally:
        first.stop()
    store_instead(db, tid, new_file(), old_file(), between_hands=0.2)
    second = ServerThread(db)  # type: ignore[arg-type]
    try:
        cookies = {f"rollem_seat_{tid}": ann}
        table = httpx.get(f"{second.url}/api/tables/{tid}")
        assert table.status_code == 200, table.text
        assert table.json()["config"]["game"] == "old-deuces"
        frames = httpx.get(f"{second.url}/api/tables/{tid}/hands/1", cookies=cookies)
        assert frames.status_code == 200, frames.text  # hand 1 replayed from its setup
        history = httpx.get(f"{second.url}/api/tables/{tid}/hands/1/history.toml",
                            cookies=cookies).text
        assert "wild_duplicates = 7" in tomllib.loads(history)["_game_file"]

        async def second_hand() -> dict[str, Any]:
            async with Player(second.ws_url, tid, ann, host) as p:
                dealt = await p.until(lambda st: st["hand"] is not None
                                      and st["hand"]["hand_no"] == 2)
                assert dealt["hand"]["game"] == "old-deuces"
                assert len(dealt["hand"]["seats"][0]["cards"]) == 5
                return await play_out(p, 2)

        st = asyncio.run(second_hand())
        assert st["table"]["last_result"]["hand"] == 2
        assert sum(s["stack"] for s in st["table"]["seats"] if s) == 400  # chips kept
    finally:
        second.stop()


def test_a_stored_table_whose_file_cannot_be_read_is_refused_naming_why(db: str) -> None:
    first = ServerThread(db)  # type: ignore[arg-type]
    try:
        bad, _ = create_table(first.url, game="old-deuces", game_file=new_file(), seats=2,
                              bots=1)
        good, _ = create_table(first.url, game="old-deuces", game_file=new_file(), seats=2,
                               bots=1)
    finally:
        first.stop()
    broken = new_file().replace('step = "showdown"', 'step = "shodown"')
    store_instead(db, bad, new_file(), broken)
    second = ServerThread(db)  # type: ignore[arg-type]
    try:
        for _ in range(2):  # refused the same way when asked again (not retried)
            r = httpx.get(f"{second.url}/api/tables/{bad}")
            assert r.status_code == 409 and r.json()["error"] == "table_unreadable"
            message = r.json()["message"]
            assert message.startswith("this table cannot be opened: it was stored with "
                                      "something this server can no longer read (game_file: "
                                      "steps[6].step: unknown step 'shodown'")
            assert "\n" not in message
        page = httpx.get(f"{second.url}/t/{bad}")
        assert page.status_code == 409 and "unknown step 'shodown'" in page.text

        async def websocket() -> dict[str, Any]:
            async with Player(second.ws_url, bad) as p:
                return await p.until_error()

        assert asyncio.run(websocket())["code"] == "table_unreadable"
        assert httpx.get(f"{second.url}/api/tables/{good}").status_code == 200
        assert httpx.get(f"{second.url}/t/{good}").status_code == 200
        assert bad not in second.manager.tables and good in second.manager.tables
        if second.manager.leases is not None:  # PostgreSQL: the refused table's lease is free
            assert second.manager.leases.holder(bad).owner is None
    finally:
        second.stop()
