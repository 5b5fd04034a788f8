"""The ``basic`` bot: sound home-game play from the view alone.

Every decision is made from :class:`rollem.engine.HandView` (the seat's own
cards, what is face up, stacks, pots, its legal options); nothing else.

- **Betting** (every game): hand strength is the seat's equity from a quick
  Monte Carlo of what it cannot see, :func:`rollem.odds.view_equity` (in
  5-2-1 the expected pot share of its best declaration, R-521-9). It bets or
  raises when its equity is well above its fair share of the pot (one over
  the players still in), calls when the equity pays the price (pot odds),
  checks when it can, folds otherwise; now and then it bets a weak hand when
  checked to (a bluff), so its bets do not give its cards away.
- **Short stack: push or fold** (issue 28, tournaments): when its chips
  (stack and bet in front) are at most :data:`SHORT_STACK` times the forced
  bets of a hand (the antes of the players dealt in plus the small bet,
  about the blinds) and one bet or raise can put them all in, it goes all-in
  when its equity pays for the risk if one player calls (``equity >= risk /
  (pot + risk + what a caller adds)``; the pot is large against a short
  stack, so the range is wide), else checks when it can and folds; it never
  calls or bets a part of a short stack.
- **Discard to the pool** (R-RYO-2): keeps the three cards that work best
  together (trips, a high pair, then high, suited, connected cards).
- **Expose** (R-RYO-3, R-RYO-5): turns up the down card that shows the least
  (the weakest hand showing), which keeps pairs and high cards hidden.
- **Wild pick** (R-RYO-7): pool cards are face down, so every position is
  alike: a uniform pick.
- **Before a 5-2-1 draw** its chances are those of the hand after its own
  planned draws (sampled replacements), not of the hand as it stands.
- **Draw** (R-521-2, R-521-4): never breaks a made straight or better;
  stands pat on a made eight-low; throws the odd card of a four-card flush
  or straight draw; otherwise goes high with a pair of nines or better,
  otherwise low with three or more cards seven or lower;
  throws away the cards that do not fit that plan (highest first for low,
  the lowest odd cards for high), up to the number allowed.
- **Stack** (R-521-6): keeps the card that decides its declare down (the
  best low card for a low hand; for a high hand the card whose absence shows
  the weakest hand) and rolls the weakest-looking cards first, so its
  strength shows as late as possible.
- **Declare** (R-521-8): the side with the greatest expected share by its
  real chances high and low (``Odds.best_declare``); on a tie the side it wins
  outright more often, then the safer one (high, low, both): the odds' own
  rule, :func:`rollem.odds.r521.best_declaration`, before the draws too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from rollem.bots import register_level
from rollem.bots.draw521 import after_draws, draws_left, unseen_cards
from rollem.bots.mixing import Coin, Mixing, Planned
from rollem.cards import Card, parse_card, parse_rank
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
from rollem.hands import showing_value

if TYPE_CHECKING:
    from rollem.engine.game import Game
    from rollem.engine.views import HandView
    from rollem.odds.result import Odds

__all__ = ["SHORT_STACK", "BasicBot", "discard_choice", "draw_choice", "expose_choice",
           "short_stack_push", "stack_choice"]

SHORT_STACK = 10
"""A stack of at most this many hands' forced bets (antes and the small bet) is
short: push or fold (issue 28)."""


def short_stack_push(view: HandView, legal: Legal, equity: float) -> object | None:
    """The push-or-fold decision of a short stack (see the module doc), or
    ``None`` when the seat is not short or cannot go all-in in one action."""
    if view.seat is None:
        return None
    me = view.seats[view.seat]
    chips = me.stack + me.bet
    acts = legal.actions
    dealt = sum(1 for s in view.seats if s.dealt)
    forced = int(view.options.get("ante", 0)) * dealt + int(view.options.get("small_bet", 0))
    push = "raise" if "raise" in acts else "bet" if "bet" in acts else None
    if forced <= 0 or chips > SHORT_STACK * forced or push is None or legal.max_to < chips:
        return None
    in_middle = view.pot + sum(s.bet for s in view.seats)
    risk = legal.max_to - me.bet
    caller_adds = max(0, legal.max_to - max(s.bet for i, s in enumerate(view.seats)
                                            if i != view.seat))
    if equity >= risk / (in_middle + risk + caller_adds):
        return Raise(legal.max_to) if push == "raise" else Bet(legal.max_to)
    if "check" in acts:
        return Check()
    return Fold() if "fold" in acts else Call()


def _low_rank(card: int) -> int:
    """Ace-to-five value of a card's rank: ace 1, deuce 2 ... king 13 (R-C-3)."""
    r = card >> 2
    return 1 if r == 12 else r + 2


def _cards(texts: Sequence[str | None]) -> list[Card]:
    return [parse_card(t) for t in texts if t is not None]


# ------------------------------------------------------------------ card choices


def _triple_score(cards: tuple[Card, ...]) -> float:
    """How good three kept cards are for Five Card Roll Your Own (higher is better);
    any other number of kept cards (a game file's discard) is scored alike."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    top, n = counts.most_common(1)[0]
    if n >= 3:
        return 400 + top
    if n == 2:
        kicker = next((r for r in ranks if r != top), 0)
        return 200 + 8 * top + kicker
    score = float(sum(r * w for r, w in zip(ranks, (4, 2, 1, 0.5, 0.25), strict=False)))
    if len(cards) > 1 and len({c.suit for c in cards}) == 1:
        score += 18
    span = ranks[0] - ranks[-1]
    if span <= 4:
        score += 14 - 2 * span
    return score


def discard_choice(cards: list[Card], count: int, rng: random.Random) -> tuple[Card, ...]:
    """The ``count`` cards to put in the pool: all but the best ``len - count`` kept."""
    keep_n = len(cards) - count
    if keep_n <= 0:
        return tuple(cards)
    best: tuple[Card, ...] = tuple(cards[:keep_n])
    best_score = -1.0
    for keep in combinations(cards, keep_n):
        s = _triple_score(keep) + rng.random() * 0.01
        if s > best_score:
            best, best_score = keep, s
    return tuple(c for c in cards if c not in best)


def expose_choice(down: list[Card], up: list[Card], wild_ranks: list[int],
                  rng: random.Random) -> Card:
    """The down card whose exposure shows the weakest hand (hides strength)."""
    scored = [(showing_value([*up, c], wild_ranks), rng.random(), c) for c in down]
    return min(scored)[2]


def _plan_521(cards: list[Card]) -> str:
    """``"high"`` or ``"low"``: what a 5-2-1 hand is drawing to."""
    ranks = [c.rank for c in cards]
    counts = Counter(ranks)
    pairs = [r for r, n in counts.items() if n >= 2]
    suits = Counter(c.suit for c in cards)
    lows = {_low_rank(c) for c in cards if _low_rank(c) <= 8}
    if len(lows) == 5:  # a made eight-low or better: keep it
        return "low"
    if any(n >= 3 for n in counts.values()) or len(pairs) >= 2:
        return "high"
    if pairs and max(pairs) >= 7:  # a pair of nines or better
        return "high"
    if max(suits.values()) >= 4:
        return "high"
    sevens = {_low_rank(c) for c in cards if _low_rank(c) <= 7}
    if len(sevens) >= 3:
        return "low"
    return "high"


def _straight_ranks(ranks: set[int]) -> bool:
    """Five distinct ranks in a row (the ace also low, the wheel; R-C-2)."""
    if len(ranks) != 5:
        return False
    if max(ranks) - min(ranks) == 4:
        return True
    return ranks == {12, 0, 1, 2, 3}


def made_hand(cards: Sequence[Card]) -> bool:
    """True when five cards already make a straight or better (R-C-2): a hand to
    stand pat on, never to break."""
    if len(cards) != 5:
        return False
    counts = Counter(c.rank for c in cards)
    if max(counts.values()) >= 4 or sorted(counts.values()) == [2, 3]:
        return True
    return len({c.suit for c in cards}) == 1 or _straight_ranks(set(counts))


def _straight_draw(cards: Sequence[Card]) -> Card | None:
    """The card to throw from a four-card straight draw (four distinct ranks
    within a span of five, the ace also low), when there is one and no pair."""
    if len({c.rank for c in cards}) != len(cards):
        return None
    best: tuple[int, Card] | None = None
    for c in cards:
        rest = {x.rank for x in cards if x != c}
        for low_ace in (False, True):
            rs = {(-1 if (low_ace and r == 12) else r) for r in rest}
            if max(rs) - min(rs) <= 4:
                key = max(rs)
                if best is None or key > best[0]:
                    best = (key, c)
    return best[1] if best is not None else None


def draw_choice(cards: list[Card], most: int) -> tuple[Card, ...]:
    """Cards to throw away in a 5-2-1 draw (at most ``most``), by :func:`_plan_521`.

    A made straight or better is never broken (stands pat); a four-card flush
    or straight draw throws the odd card (R-521-2, R-521-4).
    """
    if made_hand(cards):
        return ()
    plan = _plan_521(cards)
    if plan == "low":
        seen: set[int] = set()
        bad: list[Card] = []
        for c in sorted(cards, key=_low_rank):
            lr = _low_rank(c)
            if lr in seen or lr > 8:
                bad.append(c)
            seen.add(lr)
        bad.sort(key=_low_rank, reverse=True)
        return tuple(bad[:most])
    counts = Counter(c.rank for c in cards)
    suits = Counter(c.suit for c in cards)
    suit, n_suit = suits.most_common(1)[0]
    pairs = sum(1 for n in counts.values() if n >= 2)
    if n_suit >= 4 and max(counts.values()) < 3 and pairs < 2:
        return tuple(c for c in cards if c.suit != suit)[:most]
    if max(counts.values()) >= 2:
        odd = [c for c in cards if counts[c.rank] == 1]
    else:
        gap = _straight_draw(cards) if len(cards) == 5 else None
        if gap is not None:
            return (gap,)[:most]
        odd = sorted(cards, key=lambda c: c.rank)[:3]  # no pair: keep the highest cards
    odd.sort(key=lambda c: c.rank)
    return tuple(odd[:most])


def stack_choice(cards: list[Card], rng: random.Random) -> tuple[Card, ...]:
    """A stacking order (top first) that hides strength: the deciding card last."""
    plan = _plan_521(cards)
    if plan == "low":
        hidden = min(cards, key=lambda c: (_low_rank(c), rng.random()))
        shown = [c for c in cards if c != hidden]
        shown.sort(key=lambda c: (-_low_rank(c), rng.random()))  # worst low first
    else:
        def rest_value(h: Card) -> tuple[int, float]:
            return (showing_value([c for c in cards if c != h]), rng.random())

        hidden = min(cards, key=rest_value)
        shown = [c for c in cards if c != hidden]
        shown.sort(key=lambda c: (c.rank, rng.random()))  # low cards first
    return (*shown, hidden)


# ------------------------------------------------------------------ the bot


class BasicBot(Mixing):
    """Plays by its real chances (see the module doc).

    Args:
        rng: the bot's own seeded ``Random`` (its sampling and mixing).
        samples: Monte Carlo samples per betting decision (more is slower, steadier).
        bluff: chance of betting a weak hand when checked to.
        odds: where hand strength comes from, ``view -> Odds``; default
            :func:`rollem.odds.view_equity` with ``samples`` and ``rng`` (tests may
            pass a cheaper stand-in; it gets the same view and nothing else).
    """

    level = "basic"

    def __init__(self, rng: random.Random | None = None, *, samples: int = 150,
                 bluff: float = 0.08, odds: Callable[[HandView], Odds] | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.samples = samples
        self.bluff = bluff
        self.odds = odds if odds is not None else self._view_equity
        self._cached: tuple[object, Odds | None] | None = None
        self.game: Game | None = None
        """The game of a game file the ``rollem.games`` registry does not hold (a web
        table's own game), for :func:`rollem.odds.view_equity`; set by the caller."""
        self._coin: Coin | None = None
        self._planned = Planned()

    # -- decisions --------------------------------------------------

    def act(self, view: HandView) -> object:
        """The action for ``view.seat`` in ``view.legal``.

        Raises:
            ValueError: if the view offers no legal options.
        """
        legal = view.legal
        if legal is None or not legal.actions:
            raise ValueError("the basic bot was asked to act with no legal options")
        acts = legal.actions
        rng = self.rng
        planned = self._planned.take(view)
        if planned is not None:
            return planned
        if "discard" in acts:
            return Discard(discard_choice(list(legal.cards), legal.max_count, rng))
        if "expose" in acts:
            seat = view.seats[view.seat] if view.seat is not None else None
            up = _cards([c for c, u in zip(seat.cards, seat.up, strict=False) if u]) \
                if seat is not None else []
            wild = [parse_rank(r) for r in view.wild_ranks]
            return Expose(expose_choice(list(legal.cards), up, wild, rng))
        if "wild" in acts:
            return PickWild(rng.randrange(legal.positions))
        if "draw" in acts:
            throw = draw_choice(list(legal.cards), legal.max_count)
            if len(throw) < legal.min_count:
                rest = [c for c in legal.cards if c not in throw]
                throw = (*throw, *rest[: legal.min_count - len(throw)])
            return Draw(throw)
        if "stack" in acts:
            return Stack(stack_choice(list(legal.cards), rng))
        if "run_twice" in acts:
            return RunTwice(True)  # (the same chances, less luck: issue 27)
        if "declare" in acts:
            odds = self._odds(view)
            side = odds.best_declare if odds is not None else None
            if side not in legal.sides:
                side = _plan_521(_cards(view.my_cards))
            return Declare(side if side in legal.sides else legal.sides[0])
        return self._bet(view, legal)

    def _view_equity(self, view: HandView) -> Odds:
        from rollem.odds import view_equity

        if draws_left(view):
            return self._drawn_odds(view)
        return view_equity(view, samples=self.samples, rng=self.rng, game=self.game)

    def _drawn_odds(self, view: HandView, hands: int = 10) -> Odds:
        """5-2-1 before a draw (R-521-2, R-521-4): the odds of the hand after its
        own planned draws (:func:`draw_choice`), averaged over ``hands`` sampled
        replacements, not of the hand as it stands."""
        from rollem.odds import Odds, r521_odds
        from rollem.odds.r521 import best_declaration
        from rollem.odds.view import read_view

        info = read_view(view)
        opponents = [(o.known if o.known is not None else o.up,
                      0 if o.known is not None else o.hidden) for o in info.opponents]
        if not opponents:
            from rollem.odds import view_equity

            return view_equity(view, samples=self.samples, rng=self.rng, game=self.game)
        unseen = unseen_cards(view)
        mine = _cards(view.my_cards)
        draws = draws_left(view)
        per = max(20, self.samples // hands)
        shares = {"high": 0.0, "low": 0.0, "both": 0.0}
        outright = {"high": 0.0, "low": 0.0, "both": 0.0}  # (each half won outright)
        win = tie = 0.0
        for _ in range(hands):
            after, thrown = after_draws(mine, draws, unseen, self.rng, draw_choice)
            out = [int(c) for c in thrown] + [c for c in info.seen_out if c not in after]
            o = r521_odds([int(c) for c in after], opponents, out=out, samples=per,
                          rng=self.rng)
            assert o.declare is not None
            for side in shares:
                shares[side] += o.declare[side] / hands
            for side, p in (("high", o.high), ("low", o.low), ("both", o.scoop)):
                outright[side] += (p or 0.0) / hands
            win += o.win / hands
            tie += o.tie / hands
        # the project's one rule (stop 54): the greatest share; on a tie the side the
        # hand wins outright more often, then the safer one (was list order: high)
        best = best_declaration(shares, outright)
        return Odds(win=win, tie=tie, lose=max(0.0, 1.0 - win - tie), equity=shares[best],
                    method="monte-carlo", samples=hands * per, stderr=0.0,
                    game="rollem521", declare=shares, best_declare=best)

    def chances(self, view: HandView) -> Odds | None:
        """The seat's odds from ``view`` (any game :func:`rollem.odds.view_equity`
        knows, a game file's with :attr:`game` set), cached per state of the cards;
        ``None`` when the calculator cannot answer."""
        return self._odds(view)

    def _odds(self, view: HandView) -> Odds | None:
        """The seat's odds, computed once per state of the cards: later decisions of
        the same betting round reuse them until a card is seen or a player folds.
        ``None`` when the calculator cannot answer (:class:`rollem.odds.OddsError`)."""
        from rollem.odds import OddsError

        key = (view.round, view.pending, tuple(view.board), tuple(view.dead),
               tuple(view.wild_ranks), tuple(view.my_pool),
               tuple((tuple(s.cards), s.folded) for s in view.seats))
        if self._cached is None or self._cached[0] != key:
            try:
                odds: Odds | None = self.odds(view)
            except OddsError:
                odds = None
            self._cached = (key, odds)
        return self._cached[1]

    def _bet(self, view: HandView, legal: Legal) -> object:
        acts = legal.actions
        odds = self._odds(view)
        live = sum(1 for s in view.seats if s.dealt and not s.folded)
        fair = 1.0 / max(live, 1)
        equity = float(odds.equity) if odds is not None else fair  # no odds: play it even
        in_middle = view.pot + sum(s.bet for s in view.seats)
        to_call = legal.call_amount if "call" in acts else 0
        short = short_stack_push(view, legal, equity)  # a tournament's end (issue 28)
        if short is not None:
            return short
        strong = equity >= max(0.5, 1.7 * fair) or equity >= 0.8
        can_raise = "raise" in acts or "bet" in acts
        if can_raise and strong:
            return self._size(legal, view.current_bet, in_middle + to_call)
        if to_call == 0:
            if can_raise and equity >= 1.25 * fair and live <= 3:
                return self._size(legal, view.current_bet, in_middle)
            if can_raise and self._mix(self.bluff):
                return self._size(legal, view.current_bet, in_middle)
            return Check()
        price = to_call / (in_middle + to_call)
        if equity >= price or "fold" not in acts:  # a bring-in posts or completes
            return Call()
        return Fold()

    def _size(self, legal: Legal, current_bet: int, pot: int) -> object:
        """A bet or raise: the fixed size, or to about two thirds of the pot over the
        current bet in pot/no-limit (within the legal bounds)."""
        lo, hi = legal.min_to, legal.max_to
        target = lo if lo == hi else min(hi, max(lo, current_bet + (2 * pot) // 3))
        return Bet(target) if "bet" in legal.actions else Raise(target)


register_level("basic", BasicBot)
