"""Run it twice (issue 27): worked hold'em and Stop, Drop and Roll examples with
side pots (each pot split between the runs, the odd chip to the first), declined
when one player says no, offered only where it applies; chips conserved and
histories replayed."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rollem.bots.random_bot import random_action
from rollem.cards import CARDS, parse_cards
from rollem.engine import (
    Bet,
    Call,
    Hand,
    IllegalAction,
    Options,
    Raise,
    ReplaySource,
    RunTwice,
    SeededSource,
)
from rollem.engine.actions import action_from_text, action_to_text
from rollem.history import replay, write_history


def _deck(n: int, button: int, holes: dict[int, str], after: str) -> list[int]:
    """Hole cards one at a time from the dealer's left, then ``after`` in order
    (burns, board and dead cards of both runs), then the rest."""
    order = [(button + i) % n for i in range(1, n + 1)]
    deck: list[int] = []
    for k in range(2):
        deck += [parse_cards(holes[s])[k] for s in order]
    deck += parse_cards(after)
    return deck + [c for c in CARDS if c not in deck]


def _agree(hand: Hand, answers: dict[int, bool] | None = None) -> None:
    assert hand.pending is not None and hand.pending.kind == "run_twice"
    for seat in hand.pending.seats:
        assert hand.legal_actions(seat).actions == ("run_twice",)
        hand.apply(seat, RunTwice(True if answers is None else answers[seat]))


def _pots(hand: Hand) -> list[tuple[int, dict[int, int]]]:
    assert hand.result is not None
    return [(p.amount, p.winners) for p in hand.result.pots]


def _holdem() -> Hand:
    """No limit, blinds 1 and 2, button 0 with 100, seat 1 (small blind) 20,
    seat 2 (big blind) 50: seat 0 moves in, both call all-in."""
    deck = _deck(3, 0, {1: "As Ah", 2: "Ks Kh", 0: "Qs Qh"},
                 "2d 2c 7d 9h 3d Jc 4d 3s"     # run 1: flop 2c 7d 9h, turn Jc, river 3s
                 " 5c Qd 4c 8s 6c 2h 6d 5d")   # run 2: flop Qd 4c 8s, turn 2h, river 5d
    hand = Hand("holdem", [100, 20, 50], button=0,
                options=Options(structure="no-limit", small_bet=2, run_twice=True),
                source=ReplaySource([("deck", deck)]))
    hand.apply(0, Raise(100))
    hand.apply(1, Call())
    hand.apply(2, Call())
    return hand


def test_holdem_run_twice_splits_each_pot() -> None:
    """Worked by hand: seat 0's uncalled 50 comes back; main pot 3 x 20 = 60 (all),
    side pot 2 x 30 = 60 (seats 0 and 2), each split 30 / 30. Run 1 (no help):
    aces win the main half, kings the side half; run 2 (a queen): seat 0's three
    queens win both halves. Seat 1 +10, seat 2 -20, seat 0 +10."""
    hand = _holdem()
    assert hand.pending is not None and hand.pending.seats == (1, 2, 0)
    assert hand.board == []
    _agree(hand)
    assert hand.is_over
    assert _pots(hand) == [(60, {0: 30, 1: 30}), (60, {0: 30, 2: 30})]
    assert hand.result is not None and hand.result.net == {0: 10, 1: 10, 2: -20}
    runs = hand.extra["run_twice"]["runs"]
    assert [" ".join(str(CARDS[c]) for c in r["board"]) for r in runs] == \
        ["2c 7d 9h Jc 3s", "Qd 4c 8s 2h 5d"]
    assert hand.board == parse_cards("2c 7d 9h Jc 3s")
    wins = [(e.seat, e.data["amount"], e.data["pot"], e.data["run"]) for e in hand.events
            if e.kind == "win"]
    assert wins == [(1, 30, 0, 1), (2, 30, 1, 1), (0, 30, 0, 2), (0, 30, 1, 2)]
    shows = {e.seat: (e.data["description"], e.data["second_run"]) for e in hand.events
             if e.kind == "show"}
    assert shows[0] == ("pair of queens, jack-nine-seven", "three queens, eight-five")
    again = replay(write_history(hand))
    assert again.result is not None
    assert again.result.to_dict(cards=True) == hand.result.to_dict(cards=True)
    assert again.extra["run_twice"]["runs"] == runs
    # PHH (phh-std 0.0.2) has one board: refused in one line, not a broken file
    from rollem.phh import PHHError, phh_dict

    with pytest.raises(PHHError, match=r"^a hand run twice has no PHH form"):
        phh_dict(hand)


def test_sdr_run_twice_odd_chip_to_the_first_run() -> None:
    """Stop, Drop and Roll, ante 1, no limit: seat 1 (11 chips) bets all-in 10,
    seat 2 (31) raises all-in to 30, seat 0 (60) calls. Main pot 3 x 11 = 33:
    17 to run 1, 16 to run 2; side pot 2 x 20 = 40: 20 / 20. Run 1: aces take 17,
    kings 20; run 2 (a queen rolls): seat 0's trips take 16 + 20."""
    deck = _deck(3, 0, {1: "As Ah", 2: "Ks Kh", 0: "Qs Qh"},
                 "2d 2c 3c 3d 7c 9d Jh"      # run 1: burn, stop, burn, drop, roll
                 " 4d 4c 5c 5d Qd 8c 6h")    # run 2
    hand = Hand("sdr", [60, 11, 31], button=0,
                options=Options(structure="no-limit", ante=1, small_bet=2, run_twice=True),
                source=ReplaySource([("deck", deck)]))
    hand.apply(1, Bet(10))
    hand.apply(2, Raise(30))
    hand.apply(0, Call())
    _agree(hand)
    assert _pots(hand) == [(33, {0: 16, 1: 17}), (40, {0: 20, 2: 20})]
    assert hand.result is not None and hand.result.net == {0: 5, 1: 6, 2: -11}
    assert [len(r["dead"]) for r in hand.extra["run_twice"]["runs"]] == [2, 2]
    assert hand.dead == parse_cards("2c 3d")
    again = replay(write_history(hand))
    assert again.result is not None
    assert again.result.to_dict(cards=True) == hand.result.to_dict(cards=True)


def test_one_no_runs_it_once() -> None:
    hand = _holdem()
    _agree(hand, {0: True, 1: True, 2: False})
    assert _pots(hand) == [(60, {1: 60}), (60, {2: 60})]
    event = next(e for e in hand.events if e.kind == "run_twice")
    assert event.data == {"agreed": False, "yes": [0, 1]}
    assert not any(e.kind == "run" for e in hand.events)
    assert "runs" not in hand.extra["run_twice"]


def test_refused_choices_and_where_it_is_not_offered() -> None:
    hand = _holdem()
    with pytest.raises(IllegalAction, match="run it twice"):
        hand.apply(1, Call())
    with pytest.raises(IllegalAction, match="RunTwice"):
        hand.apply(1, RunTwice("yes"))  # type: ignore[arg-type]
    assert action_to_text(RunTwice(True)) == "rit yes"
    assert action_from_text("rit no") == RunTwice(False)
    with pytest.raises(ValueError, match="rit yes or rit no"):
        action_from_text("rit maybe")
    # off: never asked
    off = Hand("holdem", [100, 20, 50], button=0, options=Options(structure="no-limit"),
               source=SeededSource(1))
    off.apply(0, Raise(100))
    off.apply(1, Call())
    off.apply(2, Call())
    assert off.is_over and "run_twice" not in off.extra
    # two players with chips behind: still betting, not asked
    deep = Hand("holdem", [100, 100, 100], button=0,
                options=Options(structure="no-limit", run_twice=True), source=SeededSource(1))
    deep.apply(0, Raise(10))
    deep.apply(1, Call())
    deep.apply(2, Call())
    assert deep.pending is not None and deep.pending.kind == "bet"
    # stud: no shared cards to come
    stud = Hand("stud", [5, 5, 5], button=0,
                options=Options(structure="no-limit", ante=1, run_twice=True),
                source=SeededSource(2))
    while not stud.is_over:
        assert stud.pending is not None and stud.pending.kind == "bet"
        seat = stud.pending.seats[0]
        legal = stud.legal_actions(seat)
        stud.apply(seat, Raise(legal.max_to) if "raise" in legal.actions else Call())
    assert "run_twice" not in stud.extra
    assert Options.from_dict(Options(run_twice=True).to_dict()).run_twice


@st.composite
def twice_hands(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    n = draw(st.integers(2, 8))
    stacks = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))
    if sum(1 for s in stacks if s > 0) < 2:
        stacks[0] = stacks[0] or 30
        stacks[1] = stacks[1] or 3
    button = draw(st.sampled_from([s for s in range(n) if stacks[s] > 0]))
    options = Options(structure=draw(st.sampled_from(["pot-limit", "no-limit"])),
                      ante=draw(st.integers(0, 3)), small_bet=2, big_bet=4, run_twice=True,
                      bomb_pot=draw(st.sampled_from([0, 0, 5])))
    seed = draw(st.integers(0, 2**32))
    game = draw(st.sampled_from(["holdem", "omaha8", "sdr"]))
    return (Hand(game, stacks, button=button, options=options, source=SeededSource(seed)),
            random.Random(seed))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(twice_hands())
def test_run_twice_chips_conserved_and_replayed(case: tuple[Hand, random.Random]) -> None:
    hand, rng = case
    total = sum(hand.start_stacks)
    while not hand.is_over:
        assert hand.pending is not None
        seat = rng.choice(hand.pending.seats)
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
        if hand.result is None:
            assert sum(hand.stacks) + sum(hand.committed) == total
    assert hand.result is not None and sum(hand.stacks) == total
    for pot in hand.result.pots:
        assert sum(pot.winners.values()) == pot.amount
    info = hand.extra.get("run_twice")
    if info and info["agreed"]:
        first, second = info["runs"]
        for pot, a, b in zip(hand.result.pots, first["pots"], second["pots"], strict=True):
            assert (a["amount"], b["amount"]) == ((pot.amount + 1) // 2, pot.amount // 2)
    again = replay(write_history(hand))
    assert again.result is not None
    assert again.result.to_dict(cards=True) == hand.result.to_dict(cards=True)


def test_not_asked_while_a_player_must_still_call() -> None:
    """Heads-up, the big blind all-in for 2: the small blind must call or fold
    first; the choice comes once it has called."""
    hand = Hand("holdem", [30, 2], button=0,
                options=Options(structure="pot-limit", small_bet=2, run_twice=True),
                source=SeededSource(1))
    assert hand.pending is not None and hand.pending.kind == "bet"
    hand.apply(0, Call())
    assert hand.pending is not None and hand.pending.kind == "run_twice"
    _agree(hand)
    assert hand.result is not None and sum(hand.stacks) == 32
    assert [p["amount"] for r in hand.extra["run_twice"]["runs"] for p in r["pots"]] == [2, 2]


def test_a_2000_hand_bot_session_with_every_staple_balances_every_hand() -> None:
    """Random computer players, no limit: Mississippi straddles for every seat, a
    bomb pot every 5 hands, run it twice, dealer's choice of hold'em, Omaha hi-lo
    and Stop, Drop and Roll; chips balance after every hand (rebuys counted as
    brought), and each staple happens."""
    from rollem.bots import make_bot
    from rollem.table import Table

    rng = random.Random(21)
    opts = Options(structure="no-limit", ante=1, small_bet=2, big_bet=4,
                   straddle_rule="mississippi", run_twice=True)
    table = Table([60] * 6, game="dealers-choice", games=["holdem", "omaha8", "sdr"],
                  options=opts, rng=random.Random(22), rebuy=60, straddlers=range(6),
                  bomb_pot_every=5)
    bots = [make_bot("random", random.Random(rng.getrandbits(32))) for _ in range(6)]
    seen = {"bomb": 0, "straddle": 0, "twice": 0}
    for no in range(1, 2001):
        hand = table.new_hand()
        seen["bomb"] += hand.options.bomb_pot > 0
        seen["straddle"] += any(e.data.get("blind") == "straddle" for e in hand.events)
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            hand.apply(seat, bots[seat].act(hand.view(seat)))
        seen["twice"] += bool(hand.extra.get("run_twice", {}).get("runs"))
        table.end_hand()
        assert table.chips == sum(table.brought), f"hand {no}"
    assert seen["bomb"] == 400
    assert seen["straddle"] > 300 and seen["twice"] > 30, seen


def test_a_players_own_copy_of_a_run_twice_hand_is_told_again() -> None:
    """Each player's own copy (their hidden cards only) passes the own-copy
    checks, which run the showdown again over both runs with the shown cards
    (before: refused as "a hand that cannot happen", one board only)."""
    import tomllib

    from rollem.history import write_own_copy
    from rollem.history_copy import own_copy_hand

    hand = _holdem()
    _agree(hand)
    assert hand.result is not None
    for seat in range(3):
        data = tomllib.loads(write_own_copy(hand, seat))
        assert own_copy_hand(data).is_over
        assert [p["winners"] for p in data["_result"]["pots"]] == \
            [{"0": 30, "1": 30}, {"0": 30, "2": 30}]
