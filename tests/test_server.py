"""The web table's parts without a network: table options, the message
protocol, the SQLite store, wire actions, the clock's choices (R-C-15),
practice odds (issue 8, through Starlette's in-process test client) and
``rollem serve`` on the command line."""

from __future__ import annotations

import os
import random
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rollem.cards import CARDS
from rollem.engine.hand import Hand
from rollem.engine.randomness import SeededSource
from rollem.server.config import ConfigError, ServerSettings, TableConfig, parse_config
from rollem.server.game_session import (
    ActionRefused,
    action_from_wire,
    action_to_wire,
    random_wire_action,
    timeout_action,
)
from rollem.server.protocol import MAX_MESSAGE_BYTES, ProtocolError, parse_message
from rollem.server.store import SeatRow, Store, token_digest

# -- table options -------------------------------------------------------------


def test_config_defaults_follow_the_rules() -> None:
    c = parse_config({})
    assert (c.game, c.structure, c.ante, c.small_bet, c.big_bet, c.stack) == (
        "dealers-choice", "fixed-limit", 1, 2, 4, 200)  # R-C-6 table defaults
    assert TableConfig.from_dict(c.to_dict()) == c


@pytest.mark.parametrize(("data", "word"), [
    ({"game": "poker"}, "game"),  # holdem and the standard games are games now (issue 18)
    ({"seats": 1}, "seats"),
    ({"seats": 11}, "seats"),
    ({"game": "rollyourown", "seats": 9}, "seats"),  # at most 8 players (RYO heading)
    ({"structure": "spread"}, "structure"),
    ({"ante": -1}, "ante"),
    ({"small_bet": 4, "big_bet": 2}, r"Big bet \(2\) must be at least Small bet \(4\)"),
    ({"bots": 6, "seats": 6}, "bots"),
    ({"bot_level": "genius"}, "bot_level"),
    ({"house": {"free_beer": True}}, "free_beer"),
    ({"house": {"failed_both_rule": "keep"}}, "failed_both_rule"),
    ({"decision_seconds": "soon"}, "decision_seconds"),
    ({"ante": 200, "stack": 200}, "starting stack"),  # everyone all-in on the ante
    ({"ante": 500, "stack": 200}, "starting stack"),
    ({"ante": 199, "small_bet": 2, "stack": 200}, "no betting could happen"),
    # number-like texts that int() refuses or misreads were a 500 (a ValueError)
    ({"ante": "--5"}, "ante must be a whole number"),
    ({"seats": "²"}, "seats must be a whole number"),
    ({"stack": "1_000"}, "stack must be a whole number"),
    ({"name": {"a": 1}}, "name must be a text"),
    ({"name": "Fri\u202eday"}, "name must be a text of visible characters"),
    ({"name": "Home\u3164game"}, "name must be a text of visible characters"),
    ({"name": "\u2800"}, "name must be a text of visible characters"),
])
def test_config_refuses_out_of_range_values(data: dict[str, object], word: str) -> None:
    with pytest.raises(ConfigError, match=word):
        parse_config(data)


def test_config_reads_form_values() -> None:
    c = parse_config({"game": "rollem521", "seats": "4", "bots": "2", "rebuys": False,
                      "house": {"bet_after_declare": True, "failed_both_rule": "split"}})
    assert (c.seats, c.bots, c.rebuys) == (4, 2, False)
    assert parse_config({"ante": " 3 ", "name": "  Friday   night "}).ante == 3
    assert parse_config({"name": "  Friday   night "}).name == "Friday night"
    assert c.house == {"bet_after_declare": True, "failed_both_rule": "split"}


# -- protocol --------------------------------------------------------------------


@pytest.mark.parametrize(("text", "code"), [
    ("{", "malformed"),
    ("[]", "malformed"),
    ("null", "malformed"),
    ('{"type": "fly"}', "unknown_type"),
    ('{"type": "action", "hand": 1, "seq": 2}', "malformed"),
    ('{"type": "action", "hand": true, "seq": 2, "action": {}}', "malformed"),
    ('{"type": "action", "hand": 1, "seq": 2.5, "action": {}}', "malformed"),
    ('{"type": "choose_game", "hand": 1, "seq": 2, "game": 3}', "malformed"),
    ('{"type": "start"}', "malformed"),
    ('{"type": "action", "pad": "' + "x" * MAX_MESSAGE_BYTES + '"}', "too_large"),
    (b"\xff\xfe", "malformed"),
])
def test_protocol_refuses_bad_messages(text: str | bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as err:
        parse_message(text)
    assert err.value.code == code and err.value.message


def test_protocol_reads_good_messages() -> None:
    m = parse_message('{"type": "action", "hand": 3, "seq": 17, "action": {"kind": "call"}}')
    assert (m.type, m.hand, m.seq, m.body["action"]) == ("action", 3, 17, {"kind": "call"})
    assert parse_message('{"type": "ping"}').seq is None


# -- wire actions ----------------------------------------------------------------


@pytest.mark.parametrize("wire", [
    {"kind": "fold"}, {"kind": "check"}, {"kind": "call"}, {"kind": "bet", "amount": 4},
    {"kind": "raise", "to": 8}, {"kind": "discard", "cards": ["Qs", "7d", "2c"]},
    {"kind": "expose", "card": "Kc"}, {"kind": "draw", "cards": []},
    {"kind": "wild", "position": 3}, {"kind": "stack", "cards": ["Kc", "7s", "2d", "9h", "Ac"]},
    {"kind": "declare", "side": "both"},
])
def test_wire_actions_round_trip(wire: dict[str, object]) -> None:
    assert action_to_wire(action_from_wire(wire)) == wire


@pytest.mark.parametrize(("wire", "code"), [
    ({"kind": "shove"}, "unknown_action"), ({}, "unknown_action"),
    ({"kind": "bet"}, "malformed"), ({"kind": "bet", "amount": -2}, "malformed"),
    ({"kind": "raise", "to": True}, "malformed"), ({"kind": "expose", "card": "1x"}, "malformed"),
    ({"kind": "discard", "cards": "Qs"}, "malformed"),
    ({"kind": "discard", "cards": ["Qs"] * 11}, "malformed"),
    ({"kind": "declare", "side": "sideways"}, "malformed"),
])
def test_bad_wire_actions_are_refused(wire: dict[str, object], code: str) -> None:
    with pytest.raises(ActionRefused) as err:
        action_from_wire(wire)
    assert err.value.code == code


# -- the clock's choices (R-C-15) ------------------------------------------------


def _expected_timeout(hand: Hand, seat: int) -> dict[str, object]:
    """R-C-15 computed independently from the rule text."""
    legal = hand.legal_actions(seat)
    order = {c: i for i, c in enumerate(hand.hole[seat])}

    def lowest(n: int) -> list[str]:
        # lowest rank first; between equal ranks the later-dealt card first
        ranked = sorted(legal.cards, key=lambda c: (CARDS[c].rank, -order[c]))
        return [str(CARDS[c]) for c in ranked[:n]]

    acts = legal.actions
    if "check" in acts:
        return {"kind": "check"}
    if "fold" in acts:
        return {"kind": "fold"}
    if "discard" in acts:
        return {"kind": "discard", "cards": lowest(3)}
    if "expose" in acts:
        return {"kind": "expose", "card": lowest(1)[0]}
    if "draw" in acts:
        return {"kind": "draw", "cards": []}
    if "wild" in acts:
        return {"kind": "wild", "position": 0}
    if "stack" in acts:
        return {"kind": "stack", "cards": [str(CARDS[c]) for c in legal.cards]}
    if "declare" in acts:
        return {"kind": "declare", "side": "high"}
    raise AssertionError(f"unexpected decision {legal}")


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
@pytest.mark.parametrize("seed", range(6))
def test_a_hand_played_by_the_clock_alone(game: str, seed: int) -> None:
    """Every decision of a whole hand made by the clock is R-C-15's choice."""
    hand = Hand(game, [50, 50, 50, 50], button=seed % 4, source=SeededSource(seed))
    kinds = set()
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        wire = action_to_wire(timeout_action(hand, seat))
        assert wire == _expected_timeout(hand, seat)
        kinds.add(wire["kind"])
        hand.apply(seat, action_from_wire(wire))
    assert "check" in kinds
    if game == "rollyourown":
        assert {"discard", "expose", "wild"} <= kinds
    if game == "rollem521":
        assert {"draw", "stack", "declare"} <= kinds
    assert sum(hand.stacks) + hand.result.carried == 200  # type: ignore[union-attr]


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
def test_random_wire_actions_are_always_legal(game: str) -> None:
    rng = random.Random(7)
    for seed in range(30):
        hand = Hand(game, [40, 60, 80], button=seed % 3, source=SeededSource(seed))
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            wire = random_wire_action(hand.view(seat).to_dict()["legal"], rng)
            hand.apply(seat, action_from_wire(wire))  # never IllegalAction


# -- the store -------------------------------------------------------------------


def test_store_is_wal_and_round_trips(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    assert store.journal_mode == "wal"
    store.create_table("T1", {"game": "sdr"}, {"hand_no": 0}, token_digest("host"))
    row = SeatRow(0, "Ann", token_digest("SECRET-SEAT-TOKEN"), None, 200, 200, 60.0, 0)
    store.write("T1", seats=[row], new_hand=(1, {"game": "sdr", "outcomes": []}),
                session={"hand_no": 1})
    store.write("T1", action=(1, 0, 0, {"kind": "check"}, "player", {"events": []}))
    store.write("T1", hand_result=(1, {"net": {"0": 3}}))
    store.close()
    again = Store(tmp_path / "t.db")
    table = again.load_table("T1")
    assert table is not None and table.session == {"hand_no": 1}
    assert again.load_seats("T1") == [row]
    hand = again.load_hand("T1", 1)
    assert hand is not None and hand.result == {"net": {"0": 3}}
    acts = again.load_actions("T1", 1)
    assert [(a.idx, a.seat, a.action, a.source) for a in acts] == [
        (0, 0, {"kind": "check"}, "player")]
    assert again.table_ids() == ["T1"]
    again.close()
    # Only digests of tokens are stored.
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"SECRET-SEAT-TOKEN" not in stored
    assert token_digest("SECRET-SEAT-TOKEN").encode() in stored


def test_group_commit_isolates_a_failed_write(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    store.create_table("T", {}, {}, "h")
    futures = [store.write_async("T", action=(1, i, 0, {"kind": "check"}, "player",
                                              {"events": []})) for i in range(50)]
    futures.append(store.write_async("T", action=(1, 3, 0, {"kind": "fold"}, "player",
                                                  {"events": []})))  # duplicate key
    futures.append(store.write_async("T", action=(1, 50, 0, {"kind": "call"}, "player",
                                                  {"events": []})))
    for fut in futures[:50] + futures[51:]:
        assert fut.result(10) is None
    with pytest.raises(sqlite3.IntegrityError):
        futures[50].result(10)
    assert [a.idx for a in store.load_actions("T", 1)] == list(range(51))
    assert store.load_actions("T", 1)[3].action == {"kind": "check"}
    assert store.groups <= store.commits
    store.close()


# -- rollem serve ------------------------------------------------------------------


def _serve(*args: str) -> subprocess.Popen[str]:
    # (ROLLEM_NO_NUMBA: no odds asked here; the odds workers' fork server, which
    # serve waits for, then skips numba's import and cache, stop 60)
    return subprocess.Popen([sys.executable, "-m", "rollem", "serve", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, ROLLEM_NO_NUMBA="1"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _first_lines(proc: subprocess.Popen[str], n: int) -> list[str]:
    assert proc.stdout is not None
    lines = [proc.stdout.readline() for _ in range(n)]
    return [line.strip() for line in lines]


def test_serve_prints_the_url_and_binds_locally(tmp_path: Path) -> None:
    port = _free_port()
    proc = _serve("--port", str(port), "--db", str(tmp_path / "s.db"))
    try:
        lines = _first_lines(proc, 2)
        assert lines[0] == f"rollem web table: open http://127.0.0.1:{port}/"
        assert "--host 0.0.0.0" in lines[1]
        import httpx

        end = time.time() + 20
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/", timeout=90)  # (warm-up first)
                break
            except httpx.ConnectError:
                assert time.time() < end
                time.sleep(0.1)
        assert r.status_code == 200 and "Create a table" in r.text
        # Port taken: one line on stderr, exit 2.
        busy = subprocess.run([sys.executable, "-m", "rollem", "serve", "--port", str(port),
                               "--db", str(tmp_path / "x.db")], capture_output=True, text=True,
                              timeout=30)
        assert busy.returncode == 2
        assert busy.stderr.count("\n") == 1 and f"port {port}" in busy.stderr
        assert "in use" in busy.stderr
    finally:
        proc.terminate()
        proc.wait(10)


def test_serve_on_all_addresses_prints_the_lan_address(tmp_path: Path) -> None:
    port = _free_port()
    proc = _serve("--host", "0.0.0.0", "--port", str(port), "--db", str(tmp_path / "s.db"))
    try:
        lines = _first_lines(proc, 2)
        assert lines[0] == f"rollem web table: open http://127.0.0.1:{port}/"
        assert lines[1].startswith("friends on your network: http://")
        assert f":{port}/" in lines[1]
    finally:
        proc.terminate()
        proc.wait(10)


def test_serve_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    bad = tmp_path / "notes.db"
    bad.write_text("shopping list: chips, more chips\n" * 50)
    run = subprocess.run([sys.executable, "-m", "rollem", "serve", "--port", "0",
                          "--db", str(bad)], capture_output=True, text=True, timeout=30)
    assert run.returncode == 2
    assert run.stdout == ""  # no banner before the refusal
    assert run.stderr.count("\n") == 1 and "not a rollem database" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(("host", "words"), [
    ("192.0.2.77", "not available"),  # TEST-NET-1: an address this machine does not have
    ("no-such-host.invalid", "cannot resolve host"),
])
def test_serve_reports_the_real_bind_failure(tmp_path: Path, host: str, words: str) -> None:
    run = subprocess.run([sys.executable, "-m", "rollem", "serve", "--host", host, "--port", "0",
                          "--db", str(tmp_path / "s.db")], capture_output=True, text=True,
                         timeout=30)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and words in run.stderr and "in use" not in run.stderr


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.parametrize(("host", "first", "connect"), [
    ("127.0.0.1", "http://127.0.0.1:", "127.0.0.1"),
    ("", "http://127.0.0.1:", "127.0.0.1"),
    ("::1", "http://[::1]:", "[::1]"),
    ("::", "http://[::1]:", "[::1]"),
])
def test_serve_port_zero_prints_the_bound_port(tmp_path: Path, host: str, first: str,
                                               connect: str) -> None:
    if ":" in host and not _ipv6_loopback():
        pytest.skip("no IPv6 on this machine")
    import httpx

    proc = _serve("--host", host, "--port", "0", "--db", str(tmp_path / "s.db"))
    try:
        line = _first_lines(proc, 1)[0]
        assert line.startswith("rollem web table: open " + first)
        port = int(line.rsplit(":", 1)[1].rstrip("/"))
        assert port > 0
        end = time.time() + 20
        while True:
            try:
                r = httpx.get(f"http://{connect}:{port}/", timeout=90)  # (warm-up first)
                break
            except httpx.ConnectError:
                assert time.time() < end
                time.sleep(0.1)
        assert r.status_code == 200 and "Create a table" in r.text
    finally:
        proc.terminate()
        proc.wait(10)


# -- the "How to play" panel's Markdown -----------------------------------------------


def test_markdown_renders_the_rules_and_escapes_everything_else() -> None:
    """markdown-it-py renders the rules (issue 15): nested lists stay nested, raw HTML is
    escaped, headings shift, and the HTML is cached."""
    from rollem.rules import list_games, rules_text
    from rollem.server.markdown import render_markdown

    out = render_markdown("# Title\n\nA **bold** and *soft* `sdr` <b>x</b> & y\n\n"
                          "1. one\n   more\n2. two\n\n- a\n  - inner\n- b\n", heading_offset=1)
    assert "".join(out.split("\n")) == (
        "<h2>Title</h2>"
        "<p>A <strong>bold</strong> and <em>soft</em> <code>sdr</code> "
        "&lt;b&gt;x&lt;/b&gt; &amp; y</p>"
        "<ol><li>onemore</li><li>two</li></ol>"
        "<ul><li>a<ul><li>inner</li></ul></li><li>b</li></ul>"
    )
    assert "<script" not in render_markdown("<script>alert(1)</script>")
    assert "<a" not in render_markdown("[x](javascript:alert(1))")
    assert "<img" not in render_markdown("![x](http://elsewhere.example/p.png)")
    sdr = render_markdown(rules_text("sdr"))
    assert "The Stop and the Drop are <strong>dead</strong>" in " ".join(sdr.split())
    assert render_markdown(rules_text("sdr")) is sdr  # cached
    for game in list_games():
        html = render_markdown(rules_text(game))
        assert "**" not in html and html.count("<ol>") == html.count("</ol>")


def test_the_web_table_offers_every_game() -> None:
    """Our three games first (the per-game web tests above run for them), then the
    standard games (issue 18)."""
    from rollem.server.game_session import available_games

    assert available_games() == ["sdr", "rollyourown", "rollem521", "holdem", "omaha",
                                 "omaha8", "stud", "stud8", "razz", "draw5", "deuces-wild"]


# -- practice odds (issue 8) -------------------------------------------------------------


def test_practice_odds_is_an_option_that_defaults_off() -> None:
    assert parse_config({}).practice_odds is False
    assert parse_config({"practice_odds": True}).practice_odds is True
    assert parse_config({"practice_odds": "on"}).practice_odds is True
    on = parse_config({"practice_odds": True})
    assert TableConfig.from_dict(on.to_dict()) == on
    assert parse_config({k: v for k, v in on.to_dict().items() if k != "practice_odds"}) \
        .practice_odds is False  # a table stored before the option plays without it
    with pytest.raises(ConfigError, match="practice_odds"):
        parse_config({"practice_odds": "maybe"})


def test_odds_messages_carry_the_hand_and_sequence() -> None:
    m = parse_message('{"type": "odds", "hand": 2, "seq": 9}')
    assert (m.type, m.hand, m.seq) == ("odds", 2, 9)
    for text in ('{"type": "odds", "seq": 9}', '{"type": "odds", "hand": 2}'):
        with pytest.raises(ProtocolError) as err:
            parse_message(text)
        assert err.value.code == "malformed"


def test_a_folded_or_undealt_seat_has_no_odds() -> None:
    from rollem.odds import OddsError
    from rollem.server.game_session import GameSession, seat_odds

    hand = Hand("sdr", [50, 50, 0, 50], button=0, source=SeededSource(4))
    session = GameSession(1, {"game": "sdr", "seats": [0, 1, 3]}, hand)
    assert session.odds_refusal(0) is None
    assert session.odds_refusal(2) is not None and session.odds_refusal(2)[0] == "not_dealt"  # type: ignore[index]
    hand.apply(hand.pending.seats[0], action_from_wire({"kind": "bet", "amount": 2}))  # type: ignore[union-attr]
    seat = hand.pending.seats[0]  # type: ignore[union-attr]
    hand.apply(seat, action_from_wire({"kind": "fold"}))
    refusal = session.odds_refusal(seat)
    assert refusal is not None and refusal[0] == "folded"
    odds = seat_odds(session.odds_view(0 if seat != 0 else 1), samples=300)
    assert 0 <= odds["win"] <= 1 and abs(odds["win"] + odds["tie"] + odds["lose"] - 1) < 1e-9
    with pytest.raises(OddsError):
        seat_odds(hand)  # never the hand itself


def _until(ws: object, pred: object, limit: int = 200) -> dict[str, object]:
    for _ in range(limit):
        msg = ws.receive_json()  # type: ignore[attr-defined]
        if pred(msg):  # type: ignore[operator]
            return msg  # type: ignore[no-any-return]
    raise AssertionError("the expected message never came")


@pytest.mark.timeout(120)
@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
@pytest.mark.parametrize("game", ["sdr", "rollem521"])
def test_practice_odds_go_to_the_asking_seat_only(tmp_path: Path, game: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.testclient import TestClient

    from rollem.engine.views import HandView
    from rollem.server import live_table
    from rollem.server.app import create_app, host_cookie, seat_cookie

    asked: list[object] = []

    def recording(view: object, samples: int = 1000, game: object = None,
                  *rest: object) -> dict[str, object]:
        asked.append(view)
        return live_table.seat_odds.__wrapped__(  # type: ignore[attr-defined,no-any-return]
            view, samples, game, *rest)

    class InThread:  # (the recording stays in this process: no worker process)
        def run(self, fn: object, args: tuple[object, ...], **_budget: object) -> object:
            return fn(*args)  # type: ignore[operator]

        def warm(self) -> None:
            pass

    recording.__wrapped__ = live_table.seat_odds  # type: ignore[attr-defined]
    monkeypatch.setattr(live_table, "seat_odds", recording)
    monkeypatch.setattr(live_table, "_ODDS_WORKERS", InThread())
    # (who hears the odds, not when: no wait for client seeds, which these clients do
    # not send, 2 s a hand; the answer held to a 0.01 s grid, not 1.5 s: s62-suite)
    monkeypatch.setattr(live_table.LiveTable, "CLIENT_SEED_WAIT", 0.0)
    settings = ServerSettings(odds_answer_grid=0.01)
    with TestClient(create_app(tmp_path / "odds.db", settings)) as http:
        def table(practice: bool) -> tuple[str, str, str, str]:
            http.cookies.clear()
            r = http.post("/api/tables", json={
                "game": game, "seats": 3, "bots": 1, "bot_delay": 30, "between_hands": 30,
                "decision_seconds": 60, "practice_odds": practice})
            tid = r.json()["id"]
            host = r.cookies[host_cookie(tid)]
            tokens = []
            for name in ("Ann", "Bob"):
                http.cookies.clear()
                tokens.append(http.post(f"/api/tables/{tid}/join", json={"name": name})
                              .json()["token"])
            http.cookies.clear()
            return tid, host, tokens[0], tokens[1]

        def connect(tid: str, cookie: str) -> object:
            return http.websocket_connect(f"/ws/{tid}", headers={"cookie": cookie})

        tid, host, ann, bob = table(True)
        with connect(tid, f"{seat_cookie(tid)}={ann}; {host_cookie(tid)}={host}") as a, \
                connect(tid, f"{seat_cookie(tid)}={bob}") as b, connect(tid, "") as watcher:
            st = _until(a, lambda m: m["type"] == "state")
            a.send_json({"type": "start", "seq": st["seq"]})
            st = _until(a, lambda m: m["type"] == "state" and m["hand"] is not None)
            hand_no, seq = st["hand"]["hand_no"], st["seq"]  # type: ignore[index]
            a.send_json({"type": "odds", "hand": hand_no, "seq": seq})
            reply = _until(a, lambda m: m["type"] in ("odds", "error"))
            assert reply["type"] == "odds", reply
            assert (reply["hand"], reply["seq"]) == (hand_no, seq)
            odds = reply["odds"]
            assert isinstance(odds, dict) and odds["game"] == game
            for key in ("win", "tie", "lose", "equity"):
                assert 0.0 <= odds[key] <= 1.0
            assert abs(odds["win"] + odds["tie"] + odds["lose"] - 1.0) < 1e-6
            if game == "rollem521":
                assert odds["best_declare"] in ("high", "low", "both")
            # Computed from Ann's own view, never the hand.
            assert len(asked) == 1 and isinstance(asked[0], HandView)
            assert asked[0].seat == st["you"]["seat"]  # type: ignore[index]
            # Nobody else hears of it.
            for other in (b, watcher):
                other.send_json({"type": "ping"})
                seen = []
                while (m := other.receive_json())["type"] != "pong":
                    seen.append(m["type"])
                assert "odds" not in seen
            # An onlooker has no seat, so no odds.
            watcher.send_json({"type": "odds", "hand": hand_no, "seq": seq})
            err = _until(watcher, lambda m: m["type"] == "error")
            assert err["code"] == "not_seated" and err["ref"]["type"] == "odds"  # type: ignore[index]
            # A hand that is not the one in play.
            a.send_json({"type": "odds", "hand": hand_no + 1, "seq": seq})  # type: ignore[operator]
            assert _until(a, lambda m: m["type"] == "error")["code"] == "stale"

        tid, host, ann, _bob = table(False)
        with connect(tid, f"{seat_cookie(tid)}={ann}; {host_cookie(tid)}={host}") as a:
            st = _until(a, lambda m: m["type"] == "state")
            a.send_json({"type": "start", "seq": st["seq"]})
            st = _until(a, lambda m: m["type"] == "state" and m["hand"] is not None)
            a.send_json({"type": "odds", "hand": st["hand"]["hand_no"], "seq": st["seq"]})  # type: ignore[index]
            err = _until(a, lambda m: m["type"] == "error")
            assert err["code"] == "no_practice_odds" and "Practice" in err["message"]  # type: ignore[operator]
        assert len(asked) == 1
