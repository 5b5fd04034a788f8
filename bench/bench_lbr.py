"""Local best response against the computer players (issue 31): a sampled lower
bound on how beatable a bot is (Lisý & Bowling, "Equilibrium Approximation
Quality of Current No-Limit Poker Bots", 2017).

LBR plays heads-up against one bot level. At each of its betting decisions it:

1. **Samples the bot's private states.** Every card the bot has held that LBR
   cannot see now (its hole cards, its pool discards, cards it drew or threw
   away) is mapped, one-to-one, onto cards drawn at random from those LBR
   cannot see; ``--hypotheses`` such maps are drawn. Each map is one
   hypothesis about the bot's private state over the whole hand (so in the
   draw and stud games a card thrown in round 2 is a consistent card in
   every past view), weighted by the probability of the bot's past betting
   actions under it: the product, over the bot's betting decisions so far,
   of ``bot.policy(view)[action taken]`` on the bot's own view of that
   decision with the cards replaced by the map (a copy of the bot as it was
   at this point of the match, so the reads it learned count). Card choices
   (discards, exposes, draws, stack orders, declares) are not weighed: only
   betting. This is self-normalised importance sampling of the bot's range.
2. **Values each betting action** against that range, assuming the hand is
   then checked down (LBR's rule): fold 0; check/call ``e * (pot + call) -
   call``; a bet or raise of ``d`` chips, per hypothesis ``f * pot + (1 - f)
   * (e * (pot + d + c) - d)``, ``f`` the bot's probability of folding to it
   (its policy on its view after the bet, cards mapped), ``c`` its call,
   ``e`` LBR's equity against the hypothesis' current cards from the odds
   module (:func:`rollem.odds.view_equity` with the bot's cards filled in:
   known cards, the rest of the hand dealt and played by the odds' model;
   in Roll Your Own filled in as face-up cards, so the odds still deal the
   bot its draws from the pool).
   Sizes: the fixed size in fixed limit; in no limit a pot-sized bet and
   all in (the paper's set), within the legal bounds.
3. Takes the best; folds only when calling is worth less than 0.

LBR's card choices (keep, expose, draw, stack, declare) are ``basic``'s.
Each deal is played twice with the seats swapped (duplicate), stacks 200,
ante 1, bets 2 and 4 (no limit: the same ante, the smallest bet the
round's fixed-limit size, as the league); BB/100 of LBR with a 95%
interval over the pairs. A positive figure is a lower bound on the bot's
exploitability within these sampled ranges and bet sizes.

    .venv/bin/python bench/bench_lbr.py --games sdr --levels random,basic,strong \\
        --structures fixed-limit,no-limit --deals 40 [--hypotheses 12] [--json out.json]

With ``--luck ALTS`` each figure also comes with the cards' luck taken out
for LBR's seat (``bench_luck.Luck``: a zero-mean control variate sampled
over ``ALTS`` copies of each chance event), for a narrower interval on the
same deals.

Figures: ``docs/dev/league.md`` (the LBR table).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import math
import random
import time
from collections.abc import Sequence
from typing import Any

from rollem.bots import Bot, make_bot
from rollem.bots.basic import BasicBot
from rollem.bots.mixing import Planned
from rollem.cards import CARDS, Card
from rollem.engine import Hand, HandView, SeededSource
from rollem.engine.actions import Bet, Call, Check, Fold, Raise
from rollem.engine.options import Options

GAMES = ("sdr", "rollyourown", "rollem521")
BIG_BET = 4
STACK = 200
BETTING = {"fold", "check", "call", "bet", "raise"}
DECK = [str(c) for c in CARDS]


def _substitute(obj: Any, m: dict[str, str]) -> Any:
    """``obj`` (a view, its parts, events) with every card text or card in ``m``
    replaced by its image."""
    if isinstance(obj, Card):
        return Card(DECK.index(m[str(obj)])) if str(obj) in m else obj
    if isinstance(obj, str):
        return m.get(obj, obj)
    if isinstance(obj, list):
        return [_substitute(x, m) for x in obj]
    if isinstance(obj, tuple):
        return tuple(_substitute(x, m) for x in obj)
    if isinstance(obj, dict):
        return {k: _substitute(v, m) for k, v in obj.items()}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return type(obj)(**{f.name: _substitute(getattr(obj, f.name), m)
                            for f in dataclasses.fields(obj)})
    return obj


def _cards_in(obj: Any, out: set[str]) -> None:
    """Every card text in ``obj`` (a view's parts, events) into ``out``."""
    if isinstance(obj, Card):
        out.add(str(obj))
    elif isinstance(obj, str):
        if obj in _DECK_SET:
            out.add(obj)
    elif isinstance(obj, list | tuple):
        for x in obj:
            _cards_in(x, out)
    elif isinstance(obj, dict):
        for v in obj.values():
            _cards_in(v, out)


_DECK_SET = set(DECK)


def visible(view: HandView) -> set[str]:
    """The cards ``view``'s seat has seen: its own, every face-up card, board,
    dead, its pool cards and any card named in its events."""
    seen: set[str] = set()
    for s in view.seats:
        _cards_in(s.cards, seen)
    _cards_in(view.board, seen)
    _cards_in(view.dead, seen)
    _cards_in(view.my_pool, seen)
    _cards_in(view.events, seen)
    return seen


class Lbr:
    """The local best responder for one match against ``opp`` (a bot object)."""

    def __init__(self, rng: random.Random, hypotheses: int, equity_samples: int) -> None:
        self.rng = rng
        self.k = hypotheses
        self.samples = equity_samples
        self.cards = BasicBot(random.Random(rng.getrandbits(64)), samples=60)

    def act(self, hand: Hand, seat: int, opp_seat: int, opp: Bot,
            history: Sequence[tuple[HandView, object]], held: set[str]) -> object:
        view = hand.view(seat)
        legal = view.legal
        assert legal is not None
        if not BETTING & set(legal.actions):
            return self.cards.act(view)
        seen = visible(view)
        hidden = sorted(held - seen)
        unseen = [c for c in DECK if c not in seen]
        opp_now = [str(CARDS[c]) for c, u in zip(hand.hole[opp_seat], hand.up[opp_seat],
                                                   strict=True) if not u]
        template = copy.deepcopy(opp)
        for attr in ("_cached", "_pool"):
            if hasattr(template, attr):
                setattr(template, attr, None)
        maps, weights = [], []
        for _ in range(self.k):
            image = self.rng.sample(unseen, len(hidden))
            m = dict(zip(hidden, image, strict=True))
            shadow = _shadow(template)
            w = 1.0
            for past, action in history:
                w *= shadow.policy(_substitute(past, m)).get(action, 0.0)
                if w == 0.0:
                    break
            maps.append(m)
            weights.append(w)
        total = sum(weights)
        if total <= 0:  # no sampled state explains the actions: an even range
            weights = [1.0] * len(maps)
            total = float(len(maps))
        weights = [w / total for w in weights]
        live = [(m, w) for m, w in zip(maps, weights, strict=True) if w > 0]
        eqs = [self._equity(view, opp_seat, [m.get(c, c) for c in opp_now]) for m, _ in live]
        pot = view.pot + sum(s.bet for s in view.seats)
        acts = legal.actions
        to_call = legal.call_amount if "call" in acts else 0
        options: list[tuple[float, object]] = []
        e_all = sum(w * e for (_, w), e in zip(live, eqs, strict=True))
        if "check" in acts:
            options.append((e_all * pot, Check()))
        if "call" in acts:
            options.append((e_all * (pot + to_call) - to_call, Call()))
        if "fold" in acts:
            options.append((0.0, Fold()))
        if "bet" in acts or "raise" in acts:
            me = view.seats[seat]
            for target in self._sizes(legal, view, pot + to_call, me.bet + me.stack):
                action = Bet(target) if "bet" in acts else Raise(target)
                options.append((self._bet_value(hand, seat, opp_seat, template, action, live,
                                                eqs, pot, target - me.bet), action))
        return max(options, key=lambda o: o[0])[1]  # values from now: chips won

    def _sizes(self, legal: Any, view: HandView, pot: int, all_in: int) -> list[int]:
        lo, hi = legal.min_to, legal.max_to
        if lo == hi:
            return [lo]
        return sorted({min(hi, max(lo, view.current_bet + pot)), min(hi, all_in)})

    def _equity(self, view: HandView, opp_seat: int, cards: list[str]) -> float:
        from rollem.odds import OddsError, view_equity

        filled = copy.deepcopy(view)
        s = filled.seats[opp_seat]
        it = iter(cards)
        if view.game == "rollyourown":
            # as face-up cards: the Roll Your Own odds deal an opponent's draws to
            # come only to a hand it does not know whole (R-RYO-5, R-RYO-6)
            s.up = [u or c is None for c, u in zip(s.cards, s.up, strict=True)]
        s.cards = [c if c is not None else next(it) for c in s.cards]
        try:
            odds = view_equity(filled, samples=self.samples, rng=self.rng, exact_limit=2_000)
        except (OddsError, StopIteration):
            return 0.5
        if odds.declare:
            return float(max(odds.declare.values()))
        return float(odds.equity)

    def _bet_value(self, hand: Hand, seat: int, opp_seat: int, template: Bot, action: object,
                   live: list[tuple[dict[str, str], float]], eqs: list[float], pot: int,
                   added: int) -> float:
        after = copy.deepcopy(hand)
        after.apply(seat, action)
        if after.pending is None or opp_seat not in after.pending.seats:
            return sum(w * e for (_, w), e in zip(live, eqs, strict=True)) * (pot + added) \
                - added
        opp_view = after.view(opp_seat)
        call = opp_view.legal.call_amount if opp_view.legal is not None else 0
        value = 0.0
        for (m, w), e in zip(live, eqs, strict=True):
            shadow = _shadow(template)
            fold = shadow.policy(_substitute(opp_view, m)).get(Fold(), 0.0)
            value += w * (fold * pot + (1 - fold) * (e * (pot + added + call) - added))
        return value


def _shadow(template: Bot) -> Bot:
    """A throwaway copy of ``template`` for one hypothesis: its own reads (the
    copy's ``book`` counts the hand's events again when they read differently),
    its caches shared (keyed by the cards, so hypotheses do not mix)."""
    shadow = copy.copy(template)
    book = getattr(template, "book", None)
    if book is not None:
        shadow.book = copy.deepcopy(book)  # type: ignore[attr-defined]
    if hasattr(template, "_planned"):
        shadow._planned = Planned()  # type: ignore[attr-defined]
    return shadow


def _held(hand: Hand, seat: int, held: set[str]) -> None:
    for c in hand.hole[seat]:
        held.add(str(CARDS[c]))


def play(game: str, level: str, structure: str, deals: Sequence[int], seed: int,
         hypotheses: int, equity_samples: int, alts: int = 0
         ) -> tuple[list[float], list[float]]:
    """LBR's chips per deal (the mean of its two seats) against ``level``, and
    the same with the cards' luck taken out (``alts`` copies per chance event,
    ``bench_luck.Luck``; with ``alts`` 0, the same chips)."""
    from bench_luck import Luck

    units = [0.0] * len(deals)
    fixed = [0.0] * len(deals)
    options = Options(structure=structure)
    luck_rng = random.Random(f"lbr-luck/{seed}")
    for lbr_seat in (0, 1):
        master = random.Random(seed * 2 + lbr_seat)
        opp_seat = 1 - lbr_seat
        bot = make_bot(level, random.Random(master.getrandbits(64)))
        lbr = Lbr(random.Random(master.getrandbits(64)), hypotheses, equity_samples)
        for i, deal in enumerate(deals):
            luck = Luck(game, structure, deal, i % 2, lbr_seat, alts, equity_samples * 5,
                        luck_rng) if alts else None
            hand = luck.hand if luck is not None else Hand(
                game, [STACK, STACK], button=i % 2, options=options, source=SeededSource(deal))
            history: list[tuple[HandView, object]] = []
            held: set[str] = set()
            while not hand.is_over:
                assert hand.pending is not None
                s = hand.pending.seats[0]
                _held(hand, opp_seat, held)
                if s == lbr_seat:
                    action = lbr.act(hand, s, opp_seat, bot, history, held)
                else:
                    view = hand.view(s)
                    action = bot.act(view)
                    if view.legal is not None and BETTING & set(view.legal.actions):
                        history.append((view, action))
                    held.update(view.my_pool)
                if luck is not None:
                    luck.apply(s, action)
                else:
                    hand.apply(s, action)
            assert hand.result is not None
            net = hand.result.net.get(lbr_seat, 0)
            units[i] += net / 2
            fixed[i] += (net - (luck.luck if luck is not None else 0.0)) / 2
    return units, fixed


def summary(units: Sequence[float]) -> dict[str, Any]:
    m = len(units)
    mean = sum(units) / m
    var = sum((u - mean) ** 2 for u in units) / max(1, m - 1)
    half = 1.96 * math.sqrt(var / m)
    scale = 100.0 / BIG_BET
    return {"deals": m, "bb100": round(mean * scale, 1),
            "ci95": [round((mean - half) * scale, 1), round((mean + half) * scale, 1)]}


def pool(paths: Sequence[str]) -> list[str]:
    """The lines of a pooled table from ``--json`` files of chunk runs: per game,
    structure and level, every chunk's deals together (each chunk's seed
    gives its own deals, the same for every level of the chunk), with and
    without the luck; and where ``basic`` and ``strong`` were both run on a
    chunk, LBR's figure against ``basic`` less its figure against ``strong``
    deal by deal (paired: the same deals). Chunks run twice (the same game,
    structure, level and seed) count once.

    Raises:
        ValueError: if no file holds a run.
    """
    runs: dict[tuple[str, str, int, str], dict[str, Any]] = {}
    for path in paths:
        with open(path) as f:
            for r in json.load(f):
                runs[(r["game"], r["structure"], r["seed"], r["level"])] = r
    if not runs:
        raise ValueError(f"no LBR runs in {', '.join(paths) or 'no files'}")
    lines = []
    for game, structure in sorted({(k[0], k[1]) for k in runs}):
        keys = [k for k in runs if k[:2] == (game, structure)]
        levels = sorted({k[3] for k in keys}, key=lambda lv: (lv != "random", lv != "basic", lv))
        for kind in ("plain", "luck"):
            def units(r: dict[str, Any], kind: str = kind) -> list[float] | None:
                return r["units"] if kind == "plain" else r.get("luck", {}).get("units")

            rows = []
            for level in levels:
                got = [units(runs[k]) for k in sorted(keys) if k[3] == level]
                flat = [u for g in got if g is not None for u in g]
                if flat:
                    rows.append((f"LBR vs {level}", flat))
            seeds = sorted({k[2] for k in keys if (game, structure, k[2], "basic") in runs
                            and (game, structure, k[2], "strong") in runs})
            diff = []
            for seed in seeds:
                b = units(runs[(game, structure, seed, "basic")])
                st = units(runs[(game, structure, seed, "strong")])
                if b is not None and st is not None:
                    diff.extend(x - y for x, y in zip(b, st, strict=True))
            if diff:
                rows.append(("basic - strong, paired", diff))
            if not rows:
                continue
            chunks = sorted({k[2] for k in keys})
            what = "plain duplicate" if kind == "plain" else "luck taken out"
            lines.append(f"{game} {structure} ({what}; "
                         f"seeds {chunks[0]}-{chunks[-1]}, {len(chunks)} chunks)")
            for name, u in rows:
                r = summary(u)
                lines.append(f"  {name:24s} {r['bb100']:+8.1f} BB/100 [{r['ci95'][0]:+.1f}, "
                             f"{r['ci95'][1]:+.1f}] ({r['deals']} deals)")
    return lines


def main() -> None:
    import bench_args  # (bench/, beside this script)

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--levels", default="random,basic,strong")
    parser.add_argument("--structures", default="fixed-limit,no-limit")
    parser.add_argument("--deals", type=int, default=40, help="deals per match (each twice)")
    parser.add_argument("--hypotheses", type=int, default=12,
                        help="sampled private states of the bot per LBR decision")
    parser.add_argument("--equity-samples", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--luck", type=int, default=0, metavar="ALTS",
                        help="also report LBR's figure with the cards' luck taken out, "
                             "ALTS copies per chance event (bench_luck.py; 0: off)")
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--pool", nargs="+", metavar="JSON",
                        help="print the pooled table of these --json files of chunk runs "
                             "(with basic - strong paired deal by deal) and play nothing")
    args = parser.parse_args()
    if args.pool:
        print("\n".join(pool(args.pool)))
        return
    bench_args.check_games(parser, args.games)
    bench_args.check_structures(parser, args.structures)
    bench_args.check_levels(parser, "--levels", args.levels)
    bench_args.check_at_least(parser, "--deals", args.deals, 1)
    bench_args.check_at_least(parser, "--hypotheses", args.hypotheses, 1)
    bench_args.check_at_least(parser, "--equity-samples", args.equity_samples, 1)
    bench_args.check_at_least(parser, "--luck", args.luck, 0)
    out = []
    for game in args.games.split(","):
        for structure in args.structures.split(","):
            for level in args.levels.split(","):
                rng = random.Random(f"lbr/{game}/{structure}/{args.seed}")
                deals = [rng.getrandbits(48) for _ in range(args.deals)]
                t = time.perf_counter()
                units, fixed = play(game, level, structure, deals, args.seed,
                                    args.hypotheses, args.equity_samples, args.luck)
                r = {"game": game, "structure": structure, "level": level,
                     "seed": args.seed, "hypotheses": args.hypotheses, **summary(units),
                     "seconds": round(time.perf_counter() - t, 1),
                     "units": [round(u, 3) for u in units]}
                if args.luck:
                    r["luck"] = {"alts": args.luck, **summary(fixed),
                                 "units": [round(u, 3) for u in fixed]}
                out.append(r)
                lo, hi = r["ci95"]
                print(f"{game:11s} {structure:11s} LBR vs {level:7s} {r['bb100']:+8.1f} BB/100 "
                      f"[{lo:+.1f}, {hi:+.1f}] ({r['deals']} deals, {r['seconds']} s)",
                      flush=True)
                if args.luck:
                    lk = r["luck"]
                    print(f"{'':23s} luck taken out {lk['bb100']:+8.1f} BB/100 "
                          f"[{lk['ci95'][0]:+.1f}, {lk['ci95'][1]:+.1f}]", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
