"""Settling up (issue 27): the fewest transfers, by hand and by property."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from pathlib import Path
from typing import Any

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
    assert [r["computer"] for r in rows] == ["no", "no", "no"]
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
    assert f"Your play: 2 hands; put chips in voluntarily in the first round " \
           f"{100 * vpip / 2:.0f}%" in text


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_tournament_settles_from_the_pool_and_between_players(data: st.DataObject) -> None:
    """Issue 28, by property: any field of 2 to 10 with rebuys and any finishing
    order (from the shipped payout table): the pool's payouts add up to the pool
    (each prize above 0 once), and the transfers between players square every
    net (prize less paid) in at most entrants - 1."""
    from rollem.settle import PRIZE_POOL, settle_tournament
    from rollem.tournament.payouts import pay_places, payout_percentages

    n = data.draw(st.integers(2, 10))
    buy_in = data.draw(st.integers(0, 500))
    rebuys = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    order = data.draw(st.permutations(range(n)))
    paid = [buy_in * (1 + r) for r in rebuys]
    pool = sum(paid)
    prizes = pay_places(pool, payout_percentages(n), {s: order[s] + 1 for s in range(n)})
    lines = [{"name": f"P{s}", "paid": paid[s], "payout": prizes[s]} for s in range(n)]
    out = settle_tournament(lines, True)
    payouts: list[dict[str, Any]] = out["payouts"]  # type: ignore[assignment]
    assert out["pool"] == pool and out["reason"] is None
    assert sum(p["units"] for p in payouts) == pool
    assert all(p["from"] == PRIZE_POOL and p["units"] > 0 for p in payouts)
    nets = {f"P{s}": prizes[s] - paid[s] for s in range(n)}
    transfers: list[dict[str, Any]] = out["transfers"]  # type: ignore[assignment]
    for t in transfers:
        assert t["units"] > 0
        nets[t["from"]] += t["units"]
        nets[t["to"]] -= t["units"]
    assert set(nets.values()) <= {0} and len(transfers) <= n - 1


def test_a_tournament_settles_nothing_before_the_end() -> None:
    from rollem.settle import NOT_OVER, settle_tournament

    lines = [{"name": "Ann", "paid": 20, "payout": None}, {"name": "Bob", "paid": 10,
                                                           "payout": None}]
    assert settle_tournament(lines, False) == {
        "unit": "buy-in units", "over": False, "pool": 30, "payouts": [], "transfers": [],
        "reason": NOT_OVER, "house": None}
    with pytest.raises(ValueError, match="the prizes add up to 29, not the pool of 30"):
        settle_tournament([{**lines[0], "payout": 29}, {**lines[1], "payout": 0}], True)


def test_a_tournaments_ledger_csv_round_trips() -> None:
    """Issue 28: the tournament ledger as CSV reads back as it was (units, empty
    cells for what is not known yet, a name a spreadsheet would take for a
    formula guarded)."""
    from rollem.settle import tournament_ledger_csv

    lines: list[dict[str, object]] = [
        {"name": "Ann", "seat": 0, "rebuys": 1, "addon": True, "paid": 20, "place": 1,
         "payout": 33, "net": 13},
        {"name": "=Bob, \"B\"", "seat": 3, "rebuys": 0, "paid": 10, "place": None,
         "payout": None, "net": None}]
    rows = list(csv.DictReader(io.StringIO(tournament_ledger_csv(lines))))
    assert rows == [
        {"name": "Ann", "seat": "0", "paid": "20", "rebuys": "1", "addon": "yes", "place": "1",
         "prize": "33", "net": "13", "unit": "buy-in units", "computer": "no"},
        {"name": "'=Bob, \"B\"", "seat": "3", "paid": "10", "rebuys": "0", "addon": "no",
         "place": "",
         "prize": "", "net": "", "unit": "buy-in units", "computer": "no"}]


def test_the_terminal_ledger_settles_up_when_you_quit_in_a_hand(tmp_path: Path) -> None:
    """``q`` in the middle of a hand (the usual way to stop; the guide's own
    scripted example) abandons that hand, and the ledger of the hands played
    still says who pays whom: docs/playing-in-the-terminal.md promises it
    after ``q`` at any prompt."""
    from cli_helpers import scripted

    # hand 1 checked down (4 rounds), Enter for hand 2, q at its first decision
    answers = iter(["c"] * 4 + ["", "q"] + ["q"] * 3)
    game, out = scripted(answers, players=3, level="basic", stack=200, seed=1,
                         history_dir=tmp_path)
    game.run()
    text = "".join(out)
    assert "The hand in progress is abandoned" in text
    nets = {name: game.table.stacks[s] - game.table.brought[s]
            for s, name in enumerate(game.names)}
    assert nets == {"You": -9, "Ann": -1, "Bob": 10}
    assert "To settle up: You pay Bob 9; Ann pays Bob 1" in text


def test_the_host_covers_the_computer_players() -> None:
    """Stop 58: computer players play with the house's money and the host is the
    house: a person who lost to a computer player pays the host, no transfer names
    a computer player, and the host's transfer carries the computer players' nets
    (seated, gone, or inside the line of earlier players); with no host, a party
    named "the house" takes them."""
    from rollem.settle import HOUSE, house_nets

    lines: list[dict[str, object]] = [
        {"name": "Ann", "net": 0}, {"name": "Cat", "net": -47},
        {"name": "Bot 1 (random)", "net": 40, "bot": "random"},
        {"name": "Eve", "net": 7},
        {"name": "Bot 2 (basic)", "net": 10, "bot": "basic"},      # (left)
        {"name": "3 earlier players", "net": -10, "bot_net": -3}]  # (one of them a bot)
    nets, covered = house_nets(lines, "Ann")
    assert covered == {"by": "Ann", "host": True, "amount": 47, "own": 0, "players": 3}
    assert nets == [("Ann", 47), ("Cat", -47), ("Eve", 7), ("3 earlier players", -7)]
    assert sum(n for _, n in nets) == 0
    transfers = settle(nets)
    assert transfers == [Transfer("Cat", "Ann", 47), Transfer("3 earlier players", "Eve", 7)]
    assert not any(t.payer.startswith("Bot") or t.payee.startswith("Bot") for t in transfers)
    nets, covered = house_nets(lines, None)
    assert covered is not None and covered["by"] == HOUSE == "the house"
    assert nets[-1] == (HOUSE, 47) and ("Ann", 0) in nets
    assert settle(nets) == [Transfer("Cat", HOUSE, 47), Transfer("3 earlier players", "Eve", 7)]
    assert house_nets(lines[:2], "Ann") == ([("Ann", 0), ("Cat", 0 - 47)], None)
    # no person may sit down as the house's party, as read or as looks
    from rollem.server.live_table.errors import TableError
    from rollem.server.live_table.player_names import clean_name

    for name in (HOUSE, "The House", "the  HOUSE", "the H0use", "House"):
        with pytest.raises(TableError, match="names a role at this table"):
            clean_name(name)


def test_a_computer_players_prize_goes_to_the_host() -> None:
    """Stop 58: at a tournament the host staked the computer players' buy-ins, so a
    prize that falls to one is paid to the host; the transfers are between people."""
    from rollem.settle import PRIZE_POOL, settle_tournament

    lines: list[dict[str, object]] = [
        {"name": "Ann", "paid": 10, "payout": 0},
        {"name": "Bot 1 (basic)", "paid": 10, "payout": 20, "bot": "basic"},
        {"name": "Cat", "paid": 10, "payout": 10}]
    out = settle_tournament(lines, True, "Ann")
    assert out["payouts"] == [
        {"from": PRIZE_POOL, "to": "Ann", "units": 20, "for": "Bot 1 (basic)"},
        {"from": PRIZE_POOL, "to": "Cat", "units": 10}]
    assert out["transfers"] == []  # (Ann +10 for the bot, -10 her own; Cat 0)
    assert out["house"] == {"by": "Ann", "host": True, "units": 10, "own": -10, "players": 1}
    out = settle_tournament([{**lines[0], "payout": 10}, lines[1], {**lines[2], "payout": 0}],
                            True, None)
    assert out["payouts"][1] == {"from": PRIZE_POOL, "to": "the house", "units": 20,
                                 "for": "Bot 1 (basic)"}
    assert out["transfers"] == [{"from": "Cat", "to": "the house", "units": 10}]
