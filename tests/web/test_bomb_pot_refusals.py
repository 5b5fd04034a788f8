"""Bomb pots at a table none of whose games can have one (try-out of stop 52).

Stud, razz, draw, deuces wild, 5-2-1 and Roll Your Own have no bomb pots (their
first betting round is not followed by shared cards: docs/web-table.md). At
such a table the host's **Bomb pot next hand** was taken and the felt told
everyone "bomb pot next hand" at every hand, for good, while every hand was
dealt as usual; ``bomb_pot_every`` was taken at creation and in the host's
settings and missed at every hand while the settings said it was on. Now each
is refused, naming why, and nothing changes; a dealer's choice with one game
that can have a bomb pot still takes them (a called one waits for that game).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_harness import Player, ServerThread, create_table, drain, join


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    s = ServerThread(tmp_path_factory.mktemp("bomb") / "t.db")
    try:
        yield s
    finally:
        s.stop()


@pytest.mark.parametrize(("config", "said"), [
    ({"game": "stud"}, "Seven-Card Stud has no bomb pots"),
    ({"game": "rollyourown"}, "Five Card Roll Your Own has no bomb pots"),
    ({"game": "dealers-choice", "choices": ["stud", "razz"]},
     "none of Seven-Card Stud, Razz has bomb pots"),
])
def test_bomb_pots_every_n_hands_are_refused_where_no_game_has_them(
        srv: ServerThread, config: dict[str, Any], said: str) -> None:
    r = httpx.post(srv.url + "/api/tables", json={**config, "bomb_pot_every": 3})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_config"
    assert r.json()["message"].startswith("bomb_pot_every must be 0 at this table: " + said)
    # off, or a game that can have one among those offered: taken as before
    assert httpx.post(srv.url + "/api/tables", json={**config, "bomb_pot_every": 0}
                      ).status_code == 200
    assert httpx.post(srv.url + "/api/tables", json={
        "game": "dealers-choice", "choices": ["stud", "holdem"], "bomb_pot_every": 3,
    }).status_code == 200


def test_the_hosts_bomb_pot_and_setting_are_refused_at_a_stud_table(srv: ServerThread) -> None:
    tid, host = create_table(srv.url, game="stud", bots=2)
    _seat, tok = join(srv.url, tid, "Ann")

    async def run() -> None:
        async with Player(srv.ws_url, tid, tok, host) as ann:
            await ann.recv()
            before = ann.state
            assert before is not None
            err = await ann.host_error({"op": "bomb_pot", "on": True})
            assert err["code"] == "no_bomb_pot"
            assert err["message"].startswith("Seven-Card Stud has no bomb pots")
            err = await ann.host_error({"op": "config", "config": {"bomb_pot_every": 2}})
            assert err["code"] == "bad_config"
            assert "Seven-Card Stud has no bomb pots" in err["message"]
            await ann.send({"type": "sync"})
            await drain(ann, 0.5)
            after = ann.state
            assert after is not None and after["seq"] == before["seq"]
            assert after["table"]["bomb_pot_next"] is False
            assert after["table"]["config"]["bomb_pot_every"] == 0
            # calling it off is no call: taken as before
            await ann.send({"type": "host", "op": "bomb_pot", "on": False})
            await drain(ann, 0.5)
            assert [e["code"] for e in ann.errors] == ["no_bomb_pot", "bad_config"]

    asyncio.run(run())


def test_a_called_bomb_pot_goes_when_the_host_changes_to_a_game_without_one(
        srv: ServerThread) -> None:
    tid, host = create_table(srv.url, game="holdem", bots=2, bomb_pot_every=4)
    _seat, tok = join(srv.url, tid, "Ann")

    async def run() -> None:
        async with Player(srv.ws_url, tid, tok, host) as ann:
            await ann.recv()
            await ann.send({"type": "host", "op": "bomb_pot", "on": True})
            await ann.until(lambda m: m["table"]["bomb_pot_next"] is True)
            # every 4 hands cannot go on at stud: said, nothing changed
            err = await ann.host_error({"op": "config", "config": {"game": "stud"}})
            # (the Change's label, stop 54)
            assert err["code"] == "bad_config"
            assert "Bomb pot every N hands must be 0" in err["message"]
            assert ann.state is not None and ann.state["table"]["config"]["game"] == "holdem"
            await ann.send({"type": "host", "op": "config",
                            "config": {"game": "stud", "bomb_pot_every": 0}})
            st = await ann.until(lambda m: m["table"]["config"]["game"] == "stud")
            assert st["table"]["bomb_pot_next"] is False

    asyncio.run(run())
