"""Player statistics (issue 27), counted by hand on worked hands.

Each expected figure below is read off the history file by hand (the
comments say how): the betting lines, the showdown, the declarations and
Roll Your Own's discards and wild pick."""

from __future__ import annotations

from pathlib import Path

from rollem.history import read_history, replay
from rollem.stats import SessionStats, hand_facts

HISTORIES = Path(__file__).parent / "histories"


def facts(name: str) -> dict[int, dict[str, object]]:
    hand = replay((HISTORIES / name).read_text())
    return {s: f.to_dict() for s, f in hand_facts(hand.events, range(len(hand.stacks))).items()}


def test_sdr_worked_example() -> None:
    # Round 1: A bets 2, B calls. Round 2: both check. Round 3: A bets, B calls.
    # Round 4: A checks, B bets 4, A calls. B's kings beat A's queens.
    a, b = facts("sdr_worked_example.toml").values()
    assert (a["vpip"], a["pfr"], b["vpip"], b["pfr"]) == (100.0, 100.0, 100.0, 0.0)
    assert a["counts"] == {"vpip": 1, "pfr": 1, "bets_raises": 2, "calls": 1,
                           "saw_round_2": 1, "showdowns": 1, "won_at_showdown": 0}
    assert b["counts"] == {"vpip": 1, "pfr": 0, "bets_raises": 1, "calls": 2,
                           "saw_round_2": 1, "showdowns": 1, "won_at_showdown": 1}
    assert (a["net"], b["net"]) == (-9, 9)  # ante 1 + 2 + 2 + 4
    assert a["aggression"] == 2.0 and b["aggression"] == 0.5


def test_roll_your_own_seed_example() -> None:
    # A keeps 7s 7h Qs and B Ah Ad Qh: both keep a pair. Round 1: B bets, A calls;
    # round 2: B bets, A raises, B calls; round 3: B bets, A calls; round 4: B
    # checks, A bets, B raises, A raises, B calls. A picks the wild card: a queen.
    # B's four aces win at the showdown.
    a, b = facts("rollyourown_seed_example.toml").values()
    assert a["counts"]["bets_raises"] == 3 and a["counts"]["calls"] == 2
    assert b["counts"]["bets_raises"] == 4 and b["counts"]["calls"] == 2
    assert (a["pfr"], b["pfr"], a["vpip"]) == (0.0, 100.0, 100.0)
    assert a["kept_pairs"] == b["kept_pairs"] == 1 and a["discards"] == b["discards"] == 1
    assert a["wild_picks"] == {"Q": 1} and b["wild_picks"] == {}
    assert (a["wsd"], b["wsd"]) == (0.0, 100.0)


def test_rollem521_declarations() -> None:
    # Everybody checks round 1 (no VPIP); B bets round 3 and the others call.
    # A and D declare both and fail; B (high) and C (low) win a half each.
    a, b, c, d = facts("rollem521_two_both_each_one_way.toml").values()
    assert [x["vpip"] for x in (a, b, c, d)] == [0.0] * 4
    assert b["counts"]["bets_raises"] == 1 and b["counts"]["calls"] == 0
    assert [x["counts"]["calls"] for x in (a, c, d)] == [1, 1, 1]
    assert (a["declared"], b["declared"], c["declared"], d["declared"]) == (
        {"both": 1}, {"high": 1}, {"low": 1}, {"both": 1})
    assert (a["declared_won"], b["declared_won"], c["declared_won"], d["declared_won"]) == (
        {}, {"high": 1}, {"low": 1}, {})
    assert [x["counts"]["showdowns"] for x in (a, b, c, d)] == [1, 1, 1, 1]
    assert [x["counts"]["won_at_showdown"] for x in (a, b, c, d)] == [0, 1, 1, 0]
    assert [x["net"] for x in (a, b, c, d)] == [-5, 5, 5, -5]


def test_a_session_adds_up_per_player_and_per_game() -> None:
    session = SessionStats()
    for name in ("sdr_worked_example.toml", "rollyourown_seed_example.toml",
                 "rollem521_two_both_each_one_way.toml"):
        text = (HISTORIES / name).read_text()
        h = read_history(text)
        hand = replay(text)
        session.add_hand(h.game, hand.events, dict(enumerate(h.raw["players"])))
    out = session.to_dict()
    assert out["hands"] == 3 and set(out["games"]) == {"sdr", "rollyourown", "rollem521"}
    a = out["players"]["A"]
    # A: 3 hands; VPIP in SDR and RYO (not 5-2-1); PFR in SDR only.
    assert a["hands"] == 3 and a["counts"]["vpip"] == 2 and a["counts"]["pfr"] == 1
    assert a["net"] == -9 + out["games"]["rollyourown"]["A"]["net"] - 5
    assert out["players"]["C"]["hands"] == 1  # (C and D sat only in the 5-2-1 hand)


def test_a_tournament_session_splits_the_figures_by_level() -> None:
    """The same three hands at levels 1, 1 and 2: A's figures at level 1 are
    the SDR and Roll Your Own hands' (both VPIP, one PFR), at level 2 the 5-2-1
    hand's; the levels add up to the whole."""
    session = SessionStats()
    for name, level in (("sdr_worked_example.toml", 1), ("rollyourown_seed_example.toml", 1),
                        ("rollem521_two_both_each_one_way.toml", 2)):
        text = (HISTORIES / name).read_text()
        h = read_history(text)
        session.add_hand(h.game, replay(text).events, dict(enumerate(h.raw["players"])),
                         level=level)
    out = session.to_dict()
    assert list(out["levels"]) == ["1", "2"]
    one, two = out["levels"]["1"]["A"], out["levels"]["2"]["A"]
    assert (one["hands"], one["counts"]["vpip"], one["counts"]["pfr"]) == (2, 2, 1)
    assert (two["hands"], two["counts"]["vpip"], two["counts"]["pfr"]) == (1, 0, 0)
    assert one["net"] + two["net"] == out["players"]["A"]["net"]
    assert set(out["levels"]["2"]) >= {"C", "D"} and "C" not in out["levels"]["1"]
    cash = SessionStats()
    cash.add_hand(h.game, replay(text).events, dict(enumerate(h.raw["players"])))
    assert cash.to_dict()["levels"] == {}
