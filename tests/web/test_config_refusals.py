"""Table settings that would do nothing, and ``choices`` read one way (try-out of
stop 52, "Seen and left").

- ``run_twice`` was taken at a table none of whose games can run it twice (stud,
  draw, 5-2-1, Roll Your Own: no shared cards come once nobody can bet), and the
  settings said it was on while no hand ever asked. Now it is refused
  ``bad_config`` naming why, at creation and in the host's settings, as
  ``bomb_pot_every`` is (one check: :meth:`TableConfig.unused_option`).
- ``choices`` at creation took a plain string and a game named twice (kept
  once) where the host's settings refused a game named twice: both now give the
  same answer (:func:`rollem.server.config.check_choices`).
- The state says why no game of the table can have a bomb pot
  (``table.bomb_pot_refusal``), for the host's button.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_harness import Player, ServerThread, create_table, drain, join

from rollem.server.config import ConfigError, parse_config


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    s = ServerThread(tmp_path_factory.mktemp("refusals") / "t.db")
    try:
        yield s
    finally:
        s.stop()


def _tables(srv: ServerThread) -> int:
    return len(srv.manager.tables)


@pytest.mark.parametrize(("config", "said"), [
    ({"game": "stud"}, "Seven-Card Stud never runs it twice"),
    ({"game": "draw5"}, "Five-Card Draw never runs it twice"),
    ({"game": "rollem521"}, "5-2-1 Roll 'Em never runs it twice"),
    ({"game": "dealers-choice", "choices": ["stud", "rollyourown"]},
     "none of Seven-Card Stud, Five Card Roll Your Own can run it twice"),
])
def test_run_twice_is_refused_at_creation_where_no_game_can(
        srv: ServerThread, config: dict[str, Any], said: str) -> None:
    before = _tables(srv)
    r = httpx.post(srv.url + "/api/tables", json={**config, "run_twice": True})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_config"
    assert r.json()["message"].startswith("run_twice must be false at this table: " + said)
    assert _tables(srv) == before  # (no table made)
    # off, or one game that can among those offered: taken as before
    assert httpx.post(srv.url + "/api/tables", json={**config, "run_twice": False}
                      ).status_code == 200
    for ok in ({"game": "holdem"}, {"game": "sdr"},
               {"game": "dealers-choice", "choices": ["stud", "omaha"]}):
        assert parse_config({**ok, "run_twice": True}).run_twice is True


def test_a_stored_table_with_run_twice_at_stud_loads_as_it_was() -> None:
    config = parse_config({"game": "stud", "run_twice": True}, strict=False)
    assert config.run_twice is True
    assert config.unused_option() is not None


def test_the_hosts_run_twice_is_refused_at_a_stud_table(srv: ServerThread) -> None:
    tid, host = create_table(srv.url, game="stud", bots=2)
    _seat, tok = join(srv.url, tid, "Ann")

    async def run() -> None:
        async with Player(srv.ws_url, tid, tok, host) as ann:
            await ann.recv()
            before = ann.state
            assert before is not None
            # the state says why the host's bomb pot button does nothing here
            assert before["table"]["bomb_pot_refusal"].startswith(
                "Seven-Card Stud has no bomb pots")
            err = await ann.host_error({"op": "config", "config": {"run_twice": True}})
            assert err["code"] == "bad_config"
            # (the Change's labels, stop 54: "run_twice must be false" before)
            assert err["message"].startswith("Run it twice must be no at this table: "
                                             "Seven-Card Stud never runs it twice")
            await ann.send({"type": "sync"})
            await drain(ann, 0.5)
            after = ann.state
            assert after is not None and after["seq"] == before["seq"]
            assert after["table"]["config"]["run_twice"] is False

    asyncio.run(run())


def test_a_change_of_game_that_leaves_no_run_twice_is_refused(srv: ServerThread) -> None:
    tid, host = create_table(srv.url, game="holdem", bots=2, run_twice=True)
    _seat, tok = join(srv.url, tid, "Ann")

    async def run() -> None:
        async with Player(srv.ws_url, tid, tok, host) as ann:
            st = await ann.recv()
            assert st["table"]["bomb_pot_refusal"] is None  # (hold'em has bomb pots)
            # the settings form's reasons, game by game (stop 53: it offered both at
            # stud): none for hold'em or a dealer's choice with Stop, Drop and Roll
            refusals = st["you"]["option_refusals"]  # (the host's state alone)
            assert refusals["holdem"] == refusals["dealers-choice"] == {
                "run_twice": None, "bomb_pot": None}
            assert refusals["razz"]["run_twice"].startswith("Razz never runs it twice: it has "
                                                            "no shared cards still to come")
            assert refusals["razz"]["bomb_pot"].startswith("Razz has no bomb pots: its first "
                                                           "betting round")
            assert set(refusals) == {"dealers-choice", *st["table"]["game_names"]}
            err = await ann.host_error({"op": "config", "config": {"game": "razz"}})
            assert err["code"] == "bad_config"
            assert err["message"].startswith("Run it twice must be no at this table: Razz")
            assert ann.state is not None and ann.state["table"]["config"]["game"] == "holdem"
            await ann.send({"type": "host", "op": "config",
                            "config": {"game": "razz", "run_twice": False}})
            st = await ann.until(lambda m: m["table"]["config"]["game"] == "razz")
            assert st["table"]["bomb_pot_refusal"].startswith("Razz has no bomb pots")

    asyncio.run(run())


def test_the_hosts_change_is_refused_in_the_forms_words(srv: ServerThread) -> None:
    """Stop 54's newcomer: the host's Change said "big_bet (4) must be at least
    small_bet (8)" where the form says Small bet / Big bet, and "seats must be from
    2 to 8, not 10" for Roll Your Own at a ten-seat table (the Change has no Seats
    field). The API's error code stays ``bad_config``; nothing changes."""
    tid, host = create_table(srv.url, game="holdem", bots=2, seats=10)
    _seat, tok = join(srv.url, tid, "Ann")

    async def run() -> None:
        async with Player(srv.ws_url, tid, tok, host) as ann:
            await ann.recv()
            before = ann.state
            assert before is not None
            err = await ann.host_error({"op": "config",
                                        "config": {"small_bet": 8, "big_bet": 4}})
            assert err == {**err, "code": "bad_config",
                           "message": "Big bet (4) must be at least Small bet (8)"}
            err = await ann.host_error({"op": "config", "config": {"game": "rollyourown"}})
            assert err["code"] == "bad_config"
            assert err["message"] == ("Five Card Roll Your Own deals at most 8 players and "
                                      "this table has 10 seats: pick another game")
            err = await ann.host_error({"op": "config", "config": {"small_bet": 0}})
            assert err["message"] == "Small bet must be from 1 to 1000000, not 0"
            await ann.send({"type": "sync"})
            await drain(ann, 0.5)
            after = ann.state
            assert after is not None and after["seq"] == before["seq"]
            assert after["table"]["config"]["game"] == "holdem"
            assert after["table"]["config"]["small_bet"] == before["table"]["config"]["small_bet"]

    asyncio.run(run())
    # the API keeps its field names where a field is named alone
    with pytest.raises(ConfigError, match=r"^small_bet must be from 1 to 1000000, not 0$"):
        parse_config({"small_bet": 0})


@pytest.mark.parametrize(("choices", "said"), [
    ("sdr", "choices must be a list of game ids, e.g. [\"sdr\", \"holdem\"], not 'sdr'"),
    ("holdem, razz", "choices must be a list of game ids"),
    (["sdr", "holdem", "sdr"], "choices names 'sdr' more than once; list each game once"),
    (["sdr"] * 500, "choices names 'sdr' more than once"),
    (["holdem", "poker"], "choices: unknown game 'poker'; allowed: sdr, "),
    ([3], "choices must be a list of game ids"),
])
def test_choices_are_checked_alike_at_creation_and_in_the_hosts_settings(
        srv: ServerThread, choices: object, said: str) -> None:
    before = _tables(srv)
    r = httpx.post(srv.url + "/api/tables", json={"game": "dealers-choice",
                                                   "choices": choices})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_config"
    assert r.json()["message"].startswith(said)
    assert _tables(srv) == before
    with pytest.raises(ConfigError) as created:
        parse_config({"game": "dealers-choice", "choices": choices})

    tid, host = create_table(srv.url, game="dealers-choice", choices=["sdr", "holdem"],
                             bots=2)
    _seat, tok = join(srv.url, tid, "Ann")

    async def run() -> None:
        async with Player(srv.ws_url, tid, tok, host) as ann:
            await ann.recv()
            err = await ann.host_error({"op": "config", "config": {"choices": choices}})
            assert err["code"] == "bad_config"
            assert err["message"] == str(created.value)  # (one answer to one mistake)
            assert ann.state is not None
            assert ann.state["table"]["config"]["choices"] == ["sdr", "holdem"]

    asyncio.run(run())


def test_choices_missing_or_empty_at_creation_are_our_three() -> None:
    for data in ({}, {"choices": []}, {"choices": None}):
        assert parse_config(data).choices == ["sdr", "rollyourown", "rollem521"]


@pytest.mark.parametrize(("config", "message", "form_message"), [
    ({"game": "rollyourown", "seats": 10},
     "seats must be from 2 to 8, not 10: Five Card Roll Your Own deals at most 8 players",
     "Five Card Roll Your Own deals at most 8 players and this table has 10 seats: pick "
     "another game or at most 8 Seats"),
    ({"small_bet": 8, "big_bet": 4}, "Big bet (4) must be at least Small bet (8)",
     "Big bet (4) must be at least Small bet (8)"),
    ({"small_bet": 0}, "small_bet must be from 1 to 1000000, not 0",
     "Small bet must be from 1 to 1000000, not 0"),
    ({"seats": 4, "bots": 5}, "bots must be from 0 to 3, not 5",
     "Computer players must be from 0 to 3, not 5"),
    ({"grace_seconds": 0.01}, "grace_seconds must be from 0.05 to 3600 seconds, not 0.01",
     "Reconnect grace must be from 0.05 to 3600 seconds, not 0.01"),
    ({"game": "sdr", "house": {"wild_duplicates": True}},
     "house option wild_duplicates does nothing at a table dealing sdr: leave it off (their "
     "house options: burn_before_roll; cap_heads_up holds for every game)",
     "\"Roll Your Own: wild cards may duplicate\" does nothing at a table dealing Stop, Drop "
     "and Roll: leave it off"),
    ({"game": "dealers-choice", "tournament": "turbo", "payouts": [50, 30, 20],
      "seats": 2, "bots": 1},
     "payouts: 3 places paid at a table of 2 seats",
     "Payouts: 3 places paid at a table of 2 seats"),
])
def test_the_lobbys_creation_refusals_are_in_its_forms_words(
        srv: ServerThread, config: dict[str, Any], message: str, form_message: str) -> None:
    """s55 (stop 54's leftover): the lobby showed the API's field names ("seats must be
    from 2 to 8, not 10", "bots must be ...", "house option wild_duplicates ...") where
    the host's Change says its labels.  The API's ``message`` keeps the field names;
    ``form_message`` (what the lobby shows) is worded as the Change words it
    (:func:`rollem.server.config.form_refusal`, one wording for both)."""
    before = _tables(srv)
    r = httpx.post(srv.url + "/api/tables", json=config)
    assert r.status_code == 400, r.text
    assert r.json() == {"error": "bad_config", "message": message,
                        "form_message": form_message}
    assert _tables(srv) == before


def test_the_change_and_the_lobby_word_too_many_seats_alike(srv: ServerThread) -> None:
    """The same mistake, at the lobby (which has a Seats field) and in the host's
    Change (which has not): one sentence, the lobby's with its Seats."""
    r = httpx.post(srv.url + "/api/tables", json={"game": "rollyourown", "seats": 10})
    lobby = r.json()["form_message"]
    tid, host = create_table(srv.url, game="holdem", bots=2, seats=10)
    _seat, tok = join(srv.url, tid, "Ann")

    async def run() -> str:
        async with Player(srv.ws_url, tid, tok, host) as ann:
            await ann.recv()
            err = await ann.host_error({"op": "config", "config": {"game": "rollyourown"}})
            return str(err["message"])

    change = asyncio.run(run())
    assert change == ("Five Card Roll Your Own deals at most 8 players and this table has "
                      "10 seats: pick another game")
    assert lobby == change + " or at most 8 Seats"
