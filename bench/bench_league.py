"""League of computer players: duplicate-dealt seeded matches, BB/100 with 95% intervals.

Each match puts a *hero* level against an *opponent* level in one game,
betting structure and format:

- ``hu`` (heads-up): every deal is played twice with the seats swapped (the
  same deck order, the same button), so the cards' luck cancels; the unit
  of the interval is the pair of hands.
- ``1v5``: one hero and five copies of the opponent, six-handed; every deal
  is played once per hero seat of ``--rotations`` (default all six seats, so
  the hero holds every seat's cards once: four times less variance per hand
  than seats 0 and 3 alone, measured), the unit is the group of those plays.

The 95% interval is taken over independent groups of units, not over deals
(issue 31, stop 54): each block of ``--jobs`` is a session whose bots learn
their opponents over its deals (in 1 vs 5 every hero seat's session of the
block's deals, together), so a run keeps its ``sessions`` (each block's unit
count) and the interval is the cluster-robust one over them, with Student's t;
a run of fewer than 20 sessions is cut into 20 runs of consecutive deals (batch
means). Run long matches as many seeds (sessions) of a few dozen deals.

Every hand starts from stacks of 200 (50 big bets), ante 1, bets 2 and 4;
bots keep their state over a match (the ``strong`` level learns its
opponents as it plays). BB/100 is the hero's chips per hand divided by the
big bet (4), times 100. The engine refuses any illegal action, so a finished
league also shows no bot made one.

Levels: ``basic``, ``strong``, ``random`` and the exploit library below
(plain bots built on ``basic``'s card choices and chances):

- ``maniac``: bets and raises whenever it may, never folds;
- ``station``: never bets or raises, calls everything;
- ``bluffer``: bets whenever checked to, otherwise plays ``basic``;
- ``tag`` (tight-aggressive): plays only good chances, and then raises;
- ``value``: the issue's value bot: bets first in from equity 0.60, after a
  check from 0.42, calls from 0.45 (0.62 on the last round), needs 0.8
  against a raise, never bluffs (thresholds scaled by 2 / players still in);
- ``potvalue``: the value bot, but calling whenever its chances clear the
  price plus 0.15 (the value bot's fixed call thresholds fold too much in
  5-2-1's big pots: heads-up there the value bot loses to ``basic``, -58.6
  [-78.4, -38.8] BB/100 over 400 deals, and as much against the ``basic``
  of before its 5-2-1 fixes, -54.7: its last-round threshold 0.62 folds
  hands that would chop by declaring the other way; ``potvalue`` beats
  ``basic`` there, +22.2 [+12.2, +32.2] over 300 deals);
- ``declarer`` (5-2-1): plays ``basic`` but declares the side its opponents'
  up cards say nobody else is going for (R-521-8);
- ``trapper`` (issue 31): slow-plays: with a strong hand checks when it may
  and raises every bet it faces (check-raises), else ``basic`` without bluffs;
- ``strongtrap`` (issue 31): ``strong``'s own policy, slow-playing half its
  very strong hands and check-raising from equity 0.6 (the opponent that beat
  ``strong`` in Roll Your Own before the fixes).

    .venv/bin/python bench/bench_league.py --hands 400 --jobs 2 \\
        --games sdr --hero strong --opponents basic,value --formats hu \\
        --structures fixed-limit [--json out.json]

``--view-seeds`` (issue 31): every bot's coins at each decision seeded by a
hash of one match seed, shared by the seatings of a deal, and the seat's view
(:class:`ViewSeeded`; common random numbers: a pure strategy per match seed,
the bot's own law over match seeds). Heads-up it takes out little: the seat
holding a deal's cards is played by the other bot in the other seating
(figures in ``docs/dev/league.md``).

On a Ray cluster (issue 30; ``pip install 'rollem[distributed]'``): ``--ray
auto`` or ``--ray HOST:PORT`` runs the ``--jobs`` parts of each match there,
one Ray task each; the same ``--seed`` and ``--jobs`` give the same units
as a run on this machine.

A long match can run as chunks of different ``--seed`` (different deals),
each with ``--json``; ``--pool`` then merges the chunks' units per match into
one interval (the JSON keeps each unit, the hero's chips per deal):

    .venv/bin/python bench/bench_league.py --pool /tmp/league-*.json [--table] [--json all.json]

Two checkouts' chunks of the same seeds, paired unit by unit (the change less
main, over the seeds both ran):

    .venv/bin/python bench/bench_league.py --pool /tmp/new-*.json --minus /tmp/main-*.json

Figures (issue 20): ``docs/dev/league.md`` keeps the grid of the code on
main, how and when each part was measured, and how the strong level got
there (each fix's paired before/after figure). In short: ``strong`` beats
``basic`` and the exploits of issue 20, heads-up and 1 vs 5, fixed and no
limit, in all three games, and ``trapper`` wherever the intervals are
narrow; ``strongtrap`` (its own policy plus rare traps) it played level, no
cell with either ahead (issue 31, third pass), until 22,500 SDR fixed-limit
deals heads-up put ``strongtrap`` ahead, -0.63 [-1.10, -0.16] (sixth pass;
about -0.51 [-0.84, -0.19] over 49,500 deals with the seventh pass's; eighth
pass: main -0.68 [-1.19, -0.16] over 22,750, its reads' fixes level, -0.07
[-0.71, +0.56] on the same deals). Variance of 1 vs 5 in
5-2-1: one deal (six hands) has a standard deviation of about 380 BB/100, so +-40
takes about 340 deals.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rollem.bots import Bot, make_bot
from rollem.bots.basic import BasicBot
from rollem.cards import parse_card
from rollem.engine import Hand, HandView, SeededSource
from rollem.engine.actions import Bet, Call, Check, Declare, Fold, Raise
from rollem.engine.decisions import Legal
from rollem.engine.options import Options
from rollem.hand_ends import tell_hand_end
from rollem.parallel import run_parts

GAMES = ("sdr", "rollyourown", "rollem521")
LAST_ROUND = {"sdr": "after the roll", "rollyourown": "after the wild card",
              "rollem521": "fourth card up"}
BIG_BET = 4
STACK = 200


def _live(view: HandView) -> int:
    return sum(1 for s in view.seats if s.dealt and not s.folded)


def _this_round(view: HandView) -> list[dict[str, Any]]:
    """The events of the current betting round (after its ``round`` event)."""
    out: list[dict[str, Any]] = []
    for e in view.events:
        out = [] if e.get("kind") == "round" else [*out, dict(e)]
    return out


def _aggress(legal: Legal, view: HandView) -> object:
    lo, hi = legal.min_to, legal.max_to
    pot = view.pot + sum(s.bet for s in view.seats)
    target = lo if lo == hi else min(hi, max(lo, view.current_bet + (2 * pot) // 3))
    return Bet(target) if "bet" in legal.actions else Raise(target)


class Maniac(BasicBot):
    """Bets and raises whenever it may; calls otherwise; never folds."""

    def _bet(self, view: HandView, legal: Legal) -> object:
        if "bet" in legal.actions or "raise" in legal.actions:
            return _aggress(legal, view)
        return Call() if "call" in legal.actions else Check()


class Station(BasicBot):
    """Never bets or raises; calls every bet."""

    def _bet(self, view: HandView, legal: Legal) -> object:
        return Call() if "call" in legal.actions else Check()


class Bluffer(BasicBot):
    """Bets whenever checked to (someone checked this round); else ``basic``."""

    def _bet(self, view: HandView, legal: Legal) -> object:
        checked = False
        for e in view.events:
            if e.get("kind") == "round":
                checked = False
            elif e.get("kind") == "check":
                checked = True
        if checked and "bet" in legal.actions:
            return _aggress(legal, view)
        return super()._bet(view, legal)


class Tag(BasicBot):
    """Tight-aggressive: with good chances bets and raises, else checks or folds."""

    def _bet(self, view: HandView, legal: Legal) -> object:
        odds = self._odds(view)
        fair = 1.0 / max(_live(view), 1)
        eq = float(odds.equity) if odds is not None else fair
        can = "bet" in legal.actions or "raise" in legal.actions
        if eq >= min(0.9, 1.3 * fair) and can:
            return _aggress(legal, view)
        if "check" in legal.actions:
            return Check()
        if eq >= min(0.85, 1.15 * fair):
            return Call()
        return Fold()


class Value(BasicBot):
    """The issue's value bot (thresholds for heads-up, scaled by 2 / players in)."""

    def _bet(self, view: HandView, legal: Legal) -> object:
        odds = self._odds(view)
        scale = 2.0 / max(_live(view), 2)
        eq = float(odds.equity) if odds is not None else 0.5 * scale
        acts = legal.actions
        can = "bet" in acts or "raise" in acts
        this_round = _this_round(view)
        raised = sum(e.get("kind") in ("bet", "raise") for e in this_round) >= 2
        checked = any(e.get("kind") == "check" for e in this_round)
        if "call" not in acts:  # first in or checked to
            need = 0.42 if checked else 0.60
            if can and eq >= need * scale:
                return _aggress(legal, view)
            return Check()
        if raised:
            return Call() if eq >= 0.8 * scale else Fold()
        if "raise" in acts and eq >= 0.8 * scale:
            return _aggress(legal, view)
        need = 0.62 if view.round == LAST_ROUND.get(view.game) else 0.45
        return Call() if eq >= need * scale else Fold()


class PotValue(Value):
    """The value bot that also reads the pot: it calls whenever its chances clear
    the price by a margin for the bettor's range (``price + 0.15``), even below
    the value bot's fixed call thresholds (5-2-1's pots grow over six rounds,
    where folding 0.45-equity hands getting 10 to 1 is the value bot's leak)."""

    def _bet(self, view: HandView, legal: Legal) -> object:
        action = super()._bet(view, legal)
        if isinstance(action, Fold) and "call" in legal.actions:
            odds = self._odds(view)
            pot = view.pot + sum(s.bet for s in view.seats)
            price = legal.call_amount / (pot + legal.call_amount)
            scale = 2.0 / max(_live(view), 2)
            if odds is not None and float(odds.equity) >= price + 0.15 * scale:
                return Call()
        return action


class Declarer(BasicBot):
    """5-2-1: ``basic``, but declares the side nobody else seems to go for."""

    def act(self, view: HandView) -> object:
        legal = view.legal
        if legal is not None and "declare" in legal.actions:
            sides = set()
            for s in view.seats:
                if s.seat == view.seat or s.folded or not s.dealt:
                    continue
                ups = [parse_card(c) for c, u in zip(s.cards, s.up, strict=False)
                       if u and c is not None]
                ranks = [c.rank for c in ups]
                paired = len(set(ranks)) < len(ranks)
                high = paired or sum(1 for r in ranks if r >= 7) >= 2
                sides.add("high" if high else "low")
            for side in ("low", "high"):
                if sides == {"high" if side == "low" else "low"} and side in legal.sides:
                    odds = self._odds(view)
                    if odds is not None and odds.declare and odds.declare[side] > 0.2:
                        return Declare(side)
        return super().act(view)


def _checked_this_round(view: HandView) -> bool:
    """Whether the viewer checked earlier in the current betting round."""
    return any(e.get("kind") == "check" and e.get("seat") == view.seat
               for e in _this_round(view))


class Trapper(BasicBot):
    """Slow-plays (issue 31): with a strong hand checks when it may (bets only
    the last round when checked to, a third of the time), and raises every bet
    it faces with it: a check-raise after its check; calls and folds as
    ``basic`` otherwise, never bluffs."""

    strong_at = 0.7

    def _bet(self, view: HandView, legal: Legal) -> object:
        odds = self._odds(view)
        scale = 2.0 / max(_live(view), 2)
        eq = float(odds.equity) if odds is not None else 0.5 * scale
        acts = legal.actions
        strong = eq >= min(0.9, self.strong_at * scale + (1 - scale) * 0.2)
        if strong and "raise" in acts:
            return _aggress(legal, view)
        if strong and "bet" in acts and view.round == LAST_ROUND.get(view.game) \
                and any(e.get("kind") == "check" for e in _this_round(view)) \
                and self._mix(1 / 3):
            return _aggress(legal, view)
        if "check" in acts:
            return Check()
        return super()._bet(view, legal)


class StrongTrapper:
    """``strong``'s own policy, trapping more (issue 31: the held-back opponent
    that beat it in Roll Your Own): slow-plays a very strong hand half the time
    before the last round, and check-raises: when it checked this round and
    faces a bet with equity from 0.6 (heads-up; scaled by 2 / players in), it
    raises."""

    def __init__(self, rng: random.Random) -> None:
        from rollem.bots.strong import StrongBot

        self.inner = StrongBot(rng)
        self.inner.slow_play = 0.5

    def _check_raise(self, view: HandView) -> object | None:
        """The check-raise of its rule on ``view`` (after its own check this round,
        facing a bet, equity from 0.6 heads-up), else None; its book sees the
        view's events first, as ``strong``'s ``act`` and ``policy`` do."""
        legal = view.legal
        if legal is not None and "raise" in legal.actions and _checked_this_round(view) \
                and view.game in LAST_ROUND:
            self.inner.book.observe(view.events, view.seat)
            eq = max(self.inner.equities(view).values())
            if eq >= 0.6 * 2.0 / max(_live(view), 2):
                return _aggress(legal, view)
        return None

    def act(self, view: HandView) -> object:
        action = self._check_raise(view)
        if action is not None:
            # its book counts the fold that may end the hand on this raise, as
            # for the raises of its own policy (OpponentBook.acted)
            self.inner.book.acted(view, action)
            return action
        return self.inner.act(view)

    def policy(self, view: HandView) -> dict[object, float]:
        """The probability of each action :meth:`act` may take on ``view`` (issue
        31, twentieth pass): its check-raise (probability 1) where the rule acts,
        else the inner ``strong``'s :meth:`policy` (its slow-plays at 0.5 among
        its mixes). Nothing is counted in its book as acted (``act`` does that),
        so ``policy`` then ``act`` on a view acts as ``act`` alone. Before, this
        was ``act``'s one draw as a point mass, counted in the book twice with
        the ``act`` after it: the variance-reduced estimator's action terms had
        nothing to take out of its decisions.

        Raises:
            ValueError: if the view offers no legal options (``strong``'s own).
        """
        action = self._check_raise(view)
        if action is not None:
            return {action: 1.0}
        policy: dict[object, float] = self.inner.policy(view)
        return policy

    def observe_hand_end(self, view: HandView) -> None:
        """The hand's end, passed to the inner ``strong`` (its showdown reads and
        whatever else its policy counts at a hand's end: ``strong``'s own policy;
        issue 31, fifteenth pass: without it ``strongtrap`` played without the
        showdown reads)."""
        self.inner.observe_hand_end(view)


EXPLOITS: dict[str, Any] = {
    "maniac": Maniac, "station": Station, "bluffer": Bluffer, "tag": Tag,
    "value": Value, "potvalue": PotValue, "declarer": Declarer, "trapper": Trapper,
    "strongtrap": StrongTrapper}


def bot(level: str, rng: random.Random) -> Bot:
    """A bot of a league level (a registered level or an exploit)."""
    if level in EXPLOITS:
        return EXPLOITS[level](rng)
    return make_bot(level, rng)


def view_seed(seed: int, view: HandView) -> int:
    """A 64-bit seed for one decision: a hash (BLAKE2b) of ``seed`` (the match's)
    and ``view`` as canonical JSON (every field, keys sorted). Equal views give
    equal seeds; any difference in what the seat has seen (cards, events, chips,
    options) gives an unrelated one. 64 bits, not ``SeededBot``'s 32-bit CRC:
    a league meets millions of views, and two sharing coins by a collision would
    tie decisions that should be independent."""
    text = json.dumps(view.to_dict(), sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.blake2b(f"{seed}\n{text}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def rng_of(player: Any) -> random.Random | None:
    """The ``random.Random`` a bot draws all its coins from (its ``rng``, or its
    inner bot's: ``strongtrap``), or None (a bot without one)."""
    for obj in (player, getattr(player, "inner", None)):
        rng = getattr(obj, "rng", None)
        if isinstance(rng, random.Random):
            return rng
    return None


class ViewSeeded:
    """A bot whose coins at each decision are seeded by what it sees (issue 31,
    common random numbers): before it acts (or gives its ``policy``) on a view,
    its ``Random`` is reseeded with :func:`view_seed` of the match seed and the
    view, once per view (``policy`` then ``act`` on the same view draw as
    ``act`` alone). Within a match its decisions are then a fixed function of
    what it has seen (the same view, the same book of its opponents: the same
    decision), a pure strategy drawn by the match seed; averaged over match
    seeds each decision is a draw from the bot's own law (distinct views get
    independent seeds), so a match's expected result is the bot's own.
    Duplicate deals gain where the two seatings meet an identical view: the
    seat holding the same cards with the same history draws the same coins
    whichever bot sits there (a blind pick from the Roll Your Own pool by
    position, a tie broken at random, the same Monte Carlo worlds where two
    bots sample them alike).

    Args:
        inner: the bot (any object with ``act``; its coins from :func:`rng_of`).
        seed: the match seed (the same for every seating of a duplicate deal).

    Raises:
        ValueError: if ``inner`` has no ``Random`` to reseed.
    """

    def __init__(self, inner: Any, seed: int) -> None:
        rng = rng_of(inner)
        if rng is None:
            raise ValueError(f"{type(inner).__name__} has no rng to seed per view")
        self.inner = inner
        self.seed = seed
        self._rng = rng
        self._last: int | None = None

    @property
    def rng(self) -> random.Random:
        """The inner bot's ``Random`` (reseeded at each new view)."""
        return self._rng

    def _reseed(self, view: HandView) -> None:
        key = view_seed(self.seed, view)
        if key != self._last:
            self._rng.seed(key)
            self._last = key

    def act(self, view: HandView) -> object:
        """The inner bot's action, its coins seeded by ``view``."""
        self._reseed(view)
        return self.inner.act(view)

    def policy(self, view: HandView) -> dict[object, float]:
        """The inner bot's ``policy`` on ``view`` with the same seeding as :meth:`act`.

        Raises:
            AttributeError: if the inner bot has no ``policy``.
        """
        self._reseed(view)
        policy: dict[object, float] = self.inner.policy(view)
        return policy

    def __getattr__(self, name: str) -> Any:
        if name in ("inner", "_rng", "_last", "seed") or name.startswith("__"):
            raise AttributeError(name)  # not set yet (a copy under construction)
        return getattr(self.inner, name)


def seat_bots(levels: Sequence[str], seed: int, view_seeds: int | None = None) -> list[Any]:
    """One bot per seat for a match seeded ``seed``; with ``view_seeds`` (a match
    seed shared by every seating of the deals) each wrapped in
    :class:`ViewSeeded`."""
    master = random.Random(seed)
    bots: list[Any] = [bot(level, random.Random(master.getrandbits(64))) for level in levels]
    if view_seeds is not None:
        bots = [ViewSeeded(b, view_seeds) for b in bots]
    return bots


def _play(game: str, levels: Sequence[str], deals: Sequence[int], structure: str,
          seed: int, view_seeds: int | None = None) -> list[int]:
    """Play ``deals`` (deck seeds) with one bot per seat kept over the match;
    returns every seat's net per deal, flattened as ``nets[deal * n + seat]``.
    ``view_seeds``: the bots' coins seeded per view (:class:`ViewSeeded`)."""
    n = len(levels)
    bots = seat_bots(levels, seed, view_seeds)
    options = Options(structure=structure)
    nets: list[int] = []
    for i, deal in enumerate(deals):
        hand = Hand(game, [STACK] * n, button=i % n, options=options,
                    source=SeededSource(deal))
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            hand.apply(seat, bots[seat].act(hand.view(seat)))
        tell_hand_end(hand, bots)  # each seat's view of the end: the cards shown down
        assert hand.result is not None
        net = hand.result.net
        nets.extend(int(net.get(s, 0)) for s in range(n))
    return nets


def _job(args: tuple[Any, ...]) -> list[float]:
    """One block of deals of a match: the hero's chips per unit (pair or group).
    With ``view_seeds`` (the args' last, optional) every seating's bots draw
    their coins per view from one match seed (:class:`ViewSeeded`)."""
    game, hero, opp, fmt, structure, deals, seed, rotations = args[:8]
    shared = seed * 7919 if len(args) > 8 and args[8] else None
    n = 2 if fmt == "hu" else 6
    seats = [0, 1] if fmt == "hu" else list(rotations)
    units = [0.0] * len(deals)
    for k, hero_seat in enumerate(seats):
        levels = [opp] * n
        levels[hero_seat] = hero
        nets = _play(game, levels, deals, structure, seed * 7919 + k, shared)
        for i in range(len(deals)):
            units[i] += nets[i * n + hero_seat]
    return [u / len(seats) for u in units]  # chips per hand, averaged over the seatings


ROTATIONS = [0, 1, 2, 3, 4, 5]


def match(game: str, hero: str, opp: str, fmt: str, structure: str, hands: int, seed: int,
          jobs: int, cluster: str | None = None, view_seeds: bool = False) -> dict[str, Any]:
    """A duplicate match of ``hands`` deals; BB/100 of the hero with its 95% interval.
    ``cluster``: a Ray cluster's address, where the ``jobs`` parts run
    (:func:`rollem.parallel.run_parts`). ``view_seeds``: the bots' coins seeded
    per view from one seed shared by the seatings (:class:`ViewSeeded`)."""
    rng = random.Random(f"{game}/{fmt}/{structure}/{seed}")
    deals = [rng.getrandbits(48) for _ in range(hands)]
    blocks = max(1, jobs)
    parts = [deals[b::blocks] for b in range(blocks)]
    work = [(game, hero, opp, fmt, structure, p, seed * 100 + b, tuple(ROTATIONS), view_seeds)
            for b, p in enumerate(parts) if p]
    t = time.perf_counter()
    if cluster is not None:
        results = run_parts(_job, [(w,) for w in work], cluster=cluster)
    elif jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_job, work))
    else:
        results = [_job(w) for w in work]
    units = [u for r in results for u in r]
    sessions = [len(r) for r in results]  # each block's deals: its own bots, in order
    out = {"game": game, "hero": hero, "opponent": opp, "format": fmt,
           "structure": structure, "seeds": [seed],
           "plays_per_deal": 2 if fmt == "hu" else len(ROTATIONS)}
    if view_seeds:
        out["view_seeds"] = True
    out.update(_summary(units, sessions))
    out["seconds"] = round(time.perf_counter() - t, 1)
    out["units"] = [round(u, 4) for u in units]
    out["sessions"] = sessions
    return out


T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
"""Student's t 0.975 quantiles for 1-30 degrees of freedom (the interval over
few groups)."""

MIN_GROUPS = 20
"""Fewest groups the interval is taken over: a run of fewer sessions has each
session cut into this many runs of consecutive deals (batch means)."""


def t975(df: int) -> float:
    """Student's t 0.975 quantile for ``df`` degrees of freedom (from 1; a table to 30,
    then the Cornish-Fisher series in 1 / ``df``, within 0.001 of the exact value).

    Raises:
        ValueError: if ``df`` is below 1."""
    if df < 1:
        raise ValueError(f"degrees of freedom {df}: need 1 or more")
    if df <= len(T975):
        return T975[df - 1]
    z = 1.959964
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def groups(count: int, sessions: Sequence[int] | None = None) -> list[int]:
    """How ``count`` units split into the interval's independent groups, as the
    sizes of runs of consecutive units: the ``sessions`` (each a block of deals
    played by its own bots, which learn their opponents over it, so its deals are
    not independent; a 1 vs 5 block is every hero seat's session of those deals),
    default one; with fewer than :data:`MIN_GROUPS` sessions each is cut into
    near-equal runs of consecutive deals so there are at least that many groups
    (or one a unit).

    Raises:
        ValueError: if ``sessions`` do not add up to ``count`` or one is empty."""
    sizes = list(sessions) if sessions is not None else [count]
    if sum(sizes) != count or any(s < 1 for s in sizes):
        raise ValueError(f"sessions {sizes[:5]}... add up to {sum(sizes)} units, not "
                         f"{count}, or one is empty: give each session's unit count")
    if len(sizes) >= MIN_GROUPS:
        return sizes
    cuts = -(-MIN_GROUPS // len(sizes))  # runs per session
    out: list[int] = []
    for size in sizes:
        k = min(cuts, size)
        out += [size // k + (1 if i < size % k else 0) for i in range(k)]
    return out


def _summary(units: Sequence[float], sessions: Sequence[int] | None = None) -> dict[str, Any]:
    """BB/100 of the hero's chips per unit (a deal's pair or group) and its 95%
    interval over independent groups of units (:func:`groups`: the sessions, or
    runs of consecutive deals within them): the groups' totals about the mean
    (the cluster-robust variance of a mean), Student's t with one degree of
    freedom less than the groups. With every group one unit it is the plain
    interval over units (t for ``deals - 1`` degrees of freedom).

    Raises:
        ValueError: as :func:`groups`."""
    m = len(units)
    mean = sum(units) / m
    sizes = groups(m, sessions)
    g = len(sizes)
    spread = 0.0
    start = 0
    for size in sizes:
        total = sum(units[start:start + size])
        spread += (total - size * mean) ** 2
        start += size
    half = t975(max(1, g - 1)) * math.sqrt(spread * g / max(1, g - 1)) / m
    scale = 100.0 / BIG_BET
    return {"deals": m, "groups": g, "bb100": round(mean * scale, 2),
            "ci95": [round((mean - half) * scale, 2), round((mean + half) * scale, 2)]}


def _sessions(run: dict[str, Any]) -> list[int]:
    """A ``--json`` run's sessions (unit counts of its blocks, in order); a run
    written before they were kept is one session (its blocks taken together:
    still independent of every other run's)."""
    return list(run.get("sessions") or [len(run["units"])])


def pool(paths: Sequence[str]) -> list[dict[str, Any]]:
    """Pool the ``--json`` outputs of runs with different ``--seed`` (so different
    deals) by match: the units of every run of a match, one interval over all,
    taken over the runs' sessions (:func:`groups`).

    Raises:
        ValueError: if two runs of one match share a seed (the same deals twice)."""
    merged: dict[tuple[Any, ...], dict[str, Any]] = {}
    for path in paths:
        with open(path) as f:
            for r in json.load(f):
                key = (r["game"], r["hero"], r["opponent"], r["format"], r["structure"],
                       r.get("plays_per_deal"), r.get("view_seeds", False))
                m = merged.setdefault(key, {**r, "seeds": [], "units": [], "seconds": 0.0,
                                            "sessions": []})
                if set(r["seeds"]) & set(m["seeds"]):
                    raise ValueError(f"{path}: seed {r['seeds']} of {key} pooled twice; "
                                     "pool runs of different --seed only")
                m["seeds"] += r["seeds"]
                m["units"] += r["units"]
                m["sessions"] += _sessions(r)
                m["seconds"] += r["seconds"]
    out = []
    for m in merged.values():
        m.update(_summary(m["units"], m["sessions"]))
        m["seconds"] = round(m["seconds"], 1)
        out.append(m)
    return out


def paired(new: Sequence[str], old: Sequence[str]) -> list[dict[str, Any]]:
    """Per match, the pooled ``--json`` runs ``new`` less ``old`` (two checkouts'
    runs of the same ``--seed``, ``--hands`` and ``--jobs``: the same deals and bot
    seeds), unit by unit over the seeds both ran: BB/100 of each side and of the
    difference, each with its 95% interval over the runs' sessions (the new
    side's, which must be the old side's where both runs keep them).

    Raises:
        ValueError: if a seed's runs differ in their number of units or their
            sessions (not the same deals)."""
    def by_seed(paths: Sequence[str]) -> dict[tuple[Any, ...], dict[int, dict[str, Any]]]:
        out: dict[tuple[Any, ...], dict[int, dict[str, Any]]] = {}
        for path in paths:
            with open(path) as f:
                for r in json.load(f):
                    key = (r["game"], r["hero"], r["opponent"], r["format"], r["structure"],
                           r.get("plays_per_deal"), r.get("view_seeds", False))
                    if len(r["seeds"]) != 1:
                        raise ValueError(f"{path}: a pooled run (seeds {r['seeds']}); pair "
                                         "the runs of one --seed each")
                    out.setdefault(key, {})[r["seeds"][0]] = r
        return out
    a, b = by_seed(new), by_seed(old)
    results = []
    for key in a.keys() & b.keys():
        seeds = sorted(a[key].keys() & b[key].keys())
        if not seeds:
            continue
        ua: list[float] = []
        ub: list[float] = []
        sessions: list[int] = []
        for seed in seeds:
            ra, rb = a[key][seed], b[key][seed]
            if len(ra["units"]) != len(rb["units"]) or (
                    "sessions" in ra and "sessions" in rb and ra["sessions"] != rb["sessions"]):
                raise ValueError(f"seed {seed} of {key}: {len(ra['units'])} units in sessions "
                                 f"{_sessions(ra)} against {len(rb['units'])} in "
                                 f"{_sessions(rb)}; pair runs of the same --hands, --jobs")
            ua += ra["units"]
            ub += rb["units"]
            sessions += _sessions(ra if "sessions" in ra else rb)
        game, hero, opp, fmt, structure = key[:5]
        results.append({"game": game, "hero": hero, "opponent": opp, "format": fmt,
                        "structure": structure, "seeds": seeds,
                        "new": _summary(ua, sessions), "old": _summary(ub, sessions),
                        "diff": _summary([x - y for x, y in zip(ua, ub, strict=True)],
                                         sessions),
                        "same": sum(x == y for x, y in zip(ua, ub, strict=True))})
    return results


def _line(r: dict[str, Any]) -> str:
    lo, hi = r["ci95"]
    return (f"{r['game']:11s} {r['structure']:11s} {r['format']:3s} {r['hero']} vs "
            f"{r['opponent']:8s} {r['bb100']:+8.2f} BB/100 [{lo:+.2f}, {hi:+.2f}] "
            f"({r['deals']} deals, {r['seconds']} s)")


_COLUMN = {"sdr": "SDR", "rollyourown": "Roll Your Own", "rollem521": "5-2-1"}


def table(results: Sequence[dict[str, Any]]) -> str:
    """The pooled results as the docstring's grid: a block per structure, format
    and hero, a row per opponent, a column per game (BB/100 [95% interval]
    deals; ``-`` where not measured)."""
    cells = {(r["structure"], r["format"], r["hero"], r["opponent"], r["game"]): r
             for r in results}
    blocks = sorted({k[:3] for k in cells},
                    key=lambda b: (b[2] != "strong", b[0], b[1] != "hu", b[2]))
    opponents = list(dict.fromkeys(k[3] for k in cells))
    rows: list[tuple[str, list[str]]] = []  # (label, cells); a block's head has none
    for structure, fmt, hero in blocks:
        rows.append((f"{structure} {'heads-up' if fmt == 'hu' else '1 vs 5'}, {hero} against",
                     []))
        for opp in opponents:
            found = [cells.get((structure, fmt, hero, opp, g)) for g in GAMES]
            if any(found):
                rows.append((f"  {opp}", [
                    f"{r['bb100']:+.1f} [{r['ci95'][0]:+.0f}, {r['ci95'][1]:+.0f}] "
                    f"{r['deals']}" if r else "-" for r in found]))
    # columns as wide as the widest cell and two spaces, so cells never touch
    width = max([26] + [len(t) + 2 for _, texts in rows for t in texts])
    lines = []
    for label, texts in rows:
        shown = texts or [_COLUMN[g] for g in GAMES]
        lines.append(f"{label:36s}" + "".join(f"{t:>{width}s}" for t in shown))
    return "\n".join(lines)


def main() -> None:
    import bench_args  # (bench/, beside this script)

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--hero", default="strong")
    parser.add_argument("--opponents",
                        default="basic,maniac,station,bluffer,tag,value,potvalue,declarer,"
                                "trapper,strongtrap")
    parser.add_argument("--formats", default="hu,1v5")
    parser.add_argument("--structures", default="fixed-limit,no-limit")
    parser.add_argument("--hands", type=int, default=400, help="deals per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ray", metavar="ADDRESS", default=None,
                        help="run each match's --jobs parts on this Ray cluster (auto, "
                             "HOST:PORT)")
    parser.add_argument("--rotations", default="0,1,2,3,4,5", help="hero seats in 1v5")
    parser.add_argument("--view-seeds", action="store_true",
                        help="seed the bots' coins per view from one match seed shared by "
                             "the seatings (common random numbers; ViewSeeded)")
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--pool", nargs="+", metavar="JSON",
                        help="instead pool these --json outputs (runs of different --seed)")
    parser.add_argument("--minus", nargs="+", metavar="JSON",
                        help="with --pool: pair the pooled runs unit by unit with these "
                             "(another checkout's runs of the same seeds), print both and "
                             "the difference")
    parser.add_argument("--table", action="store_true",
                        help="with --pool: print the pooled results as a grid per game")
    args = parser.parse_args()
    if args.pool and args.minus:
        for r in paired(args.pool, args.minus):
            cells = "  ".join(f"{k} {r[k]['bb100']:+.2f} [{r[k]['ci95'][0]:+.2f}, "
                              f"{r[k]['ci95'][1]:+.2f}]" for k in ("new", "old", "diff"))
            print(f"{r['game']} {r['structure']} {r['format']} {r['hero']} vs {r['opponent']}: "
                  f"{cells} ({r['diff']['deals']} deals, {r['same']} the same; seeds "
                  f"{r['seeds'][0]}..{r['seeds'][-1]}, {len(r['seeds'])} runs)")
        return
    if args.pool:
        out = pool(args.pool)
        if args.table:
            print(table(out))
        for r in out:
            print(f"{_line(r)} seeds {','.join(map(str, r['seeds']))}")
        if args.json:
            with open(args.json, "w") as f:
                json.dump(out, f, indent=1)
        return
    bench_args.check_games(parser, args.games)
    bench_args.check_structures(parser, args.structures)
    bench_args.check_levels(parser, "--hero", args.hero, EXPLOITS)
    bench_args.check_levels(parser, "--opponents", args.opponents, EXPLOITS)
    bench_args.check_list(parser, "--formats", args.formats, ("hu", "1v5"))
    bench_args.check_list(parser, "--rotations", args.rotations, map(str, range(6)))
    bench_args.check_at_least(parser, "--hands", args.hands, 1)
    bench_args.check_at_least(parser, "--jobs", args.jobs, 1)
    ROTATIONS[:] = [int(x) for x in args.rotations.split(",")]
    out = []
    for game in args.games.split(","):
        for structure in args.structures.split(","):
            for fmt in args.formats.split(","):
                for opp in args.opponents.split(","):
                    if opp == "declarer" and game != "rollem521":
                        continue
                    r = match(game, args.hero, opp, fmt, structure, args.hands, args.seed,
                              args.jobs, args.ray, view_seeds=args.view_seeds)
                    out.append(r)
                    print(_line(r), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
