"""The web table deals every shipped game, a dealer's choice of the host's games,
and the host's own game file (issue 18), through the HTTP API and the websocket.

Small tables with computer players (SQLite): the whole file takes a few seconds.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hostile import costly_game_file
from web_harness import Player, ServerThread, create_table, join

from rollem import games
from rollem.server.config import ConfigError, parse_config

PAGE = Path(__file__).parents[2] / "docs" / "write-your-own-game.md"


def own_game() -> str:
    """The worked example of docs/write-your-own-game.md (Crazy Pineapple)."""
    return str(re.findall(r"```toml\n(.*?)```", PAGE.read_text(), flags=re.S)[0])


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[ServerThread]:
    s = ServerThread(tmp_path / "t.db")
    try:
        yield s
    finally:
        s.stop()


async def play_one_hand(p: Player) -> dict[str, Any]:
    """Start the table and play one hand passively (check or call, any card choice
    at random) to its result; the last state."""
    await p.until(lambda st: st["you"]["host"])
    await p.send({"type": "start", "seq": p.state["seq"]})  # type: ignore[index]
    return await play_out(p)


async def play_out(p: Player, hand_no: int | None = None) -> dict[str, Any]:
    """Play passively (check or call, any card choice at random) until a hand's
    result (``hand_no``'s, or any); the last state."""
    acted = None
    while True:
        st = p.state
        result = st["table"]["last_result"] if st is not None else None
        if st is not None and result is not None and hand_no in (None, result["hand"]):
            return st
        if p.my_decision() and st is not None and st["you"]["decision_seq"] != acted:
            acted = st["you"]["decision_seq"]
            await p.act_random(passive=True)
        msg = await p.recv(20)
        if msg["type"] == "error":
            acted = None


def test_info_lists_every_shipped_game(srv: ServerThread) -> None:
    info = httpx.get(srv.url + "/api/info").json()
    assert info["games"] == ["sdr", "rollyourown", "rollem521", "holdem", "omaha", "omaha8",
                             "stud", "stud8", "razz", "draw5", "deuces-wild"]
    assert info["names"]["holdem"] == games.get("holdem").name
    assert info["dealers_choice"] == ["sdr", "rollyourown", "rollem521"]
    assert info["max_game_file_bytes"] == 65536


def test_the_table_config_names_games_choices_and_the_game_file() -> None:
    assert parse_config({}).choices == ["sdr", "rollyourown", "rollem521"]
    assert parse_config({"game": "razz", "seats": 7}).max_seats() == 7
    with pytest.raises(ConfigError, match="seats must be from 2 to 7, not 8: Seven-Card Stud "
                                          "deals at most 7 players"):
        parse_config({"game": "stud", "seats": 8})
    assert parse_config({"choices": ["stud", "razz"], "seats": 7}).max_seats() == 7
    assert parse_config({"choices": []}).choices == ["sdr", "rollyourown", "rollem521"]
    with pytest.raises(ConfigError, match=r"choices: unknown game 'poker'; allowed: sdr, "):
        parse_config({"choices": ["holdem", "poker"]})
    own = parse_config({"game_file": own_game(), "game": "crazy-pineapple", "seats": 9})
    assert own.own_game() is not None and own.max_seats() == 9
    assert own.choices == ["sdr", "rollyourown", "rollem521", "crazy-pineapple"]
    assert own.public_dict()["game_file"] == "crazy-pineapple"
    assert "[[steps]]" in own.to_dict()["game_file"]  # stored with the table
    with pytest.raises(ConfigError, match="game must be one of"):
        parse_config({"game": "crazy-pineapple"})  # no file: not a game of this table
    # the file's own house options may be set at the table, checked by their defaults' kind
    assert own.house == {}
    off = parse_config({"game_file": own_game(), "house": {"burn_cards": False}})
    assert off.house == {"burn_cards": False}
    from rollem.engine.steps import Burn
    from rollem.server.game_session import GameSession

    def burns(config: Any) -> int:
        steps = config.game_of("crazy-pineapple").build(GameSession.options_for(config))
        return sum(isinstance(step, Burn) for step in steps)

    assert (burns(own), burns(off)) == (3, 0)  # the flop, turn and river burns go
    with pytest.raises(ConfigError, match="burn_cards must be true or false, not 'maybe'"):
        parse_config({"game_file": own_game(), "house": {"burn_cards": "maybe"}})
    with pytest.raises(ConfigError, match=r"unknown house option 'burn_cards'; allowed: "
                                          r"bet_after_declare, burn_before_roll"):
        parse_config({"house": {"burn_cards": False}})  # no file: no such option


@pytest.mark.parametrize(("text", "message"), [
    ("id = 'x'\n[[steps]\n", "game_file: game file: not valid TOML"),
    (own_game().replace('step = "showdown"', 'step = "shodown"'),
     "game_file: steps[13].step: unknown step 'shodown'; allowed: ante, blinds"),
    (own_game().replace('id = "crazy-pineapple"', 'id = "holdem"'),
     # (the words of rollem check-game: rollem.games.shipped_id_refusal)
     "game_file: id 'holdem' is the shipped holdem's, and this file's name, "),
    ("#" * 70_000, "game_file: 70000 bytes; a game file may be at most 65536 bytes"),
    ("x = " + "[" * 30_000 + "]" * 30_000,  # was a 500 and a 3,000-line traceback
     "game_file: game file: arrays or tables nested too deeply"),
    # issue 34: 26 cards a player with wild cards took 0.7 s a showdown on the loop
    (costly_game_file(), "game_file: steps[8]: the showdown would cost 2,631,200 hand "
     "evaluations (2 players x 65,780 five-card hands, the best five of 26 cards, x 20 for "
     "wild cards); at most 15,000 are allowed"),
])
def test_a_bad_game_file_is_refused_in_one_line(srv: ServerThread, text: str,
                                                message: str) -> None:
    r = httpx.post(srv.url + "/api/tables", json={"game_file": text})
    assert r.status_code == 400 and r.json()["error"] == "bad_config"
    assert r.json()["message"].startswith(message) and "\n" not in r.json()["message"]


def test_a_standard_game_is_dealt_with_its_rules(srv: ServerThread) -> None:
    tid, host = create_table(srv.url, game="stud", seats=3, bots=2, bot_level="basic",
                             bot_delay=0, between_hands=600, decision_seconds=300)
    _, ann = join(srv.url, tid, "Ann")

    async def run() -> dict[str, Any]:
        async with Player(srv.ws_url, tid, ann, host) as p:
            return await play_one_hand(p)

    st = asyncio.run(run())
    assert st["hand"]["game"] == "stud" and st["table"]["game_names"]["stud"] == "Seven-Card Stud"
    assert st["table"]["max_seats"] == 7
    # the header names each game's own forced bets at the table's stakes
    forced = st["table"]["forced_bets"]
    assert (forced["stud"], forced["holdem"], forced["sdr"]) == (
        "ante 1, bring-in 1", "blinds 1/2", "ante 1")
    # Seven cards each at a showdown; three down (two first and the last), four up.
    for seat in st["hand"]["result"].get("shown", {}):
        assert len(st["hand"]["seats"][int(seat)]["cards"]) == 7
    rules = httpx.get(f"{srv.url}/api/tables/{tid}/rules").json()
    assert rules["sections"][0]["title"] == "Seven-Card Stud"
    assert "lowest up card" in rules["sections"][0]["html"]


def test_dealers_choice_offers_the_games_the_host_picked(srv: ServerThread) -> None:
    tid, host = create_table(srv.url, game="dealers-choice", choices=["razz", "holdem"],
                             seats=2, bots=1, bot_delay=0, between_hands=600,
                             decision_seconds=300)
    _, ann = join(srv.url, tid, "Ann")  # seat 0: the first button names the game

    async def run() -> dict[str, Any]:
        async with Player(srv.ws_url, tid, ann, host) as p:
            await p.until(lambda st: st["you"]["host"])
            await p.send({"type": "start", "seq": p.state["seq"]})  # type: ignore[index]
            st = await p.until(lambda st: st["table"]["choice"] is not None)
            assert st["table"]["choice"]["games"] == ["razz", "holdem"]
            assert st["you"]["choose_game"] is True
            await p.send({"type": "choose_game", "hand": 1, "seq": st["seq"], "game": "sdr"})
            err = await p.until_error()
            assert err["code"] == "illegal" and "allowed: razz, holdem" in err["message"]
            await p.send({"type": "choose_game", "hand": 1, "seq": p.state["seq"],  # type: ignore[index]
                          "game": "razz"})
            return await p.until(lambda st: st["hand"] is not None)

    st = asyncio.run(run())
    assert st["hand"]["game"] == "razz" and len(st["hand"]["seats"][0]["cards"]) == 3


def test_the_hosts_own_game_file_is_dealt_and_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "own.db"
    first = ServerThread(db)
    try:
        tid, host = create_table(first.url, game="crazy-pineapple", game_file=own_game(),
                                 seats=2, bots=1, bot_level="basic", bot_delay=0,
                                 between_hands=600, decision_seconds=300)
        _, ann = join(first.url, tid, "Ann")

        async def run() -> dict[str, Any]:
            async with Player(first.ws_url, tid, ann, host) as p:
                return await play_one_hand(p)

        st = asyncio.run(run())
        assert st["hand"]["game"] == "crazy-pineapple"
        assert st["table"]["config"]["game_file"] == "crazy-pineapple"  # the id, not the text
        assert st["table"]["game_names"]["crazy-pineapple"] == "Crazy Pineapple"
        if st["hand"]["result"]["shown"]:
            assert len(st["hand"]["board"]) == 5
        frames = httpx.get(f"{first.url}/api/tables/{tid}/hands/1",
                           cookies={f"rollem_seat_{tid}": ann}).json()
        history = httpx.get(f"{first.url}/api/tables/{tid}/hands/1/history.toml",
                            cookies={f"rollem_seat_{tid}": ann}).text
    finally:
        first.stop()
    assert 'variant = "rollem-crazy-pineapple"' in history
    assert "_game_file" in history  # the seat's copy carries the game it was dealt from
    second = ServerThread(db)  # the file was stored with the table and with the hand
    try:
        again = httpx.get(f"{second.url}/api/tables/{tid}/hands/1",
                          cookies={f"rollem_seat_{tid}": ann}).json()
        assert again == frames
        table = httpx.get(f"{second.url}/api/tables/{tid}").json()
        assert table["config"]["game"] == "crazy-pineapple"
        rules = httpx.get(f"{second.url}/api/tables/{tid}/rules").json()
        assert rules["sections"][0]["title"] == "Crazy Pineapple"
    finally:
        second.stop()


def _four_or_more() -> str:
    return own_game().replace('id = "crazy-pineapple"', 'id = "cp4"').replace(
        "players = [2, 9]", "players = [4, 9]")


def test_a_game_needing_more_players_waits_for_them(srv: ServerThread) -> None:
    """A table never tries to deal a game to fewer players than it needs (it logged
    an engine error every few seconds and told nobody why)."""
    assert "players = [4, 9]" in _four_or_more()
    with pytest.raises(ConfigError, match="cp4 needs at least 4 players but the table has 3"):
        parse_config({"game_file": _four_or_more(), "game": "cp4", "seats": 3})
    with pytest.raises(ConfigError, match="cp4 needs at least 4 players"):
        parse_config({"game_file": _four_or_more(), "game": "dealers-choice",
                      "choices": ["cp4"], "seats": 3})
    tid, host = create_table(srv.url, game="cp4", game_file=_four_or_more(), seats=6, bots=1,
                             bot_delay=0, between_hands=600, decision_seconds=300)
    _, ann = join(srv.url, tid, "Ann")

    async def run() -> None:
        async with Player(srv.ws_url, tid, ann, host) as p:
            await p.until(lambda st: st["you"]["host"])
            await p.send({"type": "start", "seq": p.state["seq"]})  # type: ignore[index]
            await asyncio.sleep(1.0)
            assert p.state is not None and p.state["hand"] is None  # two players: waits
            join(srv.url, tid, "Bob")
            join(srv.url, tid, "Cy")  # four dealt in: the game is dealt
            st = await p.until(lambda st: st["hand"] is not None, timeout=10)
            assert st["hand"]["game"] == "cp4"

    asyncio.run(run())
