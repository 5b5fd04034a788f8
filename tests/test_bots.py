"""Bots: every decision of every game, legal every time, from the view alone; and
``basic`` beats ``random`` in each game."""

from __future__ import annotations

import ast
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from rollem.bots import Bot, make_bot
from rollem.bots.basic import BasicBot, discard_choice, draw_choice, expose_choice, stack_choice
from rollem.cards import parse_cards
from rollem.engine import HandView
from rollem.odds import Odds
from rollem.simulate import run_simulation
from rollem.table import Table

GAMES = ("sdr", "rollyourown", "rollem521")
DECISIONS = {
    "sdr": {"bet"},
    "rollyourown": {"bet", "discard", "expose", "wild"},
    "rollem521": {"bet", "draw", "stack", "declare"},
}
BOTS_DIR = Path(__file__).resolve().parent.parent / "src" / "rollem" / "bots"


def _check_view(view: HandView, seat: int) -> None:
    """The view a bot gets hides what its seat may not know."""
    assert type(view) is HandView and view.seat == seat
    for s in view.seats:
        if s.seat != seat:
            assert all(c is None for c, up in zip(s.cards, s.up, strict=True) if not up)
    assert view.legal is not None and view.legal.actions


def _action_name(action: object) -> str:
    names = {"Fold": "fold", "Check": "check", "Call": "call", "Bet": "bet", "Raise": "raise",
             "Discard": "discard", "Expose": "expose", "Draw": "draw", "PickWild": "wild",
             "Stack": "stack", "Declare": "declare"}
    return names[type(action).__name__]


def play_checked(game: str, hands: int, bots: list[Bot], seed: int) -> Counter[tuple[int, str]]:
    """Play ``hands`` hands; every bot acts from ``hand.view(seat)`` only and every
    action must be legal (the engine raises IllegalAction otherwise).
    Returns how often each seat made each kind of decision."""
    rng = random.Random(seed)
    table = Table([200] * len(bots), game=game, rng=rng, rebuy=200)
    seen: Counter[tuple[int, str]] = Counter()
    for _ in range(hands):
        hand = table.new_hand()
        while not hand.is_over:
            pending = hand.pending
            assert pending is not None
            seat = pending.seats[0]
            view = hand.view(seat)
            _check_view(view, seat)
            action = bots[seat].act(view)
            assert view.legal is not None
            assert _action_name(action) in view.legal.actions
            hand.apply(seat, action)
            seen[seat, view.legal.kind if view.legal.kind != "bet" else "bet"] += 1
        table.end_hand()
    assert table.chips == sum(table.brought)
    return seen


def test_bots_never_touch_the_hand() -> None:
    """The bots' code imports no engine internals that could reach a hand: views only."""
    for path in BOTS_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module not in ("rollem.engine.hand", "rollem.table",
                                           "rollem.engine.steps"), (path, node.module)
                names = {a.name for a in node.names}
                assert "Hand" not in names and "Table" not in names, (path, names)


def _fast_odds(rng: random.Random) -> Callable[[HandView], Odds]:
    """A stand-in for the odds calculator: a random strength and declaration, so that
    10,000 hands stay quick and every branch of the basic bot (bet, raise, call,
    check, fold, every declaration) comes up. It receives the same view only."""
    def odds(view: HandView) -> Odds:
        _check_view(view, view.seat if view.seat is not None else -1)
        e = rng.random()
        return Odds(win=e, tie=0.0, lose=1 - e, equity=e, method="stub", samples=0,
                    stderr=0.0, game=view.game, best_declare=rng.choice(("high", "low", "both")))
    return odds


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_bots_are_always_legal_over_10000_hands(game: str) -> None:
    """10,000 hands per game, basic and random bots side by side: no illegal action,
    and every decision kind of the game is made by both levels. Here basic's hand
    strength is a quick stand-in (:func:`_fast_odds`); with the real calculator it
    plays 1,000 hands per game below (and 20,000 in bench/bench_bots.py), where the
    engine refuses any illegal action just the same."""
    rng = random.Random(20261129)
    bots: list[Bot] = [
        BasicBot(random.Random(rng.getrandbits(32)),
                 odds=_fast_odds(random.Random(rng.getrandbits(32)))) if i % 3 == 0
        else make_bot("random", random.Random(rng.getrandbits(32)))
        for i in range(6)
    ]
    seen = play_checked(game, 10_000, bots, seed=1)
    for kind in DECISIONS[game]:
        assert seen[0, kind] > 0 and seen[3, kind] > 0, (kind, "basic")
        assert seen[1, kind] > 0, (kind, "random")


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_basic_beats_random(game: str) -> None:
    """A seeded 1,000-hand match, 6-handed, 1 basic + 5 random: basic's mean result
    per hand is above every random seat's (the figures of 20,000 hands are in
    bench/bench_bots.py)."""
    result = run_simulation(game, 6, 1000, ["basic"] + ["random"] * 5, seed=6).to_dict()
    assert result["chips_start"] == result["chips_end"]
    seats = result["seats"]
    basic = seats[0]["net_per_hand"]
    assert basic > 0
    assert all(basic > s["net_per_hand"] for s in seats[1:])


# ------------------------------------------------------------------ card choices


def test_discard_keeps_the_cards_that_work_together() -> None:
    """R-RYO-2: trips are kept; else the high pair; else high suited connected cards."""
    rng = random.Random(1)
    six = parse_cards("7c 7d 7h As Kd 2c")
    assert set(discard_choice(six, 3, rng)) == set(parse_cards("As Kd 2c"))
    six = parse_cards("Qc Qd 3h 4s 9d 2c")
    kept = set(six) - set(discard_choice(six, 3, rng))
    assert set(parse_cards("Qc Qd 9d")) == kept
    six = parse_cards("Ah Kh Qh 2c 5d 7s")
    assert set(discard_choice(six, 3, rng)) == set(parse_cards("2c 5d 7s"))


def test_expose_shows_the_least() -> None:
    """R-RYO-3/5: a pair stays down; the weakest card goes up."""
    rng = random.Random(1)
    assert expose_choice(parse_cards("Kc Kd 4h"), [], [], rng) == parse_cards("4h")[0]
    # with a king up, showing the other king would show a pair
    assert expose_choice(parse_cards("Kd 9h Qs"), parse_cards("Kc"), [], rng) \
        == parse_cards("9h")[0]


def test_draws_follow_a_plan() -> None:
    """R-521-2/4: low hands throw their high cards, high hands their odd cards."""
    assert set(draw_choice(parse_cards("Ac 2d 4h Ks Qd"), 2)) == set(parse_cards("Ks Qd"))
    assert set(draw_choice(parse_cards("Jc Jd 4h 8s 2d"), 2)) == set(parse_cards("2d 4h"))
    assert draw_choice(parse_cards("Ac 2d 4h 5s 7d"), 1) == ()
    assert draw_choice(parse_cards("Ac 2d 4h 5s Kd"), 1) == tuple(parse_cards("Kd"))


def test_stacking_hides_the_deciding_card() -> None:
    """R-521-6: a low keeps its best low card for last; a pair shows one card of it
    at most until the last card."""
    rng = random.Random(1)
    order = stack_choice(parse_cards("Ac 2d 4h 5s 7d"), rng)
    assert order[-1] == parse_cards("Ac")[0]
    order = stack_choice(parse_cards("Kc Kd 9h 5s 2d"), rng)
    assert order[-1] in parse_cards("Kc Kd")


def test_basic_bot_is_repeatable_with_a_seed() -> None:
    hands = []
    for _ in range(2):
        bots: list[Bot] = [make_bot(level, random.Random(i))
                           for i, level in enumerate(["basic", "random", "random"])]
        table = Table([200] * 3, game="sdr", rng=random.Random(5))
        hand = table.new_hand()
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            hand.apply(seat, bots[seat].act(hand.view(seat)))
        hands.append(hand.actions)
    assert hands[0] == hands[1]


def _fixed_odds(equity: float, side: str = "high") -> Callable[[HandView], Odds]:
    def odds(view: HandView) -> Odds:
        return Odds(win=equity, tie=0.0, lose=1 - equity, equity=equity, method="stub",
                    samples=0, stderr=0.0, game=view.game, best_declare=side)
    return odds


def test_basic_betting_follows_its_chances() -> None:
    """Strong: bet, then raise; weak: check when free, fold when the price is too high;
    in between: call when the pot pays for its chances."""
    from rollem.engine import Bet, Check, Fold, Raise
    from rollem.engine import Call as CallAction

    table = Table([200] * 3, game="sdr", rng=random.Random(2))
    hand = table.new_hand()
    assert hand.pending is not None
    seat = hand.pending.seats[0]
    view = hand.view(seat)
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.9), bluff=0).act(view) == Bet(2)
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.05), bluff=0).act(view) == Check()
    hand.apply(seat, Bet(2))
    assert hand.pending is not None
    seat = hand.pending.seats[0]
    view = hand.view(seat)  # facing 2 to win 5: needs 2/7 of the pot
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.9)).act(view) == Raise(4)
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.30)).act(view) == CallAction()
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.20)).act(view) == Fold()


def test_basic_declares_its_best_side() -> None:
    """R-521-8: the declaration with the greatest expected share (the odds' best_declare)."""
    from rollem.engine import Call, Check, Declare

    rng = random.Random(4)
    table = Table([200] * 3, game="rollem521", rng=rng)
    hand = table.new_hand()
    bot = make_bot("random", random.Random(1))
    while hand.pending is not None and hand.pending.kind != "declare":
        seat = hand.pending.seats[0]
        view = hand.view(seat)
        assert view.legal is not None
        acts = view.legal.actions
        # everyone calls or checks, so the hand reaches the declare
        action = Call() if "call" in acts else Check() if "check" in acts else bot.act(view)
        hand.apply(seat, action)
    assert hand.pending is not None
    seat = hand.pending.seats[0]
    view = hand.view(seat)
    for side in ("high", "low", "both"):
        assert BasicBot(random.Random(1), odds=_fixed_odds(0.5, side)).act(view) == Declare(side)
