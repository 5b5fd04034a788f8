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

Figures: ``docs/dev/league.md``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_league import BIG_BET, STACK, bot
from rollem.engine import Hand, SeededSource
from rollem.engine.options import Options
from rollem.engine.randomness import SeededSource as _Reseed
from rollem.odds import sdr_odds, view_equity


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
         shares: Shares) -> tuple[list[float], list[float]]:
    """Per deal: the hero's chips (mean of its two seats) and the same less luck."""
    plain = [0.0] * len(deals)
    fixed = [0.0] * len(deals)
    for hero_seat in (0, 1):
        master = random.Random(seed * 2 + hero_seat)
        levels = [opp, opp]
        levels[hero_seat] = hero
        bots = [bot(level, random.Random(master.getrandbits(64))) for level in levels]
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


def _state(hand: Hand) -> tuple[int, int, int]:
    """Where the hand's randomness stands: cards dealt from the deck, shuffles
    made, cards in the pool."""
    return (hand.deck_pos, len(hand.source.outcomes), len(hand.pool))


NO_CHOICES = frozenset({"sdr", "holdem", "omaha"})
"""Games whose cards come with no player's card choice between: the share with
both hands known is a martingale there (the heads-up odds of
:func:`rollem.odds.view_equity` take the opponent's cards as known)."""


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
                 alts: int, samples: int, rng: random.Random, *, exact: bool = False) -> None:
        if alts < 1 and not exact:
            raise ValueError(f"alts must be at least 1, got {alts}")
        if exact and game not in NO_CHOICES:
            raise ValueError(f"exact luck needs a game without card choices "
                             f"({', '.join(sorted(NO_CHOICES))}), got {game}")
        self.exact = exact
        self.game, self.deal, self.button = game, deal, button
        self.options = Options(structure=structure)
        self.hero, self.alts, self.samples, self.rng = hero, alts, samples, rng
        self.cache: dict[tuple[Any, ...], float] = {}
        self.moves: list[tuple[int, object]] = []
        self.events = 0
        self.hand = self.start(-1)
        self.luck = sum(self.hand.committed) * (
            self.value(self.hand) - 0.5 if exact else self._change(self.hand))

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
        return self.value(hand) - sum(map(self.value, others)) / self.alts

    def apply(self, seat: int, action: object) -> None:
        """Apply ``action`` by ``seat`` to :attr:`hand`, adding the luck of any
        chance event it brings."""
        hand = self.hand
        self.moves.append((seat, action))
        before = _state(hand)
        was = self.value(hand) if self.exact else 0.0  # cached while no card comes
        hand.apply(seat, action)
        if _state(hand) != before and not any(hand.folded):
            # cards came from the deck or the pool, or the pool was shuffled: a
            # chance event (a discard into the pool is none: its copies equal it)
            change = self.value(hand) - was if self.exact else self._change(hand)
            self.luck += sum(hand.committed) * change


def play_sampled(game: str, hero: str, opp: str, structure: str, deals: list[int],
                 seed: int, alts: int, samples: int, exact: bool = False
                 ) -> tuple[list[float], list[float]]:
    """Per deal: the hero's chips (mean of its two seats) and the same less the
    sampled luck (the module doc, :class:`Luck`)."""
    plain = [0.0] * len(deals)
    fixed = [0.0] * len(deals)
    rng = random.Random(f"alts/{seed}")
    for hero_seat in (0, 1):
        master = random.Random(seed * 2 + hero_seat)
        levels = [opp, opp]
        levels[hero_seat] = hero
        bots = [bot(level, random.Random(master.getrandbits(64))) for level in levels]
        for i, deal in enumerate(deals):
            luck = Luck(game, structure, deal, i % 2, hero_seat, alts, samples, rng,
                        exact=exact)
            hand = luck.hand
            while not hand.is_over:
                assert hand.pending is not None
                s = hand.pending.seats[0]
                luck.apply(s, bots[s].act(hand.view(s)))
            assert hand.result is not None
            net = hand.result.net.get(hero_seat, 0)
            plain[i] += net / 2
            fixed[i] += (net - luck.luck) / 2
    return plain, fixed


def _summary(units: list[float]) -> tuple[float, float, float]:
    m = len(units)
    mean = sum(units) / m
    var = sum((u - mean) ** 2 for u in units) / max(1, m - 1)
    half = 1.96 * math.sqrt(var / m)
    scale = 100.0 / BIG_BET
    return mean * scale, half * scale, var


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
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    method = args.method or ("exact" if args.game == "sdr" else
                             "martingale" if args.game in NO_CHOICES else "sampled")
    if method == "martingale" and args.game not in NO_CHOICES:
        parser.error(f"--method martingale needs a game without card choices "
                     f"({', '.join(sorted(NO_CHOICES))}), got --game {args.game}")
    if method == "exact" and args.game != "sdr":
        parser.error(f"--method exact is only for sdr, got --game {args.game}")
    if args.alts < 1:
        parser.error(f"--alts must be at least 1, got {args.alts}")
    prefix = "" if args.game == "sdr" else f"{args.game}/"
    rng = random.Random(f"luck/{prefix}{args.structure}/{args.seed}")
    deals = [rng.getrandbits(48) for _ in range(args.deals)]
    t = time.perf_counter()
    if method == "exact":
        plain, fixed = play(args.hero, args.opponent, args.structure, deals, args.seed,
                            Shares(random.Random(args.seed), args.samples or 4000))
    else:
        plain, fixed = play_sampled(args.game, args.hero, args.opponent, args.structure,
                                    deals, args.seed, args.alts,
                                    args.samples or (300 if method == "sampled" else 2000),
                                    exact=method == "martingale")
    (pm, ph, pv), (fm, fh, fv) = _summary(plain), _summary(fixed)
    print(f"{args.game} {args.structure} hu {args.hero} vs {args.opponent}, {len(deals)} "
          f"deals, {method}{'' if method != 'sampled' else f' ({args.alts} alts)'} "
          f"({time.perf_counter() - t:.0f} s)")
    print(f"  plain duplicate   {pm:+8.2f} BB/100 [{pm - ph:+.2f}, {pm + ph:+.2f}]")
    print(f"  luck taken out    {fm:+8.2f} BB/100 [{fm - fh:+.2f}, {fm + fh:+.2f}]")
    print(f"  deals needed for the same width: {pv / fv if fv > 0 else float('inf'):.2f} "
          "times fewer")

if __name__ == "__main__":
    main()
