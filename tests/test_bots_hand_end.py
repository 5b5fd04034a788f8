"""Issue 31, eleventh pass: bots are told each hand's end (``observe_hand_end``),
with their own seat's view only, wherever bots play; ``strong`` learns from
the showdowns where an opponent's last-round bets really stood."""

from __future__ import annotations

import importlib.util
import random
from concurrent.futures import Future
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np
import pytest

from engine_helpers import stacked_hand
from rollem import bots as bots_module
from rollem.bots import make_bot, observe_hand_end
from rollem.bots.strong import StrongBot
from rollem.bots.strong.showdowns import BINS, ShowdownBook, line_faced, read_ranks
from rollem.cards import CARDS
from rollem.engine import Bet, Call, Check, Fold, Hand, HandView, SeededSource
from rollem.hand_ends import tell_hand_end

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_league.py"


class Recorder:
    """A ``basic`` bot that keeps every hand-end view it is given."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.inner = make_bot("basic", rng or random.Random(0))
        self.ends: list[HandView] = []

    def act(self, view: HandView) -> object:
        return self.inner.act(view)

    def policy(self, view: HandView) -> dict[object, float]:
        return self.inner.policy(view)

    def observe_hand_end(self, view: HandView) -> None:
        self.ends.append(view)


def _tokens(value: Any) -> set[str]:
    """Every whitespace-separated word of every string in ``value`` (nested)."""
    if isinstance(value, str):
        return set(value.split())
    if isinstance(value, dict):
        return set().union(*(_tokens(k) | _tokens(v) for k, v in value.items())) if value \
            else set()
    if isinstance(value, list | tuple):
        return set().union(*(_tokens(v) for v in value)) if value else set()
    return set()


def _play(game: str, players: int, seed: int, recorders: list[Recorder]) -> Hand:
    hand = Hand(game, [200] * players, button=seed % players, source=SeededSource(seed))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, recorders[seat].act(hand.view(seat)))
    tell_hand_end(hand, recorders)
    return hand


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
def test_a_bot_is_told_only_what_its_seat_may_see(game: str) -> None:
    """Every seat dealt in is told the end once, with its own seat's view: its
    own cards, and of another seat's face-down cards only those shown down
    (R-C-11) or its own put in the Roll Your Own pool (R-RYO-2), never a mucked
    or unshown hole card (searched through the whole view as data). Shown
    hands do reach the bots (some hands show down)."""
    shown_seen = hidden_checked = 0
    for seed in range(12):
        recorders = [Recorder(random.Random(seed * 10 + s)) for s in range(3)]
        hand = _play(game, 3, seed, recorders)
        assert hand.result is not None
        shown = hand.result.shown_cards
        for seat, rec in enumerate(recorders):
            assert len(rec.ends) == 1 and rec.ends[0].seat == seat
            view = rec.ends[0]
            words = _tokens(view.to_dict())
            for other in range(3):
                if other == seat:
                    continue
                for card, up in zip(hand.hole[other], hand.up[other], strict=True):
                    text = str(CARDS[card])
                    if up or card in shown.get(other, ()) \
                            or card in hand.shown_by_choice.get(other, ()) \
                            or card in hand.pool_by_seat.get(seat, ()):
                        continue  # face up, shown, or the viewer's own card put in the pool
                    hidden_checked += 1
                    assert text not in words, (game, seed, seat, other, text)
                if other in shown and not hand.folded[other]:
                    seen = {c for c in view.seats[other].cards if c is not None}
                    assert {str(CARDS[c]) for c in shown[other]} <= seen
                    shown_seen += 1
    assert shown_seen > 0 and hidden_checked > 0, (shown_seen, hidden_checked)


def test_tell_hand_end_skips_what_it_should() -> None:
    """Seats not dealt in and ``None`` get nothing; a bot without the call is
    skipped quietly (the default does nothing); a hand still being played is
    refused with a clear error."""
    hand = Hand("sdr", [200, 0, 200], button=0, source=SeededSource(3))
    with pytest.raises(ValueError, match="finished hand"):
        tell_hand_end(hand, [])
    bots = [Recorder(), Recorder(), None]
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, Recorder(random.Random(seat)).act(hand.view(seat)))
    tell_hand_end(hand, bots)
    assert [len(b.ends) for b in bots if b is not None] == [1, 0]
    observe_hand_end(make_bot("random", random.Random(0)), hand.view(0))  # no call: nothing


@pytest.fixture
def recorder_level(monkeypatch: pytest.MonkeyPatch) -> list[Recorder]:
    made: list[Recorder] = []

    def factory(rng: random.Random) -> Recorder:
        bot = Recorder(rng)
        made.append(bot)
        return bot

    monkeypatch.setitem(bots_module.LEVELS, "recorder", factory)
    make_bot("basic")  # (registers the built-in levels first)
    return made


def test_simulate_and_tournaments_tell_every_hands_end(recorder_level: list[Recorder]) -> None:
    """``rollem simulate`` and the tournament simulator tell each bot every hand
    it was dealt into."""
    from rollem.simulate import run_simulation

    run_simulation("sdr", 2, 7, ["recorder", "recorder"], seed=1)
    assert [len(b.ends) for b in recorder_level] == [7, 7]
    recorder_level.clear()
    from rollem.tournament.schedule import SCHEDULES
    from rollem.tournament.simulate import run_tournaments

    run = run_tournaments("sdr", SCHEDULES["turbo"], ["recorder", "recorder"], tournaments=1,
                          hands_max=5, seed=2)
    assert recorder_level and all(len(b.ends) >= 1 for b in recorder_level), run


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_league_hand_end", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_league_tells_every_hands_end(recorder_level: list[Recorder]) -> None:
    """``bench_league.py``'s matches tell each bot every deal's end, through the
    per-view seeding wrapper too."""
    league = _bench()
    league._play("sdr", ["recorder", "recorder"], [11, 12, 13], "fixed-limit", 5, None)
    assert [len(b.ends) for b in recorder_level] == [3, 3]
    recorder_level.clear()
    league._play("sdr", ["recorder", "recorder"], [11, 12], "fixed-limit", 5, 99)
    assert [len(b.ends) for b in recorder_level] == [2, 2]


def test_the_terminal_game_tells_its_computer_players() -> None:
    """The terminal game's ``tell_bots``: seats 1 on are its computer players."""
    from rollem.cli.play_cmd import TerminalGame

    recorders = [Recorder(random.Random(s)) for s in range(2)]
    hand = _play("sdr", 3, 4, [Recorder(random.Random(9)), *recorders])
    for r in recorders:
        r.ends.clear()
    TerminalGame.tell_bots(SimpleNamespace(bots=recorders), hand)  # type: ignore[arg-type]
    assert [r.ends[0].seat for r in recorders] == [1, 2]


def test_the_web_table_tells_its_computer_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """The web table (``Dealer.tell_bots``, called as a hand finishes): each seat
    with a computer player gets its own view, in the bot thread; a person's
    seat gets nothing."""
    from rollem.server import live_table
    from rollem.server.game_session import GameSession
    from rollem.server.live_table.hands import Dealer

    calls: list[tuple[object, Any, tuple[Any, ...]]] = []

    def submit_for(key: object, fn: Any, *args: Any) -> Future[Any]:
        calls.append((key, fn, args))
        fut: Future[Any] = Future()
        fut.set_result(fn(*args))
        return fut

    monkeypatch.setattr(live_table._BOT_THREAD, "submit_for", submit_for)
    recorders = [Recorder(random.Random(s)) for s in range(3)]
    hand = _play("sdr", 3, 5, recorders)
    for r in recorders:
        r.ends.clear()
    session = GameSession(0, {"game": "sdr", "seats": [0, 1, 2]}, hand)
    seats = {0: SimpleNamespace(bot=recorders[0], row=SimpleNamespace(bot=None)),
             1: SimpleNamespace(bot=recorders[1], row=SimpleNamespace(bot="strong")),
             2: SimpleNamespace(bot=recorders[2], row=SimpleNamespace(bot="basic"))}
    Dealer(SimpleNamespace(seats=seats, id="t1")).tell_bots(session)  # type: ignore[arg-type]
    assert [len(r.ends) for r in recorders] == [0, 1, 1]
    assert recorders[1].ends[0].seat == 1 and recorders[2].ends[0].seat == 2
    assert {c[0] for c in calls} == {"t1"}


# -- strong's showdown reads

def test_line_faced() -> None:
    """The opponent whose bet or raise is open in the round, and its line."""
    events = [{"kind": "round", "name": "round 1"}, {"kind": "check", "seat": 0},
              {"kind": "check", "seat": 1}, {"kind": "round", "name": "round 2"},
              {"kind": "bet", "seat": 1, "amount": 4}]
    assert line_faced(events, 0) == (1, "bet after a check")
    assert line_faced(events, 1) is None
    events += [{"kind": "raise", "seat": 0, "amount": 8}]
    assert line_faced(events, 1) == (0, "raise after a check")
    assert line_faced(events[3:], 1) == (0, "raise")


def test_read_ranks_and_the_recalibration() -> None:
    """``u`` is the weighted share of worse hands (ties half); with no showdown
    seen the factor is none; showdowns that fell in the read's bottom quarter
    raise the weight of the bottom-quarter worlds, shrunk by the priors."""
    values = np.asarray([1, 2, 2, 3])
    u = read_ranks(values, np.ones(4))
    assert u.tolist() == [0.125, 0.5, 0.5, 0.875]
    book = ShowdownBook()
    assert book.factor(1, "bet", values, np.ones(4)) is None
    for _ in range(8):
        book.note("h", 1, "bet", values, np.ones(4))
        assert book.shown("h", {1: 1.0}) == 1
    d = book.density(1, "bet")
    assert d is not None and d[0] > 2.0 and abs(d.mean() - 1.0) < 1e-9, d
    f = book.factor(1, "bet", values, np.ones(4))
    assert f is not None and f[0] == d[0] and f[3] == d[BINS - 1] < 1.0
    # another line of the same player leans the same way, less
    other = book.density(1, "bet after a check")
    assert other is not None and 1.0 < other[0] < d[0]
    book.forget(1)
    assert book.density(1, "bet") is None


def _last_round_bet(hero: str, opp: str) -> Hand:
    """SDR heads-up (Stop 9h, Drop 4c, Roll Kc Qd Js): checked through three
    rounds; on the last, seat 0 (``opp``) bets after its checks: seat 1
    (``hero``) faces the bet."""
    hand = stacked_hand([200, 200], 1, {0: opp, 1: hero}, stop="9h", drop="4c",
                        roll="Kc Qd Js")
    for action in [Check(), Check()] * 3 + [Bet(4)]:
        assert hand.pending is not None
        hand.apply(hand.pending.seats[0], action)
    assert hand.pending is not None and hand.pending.seats == (1,)
    return hand


def test_strong_learns_a_bettors_weak_showdowns() -> None:
    """Facing a last-round bet after checks, from a player whose shown hands on
    that line were the weakest of the read every time: the read equity is
    higher than from a player never seen at showdown, and ``policy`` still
    gives probabilities over legal actions."""
    view = _last_round_bet("Qh 5c", "2c 3d").view(1)
    fresh = StrongBot(random.Random(0))
    taught = StrongBot(random.Random(0))
    for _ in range(12):  # the bettor shows 2c 3d (no pair) at the end, each time
        hand = _last_round_bet("Qh 5c", "2c 3d")
        v = hand.view(1)
        taught.act(v)  # (a real decision: the spot is kept for the hand's end)
        hand.apply(1, Call())
        assert hand.is_over
        taught.observe_hand_end(hand.view(1))
    counts = taught.showdowns.counts[0]["bet after a check"]
    assert counts.tolist() == [12, 0, 0, 0], counts
    e_fresh = max(fresh.equities(view).values())
    e_taught = max(taught.equities(view).values())
    assert e_taught > e_fresh + 0.1, (e_fresh, e_taught)
    policy = taught.policy(view)
    assert view.legal is not None
    assert abs(sum(policy.values()) - 1.0) < 1e-9
    assert all(type(a).__name__.lower() in view.legal.actions for a in policy)


def test_strong_learns_nothing_from_a_fold() -> None:
    """A hand that ends on a fold shows no cards: nothing is counted."""
    bot = StrongBot(random.Random(0))
    hand = _last_round_bet("Qh 5c", "2c 3d")
    v = hand.view(1)
    bot.act(v)
    hand.apply(1, Fold())
    bot.observe_hand_end(hand.view(1))
    assert bot.showdowns.counts == {}


class _LastRoundBettor:
    """``basic``, but bets whenever it may on Roll Your Own's last betting round."""

    def __init__(self) -> None:
        self.inner = make_bot("basic", random.Random(0))

    def act(self, view: HandView) -> object:
        from rollem.bots.strong.reads import round_number

        legal = view.legal
        assert legal is not None
        if round_number(view) == 4 and "bet" in legal.actions:
            return Bet(legal.min_to)
        return self.inner.act(view)

    def observe_hand_end(self, view: HandView) -> None:
        pass


class _RyoShowdowns(StrongBot):
    showdown_games = frozenset({"sdr", "rollyourown"})


def _ryo_hand(deal: int, hero: StrongBot) -> Hand:
    """A Roll Your Own fixed-limit hand heads-up, deck seed ``deal``: seat 0 the
    last-round bettor, seat 1 ``hero``; both told its end."""
    from rollem.engine.options import Options

    bots = [_LastRoundBettor(), hero]
    hand = Hand("rollyourown", [200, 200], button=0,
                options=Options(structure="fixed-limit"), source=SeededSource(deal))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, bots[seat].act(hand.view(seat)))
    tell_hand_end(hand, bots)
    return hand


@pytest.mark.parametrize(("deal", "shown", "counts"), [
    (9, ["Jd", "8d", "5s", "Ks", "Kh"], [0, 0, 0, 1]),   # kings wild: four of a kind
    (19, ["7s", "3d", "8s", "Ac", "9s"], [1, 0, 0, 0]),  # fives wild: ace high
])
def test_strong_reads_roll_your_own_showdowns_when_asked(
        deal: int, shown: list[str], counts: list[int]) -> None:
    """Issue 31, twenty-third pass (``showdown_games``): with Roll Your Own among
    the showdown games, a last-round bet ``strong`` called and saw shown down is
    counted where its hand stood in the read (its value with the hand's wild
    cards, as the worlds'); off by default (Stop, Drop and Roll only), the same
    hand counts nothing."""
    from rollem.bots.strong.bot import _ryo_shown_values
    from rollem.cards import parse_card, parse_rank
    from rollem.odds.evaluate import wild5

    on = _RyoShowdowns(random.Random(0), samples=100)
    hand = _ryo_hand(deal, on)
    end = hand.view(1)
    assert end.seats[0].cards == shown
    got = on.showdowns.counts[0]["bet after a check"]
    assert got.tolist() == counts
    wild = [parse_rank(r) for r in end.wild_ranks]
    cards = np.asarray([[[int(parse_card(c)) for c in shown]]], dtype=np.int64)
    assert _ryo_shown_values(end) == {0: float(wild5(cards, wild)[0, 0])}
    off = StrongBot(random.Random(0), samples=100)
    assert StrongBot.showdown_games == frozenset({"sdr"})
    _ryo_hand(deal, off)
    assert off.showdowns.counts == {}
