"""Odds: one seat's chances from what that seat can see (issue 8).

The API
-------

``view_equity(view, *, samples=200, rng=None, seed=None, exact_limit=None, advice=False,
top=10, policy=None, look_ahead=None) -> Odds``
    The viewer's chances from ``hand.view(seat)`` (or its ``to_dict()``)
    alone, in every game. Cheap enough to call at every decision (well under
    a millisecond at 200 samples for Stop, Drop and Roll). A
    :class:`rollem.engine.Hand`, anything else that is not a view, or a
    spectator's view raises :class:`OddsError`: the calculators never need
    another seat's hidden cards, and never get them. With ``advice`` (or
    ``look_ahead``) the odds look ahead and list every option of the seat's
    card choice (below). ``exact_limit`` ``None``: 50,000 outcomes in our
    three games; a game file's deals are counted only where it is given.

``no_odds_reason(game) -> str | None``
    Why :func:`view_equity` can never answer in ``game`` (a game file with a
    ``declare`` showdown: no model of the declarations), in one line, or
    ``None``; cheap, so a web table refuses practice odds up front (issue 34).

``sdr_odds(hand, *, dead=(), board=(), vs=(), opponents=None, samples=100_000, seed=None,
rng=None, exact_limit=25_000_000) -> Odds``
    Stop, Drop and Roll from cards the caller supplies: the hole cards, the
    dead Stop and Drop, any Roll cards, against hands given in ``vs`` and/or
    ``opponents`` unknown hands.

``ryo_odds(hand, opponents, *, pool_known=(), pool_unknown=0, out=(), wild_ranks=None, ...)``
    Five Card Roll Your Own: own cards, opponents' ``(up cards, hidden
    count)``, the pool, the wild rank when known; adds ``categories``.

``r521_odds(hand, opponents, *, out=(), declared=None, failed_both_rule="carry", ...)``
    5-2-1 Roll 'Em and the declare advisor.

``history_odds(history, seat, *, at=None, ...) -> (Odds, at)`` (in :mod:`rollem.odds.history`)
    A seat's odds at a point of a hand history (``rollem odds --history``).

:class:`Odds` has ``win``, ``tie``, ``lose`` (probabilities of taking the
whole pot, a share of it, nothing), ``equity`` (expected share of the pot),
``method`` (``"exact"`` or ``"monte-carlo"``), ``samples`` (outcomes
enumerated, or worlds sampled) and ``stderr`` (of ``equity``; 0 for exact);
for 5-2-1 also ``high``, ``low``, ``scoop`` and ``declare`` (expected share
for each declaration) with ``best_declare``; for Five Card Roll Your Own
``categories`` (the chance of each final hand category).

Methods
-------

Exact enumeration visits every equally likely outcome when there are at
most ``exact_limit`` of them (Stop, Drop and Roll: every Roll and, against
one unknown hand, every two-card hand, all vectorised with numpy; a game
from a game file where ``exact_limit`` is given and the deals still to come
fit a bound on the work, :mod:`rollem.odds.fileexact`); otherwise
Monte Carlo draws ``samples`` worlds, seeded by ``seed`` or by ``rng`` (a
``random.Random``) so that answers repeat.

Opponents' model
----------------

- Unknown cards are uniformly random among the cards the seat cannot see,
  consistent with everything it can see: its own cards, every face-up card,
  the dead cards and the board, and the cards it put in a pool. Folded
  players' cards are unknown but out of play.
- Every player still in goes to the showdown (no future folds); equity is the
  expected share of the whole pot, side pots ignored.
- Stop, Drop and Roll (R-SDR-6): each unknown hand is two unseen cards; the
  Roll's missing cards are unseen cards too, never the Stop or the Drop.
- Five Card Roll Your Own (after the discard, the pool tracked:
  :func:`rollem.odds.ryo.ryo_tracked_odds`): the pool is the seat's own
  discards plus three unknown discards per other player dealt in (uniform
  over unseen cards); the seat's draws and the turned wild card came from
  it; an opponent's up card that is one of the seat's discards was drawn,
  its other draws are spread at random over its other up cards and its down
  cards; a drawn down card is one of the pool's cards the seat cannot place
  (it may be one of the seat's own discards), a kept down card any other
  unseen card; draws to come and the wild card (when not yet turned) come
  from what is left in the pool. Before the discard an opponent keeps three
  of its six at random, and the seat's odds are those of its best keep
  (``Odds.keep``). Opponents' choices are not read as information.
- 5-2-1 Roll 'Em: the seat stands pat in draws still to come; an opponent
  whose declaration is revealed keeps it, any other declares the way its
  hand ranks higher among all five-card hands (its high percentile against
  its ace-to-five low percentile), and both when it is in the top 1% both
  ways. ``declare`` gives the seat's expected share of the pot for each
  declaration under R-521-9; ``equity`` and ``win``/``tie``/``lose`` are for
  the best one (``best_declare``) until the seat has declared, then for its
  own declaration (``own_declare``). In 5-2-1 ``win`` is taking the whole
  pot (a scoop, or one side with nobody on the other), ``tie`` any share.

Look-ahead and advice (issue 16)
--------------------------------

With ``look_ahead`` or ``advice`` (what ``rollem odds --history``, ``rollem
play --show-odds`` and the web table's practice odds use), Five Card Roll
Your Own and 5-2-1 Roll 'Em look ahead: every player still in, the seat
included, makes the choices still to come by a policy
(:mod:`rollem.odds.policy`, default ``fast``), and what the seat saw of
opponents' choices weights their hands (:mod:`rollem.odds.look521`,
:mod:`rollem.odds.lookryo`; after the Roll Your Own discard each opponent's
keep and exposes, :mod:`rollem.odds.ryoseen`, falling back to the tracked
pool where the weighting is too uneven). ``Odds.advice`` (:class:`Advice`) lists every
option of the seat's current choice (the best ``top``) with its equity and
standard error, played out in the same worlds. The user guide's page "Odds
and advice" states the model; :mod:`rollem.odds.display` words it for
players.

Monte Carlo draws and scores worlds in chunks of
:data:`rollem.odds.common.CHUNK`, so memory stays bounded; ``samples`` is 1
to :data:`rollem.odds.common.MAX_SAMPLES`.

The worked example of Stop, Drop and Roll (R-SDR-8): Qs Qd against As Kd
with the Stop Qh and the Drop 7c dead. 46 cards are unseen, so there are
C(46, 3) = 15,180 Rolls, all enumerated; once the Roll is Kc 7d 2s the queens
have lost:

>>> from rollem.cards import parse_cards
>>> odds = sdr_odds(parse_cards("Qs Qd"), dead=parse_cards("Qh 7c"), vs=[parse_cards("As Kd")])
>>> odds.method, odds.samples, round(odds.win, 4), odds.tie
('exact', 15180, 0.6662, 0.0)
>>> sdr_odds(parse_cards("Qs Qd"), dead=parse_cards("Qh 7c"), board=parse_cards("Kc 7d 2s"),
...          vs=[parse_cards("As Kd")]).lose
1.0

From a live hand, only through a seat's view:

>>> from rollem.engine import Hand, SeededSource
>>> hand = Hand("sdr", [200, 200], button=1, source=SeededSource(7))
>>> est = view_equity(hand.view(0), samples=200, seed=1)
>>> est.method, est.samples, abs(est.win + est.tie + est.lose - 1) < 1e-9
('monte-carlo', 200, True)
>>> view_equity(hand)
Traceback (most recent call last):
    ...
rollem.odds.result.OddsError: odds need one seat's view (hand.view(seat) or its to_dict()), ...
"""

from __future__ import annotations

from rollem.odds.r521 import r521_odds
from rollem.odds.result import Advice, Choice, Odds, OddsError
from rollem.odds.ryo import ryo_odds
from rollem.odds.sdr import sdr_odds
from rollem.odds.view import no_odds_reason, view_equity

__all__ = ["Advice", "Choice", "Odds", "OddsError", "no_odds_reason", "r521_odds", "ryo_odds",
           "sdr_odds", "view_equity"]
