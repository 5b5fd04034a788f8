"""Limits and hosting settings of the web table (issue 13): request bodies cut
off while read, JSON depth, a token bucket per connection, connections per
address and per table, tables per address and in total, bounded table
settings, names, buy-ins that follow the person, the public URL, origins
behind a reverse proxy, Secure cookies, /healthz, idle tables unloaded."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from web_harness import REAL_PACING, UNLIMITED, Player, ServerThread, create_table, join

from rollem.server import app as app_module
from rollem.server import limits as limits_module
from rollem.server.app import AddressBuckets, seat_cookie
from rollem.server.config import (
    DECISION_SECONDS,
    ConfigError,
    ServerSettings,
    TableConfig,
    parse_config,
)
from rollem.server.live_table import TableError, clean_name
from rollem.server.protocol import ProtocolError, json_depth, parse_message


@pytest.fixture
def small(tmp_path: Path) -> Iterator[ServerThread]:
    """A server with small limits, behind a (pretend) public HTTPS address."""
    srv = ServerThread(tmp_path / "t.db", ServerSettings(
        public_url="https://poker.example.org", allowed_origins=("https://other.example",),
        messages_per_second=5, message_burst=10, connections_per_address=4,
        connections_per_table=3, tables_per_address_per_hour=3, max_tables=4,
        max_body_bytes=2048, idle_seconds=0.4, costly_requests_per_minute=3,
        costly_burst=3, shortest_decision=0.05))
    try:
        yield srv
    finally:
        srv.stop()


def _depth_by_scanning(text: str) -> int:
    """json_depth written the plain way: one byte at a time."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def test_json_depth_and_deep_messages_are_malformed() -> None:
    assert json_depth('{"a": [1, {"b": "[[[["}]}') == 3
    assert json_depth("[" * 5000) == 5000
    assert json_depth('["\\"[", "\\\\", [[]]]') == 3 and json_depth('"[[') == 0
    # The fast json_depth (no loop over the bytes) against the plain scan: random
    # text made of brackets, quotes, backslashes and letters, open strings included.
    rng = random.Random(13)
    for _ in range(3000):
        text = "".join(rng.choice('[]{}"\\ab,é') for _ in range(rng.randint(0, 24)))
        assert json_depth(text) == _depth_by_scanning(text), text
    with pytest.raises(ProtocolError) as err:
        parse_message("[" * 4000)
    assert err.value.code == "malformed" and "nested" in err.value.message
    assert parse_message('{"type": "ping"}').type == "ping"


@pytest.mark.parametrize("raw, fixed", [
    ("  Ann   Lee ", "Ann Lee"), ("Zoë", "Zoë"), ("李小龍", "李小龍"), ("x" * 24, "x" * 24),
    # one script a word; Han with kana and Latin is one writing (TS #39)
    ("Ann Иванова", "Ann Иванова"), ("Иван", "Иван"), ("山田たろう", "山田たろう"),
    ("Ἀθηνᾶ", "Ἀθηνᾶ"), ("Bots", "Bots"), ("Ann-2 😀", "Ann-2 😀"),
])
def test_names_are_trimmed(raw: str, fixed: str) -> None:
    assert clean_name(raw) == fixed


@pytest.mark.parametrize("raw, word", [
    ("", "needed"), ("   ", "needed"), ("x" * 25, "at most 24"), (7, "text"),
    ("Ann\u200b", "U+200B"), ("\u202eevil", "U+202E"), ("a\u0007b", "U+0007"),
    ("Al\u2066ice", "U+2066"), ("Bot 1 (random)", "computer"), ("bot", "computer"),
    ("BOT 3", "computer"),
    # look-alikes (rollem.lookalike): Cyrillic А (U+0410) in a Latin word; the
    # computer players' name in Cyrillic В, о, or with a zero for the o
    ("\u0410nn", "mixes letters of Cyrillic and Latin in one word"),
    ("\u0412\u043et", "computer"), ("\u0412\u043et 1 (random)", "computer"),
    ("B0t 2", "computer"),
])
def test_bad_names_are_refused(raw: object, word: str) -> None:
    with pytest.raises(TableError) as err:
        clean_name(raw)
    assert err.value.code == "bad_name" and word in err.value.message


@pytest.mark.parametrize("field, value", [
    ("decision_seconds", 601), ("time_bank_seconds", 3601), ("grace_seconds", 3601),
    ("decision_seconds", "nan"), ("grace_seconds", "inf"), ("decision_seconds", True),
    ("decision_seconds", "\uff11\uff12"), ("grace_seconds", "1e3"), ("bot_delay", [1]),
])
def test_table_clocks_are_bounded(field: str, value: object) -> None:
    with pytest.raises(ConfigError, match=field):
        parse_config({field: value})


def test_clock_settings_read_numbers_and_number_texts() -> None:
    config = parse_config({"decision_seconds": " 1.5 ", "grace_seconds": 90, "bot_delay": 0.25})
    assert (config.decision_seconds, config.grace_seconds, config.bot_delay) == (1.5, 90, 0.25)


def test_the_decision_clock_bounds_are_the_forms_and_the_refusal_names_them(
        tmp_path: Path) -> None:
    """A server with the default settings refuses a 1 s decision clock as the create
    form does (its minimum, read from /api/info, is the API's: 5 s), naming the range;
    a stored table created with a shorter clock before the bound still restores."""
    srv = ServerThread(tmp_path / "t.db", ServerSettings(
        tables_per_address_per_hour=100, costly_requests_per_minute=1e6, costly_burst=100))
    try:
        info = httpx.get(srv.url + "/api/info").json()
        assert info["decision_seconds"] == list(DECISION_SECONDS) == [5, 600]
        page = httpx.get(srv.url + "/").text  # the form's own fallback agrees
        assert '<input name="decision_seconds" type="number" min="5" max="600"' in page
        for seconds, status in ((1, 400), (4.99, 400), (601, 400), (5, 200), (600, 200)):
            r = httpx.post(srv.url + "/api/tables",
                           json={"game": "sdr", "decision_seconds": seconds})
            assert r.status_code == status, (seconds, r.text)
            if status == 400:
                assert r.json()["message"] == ("decision_seconds must be from 5 to 600 "
                                               f"seconds, not {seconds:g}")
    finally:
        srv.stop()
    assert TableConfig.from_dict({"game": "sdr", "decision_seconds": 1}).decision_seconds == 1
    with pytest.raises(ConfigError, match=r"shortest_decision must be from 0\.05 to 600"):
        ServerSettings(shortest_decision=0.01).check()


def test_the_pacing_settings_are_checked() -> None:
    """``bot_shortest_wait`` and ``odds_answer_grid`` (stop 57) take 0 to 60
    seconds, ``bot_waits_for_think`` a bool; anything else is refused by name."""
    ServerSettings(bot_shortest_wait=0, odds_answer_grid=60, bot_waits_for_think=True).check()
    for name, value in (("bot_shortest_wait", -0.01), ("bot_shortest_wait", float("nan")),
                        ("odds_answer_grid", 60.5), ("odds_answer_grid", "1.5")):
        with pytest.raises(ConfigError, match=rf"^{name} must be from 0 to 60 seconds, not "):
            ServerSettings(**{name: value}).check()
    with pytest.raises(ConfigError, match=r"^bot_waits_for_think must be true or false, not 1$"):
        ServerSettings(bot_waits_for_think=1).check()  # type: ignore[arg-type]
    # the run-out's pause (s61-table2): 0 to 5 seconds
    ServerSettings(runout_step=0).check()
    ServerSettings(runout_step=5).check()
    for value in (-0.1, 5.5, float("nan"), "1"):
        with pytest.raises(ConfigError, match=r"^runout_step must be from 0 to 5 seconds, not "):
            ServerSettings(runout_step=value).check()  # type: ignore[arg-type]


def test_a_server_gives_its_pacing_to_every_table(tmp_path: Path) -> None:
    """The tables a server creates, and those it loads again after a restart, take
    its settings' pacing (stop 57): a test server's (``UNLIMITED``: no shortest
    wait, late thinks waited for, a 0.01 s odds grid), or the real one."""
    from rollem.server.pacing import RUNOUT_STEP, Pacing

    fast = Pacing(bot_shortest_wait=0.0, bot_waits_for_think=True, odds_answer_grid=0.01)
    assert UNLIMITED.pacing() == fast
    for settings, pacing in ((UNLIMITED, fast),
                             (dataclasses.replace(UNLIMITED, **REAL_PACING),
                              Pacing(runout_step=RUNOUT_STEP))):
        db = tmp_path / f"{pacing.bot_shortest_wait}.db"
        srv = ServerThread(db, settings)
        try:
            tid, _ = create_table(srv.url, game="sdr", seats=2, bots=1)
            assert srv.manager.get(tid).pacing == pacing
        finally:
            srv.stop()
        srv = ServerThread(db, settings)  # (the table loaded from the store)
        try:
            assert srv.call(srv.manager.get, tid).pacing == pacing
        finally:
            srv.stop()


def test_http_limits(small: ServerThread) -> None:
    base = small.url
    # A big body is refused (413) while it is read: declared, or streamed without a length.
    r = httpx.post(base + "/api/tables", content=b"{" + b" " * 1_000_000 + b"}",
                   headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(1000):
            yield b"x" * 1000
        yield b'"}'

    r = httpx.post(base + "/api/tables", content=chunks(),
                   headers={"content-type": "application/json"})
    assert r.status_code == 413
    # Deep JSON is a plain malformed error, not a server fault.
    r = httpx.post(base + "/api/tables", content=b"[" * 2000,
                   headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "malformed"
    # The invite uses the public URL; the host cookie is Secure (the public URL is https).
    r = httpx.post(base + "/api/tables", json={"game": "sdr", "bots": 1})
    assert r.status_code == 200
    tid = r.json()["id"]
    assert r.json()["invite"] == f"https://poker.example.org/t/{tid}"
    assert "secure" in r.headers["set-cookie"].lower()
    # Three tables an hour from one address; the fourth is refused, saying when.
    for _ in range(2):
        assert httpx.post(base + "/api/tables", json={}).status_code == 200
    r = httpx.post(base + "/api/tables", json={})
    assert r.status_code == 429 and r.json()["error"] == "too_many_tables"
    assert "try again in" in r.json()["message"]
    # In total: max_tables (4) -- another address would be refused too.
    small.call(small.app.state.limits.created.clear)
    assert httpx.post(base + "/api/tables", json={}).status_code == 200
    r = httpx.post(base + "/api/tables", json={})
    assert r.status_code == 503 and r.json()["error"] == "server_full"
    # /healthz: the writer commits.
    r = httpx.get(base + "/healthz")
    assert r.status_code == 200 and r.json()["ok"] is True


def test_look_alike_names_are_refused(server: ServerThread) -> None:
    """Names must differ as they look (Unicode TS #39 skeletons), not only as they
    read: before, "Аnn" (Cyrillic А) sat down beside Ann."""
    tid, _host = create_table(server.url, game="sdr", seats=6, bots=1)
    for name in ("Ann", "ABC", "Ian"):
        join(server.url, tid, name)

    def refused(name: str) -> str:
        r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": name})
        assert (r.status_code, r.json()["error"]) == (400, "bad_name"), name
        return str(r.json()["message"])

    assert refused("\u0410nn") == (
        "'\u0410nn' mixes letters of Cyrillic and Latin in one word, so it can pass for "
        "another name; write each word in one script")
    # All Cyrillic (А, В, С): one script, but the look of ABC (a whole-script look-alike).
    assert refused("\u0410\u0412\u0421") == (
        "'\u0410\u0412\u0421', in Cyrillic letters, looks like 'ABC', who sits at this "
        "table; choose another name")
    assert refused("lan") == "'lan' looks like 'Ian', who sits at this table; choose another name"
    assert refused("\U0001d400nn") == "'Ann' already sits at this table; choose another name"
    assert "computer" in refused("\u0412\u043et")
    # Issue 34: all Cyrillic Апп (п is not in confusables.txt as n), and Ann with a
    # combining acute or stroke. Before: each sat down beside Ann.
    assert refused("\u0410\u043f\u043f") == (
        "'\u0410\u043f\u043f', in Cyrillic letters, looks like 'Ann', who sits at this "
        "table; choose another name")
    assert refused("An\u0144") == (
        "'An\u0144' looks like 'Ann', who sits at this table; choose another name")
    assert refused("A\u0336nn") == (
        "'A\u0336nn' looks like 'Ann', who sits at this table; choose another name")
    assert "computer" in refused("B\u00f3t")  # Bót
    # A name of its own in another script sits down.
    seat, _token = join(server.url, tid, "\u0418\u0432\u0430\u043d")  # Иван
    assert seat >= 0


def test_a_name_that_reads_as_a_seated_players_is_refused(server: ServerThread) -> None:
    """s58-tidy: ``Ann.``, ``Annn``, ``A nn`` or ``J R`` beside Ann and J.R. read as
    the same player (punctuation, spaces, a letter repeated; case was already one
    name); refused naming the seated name and what is fine. ``Anna``, ``An`` and
    ``Ann 2`` are names of their own."""
    tid, _host = create_table(server.url, game="sdr", seats=8, bots=1)
    for name in ("Ann", "J.R."):
        join(server.url, tid, name)

    def refused(name: str) -> str:
        r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": name})
        assert (r.status_code, r.json()["error"]) == (400, "bad_name"), (name, r.text)
        return str(r.json()["message"])

    fine = ("names that differ only by punctuation, spaces, case or a letter repeated are "
            "one name here; one with a letter or a number of its own, such as {!r}, is fine")
    for name in ("Ann.", "Annn", "A nn", "ANN!", "A.n.n"):
        assert refused(name) == f"{name!r} reads as 'Ann', who sits at this table: " \
                                + fine.format("Ann 2"), name
    assert refused("J R") == "'J R' reads as 'J.R.', who sits at this table: " \
        + fine.format("J.R. 2")
    for name in ("Anna", "An", "Ann 2"):
        seat, _token = join(server.url, tid, name)
        assert seat >= 0, name


def test_names_unique_and_buy_ins_follow_the_person(server: ServerThread) -> None:
    tid, _host = create_table(server.url, game="sdr", seats=4, bots=1, rebuys=False,
                             grace_seconds=0.1, decision_seconds=60, between_hands=60)
    s0, t0 = join(server.url, tid, "Ann")
    r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": " ANN "})
    assert r.status_code == 400 and r.json()["error"] == "bad_name"
    assert "already sits" in r.json()["message"]
    # A variation selector after a letter varies nothing: "Ann\ufe0f" would read as "Ann".
    r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "Ann\ufe0f"})
    assert (r.status_code, r.json()["error"]) == (400, "bad_name")
    assert r.json()["message"] == ("a name may not hold invisible, control or text-direction "
                                   "characters (U+FE0F); use letters, digits, spaces, "
                                   "punctuation")
    # A Hangul filler (default ignorable) shows as nothing. Before: "Ann\u3164" sat beside Ann.
    r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "Ann\u3164"})
    assert (r.status_code, r.json()["message"]) == (
        400, "a name may not hold invisible, control or text-direction characters (U+3164); "
        "use letters, digits, spaces, punctuation")
    # Full-width letters read as Ann (NFKC).
    r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "\uff21\uff4e\uff4e"})
    assert (r.status_code, r.json()["message"]) == (
        400, "'Ann' already sits at this table; choose another name")
    r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "Bot 1 (random)"})
    assert r.status_code == 400 and "computer" in r.json()["message"]
    # Names are judged as they read (rollem.text.name_key). Before: both sat down.
    for name in ("Bot\ufe0f", "B\ufe0fot"):
        r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": name})
        assert (r.status_code, r.json()["message"]) == (
            400, f"{name!r} is kept for computer players; choose another name")
    r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "\ufe0f\ufe0f"})
    assert (r.status_code, r.json()["message"]) == (
        400, "a name is needed to sit down (1 to 24 characters)")
    table = server.manager.get(tid)
    # Ann has lost chips (as after a hand), then closes her tab; her seat is freed.
    server.call(lambda: setattr(table.seats[s0].row, "stack", 37))

    async def visit(token: str) -> None:
        async with Player(server.ws_url, tid, token) as p:
            await p.until(lambda st: True)

    asyncio.run(visit(t0))
    end = time.time() + 10
    while s0 in table.seats and time.time() < end:
        time.sleep(0.05)
    assert s0 not in table.seats
    # A stranger typing her name cannot take her chips (nor start a second "Ann" line).
    r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "ann"})
    assert r.status_code == 400 and r.json()["error"] == "bad_name"
    assert "left this table" in r.json()["message"]
    # Nor one typing her name in Cyrillic letters (issue 34: a whole-script look-alike).
    r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "\u0410\u043f\u043f"})
    assert (r.status_code, r.json()["message"]) == (
        400, "'\u0410\u043f\u043f', in Cyrillic letters, looks like 'Ann', who left this "
        "table earlier; choose another name")
    # She comes back (her browser still has her old seat cookie): her stack, not a new one.
    r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "Annie"},
                   cookies={f"rollem_seat_{tid}": t0})
    assert r.status_code == 200
    seat = r.json()["seat"]
    info = httpx.get(f"{server.url}/api/tables/{tid}").json()
    assert info["seats"][seat]["stack"] == 37
    people = [line for line in info["ledger"] if line["name"] in ("Ann", "Annie")]
    assert people == [{"seat": seat, "name": "Annie", "brought": 200, "stack": 37,
                       "net": -163, "left": False, "bot": None}]
    assert all("digest" not in line for line in info["ledger"])


def test_every_try_with_a_game_file_counts_against_the_hourly_limit(
        small: ServerThread) -> None:
    """A game file is read and dealt on trial, good or bad: three refused files use
    the address's three tables an hour, so the fourth try is refused before reading."""
    bad = 'id = "x"\nname = "X"\nplayers = [2, 6]\nrules = "r"\n[[steps]]\nstep = "nope"\n'
    for _ in range(3):
        r = httpx.post(small.url + "/api/tables", json={"game_file": bad})
        assert r.status_code == 400 and r.json()["error"] == "bad_config", r.text
        assert "steps[0].step" in r.json()["message"]
    r = httpx.post(small.url + "/api/tables", json={"game": "sdr"})
    assert r.status_code == 429 and r.json()["error"] == "too_many_tables"


def test_websocket_limits_and_origins(small: ServerThread) -> None:
    tid, _host = create_table(small.url, game="sdr", bots=1)
    _seat, seat_token = join(small.url, tid, "Ann")
    url = f"{small.ws_url}/ws/{tid}"

    async def run() -> None:
        # Behind nginx with its defaults: Host is the upstream's, Origin the public URL.
        for origin in ("https://poker.example.org", "https://other.example"):
            async with websockets.connect(url, origin=origin) as ws:  # type: ignore[arg-type]
                assert '"type":"state"' in await ws.recv()
        with pytest.raises(websockets.InvalidStatus):
            async with websockets.connect(url, origin="https://evil.example"):  # type: ignore[arg-type]
                pass
        async with websockets.connect(url, origin="https://poker.example.org",  # type: ignore[arg-type]
                                      additional_headers={"X-Forwarded-Host": "poker.lan"}):
            pass
        # A flood: the burst (10) passes, then an error and the connection is closed.
        async with websockets.connect(url) as ws:
            await ws.recv()
            for _ in range(40):
                await ws.send('{"type": "sync"}')
            codes = []
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    msg = await asyncio.wait_for(ws.recv(), 5)
                    if json.loads(msg)["type"] == "error":
                        codes.append(msg)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
            assert len(codes) == 1 and "rate_limited" in codes[0]
        # Connections per table (3): the fourth is told why and closed.
        opened = [await websockets.connect(url) for _ in range(3)]
        async with websockets.connect(url) as extra:
            msgs = [await extra.recv()]
            assert "too_many_connections" in msgs[0] and "watchers" in msgs[0]
        # Watchers filling the table never lock its players out: a seated player
        # still connects; a made-up seat cookie is a watcher's, refused.
        async with websockets.connect(url, additional_headers={
                "Cookie": f"{seat_cookie(tid)}={seat_token}"}) as ws:
            assert '"type":"state"' in await ws.recv()
        end = time.monotonic() + 20  # (until the server has counted the player's close:
        while True:                  # 2.5 s of tries was tight on a loaded machine)
            async with websockets.connect(url, additional_headers={
                    "Cookie": f"{seat_cookie(tid)}=made-up"}) as ws:
                told = await ws.recv()
            if "your address" not in told or time.monotonic() > end:
                break
            await asyncio.sleep(0.05)
        assert "too_many_connections" in told and "watchers" in told, told
        # Connections per address (4): one more at another table is refused too.
        other, _ = create_table(small.url, game="sdr", bots=1)
        async with websockets.connect(f"{small.ws_url}/ws/{other}") as fourth:
            assert '"type":"state"' in await fourth.recv()
            async with websockets.connect(f"{small.ws_url}/ws/{other}") as fifth:
                msg = await fifth.recv()
                assert "too_many_connections" in msg and "your address" in msg
        for ws in opened:
            await ws.close()

    asyncio.run(run())


def test_an_idle_table_is_unloaded_and_comes_back(small: ServerThread) -> None:
    tid, host = create_table(small.url, game="sdr", bots=1, bot_delay=0.0,
                             decision_seconds=0.1, time_bank_seconds=0, grace_seconds=0.1,
                             between_hands=0.05)
    _s0, t0 = join(small.url, tid, "Ann")

    async def run() -> None:
        async with Player(small.ws_url, tid, t0, host) as a:
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            await a.until(lambda st: st["hand"] is not None)

    asyncio.run(run())
    # Nobody connected: within idle (0.4 s) + a sweep it is unloaded and deals no more.
    end = time.time() + 10
    while tid in small.manager.tables and time.time() < end:
        time.sleep(0.05)
    assert tid not in small.manager.tables
    hands = len(small.manager.store.hand_numbers(tid))
    time.sleep(0.5)
    assert len(small.manager.store.hand_numbers(tid)) == hands
    # Opening the link brings it back as it was.
    assert httpx.get(f"{small.url}/t/{tid}").status_code == 200
    assert tid in small.manager.tables
    info = httpx.get(f"{small.url}/api/tables/{tid}").json()
    assert info["hand_no"] == hands and info["started"]


def test_costly_requests_are_limited_per_address(small: ServerThread) -> None:
    """The routes that build something (hand list, replays, histories, rules,
    /healthz) share one token bucket per address (here 3, refilled one per 20 s):
    past it a 429 ``rate_limited`` with ``Retry-After``, before any work."""
    tid, _host = create_table(small.url, game="sdr", bots=1)
    hands = f"{small.url}/api/tables/{tid}/hands"
    assert [httpx.get(hands).status_code for _ in range(3)] == [200, 200, 200]
    r = httpx.get(hands)
    assert r.status_code == 429 and r.json()["error"] == "rate_limited"
    wait = int(r.headers["Retry-After"])
    assert 1 <= wait <= 20 and f"try again in {wait} s" in r.json()["message"]
    assert "at most 3 a minute" in r.json()["message"]
    for path in ("/rules", "/hands/1", "/hands/1/history.toml"):
        assert httpx.get(f"{small.url}/api/tables/{tid}{path}").status_code == 429, path
    assert httpx.get(f"{small.url}/healthz").status_code == 429
    # What costs little is not counted: the table's own summary, the page.
    assert httpx.get(f"{small.url}/api/tables/{tid}").status_code == 200
    assert httpx.get(f"{small.url}/t/{tid}").status_code == 200
    # Another address (as the trusted proxy says) has a bucket of its own.
    assert httpx.get(hands, headers={"X-Forwarded-For": "10.1.2.3"}).status_code == 200


def test_address_buckets_refill_and_forget_full_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(limits_module.time, "monotonic", lambda: clock[0])
    buckets = AddressBuckets(per_minute=6, burst=2)  # a token every 10 s
    assert [buckets.wait("a"), buckets.wait("a")] == [0.0, 0.0]
    assert buckets.wait("a") == pytest.approx(10.0)
    clock[0] += 4.0
    assert buckets.wait("a") == pytest.approx(6.0)  # refused: nothing spent
    clock[0] += 6.0
    assert buckets.wait("a") == 0.0 and buckets.wait("b") == 0.0
    # Past PRUNE_AT addresses, those whose buckets are full again are forgotten.
    monkeypatch.setattr(AddressBuckets, "PRUNE_AT", 2)
    clock[0] += 20.0
    assert buckets.wait("c") == 0.0
    assert set(buckets.buckets) == {"c"}


def test_a_flood_of_new_addresses_does_not_walk_every_bucket_each_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """s60-safe2: past PRUNE_AT addresses whose buckets are all still spending (the
    password and watch buckets refill a token in 12 s: 341 new addresses a second
    hold 4,096), every new address walked them all to drop none, 2 ms of the event
    loop each at 4,096 (400 new addresses a second: 1.7 s of every second).  A prune
    now comes at most once per as many new addresses as it kept; the buckets still
    spending are kept, those full again dropped."""
    clock = [1000.0]
    monkeypatch.setattr(limits_module.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(AddressBuckets, "PRUNE_AT", 64)
    buckets = AddressBuckets(per_minute=5, burst=5)  # a token every 12 s
    walked = [0]
    prune = AddressBuckets._prune

    def counted(self: AddressBuckets) -> None:
        walked[0] += len(self.buckets)
        prune(self)

    monkeypatch.setattr(AddressBuckets, "_prune", counted)
    for i in range(1000):  # 1,000 new addresses in 10 s: none refilled meanwhile
        clock[0] += 0.01
        assert buckets.wait(f"2001:db8:{i:x}::/64") == 0.0
    assert len(buckets.buckets) == 1000  # (each still spending: all kept)
    assert walked[0] < 4 * 1000  # (main: 937 walks of 64 to 999, 499,500 buckets)
    assert buckets.wait("2001:db8:0::/64") == 0.0  # the first address spends its own
    clock[0] += 30.0  # every bucket full again: the next prune drops them
    for i in range(2000, 2000 + buckets.prune_at - len(buckets.buckets) + 1):
        buckets.wait(f"2001:db8:{i:x}::/64")
    assert len(buckets.buckets) < 1000 and "2001:db8:0::/64" not in buckets.buckets


class _WalkCounted(dict[str, float]):
    """A dict that counts the entries its ``items`` walks hand out."""

    walked = 0

    def items(self):  # type: ignore[override]
        _WalkCounted.walked += len(self)
        return super().items()


def test_a_flood_of_shared_refusals_does_not_walk_every_refusal_each_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """s61-safe: the refusals of PostgreSQL's shared counts remembered per address
    (seats: 2 s; tables: until one more is allowed, up to an hour) were pruned as
    the buckets were before s60-safe2: past 4,096 kept and all still running, each
    new address walked them all to drop none (3 ms of the event loop each at 16,000
    table refusals).  A prune now comes at most once per as many new addresses as
    it kept; a refusal still running is kept and still answered."""
    clock = [1000.0]
    monkeypatch.setattr(limits_module.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(limits_module.RefusedUntil, "PRUNE_AT", 64)
    limits = limits_module.Limits(ServerSettings(tables_per_address_per_hour=3,
                                                 seats_per_address=2))
    limits.created_refused.refused = _WalkCounted()
    limits.seats_refused_shared.refused = _WalkCounted()
    _WalkCounted.walked = 0
    for i in range(1000):  # 1,000 addresses refused in 10 s, for 30 minutes each
        clock[0] += 0.01
        with pytest.raises(TableError, match="at most 3 new tables an hour"):
            limits.tables_refused_shared(f"2001:db8:{i:x}::/64", 1800.0)
    assert len(limits.created_refused) == 1000  # (each still running: all kept)
    assert _WalkCounted.walked < 4 * 1000  # (main: 497,484)
    with pytest.raises(TableError) as refused:  # the first is still refused, no query
        limits.check_create("2001:db8:0::/64", clock[0])
    assert refused.value.code == "too_many_tables"
    assert "try again in 1791 s" in refused.value.message
    clock[0] += 1800.0  # every refusal over: the next prune drops them
    for i in range(2000, 2000 + limits.created_refused.prune_at - 1000 + 1):
        with pytest.raises(TableError):
            limits.tables_refused_shared(f"2001:db8:{i:x}::/64", 1800.0)
    assert len(limits.created_refused) < 1000
    assert "2001:db8:0::/64" not in limits.created_refused
    limits.check_create("2001:db8:0::/64", clock[0])  # (allowed again)

    _WalkCounted.walked = 0
    for i in range(1000):  # 1,000 sit-downs refused by the shared count within 1 s
        clock[0] += 0.001
        assert limits.seat_refused_shared(f"10.0.{i // 256}.{i % 256}").startswith(
            "at most 2 seats at once")
    assert len(limits.seats_refused_shared) == 1000
    assert _WalkCounted.walked < 4 * 1000  # (main: 497,484)
    # The first is refused again without its seats read (it holds none here).
    assert limits.seat_refusal("10.0.0.0", lambda t, d: True) is not None
    clock[0] += 2.0
    assert limits.seat_refusal("10.0.0.0", lambda t, d: True) is None


def test_a_websocket_past_its_limit_is_refused_before_its_table_is_loaded(
        small: ServerThread) -> None:
    """Connections per address (4) are counted first: a fifth connection, to a table
    not in memory, is refused without loading that table from the store."""
    tids = [create_table(small.url, game="sdr", bots=1)[0] for _ in range(3)]
    end = time.time() + 10  # nobody connected: idle tables are unloaded (0.4 s)
    while any(t in small.manager.tables for t in tids) and time.time() < end:
        time.sleep(0.05)
    assert not any(t in small.manager.tables for t in tids)

    async def run() -> None:
        opened = [await websockets.connect(f"{small.ws_url}/ws/{t}")
                  for t in (tids[0], tids[0], tids[0], tids[1])]
        async with websockets.connect(f"{small.ws_url}/ws/{tids[2]}") as fifth:
            msg = json.loads(await fifth.recv())
            assert msg["code"] == "too_many_connections" and "your address" in msg["message"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await fifth.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        assert tids[2] not in small.manager.tables
        for ws in opened:
            await ws.close()

    asyncio.run(run())
    assert tids[0] in small.manager.tables or tids[1] in small.manager.tables


def test_forwarded_host_counts_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    """A page of evil.example may not pass the origin check by also sending
    ``X-Forwarded-Host: evil.example`` itself: only the proxies of
    ``forwarded_allow_ips`` (default 127.0.0.1, as Caddy or nginx on this
    machine) are believed.  From 127.0.0.2 the forged header is removed (403);
    from the proxy's address the same header is its word, and believed."""
    srv = ServerThread(tmp_path / "t.db")
    try:
        tid, _host = create_table(srv.url, game="sdr", bots=1)
        _seat, token = join(srv.url, tid, "Ann")
        url = f"{srv.ws_url}/ws/{tid}"
        forged = {"X-Forwarded-Host": "evil.example", "Cookie": f"{seat_cookie(tid)}={token}"}

        async def run() -> None:
            with pytest.raises(websockets.InvalidStatus) as refused:
                async with websockets.connect(url, origin="http://evil.example",  # type: ignore[arg-type]
                                              additional_headers=forged,
                                              local_addr=("127.0.0.2", 0)):
                    pass
            assert refused.value.response.status_code == 403
            # Without the header, the same page from the proxy's own address: refused.
            with pytest.raises(websockets.InvalidStatus):
                async with websockets.connect(url, origin="http://evil.example"):  # type: ignore[arg-type]
                    pass
            # From the trusted proxy (127.0.0.1) the header is believed.
            async with websockets.connect(url, origin="http://evil.example",  # type: ignore[arg-type]
                                          additional_headers=forged) as ws:
                assert '"type":"state"' in await ws.recv()
            # The request's own Host still passes from anywhere.
            async with websockets.connect(url, origin=srv.url,  # type: ignore[arg-type]
                                          local_addr=("127.0.0.2", 0)) as ws:
                assert '"type":"state"' in await ws.recv()

        asyncio.run(run())
        # A forged X-Forwarded-For from 127.0.0.2 does not change the address the
        # limits count: two joins "from 10.1.2.3" are from 127.0.0.2 still.
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(transport=transport) as client:
            r = client.post(srv.url + "/api/tables", json={"game": "sdr"},
                            headers={"X-Forwarded-For": "10.1.2.3"})
            assert r.status_code == 200
        assert set(srv.call(lambda: list(srv.app.state.limits.created))) == {"127.0.0.1",
                                                                             "127.0.0.2"}
    finally:
        srv.stop()


def test_forwarded_allow_ips_is_checked() -> None:
    with pytest.raises(ConfigError, match="empty item"):
        ServerSettings(forwarded_allow_ips="127.0.0.1,,").check()
    ServerSettings(forwarded_allow_ips="127.0.0.1, 10.0.0.0/8, ::1").check()


def test_limit_key_groups_an_ipv6_64() -> None:
    key = app_module.limit_key
    assert key("2001:db8:1:2::5") == key("2001:db8:1:2:ffff:ffff:ffff:1") == "2001:db8:1:2::/64"
    assert key("2001:db8:1:3::5") == "2001:db8:1:3::/64"
    assert key("fe80::1%eth0") == "fe80::/64"
    assert key("::ffff:198.51.100.7") == "198.51.100.7"
    assert key("198.51.100.7") == "198.51.100.7" != key("198.51.100.8")
    assert key("testclient") == "testclient"


def test_one_ipv6_64_shares_one_table_quota(small: ServerThread) -> None:
    """Tables an hour (3 here) are counted per /64: a party with one /64 cannot
    take a new address for every table (through the trusted local proxy)."""
    def create(address: str) -> httpx.Response:
        return httpx.post(small.url + "/api/tables", json={"game": "sdr"},
                          headers={"X-Forwarded-For": address})

    assert [create(f"2001:db8:0:1::{n}").status_code for n in range(1, 4)] == [200] * 3
    r = create("2001:db8:0:1:abcd::99")
    assert r.status_code == 429 and "/64" in r.json()["message"]
    assert create("2001:db8:0:2::1").status_code == 200  # another household


def test_abandoned_tables_stop_filling_the_server(db: str) -> None:
    """Tables created and never played at fill max_tables (4) only until the
    sweep after their hour: then the server takes new tables again.  The table
    where Ann sits is kept.  (PostgreSQL: through the leases, as several
    processes run.)"""
    small = ServerThread(db, ServerSettings(max_tables=4, idle_seconds=0.4))  # type: ignore[arg-type]
    try:
        _fill_and_sweep(small)
    finally:
        small.stop()


def _fill_and_sweep(small: ServerThread) -> None:
    ids = []
    for n in range(3):
        r = httpx.post(small.url + "/api/tables", json={"game": "sdr"},
                       headers={"X-Forwarded-For": f"198.51.100.{n}"})
        assert r.status_code == 200
        ids.append(r.json()["id"])
    kept, _host = create_table(small.url, game="sdr", bots=1)
    join(small.url, kept, "Ann")
    r = httpx.post(small.url + "/api/tables", json={"game": "sdr"},
                   headers={"X-Forwarded-For": "198.51.100.9"})
    assert r.status_code == 503 and r.json()["error"] == "server_full"
    end = time.time() + 10
    while small.call(lambda: len(small.manager.tables)) and time.time() < end:
        time.sleep(0.1)  # unloaded once nobody is connected (0.4 s here)
    assert small.call(small.manager.delete_old, time.time() + 3601) == 3
    assert small.manager.store.table_ids() == [kept]
    r = httpx.post(small.url + "/api/tables", json={"game": "sdr"},
                   headers={"X-Forwarded-For": "198.51.100.9"})
    assert r.status_code == 200
