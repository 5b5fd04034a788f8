"""What a newcomer found read without a word (s62-hist): a ``_tournament`` table
that contradicts the hand's stakes or its schedule, seat numbers that are no seat
numbers, and a full history that leaves deal lines out (the deck filled the cards
in). Each is refused with one line naming the field or line and what is allowed
(exit 2 on the command line); a hand-written history and a player's copy keep
their own rules (they may leave dealer lines out)."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from click.testing import CliRunner

from rollem.bots import make_bot
from rollem.cli.app import app
from rollem.engine import Hand
from rollem.history import HistoryError, replay, write_history
from rollem.history.writing import write_own_copy
from rollem.table import Table
from rollem.tournament import SCHEDULES, load_schedule
from rollem.tournament.schedule import Schedule
from rollem.tournament.session import Tournament
from rollem.verify import verify_history

NAMES = ["Ann", "Bob", "Cy", "Dan"]


def _tournament_hand(schedule: Schedule = SCHEDULES["turbo"],
                     hands_played: int = 6) -> tuple[Hand, dict[str, Any]]:
    """A hand of ``schedule`` after ``hands_played`` hands (turbo: level 2's first,
    ante 1, 3/6), seats 1 and 3 having taken an add-on of 150 chips for 5, played
    out by computer players; the hand and its ``_tournament`` record."""
    t = Tournament(schedule, 4, buy_in=10, rebuy_levels=1, addon_chips=150, addon_price=5)
    t.hands_played = hands_played
    table = Table([180, 120, 0, 200], game="sdr", tournament=t, out={2},
                  brought=[100, 100, 100, 200], rng=random.Random(4))
    for seat in (1, 3):
        table.addon_seat(seat)
    hand = table.new_hand()
    bots = [make_bot("basic", random.Random(s)) for s in range(4)]
    while not hand.is_over:
        assert hand.pending is not None
        s = hand.pending.seats[0]
        hand.apply(s, bots[s].act(hand.view(s)))
    return hand, t.hand_record()


def _replay_cli(tmp_path: Path, text: str, *args: str) -> tuple[int, str]:
    path = tmp_path / "hand.toml"
    path.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(app, ["replay", str(path), *args])
    return out.exit_code, out.output


def _edited(text: str, **fields: Any) -> str:
    data = tomllib.loads(text)
    data.update(fields)
    return tomli_w.dumps(data)


# -- 1. the _tournament table ------------------------------------------------------------


def test_a_tournament_level_that_contradicts_its_stakes_is_refused(tmp_path: Path) -> None:
    hand, record = _tournament_hand()
    assert record["level"] == 2 and (record["ante"], record["small_bet"]) == (1, 3)
    text = write_history(hand, players=NAMES, tournament=record)
    code, out = _replay_cli(tmp_path, text)
    assert code == 0 and "Tournament (turbo), level 2." in out, out
    seven = text.replace("level = 2\n", "level = 7\n", 1)
    assert seven != text
    # (main: replayed and told "Tournament (turbo), level 7." beside level 2's stakes)
    code, out = _replay_cli(tmp_path, seven)
    assert code == 2, out
    assert out.strip().splitlines() == [
        "rollem: error: " + str(tmp_path / "hand.toml") + ": _tournament.ante = 1 "
        "contradicts level 7 of the turbo schedule (ante 5, bets 15/30, 6 hands, 5 minutes)"]
    # the player's copy is read by the same reader
    copy = write_own_copy(hand, 1, players=NAMES, tournament=record)
    code, out = _replay_cli(tmp_path, copy)
    assert code == 0, out
    code, out = _replay_cli(tmp_path, copy.replace("level = 2\n", "level = 7\n", 1))
    assert code == 2 and "contradicts level 7 of the turbo schedule" in out, out


def test_a_tournament_block_whose_stakes_are_not_the_hands_is_refused() -> None:
    hand, record = _tournament_hand()
    data = tomllib.loads(write_history(hand, tournament=record))
    # a level and stakes that agree with the schedule but not with _options (3/6)
    data["_tournament"] = {**record, "level": 3, "ante": 2, "small_bet": 4, "big_bet": 8}
    with pytest.raises(HistoryError, match=r"^_tournament\.ante = 2 contradicts _options "
                                           r"\(ante = 1\): a level's stakes are the hand's$"):
        replay(data)


BAD_BLOCKS: list[tuple[object, str]] = [
    ("turbo", "_tournament must be a table (schedule, level and stakes), got 'turbo'"),
    ({"schedule": "turbo", "level": 2, "levle": 3},
     "_tournament: unknown field 'levle'; allowed: schedule, level, ante, small_bet, "
     "big_bet, hands, minutes, break, addon_chips, addon_price, addons"),
    ({"level": 2}, "_tournament.schedule must be the schedule's name (text of 1 to 255 "
                   "printable characters), got None"),
    ({"schedule": "turbo", "level": 0}, "_tournament.level must be a whole number from 1 "
                                        "to 18 (the turbo schedule's levels), got 0"),
    ({"schedule": "turbo", "level": True}, "_tournament.level must be a whole number from 1 "
                                           "to 18 (the turbo schedule's levels), got True"),
    ({"schedule": "turbo", "level": 19}, "_tournament.level must be a whole number from 1 "
                                         "to 18 (the turbo schedule's levels), got 19"),
    ({"schedule": "mine", "level": 10**20}, "_tournament.level must be a whole number from "
                                            "1 to 60 (a schedule's levels), got "
                                            "100000000000000000000"),
    ({"schedule": "turbo", "level": 2, "hands": 10},
     "_tournament.hands = 10 contradicts level 2 of the turbo schedule (ante 1, bets 3/6, "
     "6 hands, 5 minutes)"),
    ({"schedule": "mine", "level": 2, "minutes": -1},
     "_tournament.minutes must be a number from 0.1 to 600, got -1"),
    ({"schedule": "turbo", "level": 2, "addons": [1]},
     "_tournament: addon_chips, addon_price and addons come together (an add-on's chips, "
     "price and the seats that took it); got addons alone"),
    ({"schedule": "turbo", "level": 2, "addon_chips": 150, "addon_price": 5, "addons": [1, 9]},
     "_tournament.addons must be the seats that took the add-on, distinct and ascending, "
     "each 0 to 3, got [1, 9]"),
    ({"schedule": "turbo", "level": 2, "addon_chips": 0, "addon_price": 5, "addons": []},
     "_tournament.addon_chips must be a whole number of chips from 1 to 1000000, got 0"),
]


@pytest.mark.parametrize(("block", "message"), BAD_BLOCKS)
def test_a_malformed_tournament_block_is_refused_naming_the_field(block: object,
                                                                  message: str) -> None:
    hand, record = _tournament_hand()
    data = tomllib.loads(write_history(hand, tournament=record))
    data["_tournament"] = block
    with pytest.raises(HistoryError) as err:
        replay(data)
    assert str(err.value) == message


def test_a_custom_schedule_file_named_as_a_shipped_one_is_told_apart(tmp_path: Path) -> None:
    text = ("stack = 100\n[[levels]]\nante = 0\nsmall_bet = 5\nbig_bet = 10\nhands = 3\n"
            "[[levels]]\nante = 2\nsmall_bet = 10\nbig_bet = 20\n")
    # (main: a file turbo.toml was the schedule "turbo", whose levels are not its own)
    assert load_schedule(text, "turbo").name == "custom turbo"
    assert load_schedule(text, "mine").name == "mine"
    hand, record = _tournament_hand(load_schedule(text, "turbo"), hands_played=3)
    assert record["schedule"] == "custom turbo" and record["small_bet"] == 10
    code, out = _replay_cli(tmp_path, write_history(hand, players=NAMES, tournament=record))
    assert code == 0 and "Tournament (custom turbo), level 2." in out, out


# -- 2. seats and deal lines ---------------------------------------------------------------


@pytest.mark.parametrize("seats", [[1, -1, 3, 4], [1, 2, 2, 4], [0, 1, 2, 3],
                                   [1, 2, 3, True], [1, 2, 3, 4.0]])
def test_seats_that_are_no_seat_numbers_are_refused(tmp_path: Path, seats: list[Any]) -> None:
    hand, record = _tournament_hand()
    text = write_history(hand, players=NAMES, tournament=record)
    code, out = _replay_cli(tmp_path, _edited(text, seats=seats))
    assert code == 2, out
    assert out.strip().endswith(
        "seats must be PHH's seat numbers, whole numbers from 1 and each once, one a "
        f"starting stack ([1, 2, ...]), got {seats!r}"), out
    # PHH's physical seat numbers, one a stack, are fine
    assert _replay_cli(tmp_path, _edited(text, seats=[2, 4, 5, 9]))[0] == 0


def _without(text: str, start: str) -> tuple[str, str]:
    """``text`` with its first line of actions starting ``start`` left out; the line."""
    data = tomllib.loads(text)
    line = next(x for x in data["actions"] if x.startswith(start))
    data["actions"].remove(line)
    return tomli_w.dumps(data), line


@pytest.mark.parametrize("start", ["d dh p1", "d dead", "d db"])
def test_a_full_history_states_every_deal(tmp_path: Path, start: str) -> None:
    hand, record = _tournament_hand()
    text = write_history(hand, players=NAMES, tournament=record)
    cut, line = _without(text, start)
    # (main: the deal was filled in from _deck and the hand replayed)
    code, out = _replay_cli(tmp_path, cut)
    assert code == 2, out
    stated = line.split(" #")[0]
    assert f": no line {stated!r} after action " in out, out
    assert out.strip().endswith("a history with a whole _deck states every card dealt (one "
                                "written by hand may leave lines out without _deck, or with "
                                "its first cards only)"), out
    # written by hand, lines may be left out: here _deck's first cards (every card
    # dealt) and no deal line at all
    data = tomllib.loads(cut)
    deck = data["_deck"].split()
    data["actions"] = [x for x in data["actions"] if not x.startswith("d ")]
    assert replay({**data, "_deck": " ".join(deck[:45])}).result == hand.result
    # and so may a player's own copy, by its own rules (another's hidden cards here;
    # cards turned up choose the stand-ins, so those lines stay)
    if start != "d dh p1":
        return
    copy, gone = _without(write_own_copy(hand, 1, players=NAMES, tournament=record), start)
    assert gone == "d dh p1 ????"
    code, out = _replay_cli(tmp_path, copy)
    assert code == 0, out


def test_odds_refuses_a_full_history_with_a_deal_left_out(tmp_path: Path) -> None:
    hand, record = _tournament_hand()
    cut, line = _without(write_history(hand, players=NAMES, tournament=record), "d db")
    path = tmp_path / "hand.toml"
    path.write_text(cut, encoding="utf-8")
    out = CliRunner().invoke(app, ["odds", "--history", str(path), "--seat", "1", "--at", "2"])
    assert out.exit_code == 2, out.output
    assert f"no line {line.split(' #')[0]!r} after action " in out.output, out.output


def test_verify_refuses_a_committed_history_with_a_deal_left_out() -> None:
    import hashlib

    from rollem.bots.random_bot import random_action
    from rollem.engine.commit_reveal import ZERO_HASH, CommittedSource, DealProof

    rng = random.Random(3)
    proof = DealProof(hashlib.sha256(b"holdem3").digest(), {s: f"c{s}" for s in range(3)},
                      3, ZERO_HASH)
    hand = Hand("holdem", [200] * 3, button=0, source=CommittedSource(proof))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    text = write_history(hand)
    assert verify_history(tomllib.loads(text)).status == "verified"
    cut, line = _without(text, "d dh p2")
    verdict = verify_history(tomllib.loads(cut))
    assert verdict.status == "failed"
    assert verdict.reason == (f"no line {line!r} after action 0: a history dealt from a "
                              "committed deck states every card dealt (one written by hand "
                              "may leave lines out without _deck, or with its first cards "
                              "only)")


# -- 4. malformed fields ---------------------------------------------------------------------


@pytest.mark.parametrize("stacks", [5, 1.5, True])
def test_a_copys_starting_stacks_that_are_no_list_are_refused(tmp_path: Path,
                                                              stacks: object) -> None:
    hand, record = _tournament_hand()
    copy = write_own_copy(hand, 1, players=NAMES, tournament=record)
    # (main: a TypeError's traceback, exit 1: the copy was told before its check)
    code, out = _replay_cli(tmp_path, _edited(copy, starting_stacks=stacks))
    assert code == 2, out
    assert out.strip().endswith(": starting_stacks must be a list of whole numbers of chips")
