"""Limits the stop 53 hostile pass left (docs/dev/hostile.md, "Stop 53 limits left
by the hostile pass"): what a client sends is refused with the reason, never cut
or read one of two ways, and changes nothing.

- A table's name past :data:`~rollem.server.config.MAX_TABLE_NAME` characters is
  refused (``bad_config``, HTTP 400), as a player's name past its limit is; it was
  cut to its first 40.
- A JSON object giving one key twice (``{"name": "a", "name": "b"}``) is refused
  ``malformed`` in HTTP bodies and websocket messages; the last one won.
- ``/api/tables/<id>/rules?decision=`` past
  :data:`~rollem.server.table_help.MAX_ASKED_DECISION` characters is refused
  (``bad_decision``); a short word that is no decision kind is not quoted back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_harness import Player, ServerThread, create_table, join

from rollem.rules import DECISION_KINDS
from rollem.server.config import MAX_TABLE_NAME
from rollem.server.protocol import ProtocolError, loads_once_keyed, parse_message
from rollem.server.table_help import MAX_ASKED_DECISION

JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    s = ServerThread(tmp_path_factory.mktemp("client-limits") / "t.db")
    try:
        yield s
    finally:
        s.stop()


def _stored(srv: ServerThread) -> int:
    count: int = srv.manager.store_count()
    return count


def test_an_over_long_table_name_is_refused_not_cut(srv: ServerThread) -> None:
    assert MAX_TABLE_NAME == 40
    before = _stored(srv)
    for name, length in (("N" * 41, 41), ("x" * 15_000, 15_000),
                         ("a" * 20 + "   " + "b" * 20, 41)):  # a run of spaces counts once
        r = httpx.post(srv.url + "/api/tables", json={"game": "sdr", "name": name})
        assert r.status_code == 400, r.text
        said = f"has at most 40 characters, not {length}: choose a shorter table name"
        assert r.json() == {"error": "bad_config", "message": "name " + said,
                            "form_message": "Table name " + said}  # (the lobby's label)
    assert _stored(srv) == before  # (no table made)
    # 40 characters, and 41 with a run of spaces squeezed to one, are taken whole
    for name, kept in (("é" * 40, "é" * 40),
                       ("a" * 20 + "   " + "b" * 19, "a" * 20 + " " + "b" * 19)):
        tid, _host = create_table(srv.url, game="sdr", name=name)
        assert httpx.get(f"{srv.url}/api/tables/{tid}").json()["name"] == kept
    assert _stored(srv) == before + 2
    # the create form's field stops at the limit, and shows the server's refusal
    page = httpx.get(srv.url + "/").text
    assert f'<input name="name" value="Home game" maxlength="{MAX_TABLE_NAME}">' in page


def test_a_key_given_twice_is_refused_in_every_json_read() -> None:
    said = "the key 'name' is given twice in one JSON object; give each key once"
    for text in ('{"name": "a", "name": "b"}', '{"name": "a", "\\u006eame": "b"}',
                 '{"x": [{"name": 1, "name": 1}]}'):
        with pytest.raises(ValueError, match=said):
            loads_once_keyed(text)
    assert loads_once_keyed('{"name": "a", "x": {"name": "b"}}') == {"name": "a",
                                                                     "x": {"name": "b"}}
    long_key = "k" * 100
    with pytest.raises(ValueError, match=f"the key '{'k' * 40}'\\.\\.\\. is given twice"):
        loads_once_keyed(f'{{"{long_key}": 1, "{long_key}": 2}}')
    # websocket messages, top level and in an action
    for text, key in (('{"type": "sit_out", "out": true, "out": false}', "out"),
                      ('{"type": "action", "hand": 1, "seq": 1, '
                       '"action": {"kind": "call", "kind": "fold"}}', "kind")):
        with pytest.raises(ProtocolError) as got:
            parse_message(text)
        assert got.value.code == "malformed"
        assert got.value.message == (f"the key {key!r} is given twice in one JSON object; "
                                     "give each key once")
    assert parse_message('{"type": "sit_out", "out": true}').body == {"type": "sit_out",
                                                                      "out": True}


def test_http_bodies_with_a_key_twice_are_refused_and_change_nothing(srv: ServerThread) -> None:
    before = _stored(srv)
    for body, key in ((b'{"game": "sdr", "game": "holdem"}', "game"),
                      (b'{"game": "sdr", "house": {"burn_before_roll": true, '
                       b'"burn_before_roll": false}}', "burn_before_roll")):
        r = httpx.post(srv.url + "/api/tables", content=body, headers=JSON)
        assert r.status_code == 400, r.text
        assert r.json() == {"error": "malformed", "message": f"the request body: the key {key!r} "
                            "is given twice in one JSON object; give each key once"}
    assert _stored(srv) == before
    tid, _host = create_table(srv.url, game="sdr", seats=3, bots=0)
    base = f"{srv.url}/api/tables/{tid}"
    r = httpx.post(base + "/join", content=b'{"name": "Ann", "seat": 0, "seat": 1}',
                   headers=JSON)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "malformed"
    assert "the key 'seat' is given twice" in r.json()["message"]
    assert "set-cookie" not in r.headers
    assert [s["free"] for s in httpx.get(base).json()["seats"]] == [True, True, True]


def test_websocket_messages_with_a_key_twice_are_refused(srv: ServerThread) -> None:
    tid, _host = create_table(srv.url, game="sdr", seats=3, bots=0)
    _seat, token = join(srv.url, tid, "Ann", 0)

    async def go() -> list[dict[str, Any]]:
        async with Player(srv.ws_url, tid, token) as ann:
            first = await ann.recv()
            assert first["type"] == "state"
            # the last "out" would sit Ann out: refused whole, then a ping
            await ann.send('{"type": "sit_out", "out": false, "out": true}')
            await ann.send({"type": "ping"})
            got = []
            while not got or got[-1]["type"] != "pong":
                got.append(await ann.recv())
            return got

    got = asyncio.run(go())
    assert [m["type"] for m in got if m["type"] != "chat"] == ["error", "pong"], got
    error = next(m for m in got if m["type"] == "error")
    assert error["code"] == "malformed"
    assert error["message"] == ("the key 'out' is given twice in one JSON object; give each "
                                "key once")
    assert httpx.get(f"{srv.url}/api/tables/{tid}").json()["sitting_out"] == []


def test_rules_decision_is_bounded_and_not_quoted_back(srv: ServerThread) -> None:
    assert MAX_ASKED_DECISION == 32
    tid, _host = create_table(srv.url, game="dealers-choice", seats=3, bots=0)
    rules = f"{srv.url}/api/tables/{tid}/rules"
    kinds = ", ".join(DECISION_KINDS)
    for length in (33, 60_000):
        r = httpx.get(rules, params={"game": "sdr", "decision": "d" * length})
        assert r.status_code == 400, r.status_code
        assert r.json() == {"error": "bad_decision", "message": f"decision names a kind of "
                            f"decision ({kinds}) in at most 32 characters, not {length}"}
    # within the bound: a made-up word gets no help and is not echoed
    for word in ("d" * 32, "<script>alert(1)</script>", "fly"):
        r = httpx.get(rules, params={"game": "sdr", "decision": word})
        assert r.status_code == 200, r.text
        assert r.headers["content-type"] == "application/json"
        assert r.json()["decision"] is None and r.json()["decision_help"] is None
        assert word == "fly" or word not in r.text
    body = httpx.get(rules, params={"game": "sdr", "decision": "bet"}).json()
    assert body["decision"] == "bet" and "Check" in body["decision_help"]
