"""Settling up (issue 27): the fewest transfers, by hand and by property."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollem.settle import Transfer, _pair_off, ledger_csv, money, settle


def _balance(nets: list[tuple[str, int]], transfers: list[Transfer]) -> dict[str, int]:
    after = dict(nets)
    for t in transfers:
        assert t.chips > 0 and t.payer != t.payee
        after[t.payer] += t.chips
        after[t.payee] -= t.chips
    return after


def _fewest_by_brute_force(values: list[int]) -> int:
    """Players less the most zero-sum groups, by trying every set partition."""
    n = len(values)
    best = 0

    def partitions(items: list[int]) -> list[list[list[int]]]:
        if not items:
            return [[]]
        first, rest = items[0], items[1:]
        out = []
        for part in partitions(rest):
            out.append([[first], *part])
            for i in range(len(part)):
                out.append([*part[:i], [first, *part[i]], *part[i + 1:]])
        return out

    for part in partitions(list(range(n))):
        if all(sum(values[i] for i in group) == 0 for group in part):
            best = max(best, len(part))
    return n - best


def test_a_worked_example_settles_in_two_transfers_not_three() -> None:
    # Ann +30, Bob +20, Cat -20, Dan -30: Cat pays Bob and Dan pays Ann (2),
    # where pairing the largest first would also find 2; with Eve +5, Fay -5 a
    # third pair: 3 transfers for 6 players, not 5.
    nets = [("Ann", 30), ("Bob", 20), ("Cat", -20), ("Dan", -30), ("Eve", 5), ("Fay", -5)]
    transfers = settle(nets)
    assert transfers == [Transfer("Cat", "Bob", 20), Transfer("Dan", "Ann", 30),
                         Transfer("Fay", "Eve", 5)]


def test_exact_beats_greedy_where_greedy_needs_more() -> None:
    # Largest debtor to largest creditor: Cat (-9) pays Bob 6, Ann (-6) pays Dan
    # 4, ... 5 transfers.  By hand: {Ann -6, Bob +6} and {Cat -9, Dan +4, Eve +3,
    # Fay +2} settle apart: 1 + 3 = 4.
    nets = [("Ann", -6), ("Bob", 6), ("Cat", -9), ("Dan", 4), ("Eve", 3), ("Fay", 2)]
    assert len(_pair_off(nets)) == 5
    transfers = settle(nets)
    assert transfers == [Transfer("Ann", "Bob", 6), Transfer("Cat", "Dan", 4),
                         Transfer("Cat", "Eve", 3), Transfer("Cat", "Fay", 2)]
    assert len(transfers) == _fewest_by_brute_force([n for _, n in nets])


def test_no_transfers_when_everyone_is_even_and_refusals() -> None:
    assert settle([("Ann", 0), ("Bob", 0)]) == []
    with pytest.raises(ValueError, match=r"add up to \+5"):
        settle([("Ann", 10), ("Bob", -5)])
    with pytest.raises(ValueError, match="once"):
        settle([("Ann", 5), ("Ann", -5)])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=1, max_size=7))
def test_transfers_balance_and_are_fewest(values: list[int]) -> None:
    values = [*values, -sum(values)]
    nets = [(f"P{i}", v) for i, v in enumerate(values)]
    transfers = settle(nets)
    assert all(v == 0 for v in _balance(nets, transfers).values())
    nonzero = [v for v in values if v]
    assert len(transfers) <= max(0, len(nonzero) - 1)
    assert len(transfers) == _fewest_by_brute_force(nonzero)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-500, 500).filter(bool), min_size=11, max_size=30))
def test_many_players_settle_greedily_within_players_less_one(values: list[int]) -> None:
    values = [*values, -sum(values)]
    nets = [(f"P{i}", v) for i, v in enumerate(values)]
    transfers = settle(nets)
    assert all(v == 0 for v in _balance(nets, transfers).values())
    assert len(transfers) <= max(0, len([v for v in values if v]) - 1)


def test_money_and_the_csv_round_trip() -> None:
    assert money(-37, Fraction(1, 4)) == "-9.25"
    assert money(3, Fraction("0.05")) == "0.15"
    assert money(3, None) is None
    lines = [{"name": "Ann", "brought": 200, "stack": 260, "net": 60, "left": False},
             {"name": "=cmd|x", "brought": 400, "stack": 340, "net": -60, "left": True},
             {"name": 'Bo "B", Jr', "brought": 200, "stack": 200, "net": 0, "left": False}]
    rows = list(csv.DictReader(io.StringIO(ledger_csv(lines))))
    assert [r["name"] for r in rows] == ["Ann", "'=cmd|x", 'Bo "B", Jr']
    assert [int(r["net"]) for r in rows] == [60, -60, 0]
    assert [r["left"] for r in rows] == ["no", "yes", "no"]
    assert sum(int(r["stack"]) - int(r["brought"]) for r in rows) == 0


def test_the_terminal_ledger_says_who_pays_whom(tmp_path: Path) -> None:
    from cli_helpers import scripted

    answers = iter(["c"] * 12 + ["q"] * 3)
    game, out = scripted(answers, players=3, stack=200, seed=3, history_dir=tmp_path)
    game.run()
    text = "".join(out)
    nets = {name: game.table.stacks[s] - game.table.brought[s]
            for s, name in enumerate(game.names)}
    assert sum(nets.values()) == 0
    transfers = settle(list(nets.items()))
    assert transfers  # (seed 3: the first hand moved chips)
    words = "; ".join(("You pay" if t.payer == "You" else f"{t.payer} pays")
                      + (" you" if t.payee == "You" else f" {t.payee}") + f" {t.chips}"
                      for t in transfers)
    assert f"To settle up: {words}" in text


def test_the_terminal_ledger_tells_your_play(tmp_path: Path) -> None:
    """Issue 27: rollem play's end-of-session summary gives your statistics,
    counted from the hands played (:mod:`rollem.stats`)."""
    from cli_helpers import scripted
    from rollem.stats import hand_facts

    hands: list[object] = []
    answers = iter(["c"] * 12 + [""] + ["c"] * 12 + ["q"] * 3)
    game, out = scripted(answers, players=3, stack=200, seed=3, history_dir=tmp_path)
    play_hand = game.play_hand

    def keep(hand: object) -> None:
        hands.append(hand)
        play_hand(hand)

    game.play_hand = keep  # type: ignore[method-assign]
    game.run()
    text = "".join(out)
    assert len(hands) == 2
    vpip = sum(hand_facts(h.events, [0])[0].vpip for h in hands)  # type: ignore[attr-defined]
    assert f"Your play: 2 hand(s); put chips in voluntarily in the first round " \
           f"{100 * vpip / 2:.0f}%" in text
