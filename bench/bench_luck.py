"""A league you can trust sooner (issue 31): duplicate heads-up matches with the
cards' luck taken out by a control variate (AIVAT-style, on the chance events
only): Stop, Drop and Roll exactly, every other game sampled.

Each deal is played twice with the seats swapped, as ``bench_league.py``
does. For each hand, at every chance event (the hole cards, the Stop, the
Drop, the Roll; R-SDR-1..R-SDR-5) the hero's showdown share with both hands
known, ``e``, is taken from the odds module just before and just after the
cards come; the event's *luck* is ``P * (e_after - e_before)``, ``P`` the
chips in the pot when it came (nothing is bet between). Because ``e`` before
a chance event is the mean of ``e`` after it over the cards that may come
(the remaining deck is uniform; Monte Carlo noise in ``e`` is zero-mean and
independent), every luck term has mean zero, so the hero's chips minus the
hand's luck is an unbiased estimate of the same win rate, with less
variance. The number of deals plain duplicate needs for the interval width
the corrected one reaches is ``var(plain) / var(corrected)`` times as many.

    .venv/bin/python bench/bench_luck.py --hero strong --opponent basic --deals 300 \\
        [--structure fixed-limit] [--seed 1]

Hold'em and omaha (``--method martingale``, their default): the same, the
share from :func:`rollem.odds.view_equity` with the opponent's cards known.

Every other game (``--method sampled``, the default outside those; issue 31):
there the cards between chance events depend on the
players' own card choices (discards, draws, wild picks), so no share taken
before a chance event is the mean of the share after it. Instead the mean
is sampled: at every transition that deals cards (the deal itself, a
betting round's close, a draw, a pool shuffle, the wild card), the hand is
replayed to just before it, the copy's undealt deck and pool reshuffled and
its randomness reseeded (:func:`alternatives`), and the same action applied:
``alts`` such copies are draws of the same chance event from the same
conditional law as the real one (the deck's undealt order, and the shuffled
pool's, are uniform given everything dealt so far; a player picking a pool
card "by position" picks blind). The luck term is ``P * (v(real) -
mean v(copies))`` with ``v`` any fixed value of a position for the hero
(:func:`value`: its share with the opponent's cards known, from the odds
module; where the odds cannot take the opponent's cards as known, Roll Your
Own before the last draw, the mean of its own view's share and one less the
opponent's), so it has mean zero whatever ``v`` is, and the better ``v``
tracks the result the more variance it takes out. The copies' own noise
costs some of the gain (about ``var(v) / alts``); the copies of a deal's
k-th chance event are drawn from the same seed in both seatings, so where
the two plays meet the same event that noise cancels in the pair too.

    .venv/bin/python bench/bench_luck.py --game rollyourown --deals 100 --alts 4

``--actions`` (issue 31, AIVAT's action terms): at every betting decision
where a bot's :meth:`policy` gives more than one action, ``V(a taken) - sum_a
pi(a) V(a)`` is subtracted too, ``V(a)`` the hero's chips if the hand were
checked down with the bets matched after ``a`` (a fold: what it then pays);
with ``--lookahead`` a bet or raise is valued with the opponent's fold
probability there (its policy on the view after the bet, asked of a copy of
the bot). ``act`` draws its coins from the same chances ``policy``
enumerates, so given the history the action taken is a draw from ``pi`` and
the term has mean zero. Card choices are point masses (term zero). Every
term is kept per hand (:attr:`Luck.terms`, ``--dump``); the last row
(:func:`fitted`) weighs the chance terms, the action terms and each round's
unweighted share changes by least squares, cross-fitted over five parts of
the deals (a deal's weights come from the other parts only), so it stays
unbiased too.

    .venv/bin/python bench/bench_luck.py --game rollem521 --deals 200 --alts 3 \\
        --actions --lookahead --dump out.json

``--action-replicas R`` (with ``--actions``): the action terms from ``R``
copies of the bot, its ``rng`` reseeded, acting on the same view (its own
law, Monte Carlo noise included) instead of its ``policy``. ``--replicas R``
(:class:`Replicas`): every move of either seat redrawn ``R`` times from its
own law (undealt cards and every bot's coins redrawn), valued by ``--rollouts
K`` plays to the end by the bots or, with ``K`` 0, by the checked-down share.
``bench_luck_split.py`` says how much of the variance any of this can reach.

    .venv/bin/python bench/bench_luck.py --game sdr --method martingale --actions \
        --lookahead --action-replicas 3 --deals 400
    .venv/bin/python bench/bench_luck.py --game rollem521 --replicas 3 --deals 100

``--view-seeds`` (issue 31, common random numbers): the bots' coins at every
decision seeded by a hash of one match seed (shared by the two seatings) and
the seat's view (:class:`bench_league.ViewSeeded`); the action replicas and
``Replicas``' copies still redraw them from the bot's own ``Random``. The same
deals are also played plain with independent coins (the league's default),
and every row's "times fewer" (with a 95% bootstrap interval over the deals)
is given against both baselines.

``--late-rollouts K --late-from R`` (issue 31, seventh pass): every decision
from betting round ``R`` on gets a *late term* instead: three reseeded copies
of the bot act on the view and each action is valued by ``K`` plays to the
end by the bots (the bots' own expected outcome, sampled; short plays late in
a hand, so little noise); with ``--late-chance`` the chance events from round
``R`` on are valued by such plays too (SDR's Roll: the bets it brings).
``bench_luck_pool.py`` pools the ``--dump`` files of a cell.

A late chance term's baseline, the mean of ``--alts`` copies' plays, is a
sample, and its noise is much of the term's. In Stop, Drop and Roll (eighth
pass) it gets a control variate: ``pot * (mean e(copies) - e_before)``, ``e``
the share with both hands known, a martingale there (mean zero, and it moves
with the copies' noise); where the share is no martingale,
``--late-base-alts N`` estimates ``e_before`` by ``N`` more copies valued by
the share alone. ``--late-chance`` works with ``--method martingale`` too (the
Stop and the Drop keep their exact terms).

    .venv/bin/python bench/bench_luck.py --game sdr --method martingale --alts 3 \
        --structure no-limit --actions --lookahead --action-replicas 3 \
        --late-rollouts 4 --late-from 3 --late-chance --deals 40

    .venv/bin/python bench/bench_luck.py --game sdr --method sampled --alts 3 \
        --structure no-limit --actions --lookahead --action-replicas 3 \
        --late-rollouts 4 --late-from 3 --late-chance --deals 25

``--late-policy`` (tenth pass): a late decision's baseline is ``sum_a pi(a)
V(a)`` over the acting bot's exact ``policy`` (asked of a copy of it), not
sampled copies' actions (``--late-policy-twins N``: reseeded copies' policies
join it); ``--exact-draws``: Roll Your Own's pool draws as late chance events
valued against every ordered choice of the pool's cards (:func:`pool_draws`);
``--draw-copies K`` (eleventh pass): a draw with more orders than ``K`` (the
first draw, ``--late-from 0``: 30 heads-up) against a uniform sample of ``K``,
its baseline steadied by the exact mean share over every order.

    .venv/bin/python bench/bench_luck.py --game rollyourown --alts 3 --actions \
        --lookahead --action-replicas 3 --late-chance --exact-picks --late-policy \
        --late-rollouts 2 --exact-draws --late-from 1 --deals 10

Every late term is also kept play by play (:attr:`Luck.late_per_play`, twelfth
pass): the dump's ``late_per_play`` gives the same estimator from the first
``k`` of its plays on the same deals (``bench_luck_pool.py``), and the plays'
noise (two halves of the plays against each other). The row ``one weight (2
folds)`` subtracts the whole correction times one weight cross-fitted on the
other half of the deals (:func:`one_weight`).
Each late term's kind (a chance event's or a decision's) is kept too
(:attr:`Luck.late_kinds`, sixteenth pass), which ``bench_luck_pool.py
--by-round`` reads.

``--late-choices`` (fourteenth pass): every card choice (5-2-1's draws, stacks
and declares) from ``--late-from`` on gets a late term from reseeded copies of
the bot, before ``--late-decisions-from`` too: in 5-2-1 `strong`'s draws are its
Monte Carlo coins, and a draw decides every card dealt after it.
``bench_luck_where.py`` says where a cell's variance goes in.

``--exact-deck-draws N`` (fifteenth pass): a late chance event that deals cards
from the deck's stub (5-2-1's draws) with at most ``N`` ordered choices of the
stub's cards (the second draw: one of about 40) valued against every one of
them (:func:`deck_draws`): the baseline is the exact mean over the cards, not
``--alts`` sampled copies; ``--deck-draw-plays P`` values each card by ``P`` of
the real draw's ``--late-rollouts`` seeds (:func:`deck_plan`), so the exact
baseline costs about one play a card.

    .venv/bin/python bench/bench_luck.py --game rollem521 --structure no-limit \
        --alts 3 --actions --lookahead --action-replicas 3 --late-rollouts 16 \
        --late-from 1 --late-decisions-from 9 --late-chance --late-base-alts 12 \
        --exact-deck-draws 60 --deck-draw-plays 1 --deals 5

Figures: ``docs/dev/league.md``.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_league import BIG_BET, STACK, ViewSeeded, rng_of, seat_bots
from rollem.cards import CARDS, Card
from rollem.engine import Hand, SeededSource
from rollem.engine.options import Options
from rollem.engine.randomness import SeededSource as _Reseed
from rollem.odds import sdr_odds, view_equity

_T = TypeVar("_T")


_SHARED: dict[int, Any] = {id(c): c for c in CARDS}
"""The 52 cards (immutable ``int``s) by id: what :func:`_deepcopy` shares."""


def _deepcopy(obj: _T) -> _T:
    """``copy.deepcopy(obj)``, the same copy for less CPU (docs/dev/test-suite-time.md,
    stop 49): the 52 cards and each hand's game (immutable: ``int``s and a frozen
    definition) are shared rather than rebuilt, and each plain ``random.Random``
    found up to four attributes or items down (a hand's source, a bot's ``rng``,
    a :class:`Luck`'s bots' and hands') is copied by its state in one call rather
    than its 625 numbers one by one. Sharing between the copied parts (a bot's
    parts and their one ``Random``) is kept as ``copy.deepcopy`` keeps it."""
    memo = dict(_SHARED)
    _share(obj, memo, 4, set())
    return copy.deepcopy(obj, memo)


def _share(obj: Any, memo: dict[int, Any], depth: int, seen: set[int]) -> None:
    """Put in ``memo`` the state copies of the plain ``Random``s and the games of
    the hands reachable from ``obj`` within ``depth`` attributes or items (a hand's
    one ``Random`` is its source's)."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if type(obj) is random.Random:
        twin = random.Random.__new__(random.Random)
        twin.setstate(obj.getstate())
        memo[id(obj)] = twin
        return
    if isinstance(obj, Hand):
        memo[id(obj.game)] = obj.game
        rng = getattr(obj.source, "rng", None)
        if rng is not None:
            _share(rng, memo, 0, seen)
        return
    if depth == 0:
        return
    if isinstance(obj, (list, tuple)):
        items: Any = obj
    elif isinstance(obj, dict):
        items = obj.values()
    else:
        items = getattr(obj, "__dict__", {}).values()
    for item in items:
        if type(item) not in _ATOMS:
            _share(item, memo, depth - 1, seen)


_ATOMS = (int, float, str, bool, bytes, type(None), Card)
"""Types :func:`_share` does not look into."""


class Shares:
    """Seat 0's showdown share with both hands known, by the cards out so far."""

    def __init__(self, rng: random.Random, samples: int) -> None:
        self.rng = rng
        self.samples = samples
        self.cache: dict[tuple[Any, ...], float] = {}

    def __call__(self, holes: list[list[int]], dead: tuple[int, ...],
                 board: tuple[int, ...]) -> float:
        key = (tuple(holes[0]), tuple(holes[1]), dead, board)
        if key not in self.cache:
            odds = sdr_odds(holes[0], vs=[holes[1]], dead=dead, board=board,
                            samples=self.samples, rng=self.rng, exact_limit=20_000)
            self.cache[key] = float(odds.equity)
        return self.cache[key]


def _cards(hand: Hand) -> tuple[tuple[int, ...], tuple[int, ...]]:
    from rollem.cards import parse_card

    v = hand.view(None)
    return (tuple(int(parse_card(c)) for c in v.dead),
            tuple(int(parse_card(c)) for c in v.board))


def play(hero: str, opp: str, structure: str, deals: list[int], seed: int,
         shares: Shares, view_seeds: bool = False) -> tuple[list[float], list[float]]:
    """Per deal: the hero's chips (mean of its two seats) and the same less luck.
    ``view_seeds``: the bots' coins seeded per view from one seed shared by the
    two seatings (:class:`bench_league.ViewSeeded`)."""
    plain = [0.0] * len(deals)
    fixed = [0.0] * len(deals)
    for hero_seat in (0, 1):
        levels = [opp, opp]
        levels[hero_seat] = hero
        bots = seat_bots(levels, seed * 2 + hero_seat, seed * 7919 if view_seeds else None)
        for i, deal in enumerate(deals):
            hand = Hand("sdr", [STACK, STACK], button=i % 2,
                        options=Options(structure=structure), source=SeededSource(deal))
            holes = [[int(c) for c in h] for h in hand.hole]
            sign = 1.0 if hero_seat == 0 else -1.0  # the hero's share: e or 1 - e
            before = _cards(hand)
            e = shares(holes, *before)
            luck = sum(hand.committed) * sign * (e - 0.5)
            while not hand.is_over:
                assert hand.pending is not None
                s = hand.pending.seats[0]
                hand.apply(s, bots[s].act(hand.view(s)))
                pot = sum(hand.committed)  # the round's bets called: the pot the cards meet
                after = _cards(hand)
                if after != before and not any(hand.folded):
                    e_after = shares(holes, *after)
                    luck += pot * sign * (e_after - e)
                    e, before = e_after, after
            assert hand.result is not None
            net = hand.result.net.get(hero_seat, 0)
            plain[i] += net / 2
            fixed[i] += (net - luck) / 2
    return plain, fixed


def value(hand: Hand, hero: int, rng: random.Random, samples: int,
          cache: dict[tuple[Any, ...], float]) -> float:
    """The hero's share of the pot in ``hand`` as it stands (heads-up): its
    odds with the opponent's cards known (the odds module), or, where the odds
    cannot take them (Roll Your Own before the opponent holds its five), the
    mean of the hero's own view's share and one less the opponent's; at the
    end of the hand, the share it won. Cached per card position."""
    opp = 1 - hero
    key = (hero, tuple(map(tuple, hand.hole)), tuple(map(tuple, hand.up)),
           tuple(hand.board), tuple(hand.dead), tuple(hand.wild_ranks), len(hand.pool),
           hand.is_over)
    if key in cache:
        return cache[key]
    if hand.is_over:
        assert hand.result is not None
        pot = sum(hand.committed)
        out = (hand.result.net.get(hero, 0) + hand.committed[hero]) / pot if pot else 0.5
    else:
        view = hand.view(hero).to_dict()
        theirs = hand.view(opp).to_dict()["seats"][opp]["cards"]
        if hand.game.id != "rollyourown" or len(theirs) == 5:
            view["seats"][opp]["cards"] = theirs
            out = float(view_equity(view, samples=samples, rng=rng, exact_limit=2000).equity)
        else:
            mine = float(view_equity(view, samples=samples, rng=rng, exact_limit=2000).equity)
            other = float(view_equity(hand.view(opp), samples=samples, rng=rng,
                                      exact_limit=2000).equity)
            out = (mine + 1.0 - other) / 2
    cache[key] = out
    return out


def alternatives(start: Callable[[int], Hand], moves: Sequence[tuple[int, object]],
                 alts: int, rng: random.Random) -> list[Hand]:
    """``alts`` copies of a hand: ``start(seed)`` dealt from the real deck, every
    move of ``moves`` but the last replayed, then the undealt deck and the pool
    reshuffled and the randomness reseeded, and the last move applied (no
    moves: new deals, for the deal itself)."""
    out = []
    for _ in range(alts):
        if not moves:
            out.append(start(rng.getrandbits(64)))
            continue
        other = start(-1)
        for seat, action in moves[:-1]:
            other.apply(seat, action)
        other.source = _Reseed(rng.getrandbits(64))
        rest = other.deck[other.deck_pos:]
        rng.shuffle(rest)
        other.deck[other.deck_pos:] = rest
        rng.shuffle(other.pool)
        other.apply(*moves[-1])
        out.append(other)
    return out


def _unwrap(player: Any) -> Any:
    """The bot under a :class:`bench_league.ViewSeeded` wrapper (its copies must
    redraw their coins from the bot's own ``Random``), else ``player``."""
    return player.inner if isinstance(player, ViewSeeded) else player


def _state(hand: Hand) -> tuple[int, int, int]:
    """Where the hand's randomness stands: cards dealt from the deck, shuffles
    made, cards in the pool."""
    return (hand.deck_pos, len(hand.source.outcomes), len(hand.pool))


NO_CHOICES = frozenset({"sdr", "holdem", "omaha"})
"""Games whose cards come with no player's card choice between: the share with
both hands known is a martingale there (the heads-up odds of
:func:`rollem.odds.view_equity` take the opponent's cards as known)."""

BETTING = ("check", "call", "bet", "raise", "fold")
"""The betting actions' names in ``Legal.actions``: a decision with none of them
is a card choice (a discard, a draw, a stack, a declare)."""


class Luck:
    """The sampled luck of one heads-up hand for ``hero`` (the module doc): make
    it before the deal, then call :meth:`apply` for every move in place of
    ``hand.apply``; :attr:`luck` is the chips to subtract from the hero's net.

    Args:
        game, structure, deal, button: the hand (dealt by ``SeededSource(deal)``,
            stacks ``STACK``).
        hero: the seat whose luck is taken out.
        alts: copies per chance event (at least 1; unused with ``exact``).
        samples: Monte Carlo samples of a share (:func:`value`).
        rng: the shares' randomness (the copies' is seeded by the deal and the
            chance event's number, the same in both seatings of a deal).
        exact: a game with no card choices (:data:`NO_CHOICES`): the share
            before a chance event is itself the mean of the share after it, so
            it stands in for the copies (less noise).
    """

    def __init__(self, game: str, structure: str, deal: int, button: int, hero: int,
                 alts: int, samples: int, rng: random.Random, *, exact: bool = False,
                 actions: bool = False, replicas: int = 0, late_rollouts: int = 0,
                 late_from: int = 0, late_replicas: int = 3, late_chance: bool = False,
                 bots: Sequence[Any] | None = None, late_base_alts: int = 0,
                 play_alts: int = 0, late_decisions_from: int | None = None,
                 exact_picks: bool = False, late_policy: bool = False,
                 late_policy_twins: int = 0, exact_draws: bool = False,
                 draw_copies: int = 0, late_choices: bool = False,
                 exact_deck_draws: int = 0, deck_draw_plays: int = 0,
                 deck_draw_sample: bool = False, post_draw: bool = False) -> None:
        if alts < 1 and not exact:
            raise ValueError(f"alts must be at least 1, got {alts}")
        if late_policy_twins < 0:
            raise ValueError(f"late_policy_twins must be 0 or more, got {late_policy_twins}")
        if draw_copies < 0:
            raise ValueError(f"draw_copies must be 0 or more, got {draw_copies}")
        if exact_deck_draws < 0 or deck_draw_plays < 0:
            raise ValueError(f"exact_deck_draws and deck_draw_plays must be 0 or more, got "
                             f"{exact_deck_draws} and {deck_draw_plays}")
        if post_draw and (game != "rollem521" or late_rollouts < 1 or bots is None):
            raise ValueError(f"post_draw needs game rollem521 with late_rollouts >= 1 and "
                             f"bots, got {game!r}, late_rollouts {late_rollouts}, "
                             f"bots {'given' if bots is not None else None}")
        if exact and game not in NO_CHOICES:
            raise ValueError(f"exact luck needs a game without card choices "
                             f"({', '.join(sorted(NO_CHOICES))}), got {game}")
        self.exact = exact
        self.actions = actions
        self.replicas = replicas
        """With ``replicas`` > 0 the action terms come from that many copies of the
        bot (its ``rng`` reseeded) acting on the same view, not from its
        ``policy``: the bot's own law of play, Monte Carlo noise included."""
        self.action_luck = 0.0
        """The action terms' sum (part of :attr:`luck`)."""
        self.late_rollouts, self.late_from, self.late_replicas = (late_rollouts, late_from,
                                                                  late_replicas)
        """With ``late_rollouts`` K > 0 (and ``bots``, one per seat): every decision
        of either seat from betting round ``late_from`` on (bets, stacks,
        declares alike) has a *late term* instead of an action term:
        ``late_replicas`` reseeded copies of the bot act on the same view, and
        each distinct action is valued by K plays to the end by the bots
        (:func:`rollout`, the same seeds for every action; the bots as they stood
        before the real action): ``V(taken) - mean V(copies)``, AIVAT's term with
        the bots' own expected outcome as the value, sampled. Late in a hand
        the plays are short, so their noise is small, and they price the bets
        to come (issue 31, seventh pass)."""
        self.late_chance = late_chance
        """With ``late_rollouts``: the chance events from round ``late_from`` on
        valued by plays to the end too (:meth:`_late_chance`, ``alts`` copies of
        the event), in either method: with ``exact`` the events before round
        ``late_from`` keep their martingale terms (issue 31, eighth pass)."""
        self.late_luck = 0.0
        """The late terms' sum (part of :attr:`luck`)."""
        self.late_base_alts = late_base_alts
        """With ``late_chance`` in a game with card choices: copies valued by the
        share alone whose mean stands for the share before a late chance event
        in the baseline's control (:meth:`_late_base`); 0: no control there."""
        self.play_alts = play_alts
        """With ``play_alts`` > 0 every play to the end of the late terms has its own
        luck taken out (:meth:`play_term`, issue 31, ninth pass): each card it
        deals against ``play_alts`` copies of the same event (a pool pick
        against every pool card; Stop, Drop and Roll against its martingale
        share); 0: the plays as they fall."""
        self.late_decisions_from = late_from if late_decisions_from is None \
            else late_decisions_from
        """The first betting round whose decisions get late terms (the late chance
        events start at ``late_from``): apart in 5-2-1, where the second draw
        by plays pays and the decisions after it add width (ninth pass)."""
        self.late_choices = late_choices
        """A card choice (a draw, a stack, a declare: a decision with no betting
        action) from round ``late_from`` on gets a late term even before
        ``late_decisions_from`` (issue 31, fourteenth pass): in 5-2-1 `strong`'s
        draws and both bots' stacks are their Monte Carlo coins' (reseeded copies
        act otherwise at 75-100% of them), and a draw's coins change every card
        dealt after it. The term is :meth:`_late`'s, the copies reseeded (with
        ``late_policy`` a card choice's policy is a point mass: term zero)."""
        self.exact_picks = exact_picks
        """A late chance event that is a pool pick by position (Roll Your Own's
        wild card, R-RYO-7) valued against every pool card's plays, not
        ``alts`` sampled copies: the exact mean over the card (ninth pass)."""
        self.exact_draws = exact_draws
        """A late chance event that is a draw from the pool's top (Roll Your Own's
        draws, R-RYO-5, R-RYO-6) valued against every ordered choice of the
        pool's cards it may deal (:func:`pool_draws`), not ``alts`` sampled
        copies: the exact mean over the cards (tenth pass)."""
        self.exact_deck_draws = exact_deck_draws
        """A late chance event that deals cards from the deck's stub and nothing else
        (5-2-1's draws, R-521-2, R-521-4) with at most this many ordered choices
        of the stub's cards (heads-up 5-2-1's second draw: one card of about
        40) valued against every one of them (:func:`deck_draws`), not ``alts``
        sampled copies: the undealt order is uniform given the history, so the
        baseline is the exact mean over the cards, its sampling out (issue 31,
        fifteenth pass). 0: off; a draw with more orders keeps the sampled
        copies."""
        self.deck_draw_plays = deck_draw_plays
        """With ``exact_deck_draws``: plays per card of the baseline (0: all
        :attr:`late_rollouts`), the real draw valued by all of them: card ``c``
        (the cards in a fixed order) is played from seeds ``(o + c P + j) mod
        K``, ``j < P``, ``o`` an offset drawn with the seeds. The seeds are
        drawn apart from the cards, so each card's value has the same mean as
        with all ``K``, and the baseline's mean is the exact mean over the
        cards: over the ``K`` offsets every card meets every seed once
        (:meth:`_deck_seeds`), the test's exact identity."""
        self.deck_draw_sample = deck_draw_sample
        self.post_draw = post_draw
        """Value the hand where its last card is out (issue 31, twenty-eighth pass;
        5-2-1 only: the first moment past the second draw's step, R-521-4, before
        the stacks): ``post`` is the hero's expected chips from there by
        :attr:`late_rollouts` plays to the end by the bots (the plays of the
        late chance event that dealt the last card when it left the hand exactly
        there, else as many new plays), or the hand's result where it ended
        before. That moment is a stopping time (whether it has come is known
        from the hand so far) and no card is dealt after it, so ``net - post``
        is the sum of every later decision's change of the bots' own expected
        outcome (AIVAT's decision terms with the value taken by plays): mean
        zero whenever the plays follow the bots' own law from there (the late
        decision terms' assumption too). Not a term of :attr:`luck`;
        ``bench_luck_pool.py --post-draw`` subtracts it."""
        self.post: float | None = None
        """With :attr:`post_draw`: the value above (None until that moment)."""
        self.post_fresh = False
        """Whether :attr:`post` took new plays (False: a late chance event's)."""
        self.post_plays: list[float] = []
        """The plays :attr:`post` is the mean of (empty where the hand ended first)."""
        self._last_late: tuple[int, list[float]] | None = None
        self.late_real: list[tuple[int, float]] = []
        """Every late chance term's (in :attr:`terms`' order) ``(round, V(real))``,
        the mean of the real hand's plays its term is made of (twenty-eighth pass:
        the value at a late draw, for controls read after the run)."""
        """With ``exact_deck_draws`` N: a deck draw with more than N orders (5-2-1's
        first draw of two cards: about 1640) valued against a uniform sample of
        N of them, drawn apart from the real draw and the plays' seeds
        (:func:`deck_draws`' ``sample``), not ``alts`` sampled copies: the
        sample's mean has the exact mean as its expectation, and with
        :attr:`deck_draw_plays` each kept order costs its few plays."""
        self.draw_copies = draw_copies
        """With ``exact_draws``: a draw with more orders than this (Roll Your Own's
        first draw, heads-up 30) has a uniform sample of ``draw_copies`` of its
        orders valued by plays (:meth:`_draw_sample`, drawn apart from the real
        draw and the plays' seeds), not every order; the baseline's control
        (:meth:`_late_base`) is then the sample's mean share less the exact
        mean share over every order, mean zero over the sample (issue 31,
        eleventh pass). 0: every order played."""
        self.late_policy = late_policy
        """A late decision's baseline from the bot's exact law (issue 31, tenth
        pass): ``sum_a pi(a) V(a)``, ``pi`` the acting bot's :meth:`policy` on
        the view (asked of a copy of the bot as it stands, its ``Random`` in the
        same state, so the chances it estimates are the ones the real ``act``
        reads and the action taken is a draw from ``pi``), each action of
        non-zero probability valued by the same plays, not ``late_replicas``
        sampled copies' actions: the coins' sampling is out of the baseline.
        A card choice is a point mass there (term zero)."""
        self.late_policy_twins = late_policy_twins
        """With ``late_policy``: that many more copies of the bot, their ``Random``
        reseeded, whose policies on the view join the real one's in the
        baseline (the mean of the policies' values): each is a draw of the
        bot's law over its Monte Carlo chances given the history, as the real
        bot's is, so the mean stays that of ``V(taken)`` and the chances'
        noise is partly out too (0: the real bot's policy alone)."""
        self.late_values = 0
        """Distinct actions valued by plays at the late decisions (a diagnostic)."""
        self.play_luck = 0.0
        """The plays' own chance terms, summed over every play (a diagnostic)."""
        self.bots = bots
        self.twin_act: Callable[[Any, Any], object] | None = None
        """A test hook: stands in for the late terms' copies' ``bot.act(view)`` (a
        copy drawn from another law than the bot's makes the term biased)."""
        self.late_plays = 0
        """Plays to the end the late terms cost."""
        self.late_per_play: list[tuple[int, list[float]]] = []
        """Every late term (decision or chance event, in :attr:`terms`' order) as
        ``(round, [the term from play j alone, for each of the late_rollouts
        seeds])``: the term is their mean, and the mean of any fixed subset of
        the plays (the first ``k``) is the same term valued by ``k`` plays, mean
        zero too, on the same deals (issue 31, twelfth pass:
        ``bench_luck_pool.py``'s plays rows)."""
        self.late_kinds: list[str] = []
        """What each late term (in :attr:`terms`' order) is: ``"chance"`` (a chance
        event's: :meth:`_late_chance`, the deck draws against every card
        included, which keep no baseline control) or ``"decision"`` (a decision's
        or a card choice's, :meth:`_late`). Dumped as ``late_kinds``:
        ``bench_luck_pool.py --by-round`` tells the two apart by it (issue 31,
        sixteenth pass; before it, by the control that follows a chance term)."""
        self.terms: list[tuple[str, int, float, float]] = []
        """Every term as ``(kind, round, weight, change)``: ``"chance"`` (the pot,
        the share's change less its copies' mean) or ``"action"`` (1, the action
        term); each ``change`` has mean zero given the hand before it, so any
        fixed weights of them make an unbiased correction too
        (:func:`fitted`)."""
        self.game, self.deal, self.button = game, deal, button
        self.options = Options(structure=structure)
        self.hero, self.alts, self.samples, self.rng = hero, alts, samples, rng
        self.cache: dict[tuple[Any, ...], float] = {}
        self.moves: list[tuple[int, object]] = []
        self.events = 0
        self.raw: list[tuple[int, float, float, list[float]]] = []
        """Every sampled chance event as ``(round, pot, e_real, [e of each copy])``,
        the hero's shares (:func:`value`) the term is made of: any function ``f``
        of the share gives a term ``f(e_real) - mean f(e_copies)`` of mean zero
        too (a value of a position that prices the bets to come,
        :func:`value_features`; issue 31, sixth pass)."""
        self.late_raw: list[tuple[int, float, float, float, float, float, list[float],
                                  list[float]]] = []
        """Every late chance event of :meth:`_late_base` as ``(round, pot, chips
        behind (the smaller stack), e_before, e_real, V_real, [e of each copy],
        [V of each copy])``: any function ``g`` of the share (and pot, chips
        behind) gives a baseline control ``mean g(copies) - E g`` of mean zero
        (``E g`` from ``e_before`` where ``g`` is linear in the share), fitted
        after the run (issue 31, eighth pass)."""
        self.hand = self.start(-1)
        self._last_draw = max((i for i, step in enumerate(self.hand.steps)
                               if type(step).__name__ == "DrawFromStub"), default=-1)
        change = self.value(self.hand) - 0.5 if exact else self._change(self.hand)
        self.terms = [("chance", -1, float(sum(self.hand.committed)), change)]
        if self.raw:  # the deal itself: round -1, as in the terms
            self.raw[0] = (-1, *self.raw[0][1:])
        self.luck = sum(self.hand.committed) * change

    def start(self, source: int) -> Hand:
        """The hand dealt from the real deck (``source`` < 0) or a new one."""
        return Hand(self.game, [STACK, STACK], button=self.button, options=self.options,
                    source=SeededSource(self.deal if source < 0 else source))

    def value(self, hand: Hand) -> float:
        return value(hand, self.hero, self.rng, self.samples, self.cache)

    def _change(self, hand: Hand) -> float:
        # the copies of the k-th chance event of a deal are drawn alike in both
        # seatings (common random numbers): where the two plays meet the same
        # event, their copies' noise cancels in the pair as the luck does
        crn = random.Random(f"{self.deal}/{self.events}")
        self.events += 1
        others = alternatives(self.start, self.moves, self.alts, crn)
        real, copies = self.value(hand), [self.value(o) for o in others]
        self.raw.append((hand.round, float(sum(hand.committed)), real, copies))
        return real - sum(copies) / self.alts

    def decide(self, seat: int, player: Any, view: Any = None, other: Any = None) -> object:
        """Ask ``player`` (a bot with ``policy``) for its action at ``seat``, apply
        it, and add the *action term* of a betting decision (AIVAT's term for a
        known policy): ``V(a taken) - sum_a pi(a) V(a)``, ``pi`` the bot's
        :meth:`policy` on the view (``act`` samples its coins from the same
        chances, so given the history the action taken is a draw from ``pi``
        and the term has mean zero whatever ``V`` is) and ``V`` the hero's
        chips if the hand were checked down from there (:meth:`action_value`).
        With ``other`` (the opponent's bot, with ``policy``) a bet or raise is
        valued one step further: the opponent's fold probability there (its
        policy on the view after the bet, asked of a copy of it) times the
        pot it gives up, plus the rest times the checked-down value (any
        ``V`` keeps the term's mean zero; a closer one takes out more).
        A card choice is a point mass (term zero), and so is any decision of a
        bot without ``policy`` (no known law); returns the action."""
        hand = self.hand
        if self.post_draw and self.post is None and hand.step_index > self._last_draw:
            self._value_post()
        if view is None:
            view = hand.view(seat)
        legal = view.legal
        if self.late_rollouts and self.bots is not None and legal is not None \
                and rng_of(_unwrap(player)) is not None \
                and (hand.round >= self.late_decisions_from
                     or (self.late_choices and hand.round >= self.late_from
                         and not any(a in legal.actions for a in BETTING))):
            action = self._late(seat, player, view)
        elif self.actions and self.replicas and legal is not None and any(
                a in legal.actions for a in ("check", "call", "bet", "raise", "fold")) and \
                isinstance(getattr(player, "rng", None), random.Random):
            crn = random.Random(f"replica/{self.deal}/{self.hero}/{len(self.moves)}")
            # a bot seeded per view would draw its twins' coins from the view
            # again (the same action): the twins are the bot itself, coins redrawn
            base = player.inner if isinstance(player, ViewSeeded) else player
            twins = []
            for _ in range(self.replicas):
                twin = _deepcopy(base)
                rng = rng_of(twin)
                assert rng is not None
                rng.seed(crn.getrandbits(64))
                twins.append(twin.act(hand.view(seat)))
            action = player.act(view)
            if any(t != action for t in twins):
                e = self.value(hand)
                values = {a: self.action_value(hand, seat, a, e, other)
                          for a in {action, *twins}}
                term = values[action] - sum(values[t] for t in twins) / self.replicas
                self.terms.append(("action", hand.round, 1.0, term))
                self.action_luck += term
                self.luck += term
        elif self.actions and legal is not None and hasattr(player, "policy") and any(
                a in legal.actions for a in ("check", "call", "bet", "raise", "fold")):
            pi = player.policy(view)
            action = player.act(view)
            if action not in pi:
                raise AssertionError(f"{type(player).__name__} took {action!r} outside its "
                                     f"policy {pi!r}: the action term needs act to draw "
                                     "from policy")
            if len(pi) > 1:
                e = self.value(hand)
                values = {a: self.action_value(hand, seat, a, e, other) for a in pi}
                mean = sum(p * values[a] for a, p in pi.items())
                term = values[action] - mean
                self.terms.append(("action", hand.round, 1.0, term))
                self.action_luck += term
                self.luck += term
        else:
            action = player.act(view)
        self.apply(seat, action)
        return action

    def _late_chance(self, hand: Hand, was: float) -> None:
        """A chance event from round :attr:`late_from` on with ``late_chance``:
        its term valued by plays to the end instead of the share, ``V(real) -
        mean V(copies)`` (the copies as :meth:`_change` draws them; the bots as
        they stand, before anyone sees the cards; the same seeds for every
        position), kept as a ``"late"`` term."""
        assert self.bots is not None
        crn = random.Random(f"{self.deal}/{self.events}")
        self.events += 1
        picks = None
        if self.exact_picks:
            before = self.start(-1)
            for seat, action in self.moves[:-1]:
                before.apply(seat, action)
            picks = pool_picks(before, *self.moves[-1])
        drawn = False
        if picks is None and self.exact_draws:
            before = self.start(-1)
            for seat, action in self.moves[:-1]:
                before.apply(seat, action)
            picks = pool_draws(before, *self.moves[-1])
            drawn = picks is not None
        deck = False
        if picks is None and self.exact_deck_draws:
            before = self.start(-1)
            for seat, action in self.moves[:-1]:
                before.apply(seat, action)
            sample = None
            if self.deck_draw_sample:
                rng = random.Random(f"{self.deal}/{self.events - 1}/deck")
                sample = lambda n, k: self._draw_sample(n, k, rng)  # noqa: E731
            picks = deck_draws(before, *self.moves[-1], self.exact_deck_draws, sample)
            deck = picks is not None
        if deck and self.deck_draw_plays:
            assert picks is not None
            self._late_deck(hand, picks, crn)
            return
        every = picks
        if drawn and self.draw_copies and len(every or ()) > self.draw_copies:
            assert picks is not None
            sample = self._draw_sample(len(picks), self.draw_copies,
                                       random.Random(f"{self.deal}/{self.events - 1}/sample"))
            picks = [picks[k] for k in sample]
        others = picks if picks is not None else alternatives(self.start, self.moves,
                                                              self.alts, crn)
        snapshot = _deepcopy([_unwrap(b) for b in self.bots])
        seeds = [crn.getrandbits(64) for _ in range(self.late_rollouts)]
        luck = self.play_term if self.play_alts else None
        real_plays = rollouts(hand, snapshot, self.hero, seeds, luck)
        copies_plays = [rollouts(o, snapshot, self.hero, seeds, luck) for o in others]
        real = sum(real_plays) / len(seeds)
        copies = [sum(c) / len(seeds) for c in copies_plays]
        self._last_late = (len(self.moves), list(real_plays))
        self.late_real.append((hand.round, real))
        self.late_plays += len(seeds) * (1 + len(others))
        term = real - sum(copies) / len(copies)
        self.late_per_play.append((hand.round, [
            real_plays[j] - sum(c[j] for c in copies_plays) / len(copies_plays)
            for j in range(len(seeds))]))
        self.terms.append(("late", hand.round, 1.0, term))
        self.late_kinds.append("chance")
        self.late_luck += term
        self.luck += term
        if every is not None:  # every pool card: the mean share after, exactly
            was = sum(self.value(o) for o in every) / len(every)
            self._late_base(hand, others, was, real, copies)
            return
        if self.game not in NO_CHOICES and self.late_base_alts:
            # no martingale share: the mean share after the event estimated by
            # more copies, valued by the share alone (cheap: no plays)
            extra = alternatives(self.start, self.moves, self.late_base_alts,
                                 random.Random(f"{self.deal}/{self.events - 1}/base"))
            was = sum(self.value(o) for o in extra) / len(extra)
        if self.game in NO_CHOICES or self.late_base_alts:
            self._late_base(hand, others, was, real, copies)

    def _deck_seeds(self, n: int, crn: random.Random) -> tuple[list[int], list[list[int]]]:
        """The real draw's :attr:`late_rollouts` seeds and, for each of ``n`` cards,
        the indices of its :attr:`deck_draw_plays` seeds among them (from an
        offset ``o`` drawn after the seeds: card ``c``'s are ``(o + c P + j) mod
        K``)."""
        k, p = self.late_rollouts, min(self.deck_draw_plays, self.late_rollouts)
        seeds = [crn.getrandbits(64) for _ in range(k)]
        return seeds, deck_plan(n, k, p, crn.randrange(k))

    def _late_deck(self, hand: Hand, every: Sequence[Hand], crn: random.Random) -> None:
        """A deck draw's late term with :attr:`deck_draw_plays` (issue 31, fifteenth
        pass): ``V(real) - mean over every card c of V_P(c)``, ``V`` the real draw
        by all :attr:`late_rollouts` plays, ``V_P(c)`` card ``c`` by ``P`` of the
        same seeds (:meth:`_deck_seeds`). Each play's value has the position's
        expected value as its mean whatever its seed, so the baseline's mean is
        the exact mean over the cards, the mean of ``V(real)``: mean zero. Kept
        play by play as ``V_j(real) - baseline``; no baseline control (the
        baseline is exact)."""
        assert self.bots is not None
        snapshot = _deepcopy([_unwrap(b) for b in self.bots])
        seeds, which = self._deck_seeds(len(every), crn)
        luck = self.play_term if self.play_alts else None
        real_plays = rollouts(hand, snapshot, self.hero, seeds, luck)
        self._last_late = (len(self.moves), list(real_plays))
        self.late_real.append((hand.round, sum(real_plays) / len(real_plays)))
        base = 0.0
        for o, idx in zip(every, which, strict=True):
            plays = rollouts(o, snapshot, self.hero, [seeds[i] for i in idx], luck)
            base += sum(plays) / len(plays)
        base /= len(every)
        self.late_plays += len(seeds) + sum(len(i) for i in which)
        term = sum(real_plays) / len(seeds) - base
        self.late_per_play.append((hand.round, [v - base for v in real_plays]))
        self.terms.append(("late", hand.round, 1.0, term))
        self.late_kinds.append("chance")
        self.late_luck += term
        self.luck += term

    def _value_post(self) -> None:
        """Set :attr:`post` at the first moment past the last draw (:attr:`post_draw`):
        the last late chance event's plays if no move came after it (the same
        position, the bots as they stood), else :attr:`late_rollouts` new plays
        (seeded by the deal and the seat, apart from every other draw)."""
        assert self.bots is not None
        if self._last_late is not None and self._last_late[0] == len(self.moves):
            plays = self._last_late[1]
        else:
            crn = random.Random(f"post/{self.deal}/{self.hero}")
            seeds = [crn.getrandbits(64) for _ in range(self.late_rollouts)]
            snapshot = _deepcopy([_unwrap(b) for b in self.bots])
            plays = rollouts(self.hand, snapshot, self.hero, seeds,
                             self.play_term if self.play_alts else None)
            self.late_plays += len(seeds)
            self.post_fresh = True
        self.post_plays = list(plays)
        self.post = sum(plays) / len(plays)

    def finish(self) -> None:
        """At the hand's end (:attr:`post_draw`): a hand over before the last draw
        was passed takes its result as :attr:`post` (``net - post`` zero)."""
        if self.post_draw and self.post is None:
            assert self.hand.result is not None
            self.post = float(self.hand.result.net.get(self.hero, 0))

    @staticmethod
    def _draw_sample(n: int, k: int, rng: random.Random) -> list[int]:
        """``k`` of the ``n`` orders of an exact draw, uniformly without
        replacement (:attr:`draw_copies`): each order is in the sample with
        probability ``k / n``, so the sample's mean of any function of the
        order has the exact mean over the orders as its expectation."""
        return rng.sample(range(n), k)

    def _late_base(self, hand: Hand, others: Sequence[Hand], was: float, real: float,
                   copies: Sequence[float]) -> None:
        """The late chance term's baseline, steadied (issue 31, eighth pass): the
        copies' mean ``mean V(copies)`` is a sample of ``E[V]`` over the card to
        come, and its noise is much of the term's. In a game without card
        choices the share ``e`` with both hands known is a martingale, so the
        share before the event, ``e_before``, is exactly the mean of the share
        after it over the cards; ``pot * (mean e(copies) - e_before)`` (kind
        ``"late_base"``) has mean zero and tracks the copies' noise (the pot
        times the share is the checked-down part of ``V``), and is subtracted
        with the late term, a control variate for its baseline. The same
        event's martingale chance term ``pot * (e(real) - e_before)`` is kept
        as kind ``"late_share"`` (mean zero; not subtracted, a column for the
        cross-fitted weights, :func:`features`). In a game with card choices
        ``e_before`` is the mean share of :attr:`late_base_alts` more copies
        (drawn apart from the real card and the copies that are played): the
        control is then the difference of two means of the same law's draws,
        mean zero too."""
        pot = float(sum(hand.committed))
        base = sum(self.value(o) for o in others) / len(others) - was
        self.terms.append(("late_base", hand.round, pot, base))
        self.terms.append(("late_share", hand.round, pot, self.value(hand) - was))
        self.late_luck += pot * base
        self.luck += pot * base
        behind = float(min(hand.stacks))
        self.late_raw.append((hand.round, pot, behind, was, self.value(hand), real,
                              [self.value(o) for o in others], list(copies)))

    def _late(self, seat: int, player: Any, view: Any) -> object:
        """The late term of ``seat``'s decision (:attr:`late_rollouts`): returns
        the action ``player`` takes (not yet applied)."""
        hand = self.hand
        assert self.bots is not None
        crn = random.Random(f"late/{self.deal}/{self.hero}/{len(self.moves)}")
        # the bots as they stand before the real action: the values may not
        # depend on the coins the real action drew
        snapshot = _deepcopy([_unwrap(b) for b in self.bots])
        if self.late_policy and (hand.round >= self.late_decisions_from
                                 or any(a in view.legal.actions for a in BETTING)):
            return self._late_policy(seat, player, view, snapshot, crn)
        twins = []
        for _ in range(self.late_replicas):
            twin = _deepcopy(_unwrap(player))
            rng = rng_of(twin)
            assert rng is not None
            rng.seed(crn.getrandbits(64))
            twins.append((self.twin_act or (lambda b, v: b.act(v)))(twin, hand.view(seat)))
        action = player.act(view)
        if all(t == action for t in twins):
            return action
        seeds = [crn.getrandbits(64) for _ in range(self.late_rollouts)]
        plays: dict[Any, list[float]] = {}
        for a in [action, *twins]:
            if a in plays:
                continue
            after = _deepcopy(hand)
            after.apply(seat, a)
            if after.is_over:
                assert after.result is not None
                plays[a] = [float(after.result.net.get(self.hero, 0))] * len(seeds)
            else:
                plays[a] = rollouts(after, snapshot, self.hero, seeds,
                                    self.play_term if self.play_alts else None)
                self.late_plays += len(seeds)
        values = {a: sum(v) / len(v) for a, v in plays.items()}
        term = values[action] - sum(values[t] for t in twins) / len(twins)
        self.late_per_play.append((hand.round, [
            plays[action][j] - sum(plays[t][j] for t in twins) / len(twins)
            for j in range(len(seeds))]))
        self.terms.append(("late", hand.round, 1.0, term))
        self.late_kinds.append("decision")
        self.late_luck += term
        self.luck += term
        return action

    def _late_value(self, seat: int, action: object, snapshot: Sequence[Any],
                    seeds: Sequence[int]) -> list[float]:
        """``V(action)`` play by play: the hero's chips after ``seat`` takes
        ``action`` in :attr:`hand`, one play to the end per seed (``seeds``,
        :attr:`late_rollouts` of them; the bots as ``snapshot``), or the result,
        once a seed, if the action ends the hand."""
        after = _deepcopy(self.hand)
        after.apply(seat, action)
        if after.is_over:
            assert after.result is not None
            return [float(after.result.net.get(self.hero, 0))] * len(seeds)
        self.late_plays += len(seeds)
        self.late_values += 1
        return rollouts(after, snapshot, self.hero, seeds,
                        self.play_term if self.play_alts else None)

    def _late_policy(self, seat: int, player: Any, view: Any, snapshot: Sequence[Any],
                     crn: random.Random) -> object:
        """The late term of ``seat``'s decision with :attr:`late_policy`: ``V(a
        taken) - mean over the policies of sum_a pi(a) V(a)``; returns the
        action ``player`` takes (not yet applied).

        Raises:
            AssertionError: if the bot took an action outside its policy (the
                term needs ``act`` to draw from ``policy``).
        """
        hand = self.hand
        base = _unwrap(player)
        policies = [_deepcopy(base).policy(hand.view(seat))]
        for _ in range(self.late_policy_twins):
            twin = _deepcopy(base)
            rng = rng_of(twin)
            assert rng is not None
            rng.seed(crn.getrandbits(64))
            policies.append(twin.policy(hand.view(seat)))
        action = player.act(view)
        if action not in policies[0]:
            raise AssertionError(f"{type(base).__name__} took {action!r} outside its "
                                 f"policy {policies[0]!r}: the late term needs act to "
                                 "draw from policy")
        support = {a for pi in policies for a, p in pi.items() if p > 0.0}
        if support == {action}:
            return action
        seeds = [crn.getrandbits(64) for _ in range(self.late_rollouts)]
        plays = {a: self._late_value(seat, a, snapshot, seeds)
                 for a in sorted(support, key=repr)}

        def term_of(values: dict[Any, float]) -> float:
            mean = sum(sum(p * values[a] for a, p in pi.items() if p > 0.0)
                       for pi in policies) / len(policies)
            return values[action] - mean

        term = term_of({a: sum(v) / len(v) for a, v in plays.items()})
        self.late_per_play.append((hand.round, [term_of({a: v[j] for a, v in plays.items()})
                                                for j in range(len(seeds))]))
        self.terms.append(("late", hand.round, 1.0, term))
        self.late_kinds.append("decision")
        self.late_luck += term
        self.luck += term
        return action

    def play_term(self, before: Hand, seat: int, action: object, after: Hand,
                  rng: random.Random) -> float:
        """A play's own chance term (issue 31, ninth pass; :func:`rollout`'s
        ``luck``): the move of ``seat`` took ``before`` to ``after`` and dealt
        cards (or picked a pool card); the term is ``pot * (e(after) - mean
        e(copies))``, ``e`` the hero's share (:func:`value`), the pot after the
        move. The copies are the same move's other outcomes given the play's
        history: for a pool pick by position every pool card (the exact law,
        :func:`pool_picks`); in a game without card choices the share before
        the move stands for their mean (a martingale); else :attr:`play_alts`
        copies of ``before`` with the undealt deck and the pool reshuffled and
        the hand's randomness reseeded from ``rng``, the same move applied. So
        the term has mean zero given the play's history and the play's value
        less it is still an unbiased value of the position."""
        real = self.value(after)
        picks = pool_picks(before, seat, action)
        if picks is not None:
            mean = sum(self.value(o) for o in picks) / len(picks)
        elif self.game in NO_CHOICES:
            mean = self.value(before)
        else:
            total = 0.0
            for _ in range(self.play_alts):
                other = _deepcopy(before)
                other.source = _Reseed(rng.getrandbits(64))
                rest = other.deck[other.deck_pos:]
                rng.shuffle(rest)
                other.deck[other.deck_pos:] = rest
                rng.shuffle(other.pool)
                other.apply(seat, action)
                total += self.value(other)
            mean = total / self.play_alts
        term = float(sum(after.committed)) * (real - mean)
        self.play_luck += term
        return term

    def action_value(self, hand: Hand, seat: int, action: object, e: float,
                     other: Any = None) -> float:
        """The hero's chips if ``seat`` took betting ``action`` in ``hand`` and the
        hand were then checked down with the bets matched: ``(2e - 1) m``, ``e``
        the hero's share, ``m`` the larger commitment after the action (capped
        at what the other can match); a fold: what the hand then pays the hero."""
        from rollem.engine.actions import Bet, Call, Fold, Raise

        hero, opp = self.hero, 1 - self.hero
        c = list(hand.committed)
        if isinstance(action, Fold):
            return float(-c[hero] if seat == hero else c[opp])
        if isinstance(action, Call):
            c[seat] = min(max(c), c[seat] + hand.stacks[seat])
        elif isinstance(action, Bet):
            c[seat] += action.amount - hand.bets[seat]
        elif isinstance(action, Raise):
            c[seat] += action.to - hand.bets[seat]
        them = 1 - seat
        m = min(max(c), c[them] + hand.stacks[them])
        down = (2.0 * e - 1.0) * m
        if other is None or not hasattr(other, "policy") or not isinstance(action, Bet | Raise):
            return down
        after = _deepcopy(hand)
        after.apply(seat, action)
        if after.is_over or after.pending is None or after.pending.seats[0] != them:
            return down
        fold = _deepcopy(other).policy(after.view(them)).get(Fold(), 0.0)
        folded = float(-c[hero] if them == hero else c[opp])  # the fold's pot
        return fold * folded + (1.0 - fold) * down

    def apply(self, seat: int, action: object) -> None:
        """Apply ``action`` by ``seat`` to :attr:`hand`, adding the luck of any
        chance event it brings."""
        hand = self.hand
        self.moves.append((seat, action))
        before = _state(hand)
        # the share before: cached while no card comes; a late chance event's
        # baseline control needs it in either method (:meth:`_late_base`)
        late_base = (self.late_chance and self.late_rollouts > 0 and self.game in NO_CHOICES
                     and hand.round + 1 >= self.late_from)
        was = self.value(hand) if self.exact or late_base else 0.0
        hand.apply(seat, action)
        if _state(hand) != before and not any(hand.folded):
            # cards came from the deck or the pool, or the pool was shuffled: a
            # chance event (a discard into the pool is none: its copies equal it)
            # late chance events take the sampled copies in either method: with
            # ``exact`` the earlier events keep their martingale terms, and each
            # term has mean zero given the hand before it, so the sum does too
            if self.late_chance and self.late_rollouts \
                    and self.bots is not None and hand.round >= self.late_from:
                self._late_chance(hand, was)
                return
            change = self.value(hand) - was if self.exact else self._change(hand)
            self.terms.append(("chance", hand.round, float(sum(hand.committed)), change))
            self.luck += sum(hand.committed) * change


def play_sampled(game: str, hero: str, opp: str, structure: str, deals: list[int],
                 seed: int, alts: int, samples: int, exact: bool = False,
                 actions: bool = False, records: list[dict[str, Any]] | None = None,
                 lookahead: bool = False, replicas: int = 0, view_seeds: bool = False,
                 late_rollouts: int = 0, late_from: int = 0, late_replicas: int = 3,
                 late_chance: bool = False, late_base_alts: int = 0, play_alts: int = 0,
                 late_decisions_from: int | None = None, exact_picks: bool = False,
                 late_policy: bool = False, late_policy_twins: int = 0,
                 exact_draws: bool = False, draw_copies: int = 0,
                 late_choices: bool = False, exact_deck_draws: int = 0,
                 deck_draw_plays: int = 0, deck_draw_sample: bool = False,
                 post_draw: bool = False,
                 ) -> tuple[list[float], list[float], list[float]]:
    """Per deal: the hero's chips (mean of its two seats), the same less the
    sampled luck (the module doc, :class:`Luck`), and the action terms'
    share of that luck (zeros without ``actions``). ``records``, if given, gets
    one entry per deal: ``{"net": [chips per seating], "terms": [per seating,
    :attr:`Luck.terms`]}`` (for :func:`fitted`). ``view_seeds``: the bots'
    coins seeded per view (:class:`bench_league.ViewSeeded`; the action
    replicas still redraw them). ``late_rollouts``, ``late_from``,
    ``late_replicas``: the late terms (:attr:`Luck.late_rollouts`; their
    share of the luck is in ``records``' terms of kind ``"late"``); ``play_alts``,
    ``late_decisions_from``, ``exact_picks``: :class:`Luck`'s (ninth pass);
    ``late_policy``, ``late_policy_twins``, ``exact_draws``: :class:`Luck`'s
    (tenth pass); ``draw_copies``: :class:`Luck`'s (eleventh pass); ``late_choices``:
    :class:`Luck`'s (fourteenth pass); ``exact_deck_draws``, ``deck_draw_plays``,
    ``deck_draw_sample``: :class:`Luck`'s (fifteenth pass); ``post_draw``: :class:`Luck`'s
    (twenty-eighth pass; ``records`` get ``post``: per seating ``[value, new
    plays taken, [plays]]`` and ``late_real``: per seating, :attr:`Luck.late_real`)."""
    if records is not None:
        records[:] = [{"net": [], "terms": []} for _ in deals]
    plain = [0.0] * len(deals)
    fixed = [0.0] * len(deals)
    acted = [0.0] * len(deals)
    rng = random.Random(f"alts/{seed}")
    for hero_seat in (0, 1):
        levels = [opp, opp]
        levels[hero_seat] = hero
        bots = seat_bots(levels, seed * 2 + hero_seat, seed * 7919 if view_seeds else None)
        for i, deal in enumerate(deals):
            luck = Luck(game, structure, deal, i % 2, hero_seat, alts, samples, rng,
                        exact=exact, actions=actions, replicas=replicas,
                        late_rollouts=late_rollouts, late_from=late_from,
                        late_replicas=late_replicas, late_chance=late_chance, bots=bots,
                        late_base_alts=late_base_alts, play_alts=play_alts,
                        late_decisions_from=late_decisions_from, exact_picks=exact_picks,
                        late_policy=late_policy, late_policy_twins=late_policy_twins,
                        exact_draws=exact_draws, draw_copies=draw_copies,
                        late_choices=late_choices, exact_deck_draws=exact_deck_draws,
                        deck_draw_plays=deck_draw_plays, deck_draw_sample=deck_draw_sample,
                        post_draw=post_draw)
            hand = luck.hand
            while not hand.is_over:
                assert hand.pending is not None
                s = hand.pending.seats[0]
                luck.decide(s, bots[s], other=bots[1 - s] if lookahead else None)
            assert hand.result is not None
            luck.finish()
            net = hand.result.net.get(hero_seat, 0)
            plain[i] += net / 2
            fixed[i] += (net - luck.luck) / 2
            acted[i] += luck.action_luck / 2
            if records is not None:
                records[i]["net"].append(net)
                records[i]["terms"].append([list(t) for t in luck.terms])
                records[i].setdefault("raw", []).append([list(t) for t in luck.raw])
                records[i].setdefault("late_raw", []).append([list(t) for t in luck.late_raw])
                records[i]["late_plays"] = records[i].get("late_plays", 0) + luck.late_plays
                records[i]["late_values"] = records[i].get("late_values", 0) + luck.late_values
                records[i].setdefault("play_luck", []).append(luck.play_luck)
                records[i].setdefault("late_per_play", []).append(
                    [[r, list(p)] for r, p in luck.late_per_play])
                records[i].setdefault("late_kinds", []).append(list(luck.late_kinds))
                if post_draw:
                    records[i].setdefault("post", []).append(
                        [luck.post, luck.post_fresh, list(luck.post_plays)])
                    records[i].setdefault("late_real", []).append(
                        [list(t) for t in luck.late_real])
    return plain, fixed, acted


def features(record: dict[str, Any], rounds: Sequence[int]) -> list[float]:
    """One deal's control variates (each the mean over its seatings of a sum of
    zero-mean terms, :attr:`Luck.terms`): the chance terms weighed by the pot
    (the fixed-weight luck), the action terms, and per betting round the
    chance terms' share changes unweighted (the bets still to come make a
    round's card worth more than the pot it meets); last, the late terms
    (:attr:`Luck.late_rollouts`), their baselines' control and the late chance
    events' martingale terms (:meth:`Luck._late_base`, weighed by the pot;
    each zero where there are none)."""
    x = [0.0] * (5 + len(rounds))
    where = {r: 2 + k for k, r in enumerate(rounds)}
    last = {"late": -3, "late_base": -2, "late_share": -1}
    for terms in record["terms"]:
        for kind, rnd, weight, change in terms:
            if kind == "action":
                x[1] += change
            elif kind in last:
                x[last[kind]] += weight * change
            else:
                x[0] += weight * change
                x[where[rnd]] += change
    seatings = len(record["terms"])
    return [v / seatings for v in x]


def replica_features(record: dict[str, Any], rounds: Sequence[int]) -> list[float]:
    """One deal's control variates from :class:`Replicas` terms (each the mean
    over its seatings): all the terms, and the terms of each round alone
    (a round's rollouts may be noisier than its gain; the fit weighs them)."""
    x = [0.0] * (1 + len(rounds))
    where = {r: 1 + k for k, r in enumerate(rounds)}
    for terms in record["terms"]:
        for _kind, rnd, weight, change in terms:
            x[0] += weight * change
            x[where[rnd]] += weight * change
    seatings = len(record["terms"])
    return [v / seatings for v in x]


def fitted(records: Sequence[dict[str, Any]], folds: int = 5,
           columns: Callable[[dict[str, Any], Sequence[int]], list[float]] | None = None,
           ) -> list[float]:
    """The hero's chips per deal less the control variates of :func:`features`
    weighed by least squares (each deal's net, mean of its seatings, on its
    variates), *cross-fitted*: the deals are split into ``folds`` parts by
    index and each part's weights come from the other parts only. Every
    variate has mean zero given the weights (the weights do not depend on
    the deal they are applied to), so the estimate stays unbiased; the fit
    only chooses how much of each variate to subtract.

    Raises:
        ValueError: with fewer deals than ``2 * folds``.
    """
    import numpy as np

    if len(records) < 2 * folds:
        raise ValueError(f"fitted weights need at least {2 * folds} deals, got {len(records)}")
    kind = "chance" if columns is None else "replica"
    rounds = sorted({t[1] for r in records for ts in r["terms"] for t in ts
                     if t[0] == kind})
    x = np.array([(columns or features)(r, rounds) for r in records])
    y = np.array([sum(r["net"]) / len(r["net"]) for r in records])
    part = np.arange(len(y)) % folds
    out = np.empty(len(y))
    for k in range(folds):
        test, train = part == k, part != k
        beta = np.linalg.lstsq(x[train], y[train] - y[train].mean(), rcond=None)[0]
        out[test] = y[test] - x[test] @ beta
    return [float(v) for v in out]


def one_weight(plain: Sequence[float], correction: Sequence[float],
               folds: int = 2) -> tuple[list[float], list[float]]:
    """Plain duplicate's chips per deal less ``w`` times the estimator's whole
    correction (one number a deal: the sum of its zero-mean terms), ``w``
    *cross-fitted* (issue 31, twelfth pass): the deals are split into
    ``folds`` parts by index (``i % folds``) and a part's ``w`` is the least
    squares slope of plain on the correction over the other parts only
    (``cov / var``; fit on half the deals, applied to the other half, and
    swapped with 2 folds). ``w`` does not depend on the deals it is applied
    to, and those deals' corrections have mean zero given it, so the estimate
    stays unbiased; one weight (not one a kind of term, :func:`fitted`) is
    chosen in advance and costs little of the fit's noise. Returns (the
    chips per deal, each part's ``w``).

    Raises:
        ValueError: with fewer than 2 folds, lists of unequal length, or fewer
            than 2 deals in some part's training deals.
    """
    if folds < 2:
        raise ValueError(f"one_weight needs at least 2 folds, got {folds}")
    if len(plain) != len(correction):
        raise ValueError(f"plain has {len(plain)} deals, the correction {len(correction)}")
    n = len(plain)
    out = list(plain)
    weights = []
    for k in range(folds):
        train = [i for i in range(n) if i % folds != k]
        if len(train) < 2:
            raise ValueError(f"one_weight needs at least 2 training deals a part, got "
                             f"{len(train)} of {n} deals in {folds} parts")
        my = sum(plain[i] for i in train) / len(train)
        mx = sum(correction[i] for i in train) / len(train)
        sxy = sum((correction[i] - mx) * (plain[i] - my) for i in train)
        sxx = sum((correction[i] - mx) ** 2 for i in train)
        w = sxy / sxx if sxx > 0.0 else 0.0
        weights.append(w)
        for i in range(k, n, folds):
            out[i] = plain[i] - w * correction[i]
    return out, weights


def _redraw(hand: Hand, bots: Sequence[Any], seed: int) -> tuple[Hand, list[Any]]:
    """Deep copies of ``hand`` and ``bots`` with everything hidden redrawn from
    ``seed``: the undealt deck and the pool reshuffled, the hand's randomness
    reseeded and every bot's ``rng`` reseeded in place (a bot's parts share its
    one ``Random``, and a deep copy keeps that sharing). Given the history, the
    copy's future is a draw from the same law as the real hand's: the undealt
    order is uniform given the cards out, and the bots' coins are unseen."""
    rng = random.Random(seed)
    other = _deepcopy(hand)
    other.source = _Reseed(rng.getrandbits(64))
    rest = other.deck[other.deck_pos:]
    rng.shuffle(rest)
    other.deck[other.deck_pos:] = rest
    rng.shuffle(other.pool)
    # a bot seeded per view would redraw nothing: its copies are the bot itself
    copies = _deepcopy([b.inner if isinstance(b, ViewSeeded) else b for b in bots])
    for b in copies:
        own = rng_of(b)
        if own is not None:
            own.seed(rng.getrandbits(64))
    return other, copies


PlayLuckFn = Callable[[Hand, int, object, Hand, random.Random], float]
"""A play's own chance term (:meth:`Luck.play_term`): ``(the hand before the
move, seat, move, the hand after it, the copies' randomness) -> chips``."""


def rollout(hand: Hand, bots: Sequence[Any], hero: int, seeds: Sequence[int],
            luck: PlayLuckFn | None = None) -> float:
    """The mean of :func:`rollouts`: the hero's expected net from ``hand``, by
    one play to the end per seed."""
    plays = rollouts(hand, bots, hero, seeds, luck)
    return sum(plays) / len(plays)


def rollouts(hand: Hand, bots: Sequence[Any], hero: int, seeds: Sequence[int],
             luck: PlayLuckFn | None = None) -> list[float]:
    """The hero's chips (``int`` per play, one ``float`` a seed) over one play
    to the end of ``hand`` per seed, each from :func:`_redraw` (the bots' own
    policies, everything hidden redrawn): an unbiased estimate of the hero's
    expected net from the position. The same seeds at two positions give
    common random numbers (the same reshuffle and coins), so the difference
    of two positions' values has less noise than either.

    ``luck`` (issue 31, ninth pass): each play's own luck taken out: at every
    move of the play that deals cards (or picks a pool card) ``luck(before,
    seat, move, after, rng)`` is subtracted from the play's chips; a term of
    mean zero given the play's history (:meth:`Luck.play_term`) keeps the
    value an unbiased estimate, with the cards' noise out of it."""
    out = []
    for seed in seeds:
        other, copies = _redraw(hand, bots, seed)
        crn = random.Random(f"play/{seed}")
        taken = 0.0
        while not other.is_over:
            assert other.pending is not None
            s = other.pending.seats[0]
            action = copies[s].act(other.view(s))
            if luck is None:
                other.apply(s, action)
                continue
            before, state = _deepcopy(other), _state(other)
            other.apply(s, action)
            if _state(other) != state and not any(other.folded):
                taken += luck(before, s, action, other, crn)
        assert other.result is not None
        out.append(float(other.result.net.get(hero, 0) - taken))
    return out


def pool_draws(before: Hand, seat: int, action: object) -> list[Hand] | None:
    """Every outcome of a move that deals cards from the pool's top and nothing
    else (Roll Your Own's draws at a betting round's close, R-RYO-5, R-RYO-6),
    one hand per ordered choice of ``k`` of the pool's ``n`` cards (``n! / (n -
    k)!`` hands; heads-up the second draw deals 2 of 4: 12): the pool's order
    is uniform given the history (shuffled unseen, R-RYO-2), so these copies,
    each with its cards put on top of the pool and the move applied, are the
    exact law of the draw; None for a move that deals no pool card or deals
    from the deck or shuffles as well."""
    from itertools import permutations

    trial = _deepcopy(before)
    trial.apply(seat, action)
    state, after = _state(before), _state(trial)
    dealt = state[2] - after[2]
    if dealt <= 0 or state[:2] != after[:2] or any(trial.folded):
        return None
    out = []
    pool = list(before.pool)
    for top in permutations(range(len(pool)), dealt):
        other = _deepcopy(before)
        other.pool = [pool[i] for i in top] + [c for i, c in enumerate(pool) if i not in top]
        other.apply(seat, action)
        out.append(other)
    return out


def deck_plan(n: int, k: int, p: int, offset: int) -> list[list[int]]:
    """For each of ``n`` cards the indices of its ``p`` seeds among ``k``: card
    ``c``'s are ``(offset + c p + j) mod k``, ``j < p`` (:meth:`Luck._deck_seeds`).
    Over the ``k`` offsets each card meets each seed ``p`` times.

    Raises:
        ValueError: ``p`` not in 1..``k`` or ``offset`` not in 0..``k - 1``."""
    if not 1 <= p <= k or not 0 <= offset < k:
        raise ValueError(f"need 1 <= p <= k and 0 <= offset < k, got p {p}, k {k}, "
                         f"offset {offset}")
    return [[(offset + c * p + j) % k for j in range(p)] for c in range(n)]


def deck_draws(before: Hand, seat: int, action: object, limit: int,
               sample: Callable[[int, int], list[int]] | None = None) -> list[Hand] | None:
    """Every outcome of a move that deals ``k`` cards from the deck's stub and
    nothing else (5-2-1's draws, R-521-2, R-521-4; no reshuffle of the stub,
    R-521-5), one hand per ordered choice of ``k`` of the stub's ``n`` cards
    (``n! / (n - k)!``; heads-up the second draw deals one of about 40), the
    chosen cards put on the stub's top in that order (the rest after them in
    their order) and the move applied; in a fixed order (the cards' own), the
    same whatever card the real draw dealt. The stub's order is uniform given
    the history (dealt unseen), so these are the exact law of the draw. None
    for a move that deals no card, shuffles or touches the pool, ends the
    hand by a fold, or has more than ``limit`` orders, unless ``sample`` is
    given: then ``sample(n, limit)`` picks the orders kept (their indices in
    the fixed order; uniform without replacement, :meth:`Luck._draw_sample`,
    each order kept with probability ``limit / n``, so the kept hands' mean of
    any function has the exact mean over every order as its expectation)."""
    from itertools import permutations

    trial = _deepcopy(before)
    trial.apply(seat, action)
    state, after = _state(before), _state(trial)
    dealt = after[0] - state[0]
    if dealt <= 0 or state[1:] != after[1:] or any(trial.folded):
        return None
    stub = sorted(before.deck[before.deck_pos:], key=int)
    orders: Sequence[tuple[int, ...]] = list(permutations(range(len(stub)), dealt))
    if len(orders) > limit:
        if sample is None:
            return None
        orders = [orders[k] for k in sample(len(orders), limit)]
    out = []
    for top in orders:
        other = _deepcopy(before)
        chosen = [stub[i] for i in top]
        rest = [c for c in other.deck[other.deck_pos:] if c not in chosen]
        other.deck[other.deck_pos:] = chosen + rest
        other.apply(seat, action)
        out.append(other)
    return out


def pool_picks(before: Hand, seat: int, action: object) -> list[Hand] | None:
    """Every outcome of a pool pick by position (R-RYO-7), one hand each: the
    pool's order is uniform given the history, so the card picked is uniform
    over the pool's cards, and these copies are the exact law of the pick
    (each position applied to a copy of ``before``); None for any other move."""
    from rollem.engine.actions import PickWild

    if not isinstance(action, PickWild):
        return None
    out = []
    for position in range(len(before.pool)):
        other = _deepcopy(before)
        other.apply(seat, PickWild(position))
        out.append(other)
    return out


class Replicas:
    """One heads-up hand played with *replica terms* (issue 31, AIVAT with the
    bots' own rollouts as the value): every move (a bet, a draw with its cards,
    a stack, a declare) is a draw from a law fixed by the history: the acting
    bot's coins (its Monte Carlo worlds and mixing) and the undealt cards. At
    each move ``replicas`` copies of the position with everything hidden
    redrawn (:func:`_redraw`) make the same move, each a draw from that same
    law; the term is ``V(real) - mean V(replica)``, ``V`` the hero's chips over
    ``rollouts`` plays to the end by the bots themselves (:func:`rollout`; the
    same seeds for the real position and its replicas), so it has mean zero
    whatever ``V``'s noise. A move whose replicas all equal it (same action,
    no card dealt) has term zero without rollouts. The deal itself has no
    term (duplicate already pairs the cards dealt).

    Args:
        game, structure, deal, button: the hand (``SeededSource(deal)``, stacks
            ``STACK``).
        hero: the seat whose chips are estimated.
        replicas: copies per move (at least 1).
        rollouts: plays per value (at least 1).
        seed: the replicas' and rollouts' randomness (with ``deal``, ``hero``
            and the move's number).

    Raises:
        ValueError: ``replicas`` or ``rollouts`` below 1.
    """

    def __init__(self, game: str, structure: str, deal: int, button: int, hero: int,
                 replicas: int, rollouts: int, seed: int, *, share: bool = False,
                 samples: int = 300) -> None:
        if replicas < 1 or rollouts < 1:
            raise ValueError(f"replicas and rollouts must be at least 1, got "
                             f"{replicas} and {rollouts}")
        self.share, self.samples = share, samples
        self.cache: dict[tuple[Any, ...], float] = {}
        self.rng = random.Random(f"share/{seed}/{deal}/{hero}")
        self.hand = Hand(game, [STACK, STACK], button=button,
                         options=Options(structure=structure), source=SeededSource(deal))
        self.hero, self.replicas, self.rollouts = hero, replicas, rollouts
        self.key = f"{seed}/{deal}/{hero}"
        self.moves = 0
        self.luck = 0.0
        """The terms' sum: chips to subtract from the hero's net."""
        self.terms: list[tuple[str, int, float, float]] = []
        """Every nonzero term as ``("replica", round, 1.0, term)`` (:func:`fitted`)."""
        self.rollouts_played = 0

    def step(self, bots: Sequence[Any],
             replica_act: Callable[[Any, Any], object] | None = None) -> object:
        """Let the seat to act take its move with its bot from ``bots`` (one per
        seat), add the move's term, and return the move. ``replica_act(bot,
        view)``, if given, stands in for the replicas' ``bot.act(view)`` (a test
        hook: a replica drawn from another law makes the term biased)."""
        hand = self.hand
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        rng = random.Random(f"{self.key}/{self.moves}")
        self.moves += 1
        reps = []
        for _ in range(self.replicas):
            other, copies = _redraw(hand, bots, rng.getrandbits(64))
            view = other.view(seat)
            move = (replica_act or (lambda b, v: b.act(v)))(copies[seat], view)
            before = _state(other)
            other.apply(seat, move)
            reps.append((move, _state(other) != before, other, copies))
        before = _state(hand)
        action = bots[seat].act(hand.view(seat))
        hand.apply(seat, action)
        dealt = _state(hand) != before
        if not dealt and all(m == action and not d for m, d, _, _ in reps):
            return action
        seeds = [rng.getrandbits(64) for _ in range(self.rollouts)]
        real = self.worth(hand, bots, seeds)
        total = 0.0
        for move, d, other, copies in reps:
            if move == action and not d and not dealt:
                total += real  # the same position as the real one
            else:
                total += self.worth(other, copies, seeds)
        term = real - total / self.replicas
        self.terms.append(("replica", hand.round, 1.0, term))
        self.luck += term
        return action

    def worth(self, hand: Hand, bots: Sequence[Any], seeds: Sequence[int]) -> float:
        """``V`` of a position for the hero, in chips: the rollouts' mean
        (:func:`rollout`), or with ``share`` the chips if the bets were matched
        and the hand checked down, ``(2e - 1) m`` (``e`` the hero's share from
        the odds module, :func:`value`; ``m`` the larger commitment, capped at
        what the other can match), the result once the hand is over."""
        if not self.share:
            self.rollouts_played += len(seeds)
            return rollout(hand, bots, self.hero, seeds)
        if hand.is_over:
            assert hand.result is not None
            return float(hand.result.net.get(self.hero, 0))
        c = hand.committed
        m = min(max(c), *(c[s] + hand.stacks[s] for s in range(len(c))))
        e = value(hand, self.hero, self.rng, self.samples, self.cache)
        return (2.0 * e - 1.0) * m


def play_replicas(game: str, hero: str, opp: str, structure: str, deals: list[int],
                  seed: int, replicas: int, rollouts: int,
                  records: list[dict[str, Any]] | None = None,
                  progress: Callable[[int], None] | None = None, share: bool = False,
                  view_seeds: bool = False) -> tuple[list[float], list[float]]:
    """Per deal: the hero's chips (mean of its two seats, as
    :func:`play_sampled`) and the same less the replica terms
    (:class:`Replicas`). ``records`` gets ``{"net", "terms", "rollouts"}`` per
    deal (for :func:`fitted`); ``progress(i)`` is called after deal ``i``'s
    second seating."""
    if records is not None:
        records[:] = [{"net": [], "terms": [], "rollouts": 0} for _ in deals]
    plain = [0.0] * len(deals)
    fixed = [0.0] * len(deals)
    for hero_seat in (0, 1):
        levels = [opp, opp]
        levels[hero_seat] = hero
        bots = seat_bots(levels, seed * 2 + hero_seat, seed * 7919 if view_seeds else None)
        for i, deal in enumerate(deals):
            rep = Replicas(game, structure, deal, i % 2, hero_seat, replicas, rollouts, seed,
                           share=share)
            while not rep.hand.is_over:
                rep.step(bots)
            assert rep.hand.result is not None
            net = rep.hand.result.net.get(hero_seat, 0)
            plain[i] += net / 2
            fixed[i] += (net - rep.luck) / 2
            if records is not None:
                records[i]["net"].append(net)
                records[i]["terms"].append([list(t) for t in rep.terms])
                records[i]["rollouts"] += rep.rollouts_played
            if progress is not None and hero_seat == 1:
                progress(i)
    return plain, fixed


def _summary(units: list[float]) -> tuple[float, float, float]:
    m = len(units)
    mean = sum(units) / m
    var = sum((u - mean) ** 2 for u in units) / max(1, m - 1)
    half = 1.96 * math.sqrt(var / m)
    scale = 100.0 / BIG_BET
    return mean * scale, half * scale, var


def _report(rows: list[tuple[str, list[float]]], args: argparse.Namespace, deals: list[int],
            cpu: float) -> None:
    """Print each row's BB/100 [95%] and, past the first (plain duplicate), its
    times fewer deals var(plain) / var(row) with a 95% bootstrap interval over
    the deals; with ``--view-seeds`` also against plain duplicate with
    independent coins on the same deals (played here: the league's default)."""
    from bench_league import _job
    from bench_view_seeds import ratio_interval

    plain = rows[0][1]
    base = [("plain duplicate", plain)]
    if args.view_seeds:  # every row's bots seeded per view: say so on the baseline
        rows = [("plain, per view", plain), *rows[1:]]
        base = [("plain, per view", plain)]
        t = time.process_time()
        indep = _job((args.game, args.hero, args.opponent, "hu", args.structure, deals,
                      args.seed, (0, 1), False))
        spent = time.process_time() - t
        rows = [("plain, independent coins", indep), *rows]
        base.append(("plain, independent coins", indep))
        print(f"  (CPU a deal: this run {cpu / len(deals):.3f} s, plain with independent "
              f"coins {spent / len(deals):.3f} s)")
    for name, units in rows:
        m, h, _ = _summary(units)
        line = f"  {name:25s} {m:+8.2f} BB/100 [{m - h:+.2f}, {m + h:+.2f}]"
        for label, ref in base:
            if units is ref or (len(base) > 1 and ref is plain and units is base[1][1]):
                continue
            r, lo, hi = ratio_interval(ref, units)
            line += f"  {r:5.2f} [{lo:.2f}, {hi:.2f}] times fewer than {label}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sdr",
                        help="sdr, rollyourown, rollem521, holdem or another game id")
    parser.add_argument("--hero", default="strong")
    parser.add_argument("--opponent", default="basic")
    parser.add_argument("--structure", default="fixed-limit")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--method", choices=("exact", "martingale", "sampled"), default=None,
                        help="exact: Stop, Drop and Roll's shares before and after "
                             "(the default there); martingale: the same from the odds "
                             "module in games without card choices (the default in "
                             "holdem, omaha); sampled: the mean over --alts copies")
    parser.add_argument("--alts", type=int, default=4,
                        help="sampled: copies of each chance event (at least 1)")
    parser.add_argument("--samples", type=int, default=None,
                        help="Monte Carlo samples of a share when not enumerated "
                             "(default 4000 exact, 300 sampled)")
    parser.add_argument("--actions", action="store_true",
                        help="also take out the bots' mixing: the action term of every "
                             "betting decision (V(taken) - sum pi V over the bot's "
                             "policy); not with --method exact")
    parser.add_argument("--lookahead", action="store_true",
                        help="with --actions: value a bet or raise with the opponent's "
                             "fold probability there (its policy, one step ahead)")
    parser.add_argument("--dump", default=None,
                        help="sampled or martingale: write every deal's chips and "
                             "terms to this JSON file")
    parser.add_argument("--action-replicas", type=int, default=0,
                        help="with --actions: the action terms from this many copies of "
                             "the bot (coins reseeded) acting on the view, not its policy")
    parser.add_argument("--replicas", type=int, default=0,
                        help="replica terms instead (Replicas): copies of every move "
                             "with the bot's coins and the undealt cards redrawn")
    parser.add_argument("--rollouts", type=int, default=0,
                        help="with --replicas: value positions by this many plays to "
                             "the end by the bots; 0: the checked-down share (odds)")
    parser.add_argument("--view-seeds", action="store_true",
                        help="the bots' coins seeded per view from one seed shared by the "
                             "seatings (bench_league.ViewSeeded); the same deals are also "
                             "played plain with independent coins, and every row's "
                             "times fewer is given against both")
    parser.add_argument("--late-rollouts", type=int, default=0,
                        help="sampled or martingale: every decision from betting round "
                             "--late-from on gets a late term: --late-replicas reseeded "
                             "copies of the bot, each action valued by this many plays "
                             "to the end by the bots (0: none)")
    parser.add_argument("--late-from", type=int, default=0,
                        help="with --late-rollouts: the first betting round (0-based, "
                             "Hand.round) whose decisions get late terms")
    parser.add_argument("--late-replicas", type=int, default=3,
                        help="with --late-rollouts: reseeded copies of the bot a decision")
    parser.add_argument("--late-chance", action="store_true",
                        help="with --late-rollouts: the chance events from round "
                             "--late-from on valued by the plays to the end too (--alts "
                             "copies; with martingale the earlier ones keep its terms)")
    parser.add_argument("--late-base-alts", type=int, default=0,
                        help="with --late-chance in a game with card choices: copies "
                             "valued by the share alone whose mean steadies the late "
                             "chance terms' baselines (0: none; Stop, Drop and Roll "
                             "needs none, its share is a martingale)")
    parser.add_argument("--play-alts", type=int, default=0,
                        help="with --late-rollouts: take each play's own luck out of it "
                             "(every card it deals against this many copies of the event; "
                             "a pool pick against every pool card; Stop, Drop and Roll "
                             "against its martingale share); 0: none")
    parser.add_argument("--late-decisions-from", type=int, default=None,
                        help="with --late-rollouts: the first betting round whose "
                             "decisions get late terms (default --late-from; the late "
                             "chance events still start at --late-from)")
    parser.add_argument("--exact-picks", action="store_true",
                        help="with --late-chance: a pool pick by position (Roll Your "
                             "Own's wild card) valued against every pool card's plays, "
                             "not --alts sampled copies")
    parser.add_argument("--late-policy", action="store_true",
                        help="with --late-rollouts: a late decision's baseline is sum_a "
                             "pi(a) V(a) over the bot's exact policy on the view (every "
                             "action of non-zero probability valued by the same plays), "
                             "not --late-replicas sampled copies' actions")
    parser.add_argument("--late-policy-twins", type=int, default=0,
                        help="with --late-policy: this many copies of the bot, their coins "
                             "reseeded, whose policies join the real one's in the "
                             "baseline (their Monte Carlo chances drawn anew); 0: none")
    parser.add_argument("--exact-draws", action="store_true",
                        help="with --late-chance: a draw from the pool's top (Roll Your "
                             "Own's draws) valued against every ordered choice of pool "
                             "cards it may deal, not --alts sampled copies")
    parser.add_argument("--draw-copies", type=int, default=0,
                        help="with --exact-draws: a draw with more orders than this "
                             "(Roll Your Own's first draw: 30 heads-up) valued against a "
                             "uniform sample of this many orders, its baseline steadied by "
                             "the exact mean share over every order; 0: every order")
    parser.add_argument("--late-choices", action="store_true",
                        help="with --late-rollouts: every card choice (a draw, a stack, a "
                             "declare) from --late-from on gets a late term from reseeded "
                             "copies of the bot, before --late-decisions-from too (5-2-1: "
                             "strong's draws and the stacks are the bots' coins)")
    parser.add_argument("--exact-deck-draws", type=int, default=0,
                        help="with --late-chance: a draw from the deck's stub (5-2-1's "
                             "draws) with at most this many ordered choices of the stub's "
                             "cards (the second draw: about 40) valued against every one, "
                             "not --alts sampled copies; 0: off")
    parser.add_argument("--deck-draw-plays", type=int, default=0,
                        help="with --exact-deck-draws: plays per card of the baseline "
                             "(the real draw keeps all --late-rollouts); 0: all")
    parser.add_argument("--deck-draw-sample", action="store_true",
                        help="with --exact-deck-draws N: a draw with more orders than N "
                             "(5-2-1's first draw of two cards) valued against a uniform "
                             "sample of N of them, not --alts sampled copies")
    parser.add_argument("--post-draw", action="store_true",
                        help="rollem521 with --late-rollouts: also value the hand where "
                             "its last card is out by the plays (dumped as 'post'; "
                             "bench_luck_pool.py --post-draw subtracts net less it)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.post_draw and (args.game != "rollem521" or args.late_rollouts < 1):
        parser.error(f"--post-draw needs --game rollem521 and --late-rollouts 1 or more, "
                     f"got --game {args.game} --late-rollouts {args.late_rollouts}")
    if args.exact_deck_draws < 0 or args.deck_draw_plays < 0:
        parser.error(f"--exact-deck-draws and --deck-draw-plays must be 0 or more, got "
                     f"{args.exact_deck_draws} and {args.deck_draw_plays}")
    if args.exact_deck_draws and not (args.late_chance and args.late_rollouts):
        parser.error("--exact-deck-draws needs --late-chance and --late-rollouts")
    if (args.deck_draw_plays or args.deck_draw_sample) and not args.exact_deck_draws:
        parser.error("--deck-draw-plays and --deck-draw-sample need --exact-deck-draws")
    if args.late_choices and not args.late_rollouts:
        parser.error("--late-choices needs --late-rollouts")
    if args.draw_copies < 0:
        parser.error(f"--draw-copies must be 0 or more, got {args.draw_copies}")
    if args.draw_copies and not args.exact_draws:
        parser.error("--draw-copies needs --exact-draws")
    if args.late_policy_twins < 0:
        parser.error(f"--late-policy-twins must be 0 or more, got {args.late_policy_twins}")
    if args.late_policy_twins and not args.late_policy:
        parser.error("--late-policy-twins needs --late-policy")
    if args.play_alts < 0:
        parser.error(f"--play-alts must be 0 or more, got {args.play_alts}")
    if args.late_decisions_from is not None and args.late_decisions_from < 0:
        parser.error(f"--late-decisions-from must be 0 or more, got "
                     f"{args.late_decisions_from}")
    if args.late_base_alts < 0:
        parser.error(f"--late-base-alts must be 0 or more, got {args.late_base_alts}")
    if args.late_rollouts < 0 or args.late_replicas < 1 or args.late_from < 0:
        parser.error(f"--late-rollouts and --late-from must be 0 or more and "
                     f"--late-replicas at least 1, got {args.late_rollouts}, "
                     f"{args.late_from} and {args.late_replicas}")
    if args.replicas:
        if args.replicas < 0 or args.rollouts < 0:
            parser.error("--replicas and --rollouts must be positive")
        rng = random.Random(f"replicas/{args.game}/{args.structure}/{args.seed}")
        deals = [rng.getrandbits(48) for _ in range(args.deals)]
        t = time.process_time()
        records: list[dict[str, Any]] = []
        plain, fixed = play_replicas(args.game, args.hero, args.opponent, args.structure,
                                     deals, args.seed, args.replicas, max(1, args.rollouts),
                                     records=records, share=args.rollouts == 0,
                                     view_seeds=args.view_seeds)
        cpu = time.process_time() - t
        if args.dump:
            Path(args.dump).write_text(json.dumps(
                {"game": args.game, "structure": args.structure, "seed": args.seed,
                 "replicas": args.replicas, "rollouts": args.rollouts, "cpu_s": cpu,
                 "plain": plain, "fixed": fixed, "deals": records}))
        print(f"{args.game} {args.structure} hu {args.hero} vs {args.opponent}, {len(deals)} "
              f"deals, {args.replicas} replicas, "
              f"{f'{args.rollouts} rollouts' if args.rollouts else 'share value'} "
              f"({cpu / len(deals):.2f} s CPU a deal)")
        out = [("plain duplicate", plain), ("replica terms", fixed)]
        if len(deals) >= 10:
            out.append(("fitted weights (5 folds)", fitted(records, columns=replica_features)))
        _report(out, args, deals, cpu)
        return
    method = args.method or ("exact" if args.game == "sdr" else
                             "martingale" if args.game in NO_CHOICES else "sampled")
    if method == "martingale" and args.game not in NO_CHOICES:
        parser.error(f"--method martingale needs a game without card choices "
                     f"({', '.join(sorted(NO_CHOICES))}), got --game {args.game}")
    if method == "exact" and args.game != "sdr":
        parser.error(f"--method exact is only for sdr, got --game {args.game}")
    if args.actions and method == "exact":
        parser.error("--actions needs --method martingale or sampled (the exact method "
                     "plays without the bots' policies)")
    if args.alts < 1:
        parser.error(f"--alts must be at least 1, got {args.alts}")
    prefix = "" if args.game == "sdr" else f"{args.game}/"
    rng = random.Random(f"luck/{prefix}{args.structure}/{args.seed}")
    deals = [rng.getrandbits(48) for _ in range(args.deals)]
    t = time.perf_counter()
    cpu = time.process_time()
    rows: list[tuple[str, list[float]]] = []
    if method == "exact":
        plain, fixed = play(args.hero, args.opponent, args.structure, deals, args.seed,
                            Shares(random.Random(args.seed), args.samples or 4000),
                            view_seeds=args.view_seeds)
        rows = [("plain duplicate", plain), ("luck taken out", fixed)]
    else:
        records: list[dict[str, Any]] = []
        plain, fixed, acted = play_sampled(
            args.game, args.hero, args.opponent, args.structure, deals, args.seed,
            args.alts, args.samples or (300 if method == "sampled" else 2000),
            exact=method == "martingale", actions=args.actions, records=records,
            lookahead=args.lookahead, replicas=args.action_replicas,
            view_seeds=args.view_seeds, late_rollouts=args.late_rollouts,
            late_from=args.late_from, late_replicas=args.late_replicas,
            late_chance=args.late_chance, late_base_alts=args.late_base_alts,
            play_alts=args.play_alts, late_decisions_from=args.late_decisions_from,
            exact_picks=args.exact_picks, late_policy=args.late_policy,
            late_policy_twins=args.late_policy_twins, exact_draws=args.exact_draws,
            draw_copies=args.draw_copies, late_choices=args.late_choices,
            exact_deck_draws=args.exact_deck_draws, deck_draw_plays=args.deck_draw_plays,
            deck_draw_sample=args.deck_draw_sample, post_draw=args.post_draw)
        if args.dump:
            Path(args.dump).write_text(json.dumps(
                {"game": args.game, "structure": args.structure, "hero": args.hero,
                 "opponent": args.opponent, "seed": args.seed, "alts": args.alts,
                 "method": method, "actions": args.actions, "lookahead": args.lookahead,
                 "late_rollouts": args.late_rollouts, "late_from": args.late_from,
                 "late_replicas": args.late_replicas, "late_chance": args.late_chance,
                 "late_base_alts": args.late_base_alts, "play_alts": args.play_alts,
                 "late_decisions_from": args.late_decisions_from,
                 "exact_picks": args.exact_picks, "late_policy": args.late_policy,
                 "late_policy_twins": args.late_policy_twins,
                 "exact_draws": args.exact_draws, "draw_copies": args.draw_copies,
                 "late_choices": args.late_choices,
                 "exact_deck_draws": args.exact_deck_draws,
                 "deck_draw_plays": args.deck_draw_plays,
                 "deck_draw_sample": args.deck_draw_sample,
                 "post_draw": args.post_draw, "plain": plain,
                 "cpu_s": time.process_time() - cpu, "deals": records}))
        late = [sum(t[3] if t[0] == "late" else t[2] * t[3] for ts in r["terms"] for t in ts
                    if t[0] in ("late", "late_base")) / len(r["terms"]) for r in records]
        rows = [("plain duplicate", plain)]
        if args.late_rollouts:
            rows.append(("without the late terms", [f + x for f, x in
                                                    zip(fixed, late, strict=True)]))
        if args.actions:
            rows.append(("chance terms", [f + a + x for f, a, x in
                                          zip(fixed, acted, late, strict=True)]))
            rows.append(("chance, action and late" if args.late_rollouts
                         else "chance and action", fixed))
        else:
            rows.append(("luck taken out", fixed))
        if len(deals) >= 10:
            rows.append(("fitted weights (5 folds)", fitted(records)))
        if len(deals) >= 4 and args.late_rollouts:  # one weight on the whole correction
            rows.append(("one weight (2 folds)", one_weight(
                plain, [p - f for p, f in zip(plain, fixed, strict=True)])[0]))
    print(f"{args.game} {args.structure} hu {args.hero} vs {args.opponent}, {len(deals)} "
          f"deals, {method}{'' if method != 'sampled' else f' ({args.alts} alts)'}"
          f"{', action terms' if args.actions else ''}"
          f"{' (lookahead)' if args.lookahead else ''} ({time.perf_counter() - t:.0f} s, "
          f"{(time.process_time() - cpu) / len(deals):.2f} s CPU a deal)")
    _report(rows, args, deals, time.process_time() - cpu)
    if args.actions:
        am, ah, _ = _summary(acted)
        print(f"  the action terms' mean  {am:+.2f} BB/100 +- {ah:.2f} (95%; zero in expectation)")
    if args.late_rollouts:
        lm, lh, _ = _summary(late)
        plays = sum(r.get("late_plays", 0) for r in records)
        print(f"  the late terms' mean    {lm:+.2f} BB/100 +- {lh:.2f} (95%; zero in "
              f"expectation; {plays / len(deals):.0f} plays to the end a deal)")


if __name__ == "__main__":
    main()
