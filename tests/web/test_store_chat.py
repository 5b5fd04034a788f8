"""The chat is stored apart from the session (stop 58): an action's write does not
encode nor write the chat again; the chat survives a restart; a session saved
with its chat inside (schema version 2) still loads it, and is moved at its
next write.  On SQLite and on PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import sqlite3
from typing import Any

import psycopg

from rollem.server.schema import SCHEMA_VERSION
from rollem.server.store import Statement, Store, WriteStream
from rollem.server.stores import is_postgres_url, open_store

EMOJI = "\U0001F600" * 200


def _lines(first: int, last: int) -> list[dict[str, Any]]:
    return [{"id": i, "seat": i % 6, "name": f"P{i % 6}", "text": EMOJI, "t": 1000.0 + i}
            for i in range(first, last + 1)]


def _recording(store: Store) -> list[list[Statement]]:
    """Every write queued on ``store`` from now on (its statements)."""
    seen: list[list[Statement]] = []
    enqueue = store._enqueue

    def record(statements: list[Statement], stream: WriteStream | None) -> Any:
        seen.append(statements)
        return enqueue(statements, stream)

    store._enqueue = record  # type: ignore[method-assign]
    return seen


def _chars(statements: list[Statement]) -> int:
    return sum(len(a) for _sql, args in statements for a in args if isinstance(a, str))


def test_an_action_does_not_write_the_chat_again_and_it_survives_a_restart(db: str) -> None:
    store = open_store(db)
    chat = _lines(1, 100)
    session: dict[str, Any] = {"seq": 1, "hand_no": 1, "chat": chat}
    store.create_table("T", {"game": "sdr"}, session, "h")
    stream = store.stream("T")
    seen = _recording(store)
    for i in range(3):  # three actions, the chat unchanged
        session["seq"] = 2 + i
        fut = stream.write(session=session,
                           action=(1, i, 0, {"kind": "check"}, "player", {"n": i}))
        assert fut is not None
        fut.result(30)
    # The first write of a stream writes the chat (the stream knows nothing yet),
    # the next two only the session without it: a few hundred characters, where
    # the chat's JSON is 100 * 200 emoji * 12 characters of escapes.
    assert _chars(seen[0]) > 240_000
    assert [_chars(w) < 1_000 for w in seen[1:]] == [True, True]
    assert not any("chat" in sql for w in seen[1:] for sql, _ in w)
    # A new line: written once, with the session.
    chat.append(_lines(101, 101)[0])
    del chat[:-100]
    session["seq"] = 5
    fut = stream.write(session=session)
    assert fut is not None
    fut.result(30)
    assert ["UPDATE tables SET chat=? WHERE id=?" in [sql for sql, _ in seen[-1]]] == [True]
    session["seq"] = 6
    fut = stream.write(session=session)
    assert fut is not None
    fut.result(30)
    assert _chars(seen[-1]) < 1_000
    store.close()
    again = open_store(db)  # a restart
    try:
        row = again.load_table("T")
        assert row is not None
        assert row.session["seq"] == 6 and row.session["hand_no"] == 1
        assert [line["id"] for line in row.session["chat"]] == list(range(2, 102))
        assert row.session["chat"][-1]["text"] == EMOJI
    finally:
        again.close()


def _as_version_2(db: str, session_text: str) -> None:
    """Make ``db`` a database of schema version 2 whose table T holds its chat
    inside the session."""
    if is_postgres_url(db):
        with psycopg.connect(db, autocommit=True) as pconn:
            pconn.execute("ALTER TABLE tables DROP COLUMN chat")
            pconn.execute("UPDATE tables SET session=%s WHERE id='T'", (session_text,))
            pconn.execute("UPDATE rollem_schema SET version = 2")
        return
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE tables DROP COLUMN chat")
        conn.execute("UPDATE tables SET session=? WHERE id='T'", (session_text,))
        conn.execute("PRAGMA user_version = 2")
    conn.close()


def test_a_session_saved_with_its_chat_inside_still_loads_it(db: str) -> None:
    import json

    store = open_store(db)
    store.create_table("T", {"game": "sdr"}, {"seq": 1}, "h")
    store.close()
    chat = _lines(1, 3)
    _as_version_2(db, json.dumps({"seq": 7, "chat": chat}))
    store = open_store(db)  # migrated to version 3: the column is empty
    try:
        if is_postgres_url(db):
            assert store.schema_version() == SCHEMA_VERSION == 3  # type: ignore[attr-defined]
        row = store.load_table("T")
        assert row is not None and row.session == {"seq": 7, "chat": chat}
        fut = store.stream("T").write(session=dict(row.session, seq=8))
        assert fut is not None
        fut.result(30)
        raw = store.db.execute("SELECT session, chat FROM tables WHERE id=?", ("T",)).fetchone()
        assert raw is not None
        assert json.loads(raw[0]) == {"seq": 8} and json.loads(raw[1]) == chat
    finally:
        store.close()
    again = open_store(db)
    try:
        row = again.load_table("T")
        assert row is not None and row.session == {"seq": 8, "chat": chat}
    finally:
        again.close()


def test_the_chat_survives_kill_9_after_actions(db: str) -> None:
    """``rollem serve``: Ann and Bob chat, then act (each action writes the session,
    not the chat); ``kill -9``; a new server gives a connecting watcher the lines."""
    import asyncio

    from web_harness import Player, ServerProcess, create_table, join

    first = ServerProcess(db)  # type: ignore[arg-type]
    try:
        tid, host = create_table(first.url, game="sdr", seats=2, bots=0, between_hands=600,
                                 decision_seconds=300)
        _, ann = join(first.url, tid, "Ann")
        _, bob = join(first.url, tid, "Bob")

        async def chat_and_act() -> None:
            async with Player(first.ws_url, tid, ann, host) as a, \
                    Player(first.ws_url, tid, bob) as b:
                await a.until(lambda s: True)
                await b.until(lambda s: True)
                await a.send({"type": "chat", "text": "gl \U0001F600"})
                await b.send({"type": "chat", "text": "you too"})
                await a.send({"type": "start", "seq": a.state["seq"]})
                st = await a.until(lambda s: s["hand"] is not None)
                seq = st["seq"]
                await b.until(lambda s: s["hand"] is not None and s["seq"] >= seq)
                # Whoever acts checks or calls once: a session write.
                mover = a if a.my_decision() else b
                assert mover.my_decision()
                hand = mover.state["hand"]
                legal = hand["legal"]["actions"]
                await mover.send({"type": "action", "hand": hand["hand_no"],
                                  "seq": mover.state["seq"],
                                  "action": {"kind": "check" if "check" in legal else "call"}})
                await a.until(lambda s: s["seq"] > seq)

        asyncio.run(chat_and_act())
    finally:
        first.kill()
    second = ServerProcess(db, port=first.port)  # type: ignore[arg-type]
    try:
        async def read() -> list[str]:
            async with Player(second.ws_url, tid) as w:
                first_msg = await w.recv()
                chat = await w.recv()
                assert first_msg["type"] == "state" and chat["type"] == "chat"
                return [line["text"] for line in chat["lines"]]

        assert asyncio.run(read()) == ["gl \U0001F600", "you too"]
    finally:
        second.kill()
