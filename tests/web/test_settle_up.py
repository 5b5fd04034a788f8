"""Settling up (issue 27): the ledger says who pays whom, in chips and in money
at the host's chip value, and the ledger and every hand's nets download as CSV."""

from __future__ import annotations

import asyncio
import csv
import io
from typing import Any

import httpx
import pytest
from test_server_gamefiles import play_out
from web_harness import Player, ServerThread, create_table, join

from rollem.server.config import ConfigError, parse_config


def test_the_ledger_settles_up_and_downloads_as_csv(server: ServerThread) -> None:
    tid, host = create_table(server.url, game="sdr", seats=3, bots=2, bot_delay=0.0,
                             decision_seconds=5, time_bank_seconds=0, between_hands=120,
                             chip_value="0.25", bot_level="basic")
    _, token = join(server.url, tid, "Ann")

    async def play() -> None:
        async with Player(server.ws_url, tid, token, host) as ann:
            await ann.until(lambda st: st["you"]["host"])
            await ann.send({"type": "start", "seq": ann.state["seq"]})
            await asyncio.wait_for(play_out(ann, 1), 60)

    asyncio.run(play())
    info = httpx.get(f"{server.url}/api/tables/{tid}").json()
    ledger, settle = info["ledger"], info["settle"]
    nets = {line["name"]: line["net"] for line in ledger}
    assert sum(nets.values()) == 0 and any(nets.values())
    assert settle["chip_value"] == "0.25"
    # Ann, the host, covers the two computer players (stop 58): nothing to pay.
    bots = nets["Bot 1 (basic)"] + nets["Bot 2 (basic)"]
    assert settle["house"] == {"by": "Ann", "host": True, "chips": bots,
                               "money": f"{bots / 4:.2f}", "own": nets["Ann"]}
    assert settle["transfers"] == [] and nets["Ann"] + bots == 0
    assert [line["bot"] for line in ledger] == [None, "basic", "basic"]
    # The ledger as CSV: the same nets, the computer players marked.
    text = httpx.get(f"{server.url}/api/tables/{tid}/ledger.csv").text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {r["name"]: int(r["net"]) for r in rows} == nets
    assert [r["computer"] for r in rows] == ["no", "yes", "yes"]
    # Every hand's nets as CSV: hand 1's add up to zero and equal the stored result.
    text = httpx.get(f"{server.url}/api/tables/{tid}/hands.csv").text
    rows = [r for r in csv.DictReader(io.StringIO(text)) if r["hand"] == "1"]
    stored = server.manager.get(tid).store.load_hand(tid, 1).result["net"]
    assert {int(r["seat"]): int(r["net"]) for r in rows} == {int(k): v for k, v in stored.items()}
    assert sum(int(r["net"]) for r in rows) == 0 and rows[0]["game"] == "sdr"


def test_a_person_who_loses_to_a_bot_pays_the_host(server: ServerThread) -> None:
    """Stop 58 (a friends' night): "Cat pays Bot 1 (random) 47 chips" -- nobody can
    pay or collect a computer player's money.  Computer players play with the
    house's money and the host is the house: each one's net, seated or gone, is
    added to the host's, no transfer names one, and the nets still balance; with
    no host seated, "the house" takes them."""
    tid, _ = create_table(server.url, game="sdr", seats=5, bots=2, bot_delay=0.0,
                          chip_value="0.25", bot_level="random")
    ann, _ = join(server.url, tid, "Ann")
    cat, _ = join(server.url, tid, "Cat")
    eve, _ = join(server.url, tid, "Eve")
    table = server.manager.get(tid)

    def night() -> None:
        """Cat lost 50 chips: 40 to Bot 1, 7 to Bot 2, who then left, and 3 to Eve.
        Ann hosts (the role handed to her seat) and broke even."""
        by_name = {s.row.name: s for s in table.seats.values()}
        by_name["Cat"].row.stack -= 50
        by_name["Bot 1 (random)"].row.stack += 40
        by_name["Bot 2 (random)"].row.stack += 7
        by_name["Eve"].row.stack += 3
        table.session["host_seat"] = ann
        [gone] = [n for n, s in table.seats.items() if s.row.name == "Bot 2 (random)"]
        table.seating.free_seat(gone)

    server.call(night)
    info = httpx.get(f"{server.url}/api/tables/{tid}").json()
    ledger, settle = info["ledger"], info["settle"]
    nets = {line["name"]: line["net"] for line in ledger}
    assert nets == {"Ann": 0, "Cat": -50, "Eve": 3, "Bot 1 (random)": 40,
                    "Bot 2 (random)": 7}
    assert sum(nets.values()) == 0
    marked = {line["name"]: (line["bot"], line["left"]) for line in ledger}
    assert marked["Bot 2 (random)"] == ("random", True)
    assert marked["Cat"] == (None, False)
    assert settle["house"] == {"by": "Ann", "host": True, "chips": 47, "money": "11.75",
                               "own": 0}
    assert settle["transfers"] == [
        {"from": "Cat", "to": "Ann", "chips": 47, "money": "11.75"},
        {"from": "Cat", "to": "Eve", "chips": 3, "money": "0.75"}]
    assert not any("Bot" in t["from"] + t["to"] for t in settle["transfers"])
    rows = list(csv.DictReader(io.StringIO(
        httpx.get(f"{server.url}/api/tables/{tid}/ledger.csv").text)))
    assert {r["name"]: r["computer"] for r in rows} == {
        "Ann": "no", "Cat": "no", "Eve": "no", "Bot 1 (random)": "yes", "Bot 2 (random)": "yes"}

    def stored_before() -> None:  # (a line stored before stop 58 has no "bot")
        del table.session["departed"][0]["bot"]
        table.views.broadcast()

    server.call(stored_before)
    info = httpx.get(f"{server.url}/api/tables/{tid}").json()
    assert [line["bot"] for line in info["ledger"] if line["left"]] == ["computer"]
    assert info["settle"]["house"]["chips"] == 47

    def summed() -> None:  # (past the bound, Bot 2's line summed into earlier players)
        from rollem.server.live_table.seats import fold_oldest_departed

        table.session["departed"][0]["bot"] = "random"
        fold_oldest_departed(table.session, 0)

    server.call(summed)
    info = httpx.get(f"{server.url}/api/tables/{tid}").json()
    [line] = [line for line in info["ledger"] if line["left"]]
    assert (line["name"], line["net"], line["bot"]) == ("1 earlier player", 7, None)
    assert "bot_net" not in line
    assert info["settle"]["house"]["chips"] == 47
    assert info["settle"]["transfers"] == [
        {"from": "Cat", "to": "Ann", "chips": 47, "money": "11.75"},
        {"from": "Cat", "to": "Eve", "chips": 3, "money": "0.75"}]

    def no_host() -> None:  # (the host's seat freed: nobody hosts from a seat)
        table.seating.free_seat(ann)

    server.call(no_host)
    settle = httpx.get(f"{server.url}/api/tables/{tid}").json()["settle"]
    assert settle["house"] == {"by": "the house", "host": False, "chips": 47,
                               "money": "11.75", "own": 0}
    assert sorted((t["from"], t["to"], t["chips"]) for t in settle["transfers"]) == [
        ("Cat", "Eve", 3), ("Cat", "the house", 47)]
    del cat, eve


def test_a_chip_value_is_a_plain_decimal() -> None:
    assert parse_config({"chip_value": "0.05"}).chip_value == "0.05"
    assert parse_config({}).chip_value == ""
    for bad in ("-1", "0", "abc", "1e3", "0.12345", "5000", True, [1]):
        try:
            parse_config({"chip_value": bad})
        except ConfigError as err:
            assert "chip_value" in str(err) and len(str(err)) <= 300
        else:
            raise AssertionError(f"{bad!r} accepted")


def test_stats_count_the_stored_hands(server: ServerThread) -> None:
    """Issue 27: each player's statistics, from the stored hands: equal to counting
    each stored hand's events again with :func:`rollem.stats.hand_facts`."""
    from rollem.server.game_session import GameSession
    from rollem.stats import hand_facts

    tid, host = create_table(server.url, game="holdem", seats=3, bots=2, bot_delay=0.0,
                             decision_seconds=5, time_bank_seconds=0, between_hands=0.2,
                             bot_level="basic")
    _, token = join(server.url, tid, "Ann")

    async def play() -> None:
        async with Player(server.ws_url, tid, token, host) as ann:
            await ann.until(lambda st: st["you"]["host"])
            await ann.send({"type": "start", "seq": ann.state["seq"]})
            await asyncio.wait_for(play_out(ann, 2), 60)

    asyncio.run(play())
    out = httpx.get(f"{server.url}/api/tables/{tid}/stats").json()
    table = server.manager.get(tid)
    finished = [n for n in table.store.hand_numbers(tid)
                if table.store.load_hand(tid, n).result is not None]
    assert out["hands"] == len(finished) >= 2
    calls = 0
    for n in finished:
        row = table.store.load_hand(tid, n)
        hand = GameSession.restore(n, row.setup, table.store.load_actions(tid, n))
        for seat, f in hand_facts(hand.hand.events, hand.seats).items():
            if row.setup["names"][seat] == "Ann":
                calls += f.calls
    ann = out["players"]["Ann"]
    assert ann["hands"] == len(finished) and ann["counts"]["calls"] == calls
    assert out["games"]["holdem"]["Ann"]["hands"] == len(finished)


def test_a_tournaments_stats_split_by_level(server: ServerThread) -> None:
    """Issue 28: the stats of a tournament table split by each hand's level (as
    stored with the hand); the levels add up to the whole."""
    from test_tournament_server import SCHEDULE

    tid, host = create_table(server.url, game="sdr", seats=3, bots=2, bot_delay=0.0,
                             decision_seconds=5, time_bank_seconds=0, between_hands=0.2,
                             bot_level="basic", tournament="custom",
                             tournament_schedule=SCHEDULE.replace("minutes = 1",
                                                                  "minutes = 0.1"))
    _, token = join(server.url, tid, "Ann")

    async def play() -> None:
        async with Player(server.ws_url, tid, token, host) as ann:
            await ann.until(lambda st: st["you"]["host"])
            await ann.send({"type": "start", "seq": ann.state["seq"]})
            await asyncio.wait_for(play_out(ann, 3), 60)

    asyncio.run(play())
    out = httpx.get(f"{server.url}/api/tables/{tid}/stats").json()
    table = server.manager.get(tid)
    levels: dict[str, int] = {}
    for n in table.store.hand_numbers(tid):
        row = table.store.load_hand(tid, n)
        if row is not None and row.result is not None and 0 in row.setup["seats"]:
            key = str(row.setup["tournament"]["level"])
            levels[key] = levels.get(key, 0) + 1
    assert {lv: per["Ann"]["hands"] for lv, per in out["levels"].items()} == levels
    assert sum(levels.values()) == out["players"]["Ann"]["hands"] >= 3
    # the downloads at a tournament (issue 28): the ledger in the buy-in's units
    # (nothing won yet: 3 entrants at 10 each), each hand's chips with its level
    text = httpx.get(f"{server.url}/api/tables/{tid}/ledger.csv").text
    rows = list(csv.DictReader(io.StringIO(text)))
    info = httpx.get(f"{server.url}/api/tables/{tid}").json()
    if not info["tournament"]["over"]:
        assert info["settle"]["payouts"] == [] and info["settle"]["reason"]
        assert [(r["paid"], r["prize"], r["unit"]) for r in rows] == [
            ("10", "", "buy-in units")] * 3
    assert [r["name"] for r in rows] == ["Ann", "Bot 1 (basic)", "Bot 2 (basic)"]
    text = httpx.get(f"{server.url}/api/tables/{tid}/hands.csv").text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert text.startswith("hand,level,game,seat,name,net,unit\r\n")
    assert {r["unit"] for r in rows} == {"tournament chips"}
    assert {(r["hand"], r["level"]) for r in rows if r["name"] == "Ann"} == {
        (str(n), str(table.store.load_hand(tid, n).setup["tournament"]["level"]))
        for n in table.store.hand_numbers(tid)
        if table.store.load_hand(tid, n).result is not None
        and 0 in table.store.load_hand(tid, n).setup["seats"]}


def test_two_stats_requests_at_once_share_one_count(server: ServerThread,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """s58-tidy: two ``/stats`` requests for one table at once each took a worker
    thread and counted in turn (the second waited on the first's lock, then read
    the stored hands' list and wrote the figures again); now the second waits on
    the first's count and both get the same figures. A later request counts again."""
    import threading
    import time

    from rollem.stats import SessionStats

    tid, _host = create_table(server.url, game="holdem", seats=3, bots=1)
    counted: list[int] = []
    lock = threading.Lock()
    real = SessionStats.to_dict

    def slow(self: SessionStats, *args: Any, **kwargs: Any) -> Any:
        with lock:
            counted.append(1)
        time.sleep(0.5)  # (a count of many hands)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SessionStats, "to_dict", slow)

    async def both() -> list[httpx.Response]:
        async with httpx.AsyncClient() as client:
            url = f"{server.url}/api/tables/{tid}/stats"
            return list(await asyncio.gather(client.get(url), client.get(url)))

    first, second = asyncio.run(both())
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert len(counted) == 1
    assert httpx.get(f"{server.url}/api/tables/{tid}/stats").status_code == 200
    assert len(counted) == 2
