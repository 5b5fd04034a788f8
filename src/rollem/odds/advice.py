"""Look-ahead odds and advice from a seat's view (issue 16).

:func:`look_odds` answers for Five Card Roll Your Own and 5-2-1 Roll 'Em
with the look-ahead model: every player still in makes the choices still to
come by a policy (:mod:`rollem.odds.policy`), and, with ``advice``, every
option of the seat's current choice is played out in the same worlds
(:class:`rollem.odds.result.Advice`). Stop, Drop and Roll has no card choice
to look ahead to (R-SDR-1..R-SDR-6): its odds are exact or plain Monte Carlo.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from rollem.cards import CARDS
from rollem.odds.common import Progress
from rollem.odds.policy import FAST, Policy
from rollem.odds.result import Advice, Choice, Odds
from rollem.odds.view import ViewInfo

__all__ = ["MODEL_521", "MODEL_RYO", "look_odds"]

MODEL_521 = ("look-ahead: every player still in draws, stacks and declares by the {policy} "
             "policy; opponents' hands weighted by the draws and roll order seen")
MODEL_RYO_TRACKED = ("tracked pool: opponents' keeps and exposes not read here (the "
                     "weighting came out too uneven to trust, even on a second try); draws "
                     "and the wild card from the pool")
MODEL_RYO = ("look-ahead: every other player keeps three of six by the {policy} policy; "
             "draws and the wild card from the shuffled pool")


def look_odds(info: ViewInfo, *, samples: int, rng: random.Random | None, seed: int | None,
              exact_limit: int, progress: Progress | None = None, advice: bool = False,
              top: int = 10, policy: Policy = FAST) -> Odds | None:
    """The look-ahead odds (and advice) for ``info``; ``None`` when the
    game's plain calculator answers (Stop, Drop and Roll). Roll Your Own
    after the discard reads opponents' keeps and exposes
    (:mod:`rollem.odds.ryoseen`; no choice left changes a share of the pot
    there, so its advice is :func:`neutral_advice`)."""
    if info.game == "rollem521":
        return _r521(info, samples=samples, rng=rng, seed=seed, advice=advice, top=top,
                     policy=policy)
    if info.game == "rollyourown" and len(info.mine) == 6 and info.opponents:
        return _ryo_keep(info, samples=samples, rng=rng, seed=seed, advice=advice, top=top,
                         policy=policy)
    if info.game == "rollyourown" and info.opponents:
        return _ryo_seen(info, samples=samples, rng=rng, seed=seed, exact_limit=exact_limit,
                         progress=progress, advice=advice, top=top, policy=policy)
    return None


def _ryo_seen(info: ViewInfo, *, samples: int, rng: random.Random | None, seed: int | None,
              exact_limit: int, progress: Progress | None, advice: bool, top: int,
              policy: Policy) -> Odds | None:
    """Roll Your Own after the discard: opponents' keeps and exposes read
    (:mod:`rollem.odds.ryoseen`); where that model cannot answer well, the
    tracked model, saying so."""
    from dataclasses import replace

    from rollem.odds.ryo import ryo_view_odds
    from rollem.odds.ryoseen import ryo_seen_look, seen_of

    seen = seen_of(info)
    odds = None
    if seen is not None:
        odds = ryo_seen_look(seen, samples=samples, policy=policy,  # type: ignore[arg-type]
                             seed=seed, rng=rng)
    if odds is None:
        if len(info.mine) >= 6:
            return None
        odds = replace(ryo_view_odds(info, samples=samples, rng=rng, seed=seed,
                                     exact_limit=exact_limit, progress=progress),
                       model=MODEL_RYO_TRACKED)
    adv = neutral_advice(info, odds, top, policy) if advice else None
    return replace(odds, advice=adv)


def _r521(info: ViewInfo, *, samples: int, rng: random.Random | None, seed: int | None,
          advice: bool, top: int, policy: Policy) -> Odds | None:
    from rollem.odds.look521 import r521_look, state_of
    from rollem.odds.r521 import SIDES, best_declaration

    state = state_of(info)
    if not state.opponents:
        return None
    look = r521_look(state, samples=samples, policy=policy, seed=seed, rng=rng, advice=advice)
    adv = None
    if advice and look.decision is not None and look.options:
        kind = "draw" if look.decision.startswith("draw") else look.decision
        total = {"draw1": 16, "draw2": 6, "stack": 5, "declare": 3}[look.decision]
        note = None
        if kind == "stack":
            note = ("no betting is simulated, so only the card kept down changes the equity; "
                    "the four shown first are in the policy's order")
        adv = Advice(decision=kind, options=total, samples=look.samples, policy=policy.name,
                     note=note, choices=[
                         Choice(action=o.label, cards=o.cards, equity=o.equity, stderr=o.stderr,
                                policy=o.policy, whole_pot=o.whole_pot,
                                high_half=o.high_half, low_half=o.low_half,
                                samples=o.samples)
                         for o in look.options[:top]])
    best = best_declaration(look.declare, {"high": look.best_high, "low": look.best_low,
                                           "both": look.best_both})
    own = SIDES[state.declared] if state.declared is not None else None
    return Odds(win=look.whole, tie=look.share, lose=look.nothing, equity=look.equity,
                method="monte-carlo", samples=look.samples, stderr=look.stderr,
                game="rollem521", high=look.best_high, low=look.best_low,
                scoop=look.best_both, declare=look.declare, best_declare=best,
                own_declare=own, high_half=look.high_half, low_half=look.low_half,
                model=MODEL_521.format(policy=policy.name), advice=adv,
                effective=look.effective)


def _ryo_keep(info: ViewInfo, *, samples: int, rng: random.Random | None, seed: int | None,
              advice: bool, top: int, policy: Policy) -> Odds:
    from rollem.odds.lookryo import ryo_keep_look

    others = len(info.opponents) + info.folded_dealt
    opts = ryo_keep_look(
        info.mine, others, samples=samples, policy=policy, seed=seed, rng=rng, advice=True,
        wild_duplicates=bool(info.options.get("wild_duplicates", False)),
        natural_beats_wild=bool(info.options.get("natural_beats_wild", False)))
    pol = next(o for o in opts if o.policy)
    best = opts[0]
    adv = None
    if advice and info.seat in info.to_act and info.pending == "discard":
        adv = Advice(decision="discard", options=comb(6, 3), samples=samples,
                     policy=policy.name, choices=[
                         # as the button asks: the three to throw into the pool
                         Choice(action="throw " + " ".join(_thrown(info.mine, o.cards)),
                                cards=_thrown(info.mine, o.cards),
                                equity=o.equity, stderr=o.stderr, policy=o.policy,
                                whole_pot=o.whole_pot) for o in opts[:top]])
    return Odds(win=pol.whole_pot, tie=pol.share, lose=pol.nothing, equity=pol.equity,
                method="monte-carlo", samples=samples, stderr=pol.stderr, game="rollyourown",
                keep=best.cards, categories=pol.categories,
                model=MODEL_RYO.format(policy=policy.name), advice=adv)


def _thrown(mine: Sequence[int], kept: Sequence[str]) -> list[str]:
    """The seat's cards (``mine``) not in ``kept`` (text), in the order held."""
    keep = set(kept)
    return [str(CARDS[c]) for c in mine if str(CARDS[c]) not in keep]


def neutral_advice(info: ViewInfo, odds: Odds, top: int, policy: Policy = FAST
                   ) -> Advice | None:
    """Roll Your Own after the discard: each card the seat may expose, or
    each pool position it may pick, with the one equity they all share in
    the model (no betting is simulated and the pool is face down)."""
    if info.game != "rollyourown" or info.seat not in info.to_act:
        return None
    if info.pending == "expose":
        up = set(info.my_up)
        down = [c for c in info.mine if c not in up]
        acts = [(f"turn up {CARDS[c]}", [str(CARDS[c])]) for c in down]
        note = ("the card exposed changes no share of the pot in this model (no betting is "
                "simulated); it only shows the table part of your hand")
        kind = "expose"
    elif info.pending == "wild":
        acts = [(f"pick pool card {i + 1}", []) for i in range(info.pool)]
        note = "the pool is face down and shuffled: every position is alike"
        kind = "wild"
    else:
        return None
    return Advice(decision=kind, options=len(acts), samples=odds.samples, policy=policy.name,
                  note=note, choices=[Choice(action=a, cards=c, equity=odds.equity,
                                             stderr=odds.stderr, policy=kind == "wild" and i == 0)
                                      for i, (a, c) in enumerate(acts[:top])])
