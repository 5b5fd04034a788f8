"""Tournaments at the shared table model (issue 28): levels by hands, bust-outs
sitting out for good, chips conserved, every place filled."""

from __future__ import annotations

import random

from rollem.bots import make_bot
from rollem.table import Table
from rollem.tournament import SCHEDULES
from rollem.tournament.session import Tournament
from rollem.tournament.simulate import run_tournaments


def test_each_hand_is_dealt_at_its_levels_stakes_and_the_busted_sit_out() -> None:
    turbo = SCHEDULES["turbo"]
    t = Tournament(turbo, 3, buy_in=10)
    table = Table([turbo.stack] * 3, game="sdr", rng=random.Random(5), tournament=t)
    bots = [make_bot("basic", random.Random(i)) for i in range(3)]
    seen = []
    while not t.over(table.stacks) and t.hands_played < 400:
        level = t.level
        hand = table.new_hand()
        seen.append((level, hand.options.ante, hand.options.small_bet))
        lv = turbo.levels[level]
        assert (hand.options.ante, hand.options.small_bet, hand.options.big_bet) == (
            lv.ante, lv.small_bet, lv.big_bet)
        assert not any(hand.dealt[s] for s in table.out)  # the busted are not dealt in
        while not hand.is_over:
            s = hand.pending.seats[0]  # type: ignore[union-attr]
            hand.apply(s, bots[s].act(hand.view(s)))
        table.end_hand()
        assert table.chips == 3 * turbo.stack
    assert t.over(table.stacks)
    # the level changed exactly every 6 hands
    assert [lv for lv, _, _ in seen[:13]] == [0] * 6 + [1] * 6 + [2]
    places = t.places(table.stacks)
    assert sorted(places.values()) in ([1, 2, 3], [1, 2, 2])
    pay = t.payouts(table.stacks)
    assert sum(pay.values()) == 30 and pay[min(places, key=places.get)] == 30  # (3: 100%)


def test_simulated_tournaments_finish_with_every_place_filled() -> None:
    run = run_tournaments("sdr", SCHEDULES["turbo"], ["basic", "random", "basic", "random"],
                          tournaments=12, hands_max=2000, seed=3)
    out = run.to_dict()
    assert out["finished"] == 12 and out["unfinished"] == 0
    assert sum(s["wins"] for s in out["seats"]) == 12
    assert sum(s["winnings"] for s in out["seats"]) == 0  # the pool is paid out whole


def test_rollem_play_a_turbo_to_the_end(tmp_path: object) -> None:
    """``rollem play --tournament turbo``: the level line at each hand, then the
    places and the prize pool paid (4 entrants: 65/35 of 40)."""
    import subprocess
    import sys

    answers = "c\n\n" * 3000  # call in a hand ("" refused); Enter after it ("c" refused)
    out = subprocess.run([sys.executable, "-m", "rollem", "play", "sdr", "--players", "4",
                          "--tournament", "turbo", "--seed", "2", "--bots", "random",
                          "--history-dir", str(tmp_path)],
                         input=answers, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "=== Hand 1: Stop, Drop and Roll" in text
    # (the level line wrapped at 78 columns, its later part indented four spaces:
    # s60-fresh, it was one line of 134)
    assert all(len(line) <= 80 for line in text.splitlines() if line.startswith("Level "))
    assert ("Level 1 of 18 (turbo tournament): ante 1, fixed limit 2/4; 6 hand(s) to go,\n"
            "    this one included, then level 2 (ante 1, fixed limit 3/6)") in text
    words = " ".join(text.split())
    assert ("Level 1 of 18 (turbo tournament): ante 1, fixed limit 2/4; 6 hand(s) to go, this one "
            "included, then level 2 (ante 1, fixed limit 3/6)") in words
    assert "Level 2 of 18 (turbo tournament): ante 1, fixed limit 3/6; 6 hand(s) to go" in words
    tail = text[text.index("Finishing places (4 entrants, buy-in 10, prize pool 40):"):]
    lines = tail.splitlines()[1:5]
    assert [line.split(":")[0].strip() for line in lines] == ["1st", "2nd", "3rd", "4th"]
    assert lines[0].endswith("wins 26") and lines[1].endswith("wins 14")
    assert "To settle up" not in text and "Session ledger" not in text
    # the ledger in units, not chips (the places above: 26 and 14 of 40)
    ledger = text[text.index("Tournament ledger after"):].splitlines()
    # (its head wrapped at 78 columns, s59-tidy: a second line indented four spaces)
    head = 1 + next(i for i, line in enumerate(ledger) if line.endswith(":"))
    assert "(buy-in 10, prize pool 40; in the buy-in's units):" in " ".join(
        " ".join(ledger[:head]).split())
    assert all(len(line) <= 80 for line in ledger[:head])
    ledger = ledger[head - 1:]
    assert sorted(line.split()[1] for line in ledger[1:5]) == ["+16", "+4", "-10", "-10"]
    assert any(line.endswith("(paid 10, place 1, won 26)") for line in ledger[1:5])
    # your play split by level (6 hands a level: level 1 first, all 6 of it)
    by_level = [line for line in ledger if line.startswith("    at level ")]
    assert by_level and by_level[0].startswith("    at level 1: 6 hands, voluntarily ")
    assert [int(line.split()[2].rstrip(":")) for line in by_level] == list(
        range(1, len(by_level) + 1))
    import tomllib
    from pathlib import Path

    files = sorted(Path(str(tmp_path)).rglob("hand-*.toml"))
    first = tomllib.loads(files[0].read_text(encoding="utf-8"))
    assert first["_tournament"] == {"schedule": "turbo", "level": 1, "ante": 1,
                                    "small_bet": 2, "big_bet": 4, "hands": 6, "minutes": 5.0}
    seventh = tomllib.loads(files[6].read_text(encoding="utf-8"))  # hand 7: level 2
    assert seventh["_tournament"]["level"] == 2 and seventh["small_bet"] == 3
    told = subprocess.run([sys.executable, "-m", "rollem", "replay", str(files[6])],
                          capture_output=True, text=True, timeout=120)
    from cli_helpers import unwrapped  # (the header may be wrapped to 80 columns: s62-term)

    assert unwrapped(told.stdout).splitlines()[1:3] == ["Ante 1, fixed limit 3/6.",
                                                        "Tournament (turbo), level 2."], \
        told.stdout
