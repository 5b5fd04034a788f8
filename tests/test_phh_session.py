"""A whole session as one ``.phhs`` (issue 29, rollem.phh.session): ``rollem
play --history-dir`` appends each hand to ``session.phhs``; its hands replay
(``rollem replay FILE.phhs``) to the nets of the session's ledger; the
standard PHH entries replay in PokerKit; :func:`write_session_phhs` keeps or
leaves out the hands of games with no PHH variant code."""

from __future__ import annotations

import io
import json
import random
import re
import tomllib
import warnings
from collections import Counter
from pathlib import Path

import pokerkit as pk
import pytest
import tomli_w

from cli_helpers import run_cli
from engine_helpers import play_out
from rollem.engine import Hand, Options, SeededSource
from rollem.history import write_history, write_own_copy
from rollem.phh import (
    PHHError,
    is_phh,
    phhs_entry,
    read_phhs,
    replay_table,
    session_table,
    write_session_phhs,
)

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _pokerkit_stacks(table: dict[str, object]) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(pk.HandHistory.loads(tomli_w.dumps(table)))
    return list(states[-1].stacks)


def test_a_play_session_phhs_replays_to_the_ledger(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # dealer's choice of three PHH games and Stop, Drop and Roll (no PHH code);
    # you check or call, take the next hand, choose the first game offered
    monkeypatch.setattr("sys.stdin", io.StringIO("c\n\n1\n" * 36))
    code, out, err = run_cli(["play", "--players", "4", "--bots", "basic", "--seed", "1",
                              "--games", "holdem,razz,sdr,omaha8",
                              "--history-dir", str(tmp_path)], capsys)
    assert code == 0, err
    ledger = {m[0]: int(m[1]) for m in re.findall(r"^  (\w+)\s+([+-]\d+)  \(stack", out,
                                                    re.M)}
    (session,) = tmp_path.glob("*/session.phhs")
    copies = sorted(session.parent.glob("hand-*.toml"))
    hands = list(read_phhs(session.read_text()))
    assert [name for name, _ in hands] == [str(i + 1) for i in range(len(copies))]
    assert len(copies) >= 4
    variants = [t["variant"] for _, t in hands]
    assert "rollem-sdr" in variants and {"FT", "FR"} <= set(variants)

    code, out, err = run_cli(["replay", str(session), "--json"], capsys)
    assert code == 0, err
    replayed = json.loads(out)["hands"]
    nets: Counter[str] = Counter()
    for entry in replayed:
        assert "error" not in entry
        for name, f, s in zip(entry["players"], entry["finishing_stacks"],
                              entry["starting_stacks"], strict=True):
            nets[name] += f - s
    assert {k: v for k, v in nets.items() if k} == ledger
    for (_, table), entry in zip(hands, replayed, strict=True):
        if is_phh(table):  # PokerKit replays the copy to the same stacks
            assert _pokerkit_stacks(table) == entry["finishing_stacks"]
            assert "_redacted_for" in table


def _hand(game: str, seed: int, options: Options) -> Hand:
    rng = random.Random(seed)
    hand = Hand(game, [60, 80, 100], button=seed % 3, options=options,
                source=SeededSource(seed))
    play_out(hand, rng)
    return hand


def test_write_session_phhs_keeps_or_leaves_out_other_games() -> None:
    fl = Options(ante=0, small_bet=2, big_bet=4)
    holdem = _hand("holdem", 3, fl)
    sdr = _hand("sdr", 4, Options(ante=1, small_bet=2, big_bet=4))
    texts = [write_history(holdem), write_history(sdr), write_own_copy(holdem, 1)]
    whole = tomllib.loads(write_session_phhs(texts))
    assert list(whole) == ["1", "2", "3"]
    assert [whole[k]["variant"] for k in whole] == ["FT", "rollem-sdr", "FT"]
    assert whole["3"]["_redacted_for"] == (1 - holdem.button - 1) % 3  # PHH player index
    assert whole["1"]["finishing_stacks"] == _pokerkit_stacks(whole["1"])
    # the rollem table replays to the hand's stacks, by seat
    assert replay_table(whole["2"])["finishing_stacks"] == list(sdr.stacks)
    standard = tomllib.loads(write_session_phhs(texts, standard_only=True))
    assert [standard[k]["variant"] for k in standard] == ["FT", "FT"]
    assert session_table(write_history(sdr), standard_only=True) is None


def test_write_session_phhs_names_each_table_by_its_hand_number() -> None:
    """``numbers``: the web table's download names each hand by its number at
    the table and gives it ``_hand``; a hand left out takes its number with it."""
    fl = Options(ante=0, small_bet=2, big_bet=4)
    holdem = _hand("holdem", 3, fl)
    sdr = _hand("sdr", 4, Options(ante=1, small_bet=2, big_bet=4))
    texts = [write_own_copy(holdem, 1), write_own_copy(sdr, 0)]
    whole = tomllib.loads(write_session_phhs(texts, numbers=[7, 12]))
    assert list(whole) == ["7", "12"]
    assert [(whole[k]["_hand"], whole[k]["variant"]) for k in whole] == [
        (7, "FT"), (12, "rollem-sdr")]
    assert next(iter(whole["7"])) == "_hand"  # (first: read at a glance)
    # the PHH entry loads in PokerKit as it is, _hand and all, to the copy's stacks
    assert _pokerkit_stacks(whole["7"]) == whole["7"]["finishing_stacks"]
    assert replay_table(whole["12"])["finishing_stacks"] == list(sdr.stacks)
    standard = tomllib.loads(write_session_phhs(texts, standard_only=True, numbers=[7, 12]))
    assert list(standard) == ["7"] and standard["7"]["_hand"] == 7
    # by default: [1], [2] ... and no _hand
    assert all("_hand" not in t for t in tomllib.loads(write_session_phhs(texts)).values())
    for numbers, message in (([7], "2 histories"), ([7, 7], "each used once"),
                             ([0, 1], "1 or more"), ([True, 2], "whole numbers")):
        with pytest.raises(ValueError, match=message):
            write_session_phhs(texts, numbers=numbers)


def test_phhs_entries_append_to_one_file() -> None:
    hand = _hand("holdem", 7, Options(ante=0, small_bet=2, big_bet=4))
    table = session_table(write_history(hand))
    assert table is not None
    text = phhs_entry(1, table) + phhs_entry(2, table)
    assert [k for k, _ in read_phhs(text)] == ["1", "2"]
    with pytest.raises(ValueError, match="1 or more"):
        phhs_entry(0, table)
    with pytest.raises(PHHError, match="not a TOML hand history"):
        session_table("variant = ")


def test_fifty_table_hands_round_trip_to_the_ledger() -> None:
    """50 hands of a dealer's-choice table (the web table's model, basic bots),
    each seat's own copies as one .phhs (what a player's session download
    holds): every hand replays, and the nets per player are the ledger's."""
    from bot_helpers import level_bot
    from rollem.table import Table

    names = ["Ann", "Bob", "Cat", "Dan"]
    table = Table([200] * 4, game="dealers-choice", rng=random.Random(11),
                  games=["holdem", "stud", "razz", "omaha8", "sdr", "draw5"],
                  rebuy=200, auto_rebuy=lambda seat: True)
    bots = [level_bot("basic", 40 + s) for s in range(4)]
    copies: list[list[str]] = [[] for _ in names]
    for _ in range(50):
        hand = table.new_hand()
        while not hand.is_over:
            assert hand.pending is not None
            s = hand.pending.seats[0]
            hand.apply(s, bots[s].act(hand.view(s)))
        table.end_hand()
        for s in (0, 3):  # two players' downloads (each replay checks every copy)
            copies[s].append(write_own_copy(hand, s, players=names))
    ledger = {n: table.stacks[s] - table.brought[s] for s, n in enumerate(names)}
    assert any(ledger.values())
    for s in (0, 3):
        name = names[s]
        hands = list(read_phhs(write_session_phhs(copies[s])))
        assert len(hands) == 50
        nets: Counter[str] = Counter()
        for _, table_ in hands:
            entry = replay_table(table_)
            for who, f, st in zip(entry["players"], entry["finishing_stacks"],
                                  entry["starting_stacks"], strict=True):
                nets[who] += f - st
        assert {k: v for k, v in nets.items() if k} == ledger, name


def test_replay_names_a_rollem_hand_of_a_phhs_by_its_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``rollem replay session.phhs`` (the web table's "All my hands"): a hand of
    a game with no PHH code is headed by the game's name, as players call it
    (it said "[2] rollem-sdr: Net: ...")."""
    sdr = _hand("sdr", 4, Options(ante=1, small_bet=2, big_bet=4))
    holdem = _hand("holdem", 3, Options(ante=0, small_bet=2, big_bet=4))
    path = tmp_path / "session.phhs"
    path.write_text(write_session_phhs([write_own_copy(holdem, 1), write_own_copy(sdr, 0)]),
                    encoding="utf-8")
    code, out, err = run_cli(["replay", str(path)], capsys)
    assert (code, err) == (0, "")
    assert "\n[2] Stop, Drop and Roll: Net: seat 0 " in out
    assert "rollem-sdr" not in out
    assert out.startswith("[1] PHH FT: ")
