"""A host's change of the settings is told to the whole table (try-out of stop 55):
before, only the host's own form said "Changes apply at the next deal", and the
other players met the new game or stakes in the header once the next hand was
dealt. Now every page gets the table's line in the chat and ``host_note`` (its
toast), naming each setting changed with what it was."""

from __future__ import annotations

import json
from typing import Any

from test_dealers_choice_seats import send
from test_server_staples import people_table
from test_table_bots import virtual_server

from rollem.server.config import parse_config
from rollem.server.config_note import change_words
from rollem.server.live_table import Client


def _told(client: Client) -> tuple[list[str], list[Any]]:
    """The table's chat notices sent to ``client`` and the ``host_note`` of each
    state sent (read and cleared)."""
    sent = [json.loads(text) for text, _ in client._pending]
    client._pending.clear()
    notices = [line["text"] for m in sent if m["type"] == "chat" for line in m["lines"]
               if line.get("notice")]
    return notices, [m["table"]["host_note"] for m in sent if m["type"] == "state"]


def test_a_change_during_a_hand_is_told_to_every_player_with_what_it_was() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store)
        assert table.hand is not None
        for c in (host, *people.values()):
            _told(c)
        send(loop, table, host, "host", op="config",
             config={"game": "razz", "small_bet": 5, "big_bet": 10, "ante": 1})
        loop.advance(0.05)
        want = ("The host changed, from the next hand, the game from Texas Hold'em to Razz; "
                "the bets from 2/4 to 5/10.")
        for c in (host, *people.values()):
            notices, notes = _told(c)
            assert notices == [want]
            assert notes and notes[-1] == {"seq": table.seq, "text": want}
        assert table.config.game == "holdem"  # (still the hand in play's)
        # a second change in the same hand is told against the first (still waiting)
        send(loop, table, host, "host", op="config", config={"small_bet": 5, "big_bet": 10})
        loop.advance(0.05)
        assert _told(people[1])[0] == []  # nothing new: nothing told
        send(loop, table, host, "host", op="config", config={"structure": "no-limit"})
        loop.advance(0.05)
        assert _told(people[1])[0] == [
            "The host changed, from the next hand, the betting from fixed-limit to no-limit."]


def test_a_seated_hosts_change_between_hands_names_them() -> None:
    with virtual_server() as (loop, store):
        table, _host, people = people_table(loop, store, start=False)
        ann = Client(0, True)  # P0 holds the creator's host cookie
        loop.call(table.connect, ann)
        send(loop, table, ann, "host", op="config", config={"game": "dealers-choice",
                                                             "choices": ["sdr", "razz"]})
        loop.advance(0.05)
        assert table.config.game == "dealers-choice"  # (no hand in play: at once)
        assert _told(people[2])[0] == [
            "P0 changed the game from Texas Hold'em to Dealer's choice; "
            "the dealer's choice games from Stop, Drop and Roll, Five Card Roll Your Own, "
            "5-2-1 Roll 'Em to Stop, Drop and Roll, Razz."]


def test_change_words_name_each_setting_a_player_meets() -> None:
    before = parse_config({"game": "sdr"})
    after = parse_config({"game": "sdr", "ante": 2, "straddle": "mississippi",
                          "run_twice": True, "bomb_pot_every": 5, "rebuys": False,
                          "chip_value": "0.25"})
    assert change_words(before, after) == [
        "the ante from 1 to 2", "straddles from off to Mississippi (button first)",
        "run it twice from no to when all agree",
        "bomb pots from off to every 5 hands, ante twice the big blind",
        "rebuys from free to off", "a chip's worth from nothing (chips only) to 0.25"]
    assert change_words(before, parse_config({"game": "sdr"})) == []


def test_a_bad_chip_value_is_refused_in_the_forms_words_and_told_nothing() -> None:
    """The Change form's Chip value (stop 55): a refusal names the field by its label,
    and nothing changes or is told."""
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, start=False)
        _told(people[1])
        send(loop, table, host, "host", op="config", config={"chip_value": "a dollar"})
        loop.advance(0.05)
        [error] = [json.loads(t) for t, _ in host._pending if json.loads(t)["type"] == "error"]
        assert error["code"] == "bad_config"
        assert error["message"].startswith(
            "Chip value must be the money one chip is worth, a number such as 0.05")
        assert table.config.chip_value == ""
        assert _told(people[1]) == ([], [])


def test_the_rebuy_cap_is_told_as_a_count_of_rebuys() -> None:
    """s59-seat: the cap is how many rebuys one person may make (``rebuy_cap``),
    and the table's line said "at most 3 chips each"."""
    before = parse_config({"game": "sdr"})
    assert change_words(before, parse_config({"game": "sdr", "rebuy_cap": 3})) == [
        "rebuys from free to free, at most 3 rebuys a player"]
    assert change_words(before, parse_config({"game": "sdr", "rebuy_cap": 1,
                                              "rebuy_approval": True})) == [
        "rebuys from free to the host approves each, at most 1 rebuy a player"]
