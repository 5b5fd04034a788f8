"""Bomb pots (issue 27): every player antes the bomb and the first betting round
is skipped (hold'em: the flop at once; Stop, Drop and Roll: the Stop at once);
short stacks all-in with side pots; dealer's choice uses the chooser's game;
games without shared cards after round 1 refuse; chips conserved and histories
replayed."""

from __future__ import annotations

import random
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rollem.bots.random_bot import random_action
from rollem.engine import Hand, Options, SeededSource
from rollem.engine.actions import Call, Check
from rollem.engine.errors import EngineError
from rollem.games import Game
from rollem.history import read_history, replay, write_history
from rollem.table import Table


def _check_down(hand: Hand) -> None:
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        legal = hand.legal_actions(seat)
        hand.apply(seat, Check() if "check" in legal.actions else Call())


def test_holdem_bomb_pot_skips_round_one_with_a_side_pot() -> None:
    """Four players, bomb 10, seat 3 has 6: it antes 6 all-in. Pots by hand:
    main 4 x 6 = 24, side 3 x 4 = 12. No blinds, no pre-flop round: the flop is
    out before the first decision, opened left of the button (seat 1)."""
    hand = Hand("holdem", [100, 100, 100, 6], button=0,
                options=Options(structure="no-limit", small_bet=2, bomb_pot=10),
                source=SeededSource(3))
    kinds = [e.kind for e in hand.events]
    assert "blind" not in kinds
    assert [e.data["round"] for e in hand.events if e.kind == "round"] == ["flop"]
    antes = [(e.seat, e.data["amount"], e.data["all_in"]) for e in hand.events
             if e.kind == "ante"]
    assert antes == [(1, 10, False), (2, 10, False), (3, 6, True), (0, 10, False)]
    assert all(e.data.get("bomb_pot") for e in hand.events if e.kind == "ante")
    bomb = next(e for e in hand.events if e.kind == "bomb_pot")
    assert bomb.data == {"round": "preflop", "amount": 10}
    assert len(hand.board) == 3 and hand.pending is not None
    assert hand.pending.seats == (1,) and hand.round_name == "flop"
    assert hand.legal_actions(1).actions == ("fold", "check", "bet")
    _check_down(hand)
    assert hand.result is not None
    assert [p.amount for p in hand.result.pots] == [24, 12]
    assert sum(hand.stacks) == 306 and sum(hand.result.net.values()) == 0
    text = write_history(hand)
    assert read_history(text).options.bomb_pot == 10
    again = replay(text)
    assert again.result is not None
    assert again.result.to_dict(cards=True) == hand.result.to_dict(cards=True)


def test_sdr_bomb_pot_deals_the_stop_at_once() -> None:
    hand = Hand("sdr", [40, 40, 40], button=2, options=Options(ante=1, bomb_pot=5),
                source=SeededSource(11))
    assert [e.data["amount"] for e in hand.events if e.kind == "ante"] == [5, 5, 5]
    assert len(hand.dead) == 1 and hand.round_name == "after the stop"
    assert hand.committed == [5, 5, 5]
    _check_down(hand)
    assert sum(hand.stacks) == 120
    again = replay(write_history(hand))
    assert again.result is not None and hand.result is not None
    assert again.result.to_dict(cards=True) == hand.result.to_dict(cards=True)


def test_games_without_shared_cards_refuse() -> None:
    for game in ("stud", "razz", "draw5", "rollem521", "rollyourown"):
        with pytest.raises(EngineError, match="no bomb pots"):
            Hand(game, [50, 50, 50], options=Options(bomb_pot=4), source=SeededSource(1))
    with pytest.raises(EngineError, match="bomb_pot"):
        Options(bomb_pot=-1)


def test_everyone_all_in_plays_to_the_showdown() -> None:
    """Stacks 3, 4, 5 and a bomb of 10: all antes all-in; no round is played and
    the board runs out. Pots 3 x 3 = 9, 2 x 1 = 2, and seat 2's last chip alone
    (it goes back to seat 2, as with antes: R-C-10)."""
    hand = Hand("holdem", [3, 4, 5], button=0, options=Options(bomb_pot=10),
                source=SeededSource(2))
    assert hand.is_over and hand.result is not None
    assert [p.amount for p in hand.result.pots] == [9, 2, 1]
    assert hand.result.pots[2].winners == {2: 1}
    assert len(hand.board) == 5 and sum(hand.stacks) == 12


def _pick(order: list[str]) -> object:
    picks = iter(order)

    def choose(table: Table, fits: list[Game]) -> Game:
        want = next(picks)
        return next(g for g in fits if g.id == want)
    return choose


def test_dealers_choice_every_n_and_called_bomb_pots() -> None:
    """Every 2 hands, the chooser's game: hand 2 hold'em is a bomb pot; hand 4
    stud misses it; the host calls one before hand 5 (stud: it waits), hand 6
    SDR has it, hand 7 hold'em does not. Chips balance after every hand."""
    table = Table([60, 60, 60], game="dealers-choice", games=["holdem", "sdr", "stud"],
                  rng=Random(4), bomb_pot_every=2, bomb_pot_ante=6,
                  choose_game=_pick(["holdem", "holdem", "sdr", "stud", "stud", "sdr",
                                     "holdem"]))  # type: ignore[arg-type]
    bombs = []
    for no in range(1, 8):
        if no == 5:
            table.bomb_pot_next = True
        hand = table.new_hand()
        bombs.append((no, hand.game.id, hand.options.bomb_pot))
        if hand.options.bomb_pot:
            assert any(e.kind == "bomb_pot" for e in hand.events)
            assert all(e.data["amount"] == 6 for e in hand.events if e.kind == "ante")
        _check_down(hand)
        table.end_hand()
        assert table.chips == 180
    assert bombs == [(1, "holdem", 0), (2, "holdem", 6), (3, "sdr", 0), (4, "stud", 0),
                     (5, "stud", 0), (6, "sdr", 6), (7, "holdem", 0)]
    assert not table.bomb_pot_next


def test_table_straddlers_and_default_bomb() -> None:
    """The table passes the straddlers dealt in; a bomb pot by default is twice
    the big blind (hold'em, small bet 4: big blind 4, bomb 8)."""
    opts = Options(structure="no-limit", small_bet=4, big_bet=8, straddle_rule="optional")
    table = Table([100, 100, 0, 100, 100], game="holdem", options=opts, rng=Random(1),
                  straddlers={2, 4}, bomb_pot_next=True)
    hand = table.new_hand()
    assert hand.options.straddlers == (4,) and hand.options.bomb_pot == 8
    _check_down(hand)
    table.end_hand()
    hand = table.new_hand()  # button 1: blinds 3 and 4, seat 0 left of the big blind
    assert hand.options.bomb_pot == 0
    assert [e.data["blind"] for e in hand.events if e.kind == "blind"] == \
        ["small blind", "big blind"]
    table.straddlers = {0}
    _check_down(hand)
    table.end_hand()
    hand = table.new_hand()  # button 3: blinds 4 and 0 (who chose to), seat 1 left of it
    assert hand.options.straddlers == (0,)
    assert sum(1 for e in hand.events if e.kind == "blind") == 2
    table.straddlers = {3}
    _check_down(hand)
    table.end_hand()
    hand = table.new_hand()  # button 4: blinds 0 and 1, seat 3 straddles 8
    assert [(e.seat, e.data["amount"]) for e in hand.events if e.kind == "blind"] == \
        [(0, 2), (1, 4), (3, 8)]


@st.composite
def bomb_hands(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    n = draw(st.integers(2, 9))
    stacks = draw(st.lists(st.integers(0, 80), min_size=n, max_size=n))
    if sum(1 for s in stacks if s > 0) < 2:
        stacks[0] = stacks[0] or 50
        stacks[1] = stacks[1] or 3
    button = draw(st.sampled_from([s for s in range(n) if stacks[s] > 0]))
    small = draw(st.integers(1, 6))
    options = Options(
        structure=draw(st.sampled_from(["fixed-limit", "pot-limit", "no-limit"])),
        ante=draw(st.integers(0, 4)), small_bet=small, big_bet=small * draw(st.integers(1, 3)),
        bomb_pot=draw(st.integers(1, 30)),
        straddle_rule=draw(st.sampled_from(["off", "mississippi"])),
        straddlers=tuple(range(n)),
    )
    seed = draw(st.integers(0, 2**32))
    game = draw(st.sampled_from(["holdem", "omaha8", "sdr"]))
    return (Hand(game, stacks, button=button, options=options, source=SeededSource(seed)),
            random.Random(seed))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bomb_hands())
def test_bomb_pot_chips_conserved_and_replayed(case: tuple[Hand, random.Random]) -> None:
    hand, rng = case
    total = sum(hand.start_stacks)
    bomb = hand.options.bomb_pot
    assert [e.data["amount"] for e in hand.events if e.kind == "ante"] == \
        [min(bomb, hand.start_stacks[s]) for s in hand.live_from_left()] or hand.is_over
    skipped = [e.data["round"] for e in hand.events if e.kind == "bomb_pot"]
    assert not any(e.kind == "blind" for e in hand.events)
    assert not any(e.kind == "round" and [e.data.get("round")] == skipped
                   for e in hand.events)
    while not hand.is_over:
        assert hand.pending is not None
        seat = rng.choice(hand.pending.seats)
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
        if hand.result is None:
            assert sum(hand.stacks) + sum(hand.committed) == total
    assert hand.result is not None and sum(hand.stacks) == total
    assert sum(hand.result.net.values()) == 0
    again = replay(write_history(hand))
    assert again.result is not None
    assert again.result.to_dict(cards=True) == hand.result.to_dict(cards=True)


def test_a_bot_session_with_straddles_and_bomb_pots_balances_every_hand() -> None:
    """1,000 hands of random bots, every seat straddling whenever Mississippi lets
    it and a bomb pot every 5 hands: chips balance after every hand, hands 5, 10,
    ... are bomb pots, and a straddle is posted in the others now and then."""
    from rollem.bots import make_bot

    rng = Random(8)
    opts = Options(structure="no-limit", small_bet=2, big_bet=4, straddle_rule="mississippi")
    table = Table([100] * 6, game="holdem", options=opts, rng=Random(9), rebuy=100,
                  straddlers=range(6), bomb_pot_every=5)
    bots = [make_bot("random", Random(rng.getrandbits(32))) for _ in range(6)]
    straddles = 0
    for no in range(1, 1001):
        hand = table.new_hand()
        assert (hand.options.bomb_pot > 0) == (no % 5 == 0)
        straddles += any(e.kind == "blind" and e.data["blind"] == "straddle"
                         for e in hand.events)
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            hand.apply(seat, bots[seat].act(hand.view(seat)))
        table.end_hand()
        assert table.chips == sum(table.brought)
    assert straddles > 500


def test_simulate_takes_straddles_and_bomb_pots() -> None:
    from rollem.simulate import run_simulation

    result = run_simulation("holdem", 4, 200, ["random"] * 4, seed=3,
                            options=Options(straddle_rule="optional", straddlers=(0, 1, 2, 3)),
                            bomb_pot_every=4, bomb_pot_ante=6)
    assert result.chips_start == result.chips_end
    assert all(sum(result.per_hand[s][i] for s in range(4)) == 0 for i in range(200))


def test_simulate_flags(capsys: pytest.CaptureFixture[str]) -> None:
    from cli_helpers import run_cli

    base = ["simulate", "holdem", "--players", "4", "--hands", "20", "--seed", "1"]
    code, out, _ = run_cli([*base, "--straddle", "mississippi", "--straddlers", "3,0",
                            "--bomb-pot-every", "2", "--json"], capsys)
    assert code == 0 and '"chips_start": 800, "chips_end": 800' in out
    for extra, said in (
            (["--straddlers", "1"], "--straddlers needs --straddle optional or mississippi"),
            (["--straddle", "optional", "--straddlers", "4"], "'4' is not a seat 0 to 3"),
            (["--straddle", "optional", "--straddlers", "1,1"], "seat 1 given twice"),
            (["--bomb-pot-every", "-1"], "--bomb-pot-every -1: expected 0 (none)"),
            (["--bomb-pot-ante", "0"], "--bomb-pot-ante 0: expected 1 to the stack (200)")):
        code, out, err = run_cli([*base, *extra], capsys)
        assert (code, out) == (2, "") and said in err and err.count("\n") == 1


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_a_straddle_or_bomb_pot_flag_that_would_do_nothing_is_refused(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A straddle is twice the big blind: in a game with no blinds (sdr, the
    three home games of a dealer's choice) ``--straddle`` did nothing, and
    ``--bomb-pot-ante`` without ``--bomb-pot-every`` dealt no bomb pot; both
    were taken without a word."""
    from cli_helpers import run_cli

    tail = ["--hands", "5"] if command == "simulate" else []
    for game, extra, said in (
            ("sdr", ["--straddle", "optional"], "--straddle optional: a straddle is twice "
             "the big blind, and sdr posts no blinds; straddle in a game with blinds"),
            ("dealers-choice", ["--straddle", "mississippi"], "and sdr, rollyourown, "
             "rollem521 post no blinds"),
            ("holdem", ["--bomb-pot-ante", "6"], "--bomb-pot-ante 6: no bomb pot is dealt "
             "without --bomb-pot-every N")):
        code, out, err = run_cli([command, game, "--players", "3", *tail, *extra], capsys)
        assert (code, out) == (2, "") and said in err and err.count("\n") == 1


def test_rollem_play_deals_straddles_and_bomb_pots(tmp_path: object) -> None:
    """The terminal game: you (seat 0) straddle when Mississippi lets you; every
    second hand is a bomb pot."""
    import itertools

    from cli_helpers import scripted

    opts = Options(structure="no-limit", straddle_rule="mississippi", straddlers=(0,))
    game, _out = scripted(itertools.repeat("c", 400), game="holdem", players=3, stack=100,
                         history_dir=tmp_path, options=opts, bomb_pot_every=2)
    hands = []
    for _ in range(4):
        hand = game.table.new_hand()
        hands.append(hand)
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            legal = hand.legal_actions(seat)
            hand.apply(seat, Check() if "check" in legal.actions else Call())
        game.table.end_hand()
    assert [h.options.bomb_pot for h in hands] == [0, 4, 0, 4]
    # hand 1: button 0 (you) straddles; hand 3: button 2, you are the small blind
    assert [(e.seat, e.data["blind"]) for e in hands[0].events if e.kind == "blind"][-1] == \
        (0, "straddle")
    assert [(e.seat, e.data["blind"]) for e in hands[2].events if e.kind == "blind"][-1] == \
        (1, "big blind")
