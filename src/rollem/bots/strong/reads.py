"""Reads: what an opponent's actions say about its hidden cards, learned per
opponent over a session.

:class:`OpponentBook` keeps, for each seat, how often it bet or raised, called
and folded (from every action the bot's views showed it, across hands), and
turns one hand's actions into a weight per sampled world
(:meth:`OpponentBook.weights`): the likelihood of those actions given that
opponent's strength in the world (a percentile, :mod:`.worlds`):

- a bet (raise) is taken to come from the top ``r`` of its hands, ``r`` its
  observed rate of betting when it could check (of raising facing a bet):
  a smooth step at ``1 - r``, so a tight player's bets mean strength and a
  maniac's nothing; bets after a check in the same round have their own rate
  (a player who bets whenever checked to says nothing by it, though its
  first-in bets may mean a lot);
- a call comes from the hands above its observed fold rate (a calling
  station's calls say nothing);
- a check makes its betting hands less likely (``1 - 0.7 * step``; strong
  hands check now and then too), less so from a player who seldom bets
  (in proportion to its bet rate below :data:`QUIET`: a calling station's
  best hands check too); a check its player follows with a raise later in
  the hand (a slow-play) says nothing, and a raise after a check in
  the same round (a check-raise) comes from the top :data:`CHECK_RAISE` of
  its raising hands (issue 31), by a sharp step in every round
  (:data:`CHECK_RAISE_SOFT`) with a floor of a share
  :data:`CHECK_RAISE_STRAY` of its check-raise rate, not :data:`EPS`;
- 5-2-1 draw counts (R-521-2, R-521-4): standing pat ``eps + z ** 2``,
  drawing two ``1 - 0.6 * z``;
- Five Card Roll Your Own exposes and 5-2-1 stack orders are face-up cards,
  in every world, and they also say which cards a player kept down (the
  hider models of :func:`rollem.bots.strong.worlds.expose_likelihood` and
  :func:`rollem.bots.strong.worlds.stack_likelihood`, applied by the bot
  with these weights); a revealed declare (R-521-8) is kept as declared.

Early betting rounds count less (their strength says less about the final
hand): the steps are softer the earlier the round. Every likelihood has a
floor ``eps``: anyone may do anything once.

Stop, Drop and Roll (issue 31, eighth pass): a raise facing a bet is the top
``r`` of the hands that got to its betting round (:func:`_range_quantile`, the
read as the round began), not of all hands; and once the Roll is out the
actions before it are read against each world's hole cards' percentile
(``early`` of :meth:`OpponentBook.weights`), what they were made on.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from rollem.engine.views import HandView

__all__ = ["OpponentBook", "Tendencies"]

Floats = npt.NDArray[np.float64]
EPS = 0.04
"""Floor of every likelihood: anyone may do anything once."""

CHECK_READ = 0.7
"""How much a check lowers the weight of the hands its player bets with."""
CHECK_RAISE = 0.5
"""A check-raise comes from the top ``CHECK_RAISE`` share of the hands its player
raises (or bets) with: a slow-play of its strongest (issue 31)."""

CHECK_RAISE_WIDE = 1.5
"""A check-raise by a player check-raising more than the bot itself (its trap
index, :func:`rollem.bots.strong.traps.ended_index`, 1) comes from the top
``CHECK_RAISE_WIDE`` times its raise rate, not :data:`CHECK_RAISE` times it;
between, in proportion to the index (:meth:`OpponentBook.weights`'s ``wide``;
issue 31, sixteenth pass: ``strongtrap`` check-raises any hand of equity 0.6
against the bet, wider than its raises facing a first-in bet. Measured level
with the read without it against ``strongtrap``, whose check-raises main's
folds were right to fold on average, ``docs/dev/league.md``)."""

CHECK_RAISE_STRAY = 0.1
"""The share of a player's check-raises read as coming from any hand (the
likelihood floor of a check-raise is this times its check-raise rate, at most
:data:`EPS`): ``strong``'s own policy check-raises only from equity above its
raise threshold (``raise_hu``), never as a bluff, so a check-raise seen at a
rate ``rho`` is a slow-played strong hand but for a small share. The common floor
:data:`EPS` of 0.04 against ``rho`` about 0.07 had a third of the read range
be any hand at all (issue 31, sixth pass: facing ``strongtrap``'s check-raises
the read equity was 0.42 where its real cards gave 0.25, 49 spots;
``docs/dev/league.md``)."""

CHECK_RAISE_SOFT = 0.05
"""The width of a check-raise's step in every round (other actions' steps are
softer the earlier the round): a check-raise is a raise over a threshold of
the hand's strength now, and checking first is no sign of a hand that may
still come (issue 31, sixth pass)."""

RAISE_SOFT = 0.05
"""Stop, Drop and Roll (:data:`SHARP_RAISES`): the width of a raise's step
(facing a bet, not a check-raise) in every round, as for a check-raise: before
the Roll the strength the worlds give is the hole cards' percentile
(R-SDR-6), which is all the raiser knows of its hand too, so an early raise is
no softer a sign than a late one (issue 31, seventh pass: facing a raise of its
bet the read equity was 0.45 where the raiser's real cards gave 0.33; the
soft step of round 1, width 0.14, weighed a 70th-percentile hand at 0.39 of a
97th-percentile one, now 0.09)."""

SHARP_RAISES = frozenset({"sdr"})
"""The games whose raises read by :data:`RAISE_SOFT`: where the strength
before the last round is the hand's strength now (Five Card Roll Your Own and
5-2-1 read the hand the opponent ends with, so an early raise does say less)."""

TRAP_READ = 2.0
"""A check says less by this times its player's check-raise rate
(:attr:`Tendencies.check_raise_rate`): a player check-raising half the time it
is bet into after checking has checked its strong hands as often as its weak
ones (issue 31: the trapping opponent's checks were read as weakness)."""

QUIET = 0.15
"""A player betting less often than this when it may (a calling station) says
less by checking, in proportion: its strongest hands check too."""

_ROUNDS = {"sdr": 4, "rollyourown": 4, "rollem521": 6}

LAST_PRIOR = 10.0
"""The spots' worth of the pooled check-raise rate in the last round's
(:attr:`Tendencies.check_raise_rate_last`)."""

ROUND_PRIOR = 10.0
"""The spots' worth of the rates pooled over the rounds in one betting round's
answers after a check (:meth:`Tendencies.after_check_rates`)."""

CHECK_RAISE_FOLD_PRIOR = 5.0
"""The answers' worth of :attr:`Tendencies.fold_to_raise_rate` in
:attr:`Tendencies.fold_to_check_raise_rate`."""

CONTINUE_PRIOR = 5.0
"""The decisions' worth of ``1 - fold_rate`` in the continue rate after a check
pooled over the rounds (:meth:`Tendencies.after_check_rates`)."""


INTO_CHECK_PRIOR = 5.0
"""The decisions' worth of :attr:`Tendencies.bet_rate_checked` in
:attr:`Tendencies.bet_rate_into_check_last`."""


@functools.lru_cache(maxsize=64)
def _round_labels(game: str) -> tuple[str, ...]:
    """Every betting round's name in ``game``'s file, in order (a round the file does
    not name is ``"round N"``); ``()`` for a game not found."""
    from rollem import games

    try:
        spec = games.get(game).spec
    except (KeyError, ValueError):
        return ()
    if spec is None:
        return ()
    bets = [s for s in spec.steps if s.kind == "bet"]
    return tuple(str(s.params.get("label") or f"round {i + 1}") for i, s in enumerate(bets))


def round_number(view: HandView) -> int | None:
    """The betting round in ``view`` counted from 1: its place among the game file's
    betting rounds (5-2-1 names them: ``"first card up"`` is 3, issue 26), or the
    number in an unnamed ``"round N"``; ``None`` when neither says."""
    labels = _round_labels(view.game)
    if view.round in labels:
        return labels.index(view.round) + 1
    try:
        return int(view.round.split()[-1])
    except (ValueError, IndexError):
        return None


@dataclass
class Tendencies:
    """One opponent's counts over the session (from the bot's views)."""

    bets: int = 0
    """Bets made when no bet was open (first in or checked to)."""
    checks: int = 0
    raises: int = 0
    calls: int = 0
    folds: int = 0
    """Folds facing a bet."""
    bets_checked: int = 0
    """Of ``bets``: those made after someone checked in the same round."""
    checks_checked: int = 0
    """Of ``checks``: those made after someone checked in the same round."""
    faced_raise: int = 0
    """Decisions it made facing a raise (a bet and at least one raise open)."""
    folds_to_raise: int = 0
    faced_after_check: int = 0
    """Decisions it made facing a bet after it checked in the same round."""
    check_raises: int = 0
    """Of ``faced_after_check``: raises (check-raises, issue 31)."""
    faced_after_check_last: int = 0
    """Of ``faced_after_check``: those on the game's last betting round (counted
    when the caller names the game; issue 31, thirteenth pass)."""
    check_raises_last: int = 0
    """Of ``faced_after_check_last``: raises."""
    faced_check_raise: int = 0
    """Its answers to the bot's check-raises (a raise of its bet by the bot after
    the bot's own check in the round), the folds that ended the hand counted
    (:meth:`OpponentBook.observe_check_raise_answers`; issue 31, fifteenth pass)."""
    folds_to_check_raise: int = 0
    """Of ``faced_check_raise``: folds."""
    hu_after_check: int = 0
    """Of ``faced_after_check``: those with two players in (heads-up at that
    moment; issue 31, twenty-fourth pass)."""
    hu_check_raises: int = 0
    """Of ``hu_after_check``: raises."""
    ended_after_check: int = 0
    """Its answers to a bet after its own check in the round, every one of the
    hands that ended counted from their whole events at the end
    (:meth:`OpponentBook.observe_traps`; issue 31, sixteenth pass: the counts
    of :meth:`OpponentBook.observe` miss the bot's own check-raises that were
    folded to, so a bot whose check-raises are folded to read its own rate low
    and a player like it as a trapper)."""
    ended_check_raises: int = 0
    """Of ``ended_after_check``: raises."""
    into_check_last: int = 0
    """Its decisions on the game's last betting round with no bet open after the
    bot's own check in that round (heads-up: the bot checked first to act),
    counted from each hand's whole events at its end
    (:meth:`OpponentBook.observe_into_check`; issue 31, twenty-first pass)."""
    bets_into_check_last: int = 0
    """Of ``into_check_last``: bets."""
    after_check: dict[int, list[int]] = field(default_factory=dict)
    """Per betting round (counted from 1): ``[spots, raises, folds]`` of its
    answers to a bet after its check in that round (issue 31, fourteenth pass;
    the folds that ended the hand only once :meth:`OpponentBook.observe_end`
    counts them)."""

    @property
    def bet_rate(self) -> float:
        """How often it bets when it may check (prior 1/3)."""
        return (self.bets + 1.0) / (self.bets + self.checks + 3.0)

    @property
    def bet_rate_checked(self) -> float:
        """How often it bets when checked to (a check before it in the round),
        shrunk toward :attr:`bet_rate` (a prior worth three decisions)."""
        n = self.bets_checked + self.checks_checked
        return (self.bets_checked + 3.0 * self.bet_rate) / (n + 3.0)

    @property
    def bet_rate_into_check_last(self) -> float:
        """How often it bets into the bot's check on the last betting round
        (:attr:`bets_into_check_last` over :attr:`into_check_last`), shrunk
        toward :attr:`bet_rate_checked` by a prior worth :data:`INTO_CHECK_PRIOR`
        decisions; 0..1."""
        return ((self.bets_into_check_last + INTO_CHECK_PRIOR * self.bet_rate_checked)
                / (self.into_check_last + INTO_CHECK_PRIOR))

    @property
    def bet_rate_first(self) -> float:
        """How often it bets first in (no check before it in the round), shrunk
        toward :attr:`bet_rate`."""
        b = self.bets - self.bets_checked
        n = b + self.checks - self.checks_checked
        return (b + 3.0 * self.bet_rate) / (n + 3.0)

    def open_rate(self, checked: bool) -> float:
        """The bet rate of the spot: after a check in the round, or first in."""
        return self.bet_rate_checked if checked else self.bet_rate_first

    @property
    def faced(self) -> int:
        """Decisions it made facing a bet."""
        return self.raises + self.calls + self.folds

    @property
    def raise_rate(self) -> float:
        """How often it raises facing a bet (prior 1/5)."""
        return (self.raises + 1.0) / (self.faced + 5.0)

    @property
    def fold_to_raise_rate(self) -> float:
        """How often it folds facing a raise (prior 1/3)."""
        return (self.folds_to_raise + 1.0) / (self.faced_raise + 3.0)

    @property
    def fold_to_check_raise_rate(self) -> float:
        """How often it folds to the bot's check-raises, shrunk toward
        :attr:`fold_to_raise_rate` (a prior worth :data:`CHECK_RAISE_FOLD_PRIOR`
        answers), 0..1 (issue 31, fifteenth pass: ``strong``'s policy reads a
        check-raise as the top of the raiser's hands and folds most of its bets
        into a check to one)."""
        return ((self.folds_to_check_raise + CHECK_RAISE_FOLD_PRIOR * self.fold_to_raise_rate)
                / (self.faced_check_raise + CHECK_RAISE_FOLD_PRIOR))

    @property
    def check_raise_rate(self) -> float:
        """How often it raises facing a bet after checking in the same round
        (prior 1/20, worth ten decisions): a trapper's checks hide its strong
        hands (issue 31)."""
        return (self.check_raises + 0.5) / (self.faced_after_check + 10.0)

    @property
    def check_raise_rate_hu(self) -> float:
        """How often it raises facing a bet after checking in the same round with
        two players in (the prior of :attr:`check_raise_rate`): ``strongtrap``'s
        rule raises from equity 0.6 x 2 / players in, so its six-handed
        check-raises (from equity 0.2) say little of its heads-up ones (issue
        31, twenty-fourth pass)."""
        return (self.hu_check_raises + 0.5) / (self.hu_after_check + 10.0)

    @property
    def check_raise_rate_last(self) -> float:
        """How often it check-raises on the last betting round, shrunk toward
        :attr:`check_raise_rate` (a prior worth :data:`LAST_PRIOR` spots): a
        player raising any hand above a threshold after its check raises more
        often once the last card is out (``strongtrap`` 0.16 of the bets into
        its last-round checks against 0.04-0.08 before, 600 deals; issue 31,
        thirteenth pass)."""
        return ((self.check_raises_last + LAST_PRIOR * self.check_raise_rate)
                / (self.faced_after_check_last + LAST_PRIOR))

    @property
    def fold_rate(self) -> float:
        """How often it folds facing a bet (prior 2/5)."""
        return (self.folds + 2.0) / (self.faced + 5.0)

    def after_check_rates(self, round_no: int,
                          continue_prior: float | None = None) -> tuple[float, float]:
        """Its ``(raise, continue)`` rates facing a bet after its check in betting
        round ``round_no`` (from 1), from :attr:`after_check`: each round's
        counts shrunk by :data:`ROUND_PRIOR` spots toward the rates pooled over
        every round, the raise rate toward ``(raises + 0.5) / (spots + 10)`` (as
        :attr:`check_raise_rate`), the continue rate (calls and raises) toward
        ``(spots - folds + CONTINUE_PRIOR * (1 - fold_rate)) / (spots +
        CONTINUE_PRIOR)``. The continue rate is at least the raise rate. Both
        0..1 (issue 31, fourteenth pass: ``strongtrap`` continued 0.23 of the
        time in round 1 and 0.90 in round 3). ``continue_prior`` given, the
        round's continue rate is shrunk toward it instead (the caller's price
        with no counts)."""
        n = sum(c[0] for c in self.after_check.values())
        r = sum(c[1] for c in self.after_check.values())
        f = sum(c[2] for c in self.after_check.values())
        raise_all = (r + 0.5) / (n + 10.0)
        cont_all = (n - f + CONTINUE_PRIOR * (1.0 - self.fold_rate)) / (n + CONTINUE_PRIOR)
        spots, raises, folds = self.after_check.get(round_no, [0, 0, 0])
        raise_ = (raises + ROUND_PRIOR * raise_all) / (spots + ROUND_PRIOR)
        prior = cont_all if continue_prior is None else continue_prior
        cont = (spots - folds + ROUND_PRIOR * prior) / (spots + ROUND_PRIOR)
        return raise_, max(cont, raise_)


def _count_after_check(t: Tendencies, kind: object, last: bool, round_no: int = 0,
                       *, pooled: bool = True, heads_up: bool = False) -> None:
    """Count one answer (``kind``: raise, call or fold) to a bet after its
    player's check in the round, apart too when on the ``last`` betting round,
    and in betting round ``round_no``'s counts (:attr:`Tendencies.after_check`;
    0: none). ``pooled`` False counts it only there."""
    if round_no > 0:
        c = t.after_check.setdefault(round_no, [0, 0, 0])
        c[0] += 1
        c[1] += kind == "raise"
        c[2] += kind == "fold"
    if not pooled:
        return
    t.faced_after_check += 1
    t.check_raises += kind == "raise"
    if heads_up:
        t.hu_after_check += 1
        t.hu_check_raises += kind == "raise"
    if last:
        t.faced_after_check_last += 1
        t.check_raises_last += kind == "raise"


def _check_raises(events: Sequence[Mapping[str, Any]]) -> set[int]:
    """Indexes of the checks followed later in the hand by a raise (facing a bet)
    of the same seat (a check-raise, a slow-play over rounds): read as no sign
    of weakness (issue 31: read as checks, with the strength of the hand as it is
    now, they made a trapper's last-round raises look like bluffs)."""
    out: set[int] = set()
    open_checks: dict[object, list[int]] = {}
    for i, e in enumerate(events):
        kind = e.get("kind")
        if kind == "check":
            open_checks.setdefault(e.get("seat"), []).append(i)
        elif kind == "raise" and e.get("seat") in open_checks:
            out.update(open_checks.pop(e.get("seat")))
    return out


def _range_quantile(z: Floats, logw: Floats, q: float) -> float:
    """The ``q`` quantile (0..1) of ``z`` ``(S,)`` over the worlds weighted by
    ``exp(logw)`` (the read so far): where the top ``1 - q`` of the range that
    got to this action begins; ``q`` itself when there are no worlds.

    Stop, Drop and Roll reads a raise facing a bet as the top of this range, not
    of all hands: its raise rate is of the spots it faced a bet in, whose range
    its earlier actions had narrowed already (issue 31, eighth pass: facing a
    last-round raise the read equity was 0.65 where the raiser's real cards gave
    0.42, 47 spots; read at the top of the range that called, 0.53)."""
    if z.size == 0:
        return q
    w = np.exp(logw - logw.max())
    order = np.argsort(z)
    cum = np.cumsum(w[order])
    i = int(np.searchsorted(cum, q * cum[-1]))
    return float(z[order][min(z.size - 1, i)])


CHECK_CALL_PRIOR = 10.0
"""How many spots' worth the bot's prior of 0.3 weighs in a check-call's cap
(:func:`check_call_top`)."""


def check_call_top(t: Tendencies) -> float:
    """The share (0..1) of a player's range after its check, facing a bet, that
    it check-raises with: its check-raises over its answers after a check,
    counted at the hands' ends (:attr:`Tendencies.ended_check_raises`,
    :attr:`Tendencies.ended_after_check`), shrunk toward 0.3 by
    :data:`CHECK_CALL_PRIOR` spots (issue 31, twenty-fourth pass: the check-calls
    of ``strongtrap``, which raises every checked hand from equity 0.6, come
    from below those)."""
    return (t.ended_check_raises + CHECK_CALL_PRIOR * 0.3) / (t.ended_after_check
                                                              + CHECK_CALL_PRIOR)


def _step(z: Floats, q: float, soft: float) -> Floats:
    """A smooth step from 0 (below ``q``) to 1 (above), of width ``soft``."""
    out: Floats = 1.0 / (1.0 + np.exp(-(z - q) / soft))
    return out


class OpponentBook:
    """Per-seat tendencies over a session, read from views only."""

    def __init__(self) -> None:
        self.seats: dict[int, Tendencies] = {}
        self.own = Tendencies()
        """The bot's own counts where its views show them: its check-raises over
        the spots it faced a bet after checking (:attr:`Tendencies.check_raises`,
        :attr:`Tendencies.faced_after_check`; issue 31, twelfth pass: a player
        trapping more than the bot itself is read by
        :func:`rollem.bots.strong.traps.trap_index`)."""
        self._hand_key: object = None
        self._done = 0
        self._unanswered: tuple[object, int, bool] | None = None
        self._ended: object = None
        """The hand :meth:`observe_end` counted last (its key)."""
        self._traps_ended: object = None
        """The hand :meth:`observe_traps` counted last (its key)."""
        self._cr_ended: object = None
        """The hand :meth:`observe_check_raise_answers` counted last (its key)."""
        self._into_ended: object = None
        """The hand :meth:`observe_into_check` counted last (its key)."""

    def tendencies(self, seat: int) -> Tendencies:
        """The counts of ``seat`` (created empty)."""
        return self.seats.setdefault(seat, Tendencies())

    def forget(self, seat: int) -> None:
        """Drop the counts of ``seat``: someone else sits there now."""
        self.seats.pop(seat, None)

    def observe(self, events: Sequence[Mapping[str, Any]], me: int | None,
                game: str | None = None) -> None:
        """Count the betting actions in ``events`` not counted yet (the events of
        the current hand; a new hand is noticed when the log restarts). With
        ``game`` (one with reads) the answers after a check on its last betting
        round are also counted apart (:attr:`Tendencies.faced_after_check_last`)."""
        key = tuple(sorted(str(e) for e in events[:3]))
        if key != self._hand_key or len(events) < self._done:
            last = self._unanswered
            if last is not None and last[0] == self._hand_key:
                # the hand ended on the bot's bet or raise: the opponent folded
                t = self.tendencies(last[1])
                t.folds += 1
                if last[2]:
                    t.faced_raise += 1
                    t.folds_to_raise += 1
            self._hand_key = key
            self._done = 0
        self._unanswered = None
        bet_open = checked = raised = False
        checkers: set[object] = set()
        last_round = _ROUNDS.get(game or "", 0)
        done = 0
        dealt: set[object] = set()
        out: set[object] = set()
        for i, e in enumerate(events):
            kind = e.get("kind")
            if kind == "round":
                bet_open = checked = raised = False
                checkers = set()
                done += 1
            seat = e.get("seat")
            if kind in ("deal_hole", "ante", "blind") and seat is not None:
                dealt.add(seat)
            heads_up = len(dealt - out) == 2
            if kind == "fold":
                out.add(seat)
            if i < self._done or seat is None or seat == me:
                if i >= self._done and seat is not None and bet_open and seat in checkers \
                        and kind in ("raise", "call", "fold"):
                    # the bot's own check-raises (the trap lines' yardstick, issue 31)
                    _count_after_check(self.own, kind, done == last_round, done)
                if kind in ("bet", "raise"):
                    raised = bet_open
                    bet_open = True
                elif kind == "check":
                    checked = True
                    checkers.add(seat)
                continue
            t = self.tendencies(int(seat))
            if raised and kind in ("bet", "raise", "call", "fold"):
                t.faced_raise += 1
                t.folds_to_raise += kind == "fold"
            if bet_open and seat in checkers and kind in ("raise", "call", "fold"):
                _count_after_check(t, kind, done == last_round, done, heads_up=heads_up)
            if kind in ("bet", "raise"):
                raised = bet_open
                if bet_open:
                    t.raises += 1
                else:
                    t.bets += 1
                    t.bets_checked += checked
                bet_open = True
            elif kind == "call":
                t.calls += 1
            elif kind == "check":
                t.checks += 1
                t.checks_checked += checked
                checked = True
                checkers.add(seat)
            elif kind == "fold" and bet_open:
                t.folds += 1
        self._done = len(events)

    def observe_end(self, events: Sequence[Mapping[str, Any]], me: int | None,
                    game: str | None = None, *, pooled: bool = True) -> None:
        """The hand's end (all its ``events``; ``me`` the bot's seat): count the
        answers to a bet after a check (:attr:`Tendencies.faced_after_check`,
        :attr:`Tendencies.check_raises`, and the bot's own in :attr:`own`) that
        :meth:`observe` never saw, as they ended the hand: a fold to the bot's
        bet, any call or fold on the last round (issue 31, thirteenth pass).
        Without them only the check-raises were sure to be seen (the bot must
        answer a raise), and the check-raise rate read about twice the real:
        ``strongtrap`` 0.12 where it raised 0.05 of the bets into its checks
        (1,500 deals). Counts nothing else (the fold, call and bet rates stay
        those of :meth:`observe` and :meth:`acted`); a second call for the same
        hand counts nothing. Each answer is counted in its betting round's
        :attr:`Tendencies.after_check` too; ``pooled`` False counts it only
        there (issue 31, fourteenth pass: ``round_prices`` without
        ``count_hand_ends``)."""
        key = tuple(sorted(str(e) for e in events[:3]))
        if key == self._ended:
            return
        self._ended = key
        start = self._done if key == self._hand_key and len(events) >= self._done else 0
        bet_open = False
        checkers: set[object] = set()
        last_round = _ROUNDS.get(game or "", 0)
        done = 0
        for i, e in enumerate(events):
            kind = e.get("kind")
            seat = e.get("seat")
            if kind == "round":
                bet_open = False
                checkers = set()
                done += 1
                continue
            if i >= start and seat is not None and bet_open and seat in checkers \
                    and kind in ("raise", "call", "fold"):
                t = self.own if seat == me else self.tendencies(int(seat))
                _count_after_check(t, str(kind), done == last_round, done, pooled=pooled)
            if kind in ("bet", "raise"):
                bet_open = True
            elif kind == "check":
                checkers.add(seat)

    def observe_traps(self, events: Sequence[Mapping[str, Any]], me: int | None) -> None:
        """The hand's end (all its ``events``; ``me`` the bot's seat): count every
        player's answers to a bet after its own check in the same betting round
        and its raises among them (check-raises), the bot's own in :attr:`own`
        (:attr:`Tendencies.ended_after_check`,
        :attr:`Tendencies.ended_check_raises`). All counted alike from the whole
        hand, so the bot's rate and an opponent's compare (the trap index of
        ``trap_reads``, issue 31, sixteenth pass). A second call for the same
        hand counts nothing."""
        key = ("traps", tuple(sorted(str(e) for e in events[:3])))
        if key == self._traps_ended:
            return
        self._traps_ended = key
        bet_open = False
        checkers: set[object] = set()
        for e in events:
            kind = e.get("kind")
            seat = e.get("seat")
            if kind == "round":
                bet_open = False
                checkers = set()
                continue
            if seat is not None and bet_open and seat in checkers \
                    and kind in ("raise", "call", "fold"):
                t = self.own if seat == me else self.tendencies(int(seat))
                t.ended_after_check += 1
                t.ended_check_raises += kind == "raise"
            if kind in ("bet", "raise"):
                bet_open = True
            elif kind == "check":
                checkers.add(seat)

    def observe_into_check(self, events: Sequence[Mapping[str, Any]], me: int | None,
                           game: str) -> None:
        """The hand's end (all its ``events``; ``me`` the bot's seat; ``game`` one
        with reads): count each opponent's decision on the last betting round
        with no bet open after the bot checked in that round, and its bets among
        them (:attr:`Tendencies.into_check_last`,
        :attr:`Tendencies.bets_into_check_last`). Counted at the end, as a check
        behind ends the hand and no view of the bot's shows it. A second call for
        the same hand counts nothing; a game without reads counts nothing (issue
        31, twenty-first pass)."""
        last_round = _ROUNDS.get(game, 0)
        key = ("into", tuple(sorted(str(e) for e in events[:3])))
        if me is None or last_round == 0 or key == self._into_ended:
            return
        self._into_ended = key
        done = 0
        bet_open = mine = False
        for e in events:
            kind = e.get("kind")
            seat = e.get("seat")
            if kind == "round":
                done += 1
                bet_open = mine = False
                continue
            if done != last_round or seat is None:
                continue
            if seat == me:
                mine = mine or (kind == "check" and not bet_open)
            elif mine and not bet_open and kind in ("bet", "check"):
                t = self.tendencies(int(seat))
                t.into_check_last += 1
                t.bets_into_check_last += kind == "bet"
            if kind in ("bet", "raise"):
                bet_open = True

    def observe_check_raise_answers(self, events: Sequence[Mapping[str, Any]],
                                    me: int | None) -> None:
        """The hand's end (all its ``events``; ``me`` the bot's seat): count each
        opponent's answer (fold, call or raise: its next action in the round) to
        each of the bot's check-raises, a raise of a bet after the bot's own check
        in the same betting round (:attr:`Tendencies.faced_check_raise`,
        :attr:`Tendencies.folds_to_check_raise`). Counted here, at the end, as a
        fold to a raise ends the hand and no view of the bot's shows it. A second
        call for the same hand counts nothing (issue 31, fifteenth pass)."""
        key = ("cr", tuple(sorted(str(e) for e in events[:3])))
        if me is None or key == self._cr_ended:
            return
        self._cr_ended = key
        checked = False
        waiting: set[int] = set()  # opponents yet to answer the bot's check-raise
        for e in events:
            kind = e.get("kind")
            seat = e.get("seat")
            if kind == "round":
                checked = False
                waiting = set()
                continue
            if seat == me:
                if kind == "check":
                    checked = True
                elif kind == "raise" and checked:
                    waiting = {int(s) for s in self._bettors(events, e)}
                continue
            if seat in waiting and kind in ("raise", "call", "fold"):
                waiting.discard(int(seat))
                t = self.tendencies(int(seat))
                t.faced_check_raise += 1
                t.folds_to_check_raise += kind == "fold"

    @staticmethod
    def _bettors(events: Sequence[Mapping[str, Any]], raise_: Mapping[str, Any]) -> set[int]:
        """The seats that bet or called in the betting round before the bot's
        raise ``raise_`` (one of ``events``): the players its check-raise answers."""
        out: set[int] = set()
        for e in events:
            if e is raise_:
                break
            if e.get("kind") == "round":
                out = set()
            elif e.get("kind") in ("bet", "raise", "call") and e.get("seat") is not None:
                out.add(int(e["seat"]))
        return out

    def acted(self, view: HandView, action: object) -> None:
        """The bot's own action in ``view`` (call after :meth:`observe`). A bet or
        raise heads-up before the last betting round, neither player put all in
        by a call, is answered in a later view of the same hand unless the
        opponent folds: a fold ends the hand, and no view ever shows it. So when
        the next view is of a new hand, :meth:`observe` counts that fold (issue
        31: heads-up the book saw no fold at all, its fold rate sank to about
        0.006 and the bot never bluffed). Last-round bets are left out either
        way (a call ends the hand too), so the rate is of the earlier rounds."""
        from rollem.engine.actions import Bet, Raise

        self._unanswered = None
        rounds = _ROUNDS.get(view.game)
        if not isinstance(action, Bet | Raise) or rounds is None or view.seat is None:
            return
        amount = action.amount if isinstance(action, Bet) else action.to
        others = [s for s in view.seats if s.dealt and not s.folded and s.seat != view.seat]
        number = round_number(view)
        if number is None:
            return
        me = view.seats[view.seat]
        if len(others) != 1 or number >= rounds:
            return
        opp = others[0]
        if opp.stack <= amount - opp.bet or me.stack <= amount - me.bet:
            return  # a call puts a player all in: the hand may end without a fold
        self._unanswered = (self._hand_key, opp.seat, isinstance(action, Raise))

    def weights(self, game: str, events: Sequence[Mapping[str, Any]], seats: Sequence[int],
                strength: Floats, early: Floats | None = None,
                wide: Mapping[int, float] | None = None,
                capped: Mapping[int, float] | None = None,
                players: int | None = None) -> Floats:
        """Per-world weights, shape ``(S,)``: the product over ``seats`` (columns of
        ``strength``, ``(S, k)`` in 0..1) of the likelihood of each one's actions
        in this hand's ``events``. ``early`` (the same shape; Stop, Drop and Roll
        once the Roll is out: the hole cards' percentile) is the strength the
        actions of the rounds before the last were read against: they were made
        on the hole cards alone, which the Roll may have missed (issue 31,
        eighth pass: an opponent who bet before the Roll and checked after it
        read as holding the made hand its early bets asked for, read equity 0.34
        where the real was 0.68, 53 spots). ``wide`` (per seat, 0..1: its trap
        index, :func:`rollem.bots.strong.traps.trap_index`; a seat not in it 0)
        widens that seat's check-raises from the top :data:`CHECK_RAISE` of its
        raises toward the top :data:`CHECK_RAISE_WIDE` of them (issue 31,
        sixteenth pass); 0 reads as without it. ``capped`` (per seat, 0..1: its
        trap index against the bot's own, ``check_calls``) caps that seat's
        calls after its own check in the same betting round (a check-call): the
        top of the range read so far, its seen check-raise rate of it
        (:func:`check_call_top`), would have raised, so a call comes from below
        it, by that index (issue 31, twenty-fourth pass); 0 reads as without
        it. ``players`` (the players dealt in, ``hu_check_raises``): a check made
        with two of them still in says less by its player's heads-up
        check-raise rate (:attr:`Tendencies.check_raise_rate_hu`), not the
        rate over every spot (a player whose check-raise threshold falls with
        the players in, as ``strongtrap``'s, check-raises far more often
        multiway; issue 31, twenty-fourth pass); ``None``: every check by the
        pooled rate, as before."""
        s = strength.shape[0]
        logw = np.zeros(s)
        col = {seat: j for j, seat in enumerate(seats)}
        rounds = _ROUNDS.get(game, 4)
        trapped = _check_raises(events)
        slow_played: set[object] = set()
        checkers: set[object] = set()  # who checked in this betting round
        live = players if players is not None else 0  # still in, where counted
        done = 0
        bet_open = checked = False
        at_round = logw.copy()  # the read as the betting round began
        for i, e in enumerate(events):
            kind = e.get("kind")
            if kind == "round":
                done += 1
                at_round = logw.copy()
                bet_open = checked = False
                slow_played = set()
                checkers = set()
                continue
            seat = e.get("seat")
            if kind == "check":
                checkers.add(seat)
            elif kind == "fold":
                live -= 1
            if seat not in col:
                if kind in ("bet", "raise"):
                    bet_open = True
                elif kind == "check":
                    checked = True
                continue
            now = early if early is not None and done < rounds else strength
            z = np.clip(now[:, col[int(seat)]], 0.0, 1.0)
            late = min(1.0, done / rounds)
            soft = 0.05 + 0.12 * (1.0 - late)
            t = self.tendencies(int(seat))
            if kind in ("bet", "raise"):
                rate = t.raise_rate if bet_open else t.open_rate(checked)
                floor = EPS
                threshold = 1.0 - rate
                if seat in slow_played:  # a check-raise: the top of its raises
                    share = CHECK_RAISE
                    if wide:
                        share += (CHECK_RAISE_WIDE - CHECK_RAISE) * wide.get(int(seat), 0.0)
                    rate = min(1.0, rate * share)
                    threshold = 1.0 - rate
                    floor = min(EPS, CHECK_RAISE_STRAY * t.check_raise_rate)
                    soft = CHECK_RAISE_SOFT  # a raise threshold, however early
                elif bet_open and game in SHARP_RAISES:
                    soft = RAISE_SOFT  # the raiser's hand is all there is before the Roll
                    # the top ``rate`` of the hands that got to this round, not of
                    # all hands (nor of those that raised already in it: a raise war
                    # would narrow a maniac's range raise by raise)
                    threshold = _range_quantile(z, at_round, threshold)
                like = floor + (1 - floor) * _step(z, threshold, soft)
                bet_open = True
            elif kind == "call":
                like = EPS + (1 - EPS) * _step(z, t.fold_rate, soft)
                cap = capped.get(int(seat), 0.0) if capped else 0.0
                if cap > 0 and seat in checkers:
                    # a check-call of a trapper: its hands at the top of the read
                    # so far check-raise (issue 31, twenty-fourth pass)
                    top = _range_quantile(z, logw, 1.0 - check_call_top(t))
                    like = like * (1.0 - cap * (1.0 - EPS) * _step(z, top, soft))
            elif kind == "check" and i in trapped:
                checked = True  # a check-raise: the check hid strength (issue 31)
                slow_played.add(seat)
                continue
            elif kind == "check":
                rate = t.open_rate(checked)
                # a player who check-raises often checks its strong hands too
                read = CHECK_READ * (1.0 - min(1.0, TRAP_READ * t.check_raise_rate))
                if players is not None and live <= 2:
                    # heads-up: by its heads-up check-raises, not every spot's
                    read = CHECK_READ * (1.0 - min(1.0, TRAP_READ * t.check_raise_rate_hu))
                like = 1.0 - read * min(1.0, rate / QUIET) * _step(z, 1.0 - rate, soft)
                checked = True
            elif kind == "draw" and game == "rollem521" and e.get("count") is not None:
                n = int(e["count"])
                if n == 0:
                    like = EPS + (1 - EPS) * z ** 2
                elif n >= 2:
                    like = 1.0 - 0.6 * z
                else:
                    continue
            else:
                continue
            logw += np.log(like)
        w: Floats = np.exp(logw - logw.max()) if s else logw
        return w
