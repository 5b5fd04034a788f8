"""The ``strong`` bot: reads opponents, bets by expected value against their
weighted ranges, plays every card choice by simulation.

Every decision comes from the seat's :class:`rollem.engine.HandView` only.

- **Ranges**: :func:`rollem.bots.strong.worlds.sample_worlds` deals the rest of
  the hand ``samples`` times; :class:`rollem.bots.strong.reads.OpponentBook`
  weights each world by how likely each opponent's actions in this hand were
  with its cards there, with per-opponent exponents learned over the session
  (a maniac's raises say little, a tight player's a lot; a calling station's
  calls nothing).
- **Showdowns** (Stop, Drop and Roll; issue 31, eleventh pass): told each
  hand's end (``observe_hand_end``), it keeps, per opponent and line (a
  last-round bet or raise, after a check of that player earlier in the hand
  or not), where the hands that player showed down stood in its reads when it
  faced them, and recalibrates the reads of that line by them
  (:mod:`rollem.bots.strong.showdowns`; ``showdown_reads``).
- **Trap lines** (issue 31, twelfth pass; ``trap_lines``, off by default: level
  in play against ``strongtrap`` and ``trapper``): heads-up against a
  player seen to check-raise more than the bot itself
  (:func:`rollem.bots.strong.traps.trap_index`), its bets and raises with no
  check of its own in the hand are called and raised lighter (its range lost
  the hands it slow-plays; ``trap_thin``, off, would also make thin bets into
  its checks checks); against a player never seen to check-raise it plays as
  without them.
- **Betting** (every game, any structure): the weighted equity ``e`` (5-2-1:
  of its best declaration, R-521-9; Five Card Roll Your Own against one or two
  opponents: the pool-tracking odds of :func:`rollem.odds.view_equity` scaled
  by the weighted / unweighted ratio of the worlds, too slow with more)
  against the pot odds. It bets or raises
  for value when ``e`` clears a threshold that grows with the number of
  opponents, calls when ``e`` pays the price (with a margin before the last
  round; 5-2-1 multiway facing one bet in round 1, from half the price and
  no margin, with two draws and five betting rounds to come; 5-2-1 facing an
  all-in or calling all in, the exact price of the chips it can win and no
  margin, as no betting is to come), checks when
  free, folds otherwise (never when it could check).
  Heads-up only, from the second half of the hand, it bluffs weak hands at
  the frequency that makes its bets hard to read (bluffs : value bets about
  ``bet : pot + bet``) unless the opponent seldom folds; it slow-plays a
  very strong hand now and then before the last round. No bluffs into
  several players.
- **Card choices** (:mod:`rollem.bots.strong.choices`): keep three, expose,
  draw and stack by simulating the rest of the hand per option, stacking
  orders randomised among near-equal ones.
- **Declare** (R-521-8): the side with the greatest expected share over the
  weighted worlds; heads-up the opponent declaring by the percentile model
  (:func:`rollem.bots.strong.declare.declare_game` with ``declare_rounds``
  rounds of fictitious play: 0 by default, as the game's best-responding
  opponent declared against measured worse: against ``basic`` it led to
  both-ways declares on ace-high that a plain high declarer beat);
  multiway by the model too (``answer_declares``: each opponent declaring
  its best share in the world, :func:`rollem.bots.strong.declare.answer_sides`,
  read the last round's equity better but cost in play).
- **Other games** (the standard games, a game file's): the worlds model only
  the three home games, so there the card choices and the declare are
  ``basic``'s and the betting is the thresholds above on ``basic``'s odds
  (:func:`rollem.odds.view_equity`, every opponent's hidden cards random):
  no reads, no expected-value bets or bluffs that need the worlds.
- **Stack orders and exposes** (R-521-6, R-521-7; R-RYO-3, R-RYO-5): a
  player keeps down the cards that tell most
  (:func:`rollem.bots.strong.worlds.stack_likelihood`,
  :func:`rollem.bots.strong.worlds.expose_likelihood`); worlds against that
  model weigh :data:`rollem.bots.strong.worlds.HIDER_STRAY` (``stack_reads``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from rollem.bots.basic import BasicBot
from rollem.bots.mixing import Coin, Mixing, Planned
from rollem.bots.strong.choices import card_action, declare_choice
from rollem.bots.strong.gains import bet_gain, multi_bet_gain, pot_raise_to
from rollem.bots.strong.reads import OpponentBook, Tendencies, round_number
from rollem.bots.strong.showdowns import ShowdownBook, line_faced
from rollem.bots.strong.traps import (
    checked_in_hand,
    checked_this_round,
    ended_index,
    trap_index,
)
from rollem.bots.strong.worlds import Worlds, sample_worlds
from rollem.engine.actions import Bet, Call, Check, Declare, Fold, Raise, RunTwice
from rollem.engine.decisions import Legal
from rollem.engine.views import HandView

if TYPE_CHECKING:
    from rollem.engine.game import Game

__all__ = ["StrongBot"]

MODELLED = frozenset({"sdr", "rollyourown", "rollem521"})
"""The games the worlds model (:func:`rollem.bots.strong.worlds.sample_worlds`)."""
_ROUNDS = {"sdr": 4, "rollyourown": 4, "rollem521": 6}
"""The number of the last betting round of the games with reads (counted by
:func:`rollem.bots.strong.reads.round_number`: 5-2-1's file names its rounds,
issue 26; the round after an optional declare is past it). Elsewhere no round counts
as the last, deliberately: without reads the bot's equity is against random
hands, and the call margin on every round stands in for the range a bet comes
from (calling the last round by the price alone cost against ``basic``
heads-up, the same 3,000 deals: draw5 -4.2 BB/100 against -2.3, hold'em +3.1
against +4.8)."""


def _ess(weights: np.ndarray) -> float:
    """The effective number of equally weighted worlds: ``sum(w)**2 / sum(w**2)``."""
    sq = float((weights * weights).sum())
    return float(weights.sum()) ** 2 / sq if sq > 0 else 0.0


def _bets_this_round(view: HandView) -> int:
    """Bets and raises made so far in the current betting round."""
    n = 0
    for e in reversed(view.events):
        kind = e.get("kind")
        if kind == "round":
            break
        n += kind in ("bet", "raise")
    return n


def _this_round(view: HandView) -> list[dict[str, object]]:
    """The events of the current betting round (after its ``round`` event)."""
    out: list[dict[str, object]] = []
    for e in reversed(view.events):
        if e.get("kind") == "round":
            break
        out.append(dict(e))
    return out[::-1]


def _weighted_median(z: np.ndarray, weights: np.ndarray) -> float:
    """The weighted median of ``z`` (``weights`` not all zero)."""
    order = np.argsort(z)
    cum = np.cumsum(weights[order])
    return float(z[order][min(len(z) - 1, int(np.searchsorted(cum, cum[-1] / 2)))])


def _up_cards(view: HandView, seat: int) -> list[int]:
    """``seat``'s face-up cards in ``view``."""
    from rollem.cards import parse_card

    sv = view.seats[seat]
    return [int(parse_card(c)) for c, u in zip(sv.cards, sv.up, strict=False)
            if u and c is not None]


def _four_to_straight_flush(cards: list[int]) -> bool:
    """Whether four of ``cards`` are of one suit within a span of five ranks (the
    ace also low, R-C-2): a straight flush draw showing."""
    for suit in range(4):
        ranks = {c >> 2 for c in cards if c & 3 == suit}
        if 12 in ranks:
            ranks.add(-1)
        for low in range(-1, 9):
            if len(ranks & set(range(low, low + 5))) >= 4:
                return True
    return False


def _call_closes_betting(view: HandView, to_call: int) -> bool:
    """Whether calling ``to_call`` leaves ``view.seat`` no betting to come: the
    call puts it all in, or every other player still in is all in already."""
    if view.seat is None:
        return False
    if to_call >= view.seats[view.seat].stack:
        return True
    return all(s.stack == 0 for s in view.seats
               if s.dealt and not s.folded and s.seat != view.seat)


def _all_in_price(view: HandView, to_call: int) -> float:
    """The share of the pot a call of ``to_call`` (chips) must win when it closes
    the seat's betting: the call over the pot it can win, that is without what
    others bet beyond the seat's whole stake (their uncalled excess goes back or
    to a side pot the seat is not in, R-C-9)."""
    assert view.seat is not None
    mine = view.seats[view.seat].bet + to_call
    pot = view.pot + sum(min(s.bet, mine) for s in view.seats if s.seat != view.seat)
    return to_call / max(1, pot + mine)


def _ryo_shown_values(view: HandView) -> dict[int, float]:
    """Roll Your Own's hand end: each opponent who showed all five cards, its hand's
    high value with the hand's wild cards (R-RYO-9, :func:`rollem.odds.evaluate.wild5`
    under the table's options), as the worlds' ``"high"`` values; none without a
    wild card named (the hand ended before it)."""
    from rollem.cards import parse_card, parse_rank
    from rollem.odds.evaluate import wild5

    wild = [parse_rank(r) for r in view.wild_ranks]
    if not wild:
        return {}
    opts = {"wild_duplicates": bool(view.options.get("wild_duplicates", False)),
            "natural_beats_wild": bool(view.options.get("natural_beats_wild", False))}
    out: dict[int, float] = {}
    for s in view.seats:
        if s.seat == view.seat or s.folded or len(s.cards) != 5 \
                or any(c is None for c in s.cards):
            continue
        cards = np.asarray([[[int(parse_card(c)) for c in s.cards if c is not None]]],
                           dtype=np.int64)
        out[s.seat] = float(wild5(cards, wild, **opts)[0, 0])
    return out


def _hand_key(view: HandView) -> object:
    """A key equal for every view of one hand (its first events, as
    :meth:`OpponentBook.observe` notices a new hand)."""
    return tuple(sorted(str(e) for e in view.events[:3]))


def _rounds_begun(view: HandView) -> int:
    """The betting rounds begun in ``view``'s hand (its ``round`` events): the
    number :class:`rollem.bots.strong.reads.OpponentBook` files the answers of
    the current round under."""
    return sum(1 for e in view.events if e.get("kind") == "round")


def _bisect(priced: Callable[[float], float], rate: float) -> float:
    """Where in ``[-0.3, 1.3]`` the falling function ``priced`` of a step's
    threshold comes to ``rate`` (30 halvings); an end when it stays above or
    below ``rate`` over the whole span."""
    lo, hi = -0.3, 1.3
    if priced(lo) <= rate:
        return lo
    if priced(hi) >= rate:
        return hi
    for _ in range(30):
        mid = (lo + hi) / 2
        if priced(mid) > rate:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _round_number(view: HandView) -> int:
    """The betting round counted from 1 (:func:`rollem.bots.strong.reads.round_number`;
    1 when the round is not known)."""
    return round_number(view) or 1


class StrongBot(Mixing):
    """The ``strong`` level (see the module doc).

    Class attributes (tuned in ``bench/bench_league.py``): ``value_hu`` and
    ``raise_hu`` (heads-up equity to bet, to raise), ``call_margin`` (equity
    above the price needed to call before the last round, heads-up; with
    more players in, scaled by 2 / players in, as a fair share shrinks), ``bluffs`` (scale of
    the bluffing frequency), ``slow_play`` (chance of checking a very strong hand
    before the last round), ``river_ev`` (heads-up bets when free to check by
    expected value against the calling range: 2 in every round, 1 in the last
    round only, 0 never: by threshold), ``raise_ev`` (heads-up, facing a bet,
    also raises when the expected gain over calling or folding says so: an
    opponent who folds to raises too often), ``stack_reads`` (read the opponents'
    5-2-1 stack orders and Roll Your Own exposes), ``declare_rounds`` (5-2-1: rounds of fictitious
    play in the declare game), ``first_call_521`` (5-2-1 multiway, facing one
    bet in round 1: the share of the price the equity must pay, no margin;
    calling instead of the old folds there gained chips on the same deals,
    replayed), ``answer_declares`` (5-2-1 multiway: the opponents in the
    worlds declare their best share, not by the percentile model; off, as
    it cost 1 vs 5), ``reraise_share`` (the last round, facing a raise: the
    share against the raisers' continuing range a re-raise needs, issue 31,
    :meth:`_reraise_ok`; in the (game, structure) pairs of
    ``reraise_gate_cells`` that gate applies on every betting round, not the
    last alone; none by default: in Roll Your Own no limit, where before the
    wild card it re-raised raise wars to all in at read equities of 0.6-0.86
    against ``strongtrap``, it was level with the bot without it, issue 31,
    twenty-fifth pass, ``docs/dev/league.md``), ``draws_shown``
    (5-2-1: how much more the worlds where an opponent showing four to a
    straight flush has made it weigh,
    :meth:`_draws_shown`), ``price_check_raises`` (heads-up, free to check after
    the opponent checked: the bet's gain counts the opponent's check-raises,
    from the top of its range at its observed check-raise rate; in pot and no
    limit at the greater of that rate and its raise rate; issue 31),
    ``trap_lines`` (off: level with the bot without it in play, issue 31,
    twelfth pass, ``docs/dev/league.md``; on, heads-up, against a player seen
    to check-raise more than the bot itself,
    :func:`rollem.bots.strong.traps.trap_index`: facing its bet or raise with
    no check of its own in the hand, a call needs ``trap_call``
    and a raise ``trap_raise`` times the index less equity; after its check a
    bet's gain must clear ``trap_thin`` times the index of the pot, 0 by
    default: it lost chips to ``trapper`` and ``strongtrap``; issue 31, twelfth
    pass), ``check_raise_range`` (the check-raises the bet's gain prices after
    the opponent's check come to its seen check-raise rate over its range
    there, :meth:`_check_raise_from`, not the top of all hands at that rate;
    issue 31, thirteenth pass), ``count_hand_ends`` (at each hand's end the
    book counts the answers after a check that ended the hand,
    :meth:`rollem.bots.strong.reads.OpponentBook.observe_end`: without them a
    check-raise rate reads about twice the real; issue 31, thirteenth pass),
    ``last_round_check_raises`` (on the last betting round the bet's gain prices
    that round's own check-raise rate, :meth:`_check_raise_rate`; issue 31,
    thirteenth pass; the three off by default: together they priced the
    check-raises as they came but played behind the bot without them against
    ``strongtrap``, ``docs/dev/league.md``), ``round_prices`` (fixed limit,
    heads-up, free to bet after the opponent's check: the bet's gain prices its
    continues and its check-raises at its own rates after a check in this
    betting round, the answers that ended hands counted,
    :meth:`Tendencies.after_check_rates`, over its range after the check,
    :meth:`_after_check_prices`; ``round_prices_range``: each round's
    continue rate shrunk toward the continues main's step prices over the
    range rather than toward the rate over every round; issue 31, fourteenth
    pass; off while measured, ``docs/dev/league.md``),
    ``check_raise_bluffs`` (fixed limit, heads-up, facing a bet after its own
    check in the round: a raise, a check-raise, is priced at the opponent's
    seen folds to the bot's check-raises over the bettor's range,
    :attr:`Tendencies.fold_to_check_raise_rate`, counted at each hand's end,
    :meth:`OpponentBook.observe_check_raise_answers`, in place of the raise's
    price at its fold rate to raises; issue 31, fifteenth pass: ``strong``'s
    own policy folded to most check-raises, and the raise in place of a fold
    there gained 3.9 chips a spot against ``strongtrap``; off while measured,
    ``docs/dev/league.md``),
    ``trap_reads`` (a check-raise of an opponent seen to check-raise more than
    the bot itself, both counted alike at each hand's end,
    :meth:`rollem.bots.strong.reads.OpponentBook.observe_traps`,
    :func:`rollem.bots.strong.traps.ended_index`, is read from wider than the
    top half of its raises, up to
    :data:`rollem.bots.strong.reads.CHECK_RAISE_WIDE` times its raise rate at
    index 1; against a player check-raising no more than the bot, as
    ``strong`` itself, the reads stay; issue 31, sixteenth pass: level with
    the bot without it against ``strongtrap``, off, ``docs/dev/league.md``),
    ``match_check_raises`` (fixed limit, heads-up: the check-raises of
    ``check_raise_bluffs`` only against an opponent check-raising more than
    the bot itself, both counted alike at each hand's end, so the bot adds
    them only while it shows fewer; issue 31, seventeenth pass: off,
    ``docs/dev/league.md``),
    ``check_calls`` (a call after the caller's own check in the same betting
    round, from an opponent check-raising more than the bot itself, both
    counted alike at each hand's end, :func:`rollem.bots.strong.traps.ended_index`:
    read as capped below the top of its range it check-raises with,
    :func:`rollem.bots.strong.reads.check_call_top`, by that index; a player
    who raises every strong hand it checked calls with the rest; issue 31,
    twenty-fourth pass, ``docs/dev/league.md``),
    ``hu_check_raises`` (heads-up, the check-raises the bet's gain prices after
    the opponent's check, and how much its checks say, come from its
    check-raise rate in spots with two players in,
    :attr:`rollem.bots.strong.reads.Tendencies.check_raise_rate_hu`, not over
    every spot: ``strongtrap``'s check-raise threshold falls with the players
    in, so six-handed it check-raises middling hands, heads-up only its
    slow-plays; issue 31, twenty-fourth pass, ``docs/dev/league.md``),
    ``check_line`` (heads-up, fixed limit, in the games of
    ``check_line_games``, Roll Your Own only: first to act on the last betting
    round, the bet's gain over a check counts what the check gains from the
    opponent's bets into it, priced at its bets seen into the bot's last-round
    checks and its folds seen to the bot's check-raises, :meth:`_check_gain`;
    against a player who bets into most checks and folds to check-raises a
    strong hand checks to check-raise, against a caller it bets; issue 31,
    twenty-first pass, ``docs/dev/league.md``),
    ``multi_bets`` (two or more opponents in, free to bet below the value
    threshold, in the (game, structure) pairs of ``multi_bet_cells``, SDR
    fixed limit only: it bets
    where the bet's gain over a check, each opponent folding on its own at its
    seen fold rate, :meth:`_multi_bet_gain`, is above 0.05 x pot; issue 31,
    twenty-second pass: before, it checked every such hand, and bets there
    gained chips in forks, ``docs/dev/league.md``),
    ``showdown_games`` (the games whose showdowns recalibrate the reads of
    last-round bets, ``showdown_reads``: Stop, Drop and Roll; Roll Your Own's
    shown hands valued with their wild cards when added, off: the league's
    heads-up sessions show about one such spot in 150 hands, issue 31,
    twenty-third pass, ``docs/dev/league.md``),
    ``min_ess`` and ``more_worlds`` (against two
    or more opponents, up to ``more_worlds`` more samplings of ``samples`` worlds while the reads'
    weights are worth fewer than ``min_ess`` equal worlds).

    Args:
        rng: the bot's own seeded ``Random`` (sampling, mixing).
        samples: worlds sampled per betting decision.
        worlds: simulated deals per option of a card choice (at most 32).
        book: the opponents' tendencies (default: a new book; one bot object per
            seat over a session learns as it plays).
    """

    value_hu = 0.56
    raise_hu = 0.66
    call_margin = 0.10
    bluffs = 1.0
    slow_play = 0.15
    river_ev = 2.0
    raise_ev = True
    stack_reads = True
    declare_rounds = 0
    min_ess = 60.0
    more_worlds = 7
    first_call_521 = 0.5
    answer_declares = False
    reraise_share = 0.55
    draws_shown = 3.0
    price_check_raises = True
    showdown_reads = True
    trap_lines = False
    check_raise_range = False
    count_hand_ends = False
    last_round_check_raises = False
    round_prices = False
    round_prices_range = False
    check_raise_bluffs = False
    trap_reads = False
    match_check_raises = False
    check_calls = False
    hu_check_raises = False
    check_line = True
    multi_bets = True
    multi_bet_cells: frozenset[tuple[str, str]] = frozenset({("sdr", "fixed-limit")})
    reraise_gate_cells: frozenset[tuple[str, str]] = frozenset()
    check_line_games = frozenset({"rollyourown"})
    showdown_games = frozenset({"sdr"})
    trap_thin = 0.0
    trap_call = 0.06
    trap_raise = 0.08

    level = "strong"

    def __init__(self, rng: random.Random | None = None, *, samples: int = 300,
                 worlds: int = 32, book: OpponentBook | None = None) -> None:
        if not 1 <= worlds <= 32:
            raise ValueError(f"worlds must be 1 to 32 simulated deals per option, got {worlds}")
        if samples < 1:
            raise ValueError(f"samples must be at least 1, got {samples}")
        self.worlds_per_option = worlds
        self.rng = rng if rng is not None else random.Random()
        self.samples = samples
        self.book = book if book is not None else OpponentBook()
        self.showdowns = ShowdownBook()
        """Per opponent, where its shown hands stood in the reads facing its
        last-round bets (:mod:`rollem.bots.strong.showdowns`)."""
        self._cached: tuple[object, Worlds] | None = None
        self._pool: tuple[object, float | None] | None = None
        self._grown: object = None
        """The decision (cards' key, events seen) whose worlds :meth:`_weighted` last
        grew: it grows them once per decision, so :meth:`policy` and the
        :meth:`act` after it on the same view read the same worlds."""
        self._basic: BasicBot | None = None
        self.game: Game | None = None
        """A game file's game the ``rollem.games`` registry does not hold (a web
        table's own game), for the odds in games the worlds do not model; set by
        the caller, as for ``basic``."""
        self._coin: Coin | None = None
        self._planned = Planned()

    def new_opponent(self, seat: int) -> None:
        """Someone new sits at ``seat`` (a web table's seat changed hands): forget
        what was read of the player before (:meth:`OpponentBook.forget`)."""
        self.book.forget(seat)
        self.showdowns.forget(seat)

    def observe_hand_end(self, view: HandView) -> None:
        """The hand this bot played ended; ``view`` is its seat's view of the end
        (the cards shown down, :func:`rollem.hand_ends.tell_hand_end`). In the games
        of :attr:`showdown_games` (Stop, Drop and Roll; Roll Your Own when added):
        each opponent that showed down a last-round bet or raise this bot faced
        adds where its hand stood in the read then
        (:class:`rollem.bots.strong.showdowns.ShowdownBook`)."""
        from rollem.cards import parse_card
        from rollem.odds.evaluate import high5

        line = self.check_line and view.game in self.check_line_games
        if self.check_raise_bluffs or self.match_check_raises or line:
            self.book.observe_check_raise_answers(view.events, view.seat)
        if line:
            self.book.observe_into_check(view.events, view.seat, view.game)
        if self.trap_reads or self.match_check_raises or self.check_calls:
            self.book.observe_traps(view.events, view.seat)
        if self.count_hand_ends or self.round_prices:
            self.book.observe_end(view.events, view.seat, view.game,
                                  pooled=self.count_hand_ends)
        values: dict[int, float] = {}
        if view.game == "rollyourown" and view.game in self.showdown_games:
            values = _ryo_shown_values(view)
        elif view.game == "sdr" and len(view.board) == 3:
            board = [int(parse_card(c)) for c in view.board]
            for s in view.seats:
                if s.seat == view.seat or s.folded or len(s.cards) != 2 \
                        or any(c is None for c in s.cards):
                    continue
                hole = [int(parse_card(c)) for c in s.cards if c is not None]
                values[s.seat] = float(high5(np.asarray([hole + board], dtype=np.int64))[0])
        self.showdowns.shown(_hand_key(view), values)

    def _plain(self) -> BasicBot:
        """``basic``, sharing this bot's ``Random``: the card choices, the declare
        and the odds of the games outside :data:`MODELLED`."""
        if self._basic is None:
            self._basic = BasicBot(self.rng)
        self._basic.game = self.game
        return self._basic

    def act(self, view: HandView) -> object:
        """The action for ``view.seat`` in ``view.legal``.

        Raises:
            ValueError: if the view offers no legal options.
        """
        legal = view.legal
        if legal is None or not legal.actions:
            raise ValueError("the strong bot was asked to act with no legal options")
        self.book.observe(view.events, view.seat, view.game)
        action = self._act(view, legal)
        if self._coin is None:  # a real action, not one :meth:`policy` enumerates
            self.book.acted(view, action)
            self._note_showdown_spot(view)
        return action

    def _showdown_spot(self, view: HandView) -> tuple[int, str] | None:
        """The last betting round heads-up in a game of :attr:`showdown_games`,
        facing an opponent's bet or raise: that opponent and its line
        (:func:`showdowns.line_faced`), else ``None``."""
        if not self.showdown_reads or view.game not in self.showdown_games \
                or view.game not in _ROUNDS or round_number(view) != _ROUNDS[view.game]:
            return None
        live = [s.seat for s in view.seats if s.dealt and not s.folded and s.seat != view.seat]
        if len(live) != 1:
            return None
        found = line_faced(view.events, view.seat)
        return found if found is not None and found[0] == live[0] else None

    def _note_showdown_spot(self, view: HandView) -> None:
        """After a real decision: keep the read range of a showdown spot
        (:meth:`_showdown_spot`) for the hand's end, the read before the
        showdowns' recalibration."""
        found = self._showdown_spot(view)
        if found is None:
            return
        w = self.worlds(view)
        high = w.extra.get("high")
        if w.seats != [found[0]] or not isinstance(high, np.ndarray) or high.ndim != 2:
            return
        self.showdowns.note(_hand_key(view), found[0], found[1], high[:, 1],
                            self._weights(view, w, showdowns=False))

    def _act(self, view: HandView, legal: Legal) -> object:
        planned = self._planned.take(view)
        if planned is not None:
            return planned
        acts = legal.actions
        if "run_twice" in acts:
            return RunTwice(True)  # (the same chances, less luck: issue 27)
        if view.game not in MODELLED and not any(
                a in acts for a in ("check", "call", "bet", "raise", "fold")):
            return self._plain().act(view)  # a card choice or declare the worlds cannot play
        if "declare" in acts:
            return Declare(declare_choice(self._declare_shares(view), legal.sides))
        if any(a in acts for a in ("discard", "expose", "wild", "draw", "stack")):
            return card_action(view, self.rng, worlds=self.worlds_per_option)
        return self._bet(view, legal)

    # -- ranges -----------------------------------------------------

    def worlds(self, view: HandView) -> Worlds:
        """Sampled worlds for ``view``, reused while the cards do not change."""
        key = (view.round, tuple(view.board), tuple(view.wild_ranks),
               tuple((tuple(s.cards), s.folded) for s in view.seats))
        if self._cached is None or self._cached[0] != key:
            from rollem.odds import OddsError

            try:
                worlds = sample_worlds(view, self.samples, self.rng,
                                       answer_declares=self.answer_declares)
            except OddsError:  # too few cards left to deal the worlds: an even share
                live = sum(1 for s in view.seats if s.dealt and not s.folded)
                sides = ("high", "low", "both") if view.game == "rollem521" else ("pot",)
                worlds = Worlds({k: np.full(1, 1.0 / max(1, live)) for k in sides},
                                np.zeros((1, 0)), [])
            self._cached = (key, worlds)
        return self._cached[1]

    def equities(self, view: HandView) -> dict[str, float]:
        """Weighted expected share per declaration (``"pot"`` outside 5-2-1;
        outside :data:`MODELLED`, ``basic``'s odds: an even share if it has none)."""
        if view.game not in MODELLED:
            odds = self._plain().chances(view)
            if odds is None:
                live = sum(1 for s in view.seats if s.dealt and not s.folded)
                return {"pot": 1.0 / max(1, live)}
            return dict(odds.declare) if odds.declare else {"pot": float(odds.equity)}
        w = self.worlds(view)
        if not w.seats:
            return {k: float(v.mean()) for k, v in w.share.items()}
        w, weights = self._weighted(view, w)
        read = w.equity(weights)
        if view.game == "rollyourown" and len(w.seats) <= 2:
            # the odds calculator tracks the pool (R-RYO-2..R-RYO-7) better than the
            # worlds do: its equity, moved by the reads' ratio
            base = self._pool_equity(view)
            plain = w.equity()["pot"]
            if base is not None and plain > 0:
                return {"pot": min(1.0, base * read["pot"] / plain)}
        return read

    def _weights(self, view: HandView, w: Worlds, *, showdowns: bool = True) -> np.ndarray:
        """Per-world weights: the reads of the opponents' actions times what their
        cards alone say (5-2-1 stack orders, :attr:`Worlds.like`); facing a
        last-round bet heads-up in Stop, Drop and Roll, recalibrated by where
        that opponent's shown hands stood in the reads on its line
        (:meth:`ShowdownBook.factor`; ``showdowns=False``: not)."""
        early = w.extra.get("early")
        wide = None
        if self.trap_reads:
            wide = {seat: ended_index(self.book.tendencies(seat), self.book.own)
                    for seat in w.seats}
        players = sum(1 for s in view.seats if s.dealt) if self.hu_check_raises else None
        capped = None
        if self.check_calls:
            capped = {seat: ended_index(self.book.tendencies(seat), self.book.own)
                      for seat in w.seats}
        weights = self.book.weights(view.game, view.events, w.seats, w.strength,
                                    early if isinstance(early, np.ndarray) else None, wide,
                                    capped, players)
        if w.like is not None and self.stack_reads:
            weights = weights * w.like
        if view.game == "rollem521" and self.draws_shown != 1.0:
            weights = weights * self._draws_shown(view, w)
        if showdowns:
            found = self._showdown_spot(view)
            high = w.extra.get("high")
            if found is not None and w.seats == [found[0]] and isinstance(high, np.ndarray) \
                    and high.ndim == 2:
                f = self.showdowns.factor(found[0], found[1], high[:, 1], weights)
                if f is not None:
                    weights = weights * f
        return weights

    def _draw_threat(self, view: HandView) -> bool:
        """5-2-1 (issue 31): whether an opponent still in shows four to a straight
        flush while this seat plays for high with less than a straight (R-C-2)
        more often than not over the weighted worlds: then it does not raise
        (a pair of aces raised into such boards and lost)."""
        if view.game != "rollem521" or not any(
                _four_to_straight_flush(_up_cards(view, s.seat)) for s in view.seats
                if s.seat != view.seat and s.dealt and not s.folded):
            return False
        w = self.worlds(view)
        if not w.seats:
            return False
        # the worlds after the weighting: multiway it may sample more of them
        w, weights = self._weighted(view, w)
        high = w.extra.get("high")
        if not isinstance(high, np.ndarray) or high.ndim != 2 or weights.sum() <= 0:
            return False
        eqs = w.equity(weights)
        if max(eqs, key=lambda k: eqs[k]) == "low":
            return False
        p = weights / weights.sum()
        return float((p * ((high[:, 0] >> 20) < 4)).sum()) > 0.5

    def _draws_shown(self, view: HandView, w: Worlds) -> np.ndarray:
        """5-2-1 (issue 31): an opponent still in with four to a straight flush
        face up more often holds the straight, flush or straight flush than the
        card-only worlds say: those worlds weigh :attr:`draws_shown` times more."""
        out = np.ones(len(w.strength))
        high = w.extra.get("high")
        if not isinstance(high, np.ndarray) or high.ndim != 2:
            return out
        for j, seat in enumerate(w.seats):
            if _four_to_straight_flush(_up_cards(view, seat)):
                out = out * np.where((high[:, j + 1] >> 20) >= 4, self.draws_shown, 1.0)
        return out

    def _weighted(self, view: HandView, w: Worlds) -> tuple[Worlds, np.ndarray]:
        """The worlds and their weights; against two or more opponents, more worlds
        (``samples`` at a time, at most :attr:`more_worlds` times) while the weights' effective
        sample size ``sum(w)**2 / sum(w**2)`` is below :attr:`min_ess`: every
        opponent's reads multiply, and by the last 5-2-1 round six-handed 300
        worlds weighed as about 5 (measured), so its calls in the biggest pots
        followed a handful of worlds.

        Once per decision (the same cards, the same events): later calls for it
        (the other checks of one :meth:`act`, every path of :meth:`policy`, the
        ``act`` after ``policy``) reuse the grown worlds as they are. Growing
        again on each call changed the worlds between ``policy`` and ``act``:
        three-handed, ``policy`` said fold and ``act`` called."""
        weights = self._weights(view, w)
        if len(w.seats) < 2 or self._cached is None:
            return w, weights
        key = self._cached[0]
        decision = (key, len(view.events))
        if self._grown == decision:
            return w, weights
        self._grown = decision
        for _ in range(self.more_worlds):
            if _ess(weights) >= self.min_ess:
                break
            from rollem.odds import OddsError

            try:
                more = sample_worlds(view, self.samples, self.rng,
                                     answer_declares=self.answer_declares)
            except OddsError:  # the first sample worked, so not expected: keep it
                break
            if more.seats != w.seats:
                break
            w = w.joined(more)
            self._cached = (key, w)
            weights = self._weights(view, w)
        return w, weights

    def _declare_shares(self, view: HandView) -> dict[str, float]:
        """R-521-8: expected shares per side from the declare game over the weighted
        worlds (:func:`rollem.bots.strong.declare.declare_game`)."""
        from rollem.bots.strong.declare import declare_game

        w = self.worlds(view)
        if w.seats:
            w, weights = self._weighted(view, w)
        high, low = w.extra.get("high"), w.extra.get("low")
        if not w.seats or not isinstance(high, np.ndarray) or not isinstance(low, np.ndarray):
            return self.equities(view)
        return declare_game(high, low, weights,
                            rule=str(view.options.get("failed_both_rule", "carry")),
                            rounds=self.declare_rounds, answer=self.answer_declares)

    def _pool_equity(self, view: HandView) -> float | None:
        from rollem.odds import OddsError, view_equity

        key = ("odds", self._cached[0] if self._cached is not None else None)
        if self._pool is not None and self._pool[0] == key:
            return self._pool[1]
        try:
            eq: float | None = view_equity(view, samples=120, rng=self.rng,
                                           exact_limit=0).equity
        except OddsError:
            eq = None
        self._pool = (key, eq)
        return eq

    # -- betting ----------------------------------------------------

    def _bet(self, view: HandView, legal: Legal) -> object:
        acts = legal.actions
        eq = max(self.equities(view).values())
        live = sum(1 for s in view.seats if s.dealt and not s.folded)
        opponents = max(1, live - 1)
        pot = view.pot + sum(s.bet for s in view.seats)
        to_call = legal.call_amount if "call" in acts else 0
        can_raise = "raise" in acts or "bet" in acts
        last = view.game in _ROUNDS and round_number(view) == _ROUNDS[view.game]
        late = _round_number(view) > _ROUNDS.get(view.game, 4) // 2
        heads_up = opponents == 1
        value = self.value_hu if heads_up else min(self.value_hu, 1.45 / (opponents + 1))
        if to_call == 0 and can_raise and heads_up and self.river_ev and (
                last or self.river_ev >= 2) and view.game in MODELLED:
            if not last and eq >= 0.85 and self._mix(self.slow_play):
                return Check()  # slow-play now and then
            # after a trapper's check its range is uncapped: thin bets need more
            gain = self._bet_gain(view, legal, pot) - self._trap_thin(view) * pot
            if last and self._check_line_on(view):
                # first to act: a check is worth the opponent's bets into it too
                gain -= self._check_gain(view, legal, pot)
            if abs(gain) < 0.05 * pot:  # near-indifferent: mix, so bets tell less
                gain = -0.5 if self._mix(0.5) else 0.5
            return self._size(legal, view, pot, eq) if gain > 0 else Check()
        if to_call == 0:
            if can_raise and eq >= value:
                if heads_up and not last and eq >= 0.85 and self._mix(self.slow_play):
                    return Check()  # slow-play now and then
                return self._size(legal, view, pot, eq)
            if can_raise and heads_up and late and eq < 0.3 and self._bluff(view, legal, pot):
                return self._size(legal, view, pot, eq)
            if can_raise and not heads_up and self.multi_bets \
                    and (view.game, str(view.options.get("structure", "fixed-limit"))) \
                    in self.multi_bet_cells \
                    and self._multi_bet_gain(view, legal, pot) > 0.05 * pot:
                return self._size(legal, view, pot, eq)  # the field folds its checks
            return Check()
        price = to_call / (pot + to_call)
        raise_at = self.raise_hu if heads_up else min(0.7, 1.9 / (opponents + 1))
        # a trapper's bet or raise with no check of its own in the hand: its range
        # lost the hands it slow-plays, so call and raise it lighter
        light = self._trap_light(view) if heads_up else 0.0
        raise_at -= light * self.trap_raise
        if view.game not in MODELLED:
            # no reads: its equity is against random hands, not the bettor's
            # range, so it raises no lighter than ``basic`` (heads-up it raised
            # from 0.66 and lost to ``basic`` in draw5; from 0.8, the same 3000
            # deals: draw5 +8.0 BB/100, hold'em +7.3, stud +5.5)
            raise_at = max(raise_at, min(0.8, max(0.5, 1.7 / (opponents + 1))))
        gated = last or (view.game, str(view.options.get("structure", "fixed-limit"))) \
            in self.reraise_gate_cells
        if "raise" in acts and ((gated and view.game in MODELLED and _bets_this_round(view) >= 2
                                 and not self._reraise_ok(view, opponents))
                                or self._draw_threat(view)):
            acts = tuple(a for a in acts if a != "raise")  # call or fold by the price
        if "raise" in acts and eq >= raise_at:
            return self._size(legal, view, pot + to_call, eq)
        if "raise" in acts and heads_up and view.seat is not None \
                and view.game in MODELLED and checked_this_round(view.events, view.seat) \
                and view.options.get("structure", "fixed-limit") == "fixed-limit" \
                and self._check_raise_bluffs_on(view):
            # after its own check: a check-raise, priced at the opponent's folds to
            # the bot's check-raises over its range (issue 31, fifteenth pass)
            if self._raise_gain(view, legal, pot, to_call, check_raise=True) > 0.05 * pot:
                return self._size(legal, view, pot + to_call, eq)
        elif "raise" in acts and heads_up and self.raise_ev and self._raise_gain(
                view, legal, pot, to_call) > 0.05 * pot:
            return self._size(legal, view, pot + to_call, eq)  # folds to raises too often
        # the margin is a fraction of the fair share (half the pot heads-up)
        margin = 0.0 if last else self.call_margin * 2 / (opponents + 1)
        if view.game == "rollem521" and _call_closes_betting(view, to_call):
            # 5-2-1, facing an all-in (or calling all in): no betting to come, so
            # the exact price of the chips it can win, as on the last round; the
            # reads already widen the range of a player who moves in every hand
            # (issue 31: it folded its antes to every round-1 all-in)
            price, margin = _all_in_price(view, to_call), 0.0
        elif (view.game == "rollem521" and not heads_up and _round_number(view) == 1
                and _bets_this_round(view) <= 1):
            # 5-2-1 multiway, one bet before the first draw: two draws and five
            # betting rounds to come, so the price alone undersells the hand
            price, margin = price * self.first_call_521, 0.0
        if eq >= price + margin - light * self.trap_call:
            return Call()
        if "check" in acts:
            return Check()
        if "fold" not in acts:  # the stud bring-in: post it (call) or complete, never fold
            return Call()
        return Fold()

    def _check_line_on(self, view: HandView) -> bool:
        """Whether the bet's gain, heads-up on the last betting round, counts what
        a check would gain from the opponent's bets into it
        (:meth:`_check_gain`): with :attr:`check_line`, in fixed limit, in the
        games of :attr:`check_line_games`, first to act (the opponent has not
        checked in the round)."""
        if not self.check_line or view.game not in self.check_line_games \
                or view.options.get("structure", "fixed-limit") != "fixed-limit":
            return False
        live = [s.seat for s in view.seats if s.dealt and not s.folded and s.seat != view.seat]
        return len(live) == 1 and not any(
            e.get("kind") == "check" and e.get("seat") == live[0] for e in _this_round(view))

    def _check_gain(self, view: HandView, legal: Legal, pot: int) -> float:
        """Heads-up, fixed limit, first to act on the last betting round
        (:meth:`_check_line_on`): the chips a check gains from the opponent's bets
        into it over a check behind (:func:`gains.check_gain`). It bets from the
        top of its weighted range as often as the bot has seen it bet into the
        bot's last-round checks (:attr:`Tendencies.bet_rate_into_check_last`,
        counted at each hand's end, :meth:`OpponentBook.observe_into_check`),
        and calls the check-raise from the top of those bets as often as it was
        seen not to fold to the bot's check-raises
        (:attr:`Tendencies.fold_to_check_raise_rate`); both steps' thresholds
        by bisection over the range, as :meth:`_after_check_prices`. The
        check-raise is an answer only where the bot's share against the betting
        range clears its raise threshold (:attr:`raise_hu`): where it would
        only call, a check is worth a call (issue 31, twenty-first pass: priced
        as a check-raise, medium hands checked to ``maniac`` and only called
        its bet, where a bet was raised and paid two bets). Against a
        player who seldom bets into a check (a calling station) it is near 0 and
        the bot bets as before; against one who bets into most checks and folds
        its bets to raises a strong hand checks to check-raise (issue 31,
        twenty-first pass: first to act in Roll Your Own's last round, a check
        in place of the bet with equity 0.8 and over gained +0.73 +- 0.31 chips
        a spot against ``strongtrap``, ``docs/dev/league.md``)."""
        from rollem.bots.strong.gains import check_gain
        from rollem.bots.strong.reads import _step

        found = self._heads_up_range(view)
        if found is None:
            return 0.0
        w, weights, share = found
        t = self.book.tendencies(w.seats[0])
        strength = np.clip(w.strength[:, 0], 0, 1)
        bet = max(1, legal.min_to - view.current_bet)
        a = _bisect(lambda a: float((weights * _step(strength, a, 0.05)).sum()),
                    t.bet_rate_into_check_last)
        bets = _step(strength, a, 0.05)
        faced = weights * bets
        if faced.sum() <= 0:
            return 0.0
        faced = faced / faced.sum()
        c = _bisect(lambda c: float((faced * _step(strength, c, 0.05)).sum()),
                    1.0 - t.fold_to_check_raise_rate)
        # the check-raise only where the bot would raise the bet: its share
        # against the betting range at its heads-up raise threshold
        raises = float((faced * share).sum()) >= self.raise_hu
        return check_gain(pot, bet, share, bets, weights, _step(strength, c, 0.05),
                          check_raise=raises)

    def _check_raise_bluffs_on(self, view: HandView) -> bool:
        """Whether a raise facing a bet after the bot's own check is priced as a
        check-raise at the opponent's folds seen to the bot's check-raises
        (:meth:`_raise_gain` with ``check_raise``): always with
        :attr:`check_raise_bluffs`; with :attr:`match_check_raises` heads-up
        only against an opponent check-raising more than the bot itself, both
        counted alike at each hand's end
        (:func:`rollem.bots.strong.traps.ended_index` above 0), so the bot adds
        check-raises only while it shows fewer than that opponent (issue 31,
        seventeenth pass)."""
        if self.check_raise_bluffs:
            return True
        if not self.match_check_raises:
            return False
        live = [s.seat for s in view.seats if s.dealt and not s.folded and s.seat != view.seat]
        return len(live) == 1 and ended_index(self.book.tendencies(live[0]), self.book.own) > 0

    def _trap_opponent(self, view: HandView) -> tuple[int, float] | None:
        """Heads-up in a game with reads (:data:`MODELLED`), :attr:`trap_lines`
        on: the opponent still in and its trap index
        (:func:`rollem.bots.strong.traps.trap_index`, 0..1); else ``None``."""
        if not self.trap_lines or view.game not in MODELLED:
            return None
        live = [s.seat for s in view.seats if s.dealt and not s.folded and s.seat != view.seat]
        if len(live) != 1:
            return None
        return live[0], trap_index(self.book.tendencies(live[0]), self.book.own)

    def _trap_thin(self, view: HandView) -> float:
        """Free to bet heads-up after the opponent checked this round: the share of
        the pot a bet's gain over a check must clear, :attr:`trap_thin` times
        the opponent's trap index (its checks hold the strong hands it slow-plays:
        a thin bet is called by better and check-raised by the best more often);
        0 when it did not check or never traps."""
        found = self._trap_opponent(view)
        if found is None or not checked_this_round(view.events, found[0]):
            return 0.0
        return self.trap_thin * found[1]

    def _trap_light(self, view: HandView) -> float:
        """Facing a bet or raise heads-up from an opponent that has not checked in
        this hand: its trap index (0..1; its bets come from a range that lost the
        strong hands it slow-plays), else 0. :attr:`trap_call` and
        :attr:`trap_raise` scale it into the equity the call and the raise need
        less."""
        found = self._trap_opponent(view)
        if found is None or checked_in_hand(view.events, found[0]):
            return 0.0
        return found[1]

    def _reraise_ok(self, view: HandView, opponents: int) -> bool:
        """The last round, facing a raise (issue 31): whether to re-raise at all.
        Only with a hand whose weighted share against what the raisers continue
        with (the top half, by strength, of each one's weighted range: the hands
        that call or raise again) is at least :attr:`reraise_share` (heads-up;
        scaled by 2 / players in); and never with one pair or less into a
        continuing range holding two pair or better (R-C-2) more often than not. The reads weigh
        a check-raise as a slow-play (:mod:`rollem.bots.strong.reads`)."""
        w = self.worlds(view)
        if not w.seats:
            return True
        w, weights = self._weighted(view, w)
        total = float(weights.sum())
        if total <= 0:
            return True
        keep = np.ones(len(weights))
        for j in range(len(w.seats)):
            z = w.strength[:, j]
            keep = keep * (z >= _weighted_median(z, weights))
        cont = weights * keep
        eqs = w.equity(cont if cont.sum() > 0 else weights)
        side = max(eqs, key=lambda k: eqs[k])
        if eqs[side] < self.reraise_share * 2 / (opponents + 1):
            return False
        high = w.extra.get("high")
        if side != "low" and isinstance(high, np.ndarray) and high.ndim == 2 \
                and high.shape[1] >= 2:
            p = weights / total
            mine_pair = float((p * ((high[:, 0] >> 20) <= 1)).sum())
            c = cont / cont.sum() if cont.sum() > 0 else p
            theirs = float((c * ((high[:, 1:].max(axis=1) >> 20) >= 2)).sum())
            if mine_pair > 0.5 and theirs > 0.5:
                return False
        return True

    def _bet_gain(self, view: HandView, legal: Legal, pot: int) -> float:
        """Heads-up, free to check: the chips the bet :meth:`_size` would make
        gains over a check (:func:`gains.bet_gain`), against the weighted range,
        the opponent calling from the hands above its observed fold rate. In pot
        and no limit the hands above its raise rate raise (a raise costs more
        than the bet, so ignoring them overrated bets: ``tag`` won heads-up)."""
        from rollem.bots.strong.reads import _step

        found = self._heads_up_range(view)
        if found is None:
            return 0.0
        w, weights, share = found
        t = self.book.tendencies(w.seats[0])
        last = view.game in _ROUNDS and round_number(view) == _ROUNDS[view.game]
        strength = np.clip(w.strength[:, 0], 0, 1)
        calls = 0.02 + 0.98 * _step(strength, t.fold_rate, 0.05)
        sized = self._size(legal, view, pot, 0.0)
        bet = max(1, (sized.amount if isinstance(sized, Bet) else legal.min_to)
                  - view.current_bet)
        checked = self.price_check_raises and any(
            e.get("kind") == "check" and e.get("seat") == w.seats[0] for e in _this_round(view))
        if view.options.get("structure", "fixed-limit") == "fixed-limit":
            if not checked:
                return bet_gain(pot, bet, share, calls, weights)
            if self.round_prices:
                prior = float((weights * calls).sum()) if self.round_prices_range else None
                calls, raises = self._after_check_prices(
                    strength, weights, *t.after_check_rates(_rounds_begun(view), prior))
                return bet_gain(pot, bet, share, calls, weights, raises, 2 * bet)
            # it checked to us: it check-raises from the top of its range as often
            # as it was seen to (a trapper's check-raises cost bets: issue 31)
            top = self._check_raise_from(strength, weights, calls, self._check_raise_rate(t, last))
            raises = calls * _step(strength, top, 0.05)
            return bet_gain(pot, bet, share, calls, weights, raises, 2 * bet)
        stacks = {s.seat: s.stack for s in view.seats}
        behind = min(stacks[view.seat], stacks[w.seats[0]]) if view.seat is not None else 0
        raise_to = pot_raise_to(pot, bet, behind)
        if raise_to <= bet:  # the bet puts a stack all in: no raise
            return bet_gain(pot, bet, share, calls, weights)
        # after its check, a raise is a check-raise: at least as often as it was
        # seen to check-raise (a trapper checks its strong hands: issue 31)
        if checked:
            top = self._check_raise_from(strength, weights, calls,
                                         max(t.raise_rate, self._check_raise_rate(t, last)))
        else:
            top = 1 - t.raise_rate
        raises = calls * _step(strength, top, 0.05)
        return bet_gain(pot, bet, share, calls, weights, raises, raise_to)

    def _multi_bet_gain(self, view: HandView, legal: Legal, pot: int) -> float:
        """Two or more opponents in, free to check, fixed limit: the chips the bet
        gains over a check (:func:`gains.multi_bet_gain`), against the weighted
        worlds, each opponent calling from the hands above its own observed fold
        rate, the seat's share against the callers from the worlds' final high
        values (its share against every opponent where the worlds lack them).
        0.0 where the worlds hold fewer than two opponents."""
        from rollem.bots.strong.reads import _step

        w = self.worlds(view)
        if len(w.seats) < 2:
            return 0.0
        w, weights = self._weighted(view, w)
        if weights.sum() <= 0:
            return 0.0
        weights = weights / weights.sum()
        share = w.share["pot"] if "pot" in w.share else max(
            w.share.values(), key=lambda v: float((v * weights).sum()))
        strength = np.clip(w.strength, 0, 1)
        calls = np.stack([0.02 + 0.98 * _step(strength[:, i], self.book.tendencies(seat).fold_rate,
                                              0.05) for i, seat in enumerate(w.seats)], axis=1)
        callers_share = share
        high = w.extra.get("high")
        if isinstance(high, np.ndarray) and high.ndim == 2 \
                and high.shape == (len(share), 1 + len(w.seats)):
            called = calls > 0.5
            best = np.where(called, high[:, 1:], -1).max(axis=1)
            mine = high[:, 0]
            callers_share = np.where(called.any(axis=1),
                                     np.where(mine > best, 1.0, np.where(mine == best, 0.5, 0.0)),
                                     share)
        sized = self._size(legal, view, pot, 0.0)
        bet = max(1, (sized.amount if isinstance(sized, Bet) else legal.min_to)
                  - view.current_bet)
        return multi_bet_gain(pot, bet, share, callers_share, calls, weights)

    @staticmethod
    def _after_check_prices(strength: np.ndarray, weights: np.ndarray, raise_rate: float,
                            continue_rate: float) -> tuple[np.ndarray, np.ndarray]:
        """Free to bet after the opponent checked, with :attr:`round_prices` (issue
        31, fourteenth pass): the chance it continues (calls or raises) and the
        chance it raises, per world ``(S,)``, priced over its range after the
        check (``strength`` and ``weights``, summing to 1, ``(S,)``) so that they
        come to its seen ``continue_rate`` and ``raise_rate`` of this betting
        round (:meth:`Tendencies.after_check_rates`): it continues from the top
        of that range, ``0.02 + 0.98 * _step(strength, a, 0.05)``, and raises
        from the top of what continues, ``calls * _step(strength, b, 0.05)``,
        ``a`` and ``b`` found by bisection. Main priced the continues at its
        fold rate over all spots, from the top of all hands (round 1 against
        ``strongtrap``: 0.41 priced, 0.23 seen) and the raises at its pooled
        check-raise rate from the top of all hands (0.09-0.25 priced, 0.02-0.10
        seen)."""
        from rollem.bots.strong.reads import _step

        def calls_at(a: float) -> np.ndarray:
            out: np.ndarray = 0.02 + 0.98 * _step(strength, a, 0.05)
            return out

        a = _bisect(lambda a: float((weights * calls_at(a)).sum()), continue_rate)
        calls = calls_at(a)
        b = _bisect(lambda b: float((weights * calls * _step(strength, b, 0.05)).sum()),
                    raise_rate)
        return calls, calls * _step(strength, b, 0.05)

    def _check_raise_rate(self, t: Tendencies, last: bool) -> float:
        """The check-raise rate the bet's gain prices: on the last betting round
        with :attr:`last_round_check_raises` that round's own
        (:attr:`Tendencies.check_raise_rate_last`), else the pooled one."""
        if last and self.last_round_check_raises:
            return t.check_raise_rate_last
        if self.hu_check_raises:
            return t.check_raise_rate_hu
        return t.check_raise_rate

    def _check_raise_from(self, strength: np.ndarray, weights: np.ndarray,
                          calls: np.ndarray, rate: float) -> float:
        """Free to bet after the opponent checked: where the step its check-raises
        are priced by (``calls * _step(strength, top, 0.05)`` per world) sits,
        given its check-raise ``rate`` (raises over the spots it faced a bet
        after checking). ``strength``, ``weights`` (its range after the check,
        summing to 1) and ``calls`` are ``(S,)``.

        With :attr:`check_raise_range` (issue 31, thirteenth pass) the ``top``
        at which the priced check-raises over the range come to ``rate``
        (bisection; the rate was counted in exactly such spots). Without it,
        ``1 - rate``, the top ``rate`` of all hands: late in a hand the range
        that called bets lies mostly near that, and the step's width (0.05)
        priced the hands below it too, so against ``strongtrap`` (its
        check-raises 0.05 of the spots) the bet read a check-raise 0.09-0.25 of
        the time (1,500 deals, ``docs/dev/league.md``) and checked behind hands
        worth a bet."""
        from rollem.bots.strong.reads import _step

        if not self.check_raise_range:
            return 1 - rate

        def priced(top: float) -> float:
            return float((weights * calls * _step(strength, top, 0.05)).sum())

        return _bisect(priced, rate)

    def _heads_up_range(self, view: HandView) -> tuple[Worlds, np.ndarray, np.ndarray] | None:
        """Heads-up only: the worlds, the opponent's range weights (summing to 1)
        and the seat's share per world at its best option; ``None`` otherwise."""
        if view.game not in MODELLED:
            return None
        w = self.worlds(view)
        if len(w.seats) != 1:
            return None
        weights = self._weights(view, w)
        if weights.sum() <= 0:
            return None
        weights = weights / weights.sum()
        eqs = w.equity(weights)
        return w, weights, w.share[max(eqs, key=lambda k: eqs[k])]

    def _raise_gain(self, view: HandView, legal: Legal, pot: int, to_call: int, *,
                    check_raise: bool = False) -> float:
        """Heads-up, facing a bet: the chips a raise gains over the better of a
        call and a fold, against the weighted range with the opponent calling
        the raise from the hands above its observed rate of folding to raises
        (a player who folds to raises unless very strong can be raised off its
        bets). Per world: a fold wins the pot, a call plays the pot plus the
        call and two raises; re-raises ignored. The raise priced is the one
        :meth:`_size` makes (in pot and no limit about two thirds of the pot,
        not the smallest raise: pricing the smallest made its big raises look
        cheap, issue 31).

        ``check_raise`` (the bot checked this round: the raise is a check-raise;
        :attr:`check_raise_bluffs`, issue 31, fifteenth pass): the opponent
        continues from the top of its weighted range (the bettor's range after the
        bot's check), as often as it was seen to answer the bot's check-raises
        other than by folding (:attr:`Tendencies.fold_to_check_raise_rate`; the
        step's threshold found by bisection over the range, as
        :meth:`_after_check_prices`), not from the top of all hands at its fold
        rate to raises."""
        from rollem.bots.strong.reads import _step

        found = self._heads_up_range(view)
        if found is None:
            return 0.0
        w, weights, share = found
        t = self.book.tendencies(w.seats[0])
        strength = np.clip(w.strength[:, 0], 0, 1)
        if check_raise:
            def calls_at(a: float) -> np.ndarray:
                out: np.ndarray = 0.02 + 0.98 * _step(strength, a, 0.05)
                return out

            calls = calls_at(_bisect(lambda a: float((weights * calls_at(a)).sum()),
                                     1.0 - t.fold_to_check_raise_rate))
        else:
            calls = 0.02 + 0.98 * _step(strength, t.fold_to_raise_rate, 0.05)
        sized = self._size(legal, view, pot + to_call, 0.0)
        to = sized.to if isinstance(sized, Raise) else legal.min_to
        more = max(1, to - view.current_bet)
        raise_ = (1 - calls) * pot + calls * (share * (pot + to_call + 2 * more)
                                              - to_call - more)
        call = share * (pot + to_call) - to_call
        best = max(float((call * weights).sum()), 0.0)
        return float((raise_ * weights).sum()) - best

    def _bluff(self, view: HandView, legal: Legal, pot: int) -> bool:
        """Bluff so that bluffs : value bets is about ``bet : pot + bet``, less
        against an opponent who seldom folds."""
        others = [s.seat for s in view.seats if s.dealt and not s.folded and s.seat != view.seat]
        if len(others) != 1:
            return False
        fold_rate = self.book.tendencies(others[0]).fold_rate
        if fold_rate < 0.2:
            return False
        bet = max(1, legal.min_to - view.current_bet)
        ratio = bet / (pot + bet)
        # value bets come from about 44% of hands, bluffs from the weakest 30%
        p = self.bluffs * min(0.5, ratio * 0.44 / 0.30) * min(1.0, fold_rate / 0.35)
        return self._mix(p)

    def _size(self, legal: Legal, view: HandView, pot: int, eq: float) -> object:
        """The fixed size, or in pot/no-limit about two thirds of the pot over the
        current bet (the same for value and bluffs), within the legal bounds."""
        lo, hi = legal.min_to, legal.max_to
        target = lo if lo == hi else min(hi, max(lo, view.current_bet + (2 * pot) // 3))
        return Bet(target) if "bet" in legal.actions else Raise(target)
