"""The card-room all-in rule (R-C-6, all three structures): short all-ins add
up; a seat that already acted may raise again only when what it faces is at
least the threshold. The two inputs of issue 12 (RULES.md's example and its
fixed-limit twin) plus a hypothesis property test against a small independent
statement of the rule written here."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rollem.engine import Bet, Call, Check, Fold, Hand, Options, Raise, SeededSource
from rollem.history import replay

HISTORIES = Path(__file__).parent / "histories"


# ------------------------------------------------------------ the two inputs


def nl_example() -> Hand:
    """No-limit, ante 1, bets 100/200, button seat 4 (RULES.md R-C-6's example)."""
    opts = Options(structure="no-limit", ante=1, small_bet=100, big_bet=200)
    return Hand("sdr", [1000, 126, 1000, 201, 1000], button=4, options=opts,
                source=SeededSource(1))


def test_no_limit_short_all_ins_add_up_to_a_full_raise() -> None:
    h = nl_example()
    h.apply(0, Bet(100))                     # A bets 100
    h.apply(1, Raise(125))                   # B all-in 125: +25, short
    assert h.stacks[1] == 0 and h.full_level == 100
    h.apply(2, Call())                       # C calls 125
    h.apply(3, Raise(200))                   # D all-in 200: 25 + 75 = 100 added, a full raise
    assert h.stacks[3] == 0 and h.full_level == 200 and h.last_raise == 100
    h.apply(4, Call())                       # E calls 200
    legal = h.legal_actions(0)               # A faces 100 more: a full raise
    assert legal.actions == ("fold", "call", "raise")
    assert (legal.call_amount, legal.min_to, legal.max_to) == (100, 300, 999)
    h.apply(0, Raise(300))
    # after A's full raise C faces 175 >= 100 and may raise again
    assert h.legal_actions(2).actions == ("fold", "call", "raise")
    h.apply(2, Call())
    h.apply(4, Call())
    assert h.round_name == "after the stop"
    assert h.committed == [301, 126, 301, 201, 301]


def test_no_limit_caller_facing_less_than_a_full_raise_may_only_call() -> None:
    h = nl_example()
    for seat, action in ((0, Bet(100)), (1, Raise(125)), (2, Call()), (3, Raise(200)),
                         (4, Call()), (0, Call())):
        h.apply(seat, action)
    # C called 125 and faces 75 < 100: call or fold only
    legal = h.legal_actions(2)
    assert legal.actions == ("fold", "call") and legal.call_amount == 75


def fl_example() -> Hand:
    """Fixed limit, ante 1, bets 10/20, caps 3 a round, button seat 3."""
    opts = Options(structure="fixed-limit", ante=1, small_bet=10, big_bet=20,
                   caps=(3, 3, 3, 3))
    return Hand("sdr", [200, 15, 19, 200], button=3, options=opts, source=SeededSource(1))


def test_fixed_limit_short_all_ins_add_up_and_reopen() -> None:
    h = fl_example()
    h.apply(0, Bet(10))
    h.apply(1, Raise(14))                    # all-in: +4 < 5, not a raise
    assert h.n_full == 1
    assert (h.legal_actions(2).min_to, h.legal_actions(2).max_to) == (18, 18)  # all-in only
    h.apply(2, Raise(18))                    # all-in: +8 over the 10 >= half a bet
    assert h.n_full == 2 and h.full_level == 18
    legal = h.legal_actions(3)
    assert legal.actions == ("fold", "call", "raise") and legal.min_to == legal.max_to == 28
    h.apply(3, Raise(28))                    # a full raise over 18
    legal = h.legal_actions(0)               # reopened for seat 0: faces 18
    assert legal.actions == ("fold", "call", "raise") and legal.min_to == 38
    h.apply(0, Raise(38))
    assert h.n_full == 4                     # bet + 3 raises: capped
    assert h.legal_actions(3).actions == ("fold", "call")
    h.apply(3, Call())
    assert h.round_name == "after the stop"


def test_fixed_limit_one_short_all_in_alone_does_not_reopen() -> None:
    h = fl_example()
    h.apply(0, Bet(10))
    h.apply(1, Raise(14))                    # +4: short
    h.apply(2, Fold())
    h.apply(3, Call())
    legal = h.legal_actions(0)               # faces 4 < 5
    assert legal.actions == ("fold", "call") and legal.call_amount == 4


def test_the_two_inputs_replay_as_histories() -> None:
    nl = replay((HISTORIES / "allin_add_up_no_limit.toml").read_text())
    assert nl.committed == [301, 126, 301, 201, 301]
    fl = replay((HISTORIES / "allin_add_up_fixed_limit.toml").read_text())
    assert fl.committed[:4] == [39, 15, 19, 39]


# ------------------------------------------------------------ folding any time


def test_fold_allowed_when_a_check_is_free_and_marked() -> None:
    h = Hand("sdr", [200] * 3, button=2, source=SeededSource(5))
    legal = h.legal_actions(0)
    assert legal.actions == ("fold", "check", "bet")
    events = h.apply(0, Fold())
    assert [(e.kind, e.data) for e in events] == [("fold", {"could_check": True})]
    assert h.folded[0] and h.committed[0] == 1
    h.apply(1, Bet(2))
    events = h.apply(2, Fold())              # a fold facing a bet carries no mark
    assert [(e.kind, e.data) for e in events][:1] == [("fold", {})]
    assert h.is_over and h.result is not None and h.result.net == {0: -1, 1: 2, 2: -1}


# ------------------------------------------------- property: an independent model


class Model:
    """The rule of R-C-6, stated on its own for one betting round.

    Keeps only the list of round totals of every bet or raise; from it, the
    last full level and the last full raise size are recomputed from scratch.
    """

    def __init__(self, fixed: bool, size: int) -> None:
        self.fixed = fixed
        self.size = size
        self.raises: list[int] = []          # round totals of each bet/raise, in order
        self.acted: set[int] = set()

    def levels(self) -> tuple[int, int, int, int]:
        """(current bet, last full level, last full raise size, bets/raises that
        were full): a bet or raise is full when it adds the threshold over the
        last full level, however many all-ins that took."""
        cur = full = count = 0
        step = self.size
        for to in self.raises:
            need = (self.size + 1) // 2 if self.fixed else step
            if not self.fixed and to - cur >= need:
                step = to - cur                # a full raise on its own sets the size
            if to - full >= need:
                full = to
                count += 1
            cur = to
        return cur, full, step, count

    def may_raise(self, seat: int, bet: int, stack: int, others_can_call: bool,
                  cap: int) -> bool:
        cur, _full, step, count = self.levels()
        if stack <= cur - bet or not others_can_call:
            return False
        if self.fixed and count >= cap + 1:
            return False
        threshold = (self.size + 1) // 2 if self.fixed else step
        # a seat that only checked faces a new wager and may raise it
        return seat not in self.acted or bet == 0 or cur - bet >= threshold

    def bounds(self, bet: int, stack: int) -> tuple[int, int]:
        cur, full, step, _count = self.levels()
        all_in = bet + stack
        if self.fixed:
            lo = hi = full + self.size
        else:
            lo = self.size if cur == 0 else cur + step
            hi = all_in
        return (min(lo, all_in), min(hi, all_in))


STRUCTURES = ("fixed-limit", "no-limit", "pot-limit")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    structure=st.sampled_from(STRUCTURES),
    size=st.integers(2, 12),
    stacks=st.lists(st.integers(2, 60), min_size=2, max_size=6),
    choices=st.lists(st.integers(0, 999), min_size=40, max_size=40),
)
def test_betting_matches_the_independent_rule(structure: str, size: int, stacks: list[int],
                                              choices: list[int]) -> None:
    """Round 1 of random hands: at every decision the engine's options (may it
    raise, and to what) equal the model's; every action taken is legal."""
    opts = Options(structure=structure, ante=1, small_bet=size, big_bet=2 * size)
    h = Hand("sdr", stacks, button=len(stacks) - 1, options=opts, source=SeededSource(3))
    model = Model(structure == "fixed-limit", size)
    cap = 1  # SDR round 1 (R-SDR-7)
    it = iter(choices)
    while not h.is_over and h.round == 0 and h.pending is not None:
        seat = h.pending.seats[0]
        legal = h.legal_actions(seat)
        bet, stack = h.bets[seat], h.stacks[seat]
        # somebody else must be able to put in more than the current bet (R-C-14)
        others = any(not h.folded[s] and h.stacks[s] + h.bets[s] > h.current_bet
                     for s in range(h.n) if s != seat)
        want = model.may_raise(seat, bet, stack, others, cap)
        can = "raise" in legal.actions or "bet" in legal.actions
        assert can == want, (legal, model.raises, model.acted, seat)
        if can:
            lo, hi = model.bounds(bet, stack)
            if structure == "pot-limit":
                assert legal.min_to == lo and legal.max_to <= hi
            else:
                assert (legal.min_to, legal.max_to) == (lo, hi)
        pick = next(it, 0)
        kind = pick % 10
        if can and kind < 5:                         # bet/raise, often all-in
            to = legal.max_to if kind < 2 else legal.min_to + (pick // 10) % (
                legal.max_to - legal.min_to + 1)
            h.apply(seat, (Raise if h.current_bet else Bet)(to))
            model.raises.append(to)
        elif kind == 9:
            h.apply(seat, Fold())
        elif "call" in legal.actions:
            h.apply(seat, Call())
        else:
            h.apply(seat, Check())
        model.acted.add(seat)
