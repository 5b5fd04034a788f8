"""``policy(view)`` of every level (issue 31): probabilities over legal actions
summing to 1, the action ``act`` then takes among them with nonzero
probability, and the mixes (bluffs, slow-plays) where the code says.

Views come from seeded hands played by random bots a random number of steps
(hypothesis over seeds, games, structures, player counts and steps)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rollem.bots import Bot
from rollem.bots.basic import BasicBot
from rollem.bots.mixing import enumerate_coins
from rollem.bots.random_bot import RandomBot, random_action
from rollem.bots.strong import StrongBot
from rollem.engine import Hand, HandView, SeededSource
from rollem.engine.actions import (
    Bet,
    Call,
    Check,
    Declare,
    Discard,
    Draw,
    Expose,
    Fold,
    PickWild,
    Raise,
    RunTwice,
    Stack,
)
from rollem.engine.decisions import Legal
from rollem.engine.options import Options
from rollem.odds import Odds

GAMES = ("sdr", "rollyourown", "rollem521")


def is_legal(action: object, legal: Legal) -> bool:
    """Whether ``action`` is one ``legal`` allows (names, sizes, cards, counts)."""
    cards = set(legal.cards)
    if isinstance(action, (Fold, Check, Call)):
        return type(action).__name__.lower() in legal.actions
    if isinstance(action, Bet):
        return "bet" in legal.actions and legal.min_to <= action.amount <= legal.max_to
    if isinstance(action, Raise):
        return "raise" in legal.actions and legal.min_to <= action.to <= legal.max_to
    if isinstance(action, Expose):
        return "expose" in legal.actions and action.card in cards
    if isinstance(action, Discard):
        return ("discard" in legal.actions and set(action.cards) <= cards
                and len(set(action.cards)) == len(action.cards) == legal.max_count)
    if isinstance(action, Draw):
        return ("draw" in legal.actions and set(action.cards) <= cards
                and legal.min_count <= len(set(action.cards)) == len(action.cards)
                <= legal.max_count)
    if isinstance(action, Stack):
        return "stack" in legal.actions and sorted(action.order) == sorted(legal.cards)
    if isinstance(action, PickWild):
        return "wild" in legal.actions and 0 <= action.position < legal.positions
    if isinstance(action, Declare):
        return "declare" in legal.actions and action.side in legal.sides
    if isinstance(action, RunTwice):
        return "run_twice" in legal.actions
    return False


def _view_after(game: str, players: int, structure: str, seed: int, steps: int) -> HandView:
    """The pending seat's view after ``steps`` random actions of a seeded hand (or
    the last decision reached)."""
    rng = random.Random(seed)
    hand = Hand(game, [200] * players, button=seed % players,
                options=Options(structure=structure), source=SeededSource(seed))
    view = None
    for _ in range(steps + 1):
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        view = hand.view(seat)
        assert view.legal is not None
        action = random_action(view.legal, rng)
        probe = Hand(game, [200] * players, button=seed % players,
                     options=Options(structure=structure), source=SeededSource(seed))
        for s, a in hand.actions:
            probe.apply(s, a)
        probe.apply(seat, action)
        if probe.is_over:
            break
        hand = probe
    assert view is not None
    return view


def _check(bot: Bot, view: HandView) -> None:
    assert view.legal is not None
    pol = bot.policy(view)
    assert pol and abs(sum(pol.values()) - 1.0) < 1e-9
    assert all(p > 0 for p in pol.values())
    assert all(is_legal(a, view.legal) for a in pol), [a for a in pol
                                                        if not is_legal(a, view.legal)]
    assert pol.get(bot.act(view), 0.0) > 0.0


_VIEWS = dict(game=st.sampled_from(GAMES), players=st.integers(2, 6),
              structure=st.sampled_from(["fixed-limit", "no-limit"]),
              seed=st.integers(0, 2**31), steps=st.integers(0, 40))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**_VIEWS)
def test_random_and_basic_policies_are_distributions_over_legal_actions(
        game: str, players: int, structure: str, seed: int, steps: int) -> None:
    view = _view_after(game, players, structure, seed, steps)
    _check(RandomBot(random.Random(seed)), view)
    _check(BasicBot(random.Random(seed), samples=40), view)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**_VIEWS)
def test_strong_policy_is_a_distribution_over_legal_actions(
        game: str, players: int, structure: str, seed: int, steps: int) -> None:
    view = _view_after(game, players, structure, seed, steps)
    _check(StrongBot(random.Random(seed), samples=60, worlds=4), view)


def test_random_policy_is_what_act_samples() -> None:
    """Heads-up SDR round 1, fixed limit: first in, check or bet 2 each half;
    2,000 seeded acts land within 4 standard errors of each."""
    view = _view_after("sdr", 2, "fixed-limit", 3, 0)
    bot = RandomBot(random.Random(9))
    pol = bot.policy(view)
    assert pol == {Check(): 0.5, Bet(2): 0.5}
    counts = sum(bot.act(view) == Check() for _ in range(2000))
    assert abs(counts - 1000) < 4 * (2000 * 0.25) ** 0.5


def _fixed_odds(equity: float) -> Callable[[HandView], Odds]:
    def odds(view: HandView) -> Odds:
        return Odds(win=equity, tie=0.0, lose=1 - equity, equity=equity, method="stub",
                    samples=0, stderr=0.0, game=view.game, best_declare="high")
    return odds


def test_basic_policy_mixes_its_bluff() -> None:
    """Checked to with a weak hand (equity 0.1, three-handed, first in): a bluff
    bet with the ``bluff`` probability, else a check; a strong hand always bets."""
    hand = Hand("sdr", [200] * 3, button=0, source=SeededSource(2))
    assert hand.pending is not None
    view = hand.view(hand.pending.seats[0])
    weak = BasicBot(random.Random(1), odds=_fixed_odds(0.1), bluff=0.08).policy(view)
    assert weak.keys() == {Check(), Bet(2)}
    assert weak[Bet(2)] == pytest.approx(0.08) and weak[Check()] == pytest.approx(0.92)
    assert BasicBot(random.Random(1), odds=_fixed_odds(0.9)).policy(view) == {Bet(2): 1.0}


def test_enumerate_coins_weighs_every_path() -> None:
    """Two nested coins: paths 0.3, 0.7 * 0.4 and 0.7 * 0.6."""
    def decide(coin: Callable[[float], bool]) -> object:
        if coin(0.3):
            return "a"
        return "b" if coin(0.4) else "c"

    got = enumerate_coins(decide)
    assert got == pytest.approx({"a": 0.3, "b": 0.28, "c": 0.42})


def test_strong_policy_and_act_read_the_same_worlds() -> None:
    """Three-handed Roll Your Own, fixed limit, round 1 facing a bet (seed 0, 13
    random steps): the reads' weights are worth too few worlds, so ``strong``
    samples more of them, once per decision; ``policy`` again and the ``act``
    after it read those same worlds (they grew on every call: ``policy`` said
    fold, ``act`` called)."""
    view = _view_after("rollyourown", 3, "fixed-limit", 0, 13)
    assert view.legal is not None and "call" in view.legal.actions
    bot = StrongBot(random.Random(0), samples=60, worlds=4)
    pol = bot.policy(view)
    grown = len(bot.worlds(view).strength)
    assert grown > 60
    assert bot.policy(view) == pol
    assert pol.get(bot.act(view), 0.0) > 0.0
    assert len(bot.worlds(view).strength) == grown
