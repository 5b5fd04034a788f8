"""Five Card Roll Your Own (R-RYO-1..R-RYO-12): the seed's example as a
replayed history, hand-made cases, and properties over thousands of random
hands (chips and cards conserved, nothing hidden leaks to a seat)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollem.bots.random_bot import random_action
from rollem.cards import CARDS, Card, parse_cards
from rollem.engine import (
    Bet,
    Call,
    Check,
    Discard,
    EngineError,
    Expose,
    Fold,
    Hand,
    IllegalAction,
    Legal,
    Options,
    PickWild,
    ReplaySource,
    SeededSource,
)
from rollem.hands import evaluate, high_value, wild_value
from rollem.history import HistoryError, read_history, redact, replay, write_history

HISTORIES = Path(__file__).parent / "histories"
QUEEN, FIVE, TWO = 10, 3, 0


# ------------------------------------------------------------------ helpers


def ryo_hand(
    holes: Mapping[int, str],
    *,
    button: int = 0,
    stacks: Sequence[int] | None = None,
    pool: str = "",
    options: Options | None = None,
) -> Hand:
    """A hand dealt ``holes`` (seat -> six cards); ``pool``: the pool's order
    after its shuffle (top first; default: the order the cards went in)."""
    n = len(stacks) if stacks is not None else len(holes)
    order = [(button + i) % n for i in range(1, n + 1)]
    order = [s for s in order if s in holes]
    deck: list[int] = []
    for k in range(6):
        for s in order:
            deck.append(parse_cards(holes[s])[k])
    used = set(deck)
    deck += [c for c in CARDS if c not in used]
    outcomes: list[tuple[str, Sequence[int]]] = [("deck", deck)]
    if pool:
        outcomes.append(("pool", parse_cards(pool)))
    source = ReplaySource(outcomes) if pool else _NoShuffle(deck)
    return Hand("rollyourown", list(stacks) if stacks is not None else [100] * n,
                button=button, options=options, source=source)


class _NoShuffle(ReplaySource):
    """The deck as given; the pool keeps the order its cards went in."""

    def __init__(self, deck: Sequence[int]) -> None:
        super().__init__([("deck", deck)])

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        if label == "deck":
            return super()._shuffle(label, cards)
        return [CARDS[c] for c in cards]


def discard(hand: Hand, choices: Mapping[int, str]) -> None:
    for s, cards in choices.items():
        hand.apply(s, Discard(tuple(parse_cards(cards))))


def expose(hand: Hand, choices: Mapping[int, str]) -> None:
    for s, card in choices.items():
        hand.apply(s, Expose(parse_cards(card)[0]))


def check_round(hand: Hand) -> list[int]:
    """Everyone checks (or calls) through one betting round; returns who acted."""
    assert hand.pending is not None and hand.pending.kind == "bet"
    seats = []
    while hand.pending is not None and hand.pending.kind == "bet":
        s = hand.pending.seats[0]
        seats.append(s)
        legal = hand.legal_actions(s)
        hand.apply(s, Check() if "check" in legal.actions else Call())
    return seats


def draws(hand: Hand, since: int = 0) -> list[tuple[int, str]]:
    return [(e.seat, str(CARDS[e.data["card"]])) for e in hand.events[since:]
            if e.kind == "pool_draw"]  # type: ignore[misc]


def cards_of(hand: Hand, seat: int, up: bool) -> list[str]:
    return [str(c) for c, u in zip(hand.hole[seat], hand.up[seat], strict=True) if u == up]


# --------------------------------------------------------- the seed example


def test_seed_example_r_ryo_12_queens_wild_four_aces_beat_four_sevens() -> None:
    hand = replay((HISTORIES / "rollyourown_seed_example.toml").read_text())
    assert hand.wild_ranks == (QUEEN,)
    assert [str(c) for c in hand.dead] == ["Qd"]  # the turned card is part of no hand
    assert cards_of(hand, 0, up=True) == ["7s", "7h", "Kc"]
    assert cards_of(hand, 0, up=False) == ["Qs", "7d"]
    assert cards_of(hand, 1, up=True) == ["Ah", "Ad", "5c"]
    assert cards_of(hand, 1, up=False) == ["Qh", "Qc"]
    a = evaluate(hand.hole[0], wild_ranks=(QUEEN,))
    b = evaluate(hand.hole[1], wild_ranks=(QUEEN,))
    assert a.description == "four sevens, king kicker"
    assert b.description == "four aces, five kicker"
    assert wild_value(hand.hole[1], (QUEEN,)) > wild_value(hand.hole[0], (QUEEN,))
    r = hand.result
    assert r is not None
    assert r.pots[0].amount == 46 and r.pots[0].winners == {1: 46}
    assert r.net == {0: -23, 1: 23}
    assert r.shown == {0: "four sevens, king kicker", 1: "four aces, five kicker"}
    # B had the highest showing each time: B opened rounds 1-4 and drew first
    assert hand.openers == [1, 1, 1, 1]
    assert draws(hand) == [(1, "5c"), (0, "Kc"), (1, "Qc"), (0, "7d")]
    assert hand.extra["wild_chooser"] == 0 and hand.extra["wild_position"] == 1
    assert [str(c) for c in hand.pool] == ["2c"]


def test_seed_example_history_round_trip() -> None:
    hand = replay((HISTORIES / "rollyourown_seed_example.toml").read_text())
    text = write_history(hand)
    assert "d pd p2 5c" in text and "d wild Qd" in text and "p1 wild 1" in text
    h = read_history(text)
    assert h.shuffles == [("pool", parse_cards("5c Kc Qc 7d 2c Qd"))]
    again = replay(text)
    assert again.result is not None and again.result.to_dict() == hand.result.to_dict()  # type: ignore[union-attr]
    assert write_history(again) == text


def test_history_draw_line_must_agree_with_the_pool_order() -> None:
    text = (HISTORIES / "rollyourown_seed_example.toml").read_text()
    bad = text.replace('"d pd p1 Kc"', '"d pd p1 2c"')
    with pytest.raises(HistoryError, match="d pd p1 2c"):
        replay(bad)
    with pytest.raises(HistoryError, match="permutation"):
        replay(text.replace('cards = "5c Kc Qc 7d 2c Qd"', 'cards = "5c Kc Qc 7d 2c Qs"'))


def test_hand_written_history_without_pool_order_keeps_discard_order() -> None:
    text = (HISTORIES / "rollyourown_seed_example.toml").read_text()
    start = text.index("[[_shuffles]]")
    no_pool = text[:start] + text[text.index("[_options]"):]
    no_pool = "\n".join(line for line in no_pool.splitlines()
                        if "d pd" not in line and "d wild" not in line)
    hand = replay(no_pool, check_result=False)
    # p1's discards first (dealer's left), then p2's, as written
    assert draws(hand) == [(1, "5c"), (0, "Qc"), (1, "2c"), (0, "Kc")]


# ------------------------------------------------------------ hand-made cases


def test_tie_for_highest_up_card_goes_to_the_nearest_the_dealers_left() -> None:
    holes = {0: "2c 3d 4h 8s 9s Tc", 1: "Kc 2d 3h 5s 6s 7c", 2: "4c 5d 6h 7s 8d Jc",
             3: "Kd 3c 4d 5h 9c Td"}
    for button, first in ((0, 1), (2, 3)):
        hand = ryo_hand(holes, button=button)
        discard(hand, {0: "8s 9s Tc", 1: "5s 6s 7c", 2: "7s 8d Jc", 3: "5h 9c Td"})
        expose(hand, {0: "4h", 1: "Kc", 2: "6h", 3: "Kd"})
        assert hand.pending is not None and hand.pending.seats == (first,)
        mark = len(hand.events)
        check_round(hand)
        assert hand.openers == [first]
        order = [s for s, _ in draws(hand, mark)]
        assert order == [(first + i) % 4 for i in range(4)]  # clockwise from the opener


def test_round_2_opener_is_highest_two_showing_and_a_fold_is_skipped_in_the_draw() -> None:
    holes = {0: "Ac 2d 3h 8s 9s Tc", 1: "Kc Kd 3c 5s 6s 7c", 2: "4c 5d 6h 7s 8d Jc"}
    pool = "9s 5s 8s 7s Tc 6s 8d 7c Jc"
    hand = ryo_hand(holes, button=2, pool=pool)
    discard(hand, {0: "8s 9s Tc", 1: "5s 6s 7c", 2: "7s 8d Jc"})
    expose(hand, {0: "Ac", 1: "Kc", 2: "4c"})
    assert hand.pending is not None and hand.pending.seats == (0,)  # ace up
    hand.apply(0, Bet(2))
    hand.apply(1, Call())
    hand.apply(2, Fold())
    assert draws(hand) == [(0, "9s"), (1, "5s")]  # seat 2 folded: skipped
    expose(hand, {0: "2d", 1: "Kd"})
    # A-2 showing vs K-K showing: the pair opens round 2, then draws first
    assert hand.pending is not None and hand.pending.seats == (1,)
    mark = len(hand.events)
    check_round(hand)
    assert draws(hand, mark) == [(1, "8s"), (0, "7s")]


def test_lowest_showing_player_chooses_the_wild_card_even_all_in() -> None:
    holes = {0: "Ac Ad 9h 2s 3s 4c", 1: "Kc Kd Kh 5s 6s 7c", 2: "3c 4d 8h 7s 8d Jc"}
    # seat 2 has only 3 chips: the ante and a call of the first bet, then all-in
    hand = ryo_hand(holes, button=0, stacks=[100, 100, 3],
                    pool="2s 5s 7s 3s 6s 8d 4c 7c Jc")
    discard(hand, {0: "2s 3s 4c", 1: "5s 6s 7c", 2: "7s 8d Jc"})
    expose(hand, {0: "Ac", 1: "Kc", 2: "3c"})
    assert hand.pending is not None and hand.pending.seats == (0,)
    hand.apply(0, Bet(2))
    hand.apply(1, Call())
    hand.apply(2, Call())
    assert hand.stacks[2] == 0 and not hand.folded[2]
    assert [s for s, _ in draws(hand)] == [0, 1, 2]  # the all-in player draws too
    expose(hand, {0: "Ad", 1: "Kd", 2: "4d"})
    check_round(hand)
    expose(hand, {0: "9h", 1: "Kh", 2: "8h"})
    check_round(hand)
    p = hand.pending
    assert p is not None and p.kind == "wild" and p.seats == (2,)  # 3-4-8 is lowest
    legal = hand.legal_actions(2)
    assert legal.actions == ("wild",) and legal.positions == len(hand.pool) == 3
    assert hand.legal_actions(0).actions == ()
    with pytest.raises(IllegalAction, match="seat 0 cannot act now"):
        hand.apply(0, PickWild(0))
    with pytest.raises(IllegalAction, match=r"position 0\.\.2"):
        hand.apply(2, PickWild(3))
    pool_before = list(hand.pool)
    hand.apply(2, PickWild(2))
    assert hand.dead == [pool_before[2]] and hand.pool == pool_before[:2]
    assert hand.wild_ranks == (pool_before[2] >> 2,)
    ev = [e for e in hand.events if e.kind == "wild"]
    assert len(ev) == 1 and ev[0].to is None and ev[0].seat == 2 and ev[0].data["position"] == 2


def test_all_in_highest_showing_player_draws_first_but_does_not_open() -> None:
    """R-C-14 with R-RYO-5: seat 1 is all-in from the ante; its ace up is the
    highest card, so it still draws first, while seat 2 opens the betting."""
    holes = {0: "Kc 2d 3h 8s 9s Tc", 1: "Ac 4d 5h 6s 7s 8c", 2: "Qc 9d 4h 3s 2s Jc"}
    hand = ryo_hand(holes, button=0, stacks=[50, 1, 50])
    assert hand.stacks[1] == 0
    discard(hand, {0: "8s 9s Tc", 1: "6s 7s 8c", 2: "3s 2s Jc"})
    expose(hand, {0: "Kc", 1: "Ac", 2: "Qc"})
    assert hand.pending is not None and hand.pending.seats == (2,)
    mark = len(hand.events)
    check_round(hand)
    assert [s for s, _ in draws(hand, mark)] == [1, 2, 0]
    round_event = next(e for e in hand.events if e.kind == "round")
    assert round_event.data["opener"] == 1 and round_event.seat == 2


def test_wild_rank_gives_five_of_a_kind_and_counts_for_the_round_4_opener() -> None:
    # seat 1 discards three fives; seat 0 draws two of them, the 5h is turned
    holes = {0: "9s 9h 9d 2c 3d 4h", 1: "Ac Ad Ah 5c 5d 5h"}
    hand = ryo_hand(holes, button=1, pool="2c 5c 3d 5d 4h 5h")
    discard(hand, {0: "2c 3d 4h", 1: "5c 5d 5h"})
    expose(hand, {0: "9s", 1: "Ac"})
    check_round(hand)                       # seat 1 (ace) opens and draws first
    assert [str(CARDS[c]) for c in hand.hole[1][-1:]] == ["2c"]
    assert [str(CARDS[c]) for c in hand.hole[0][-1:]] == ["5c"]
    expose(hand, {0: "9h", 1: "Ad"})
    check_round(hand)
    expose(hand, {0: "9d", 1: "Ah"})        # trips vs trips: aces best, nines lowest
    check_round(hand)
    assert hand.openers == [1, 1, 1]
    assert hand.pending is not None and hand.pending.seats == (0,)
    hand.apply(0, PickWild(1))              # the 5h: fives are wild
    assert hand.wild_ranks == (FIVE,)
    # round 4 counts wild cards, but both show three of a kind with no five up
    assert hand.openers[-1] == 1
    check_round(hand)
    r = hand.result
    assert r is not None
    assert cards_of(hand, 0, up=False) == ["5c", "5d"]
    assert r.shown[0] == "five nines"
    assert r.pots[0].winners == {0: 2}  # the antes


def test_round_4_opener_counts_an_exposed_wild_card() -> None:
    holes = {0: "Qs 7h 7d 2c 3d 4h", 1: "Ac Ad Kh 5c 6d Qc"}
    hand = ryo_hand(holes, button=1, pool="2c 5c 3d 6d 4h Qc")
    discard(hand, {0: "2c 3d 4h", 1: "5c 6d Qc"})
    expose(hand, {0: "7h", 1: "Ac"})
    check_round(hand)
    expose(hand, {0: "7d", 1: "Ad"})
    check_round(hand)
    expose(hand, {0: "Qs", 1: "Kh"})   # 7-7-Q vs A-A-K: aces open round 3
    check_round(hand)
    assert hand.openers == [1, 1, 1]
    assert hand.pending is not None and hand.pending.seats == (0,)  # 7-7-Q is lowest
    hand.apply(0, PickWild(1))         # the Qc: queens wild; the Qs up makes 7-7-7
    assert hand.wild_ranks == (QUEEN,)
    assert hand.openers[-1] == 0


def test_a_wild_rank_nobody_holds_changes_nothing() -> None:
    holes = {0: "Ks Kh 9d 2c 3d 4h", 1: "Ac Jd Th 5c 6d 8h", 2: "7c 7s 6h 2d 3c 4d"}
    hand = ryo_hand(holes, button=0, pool="5c 6d 8h 3c 4d 3d 2c 2d 4h")
    discard(hand, {0: "2c 3d 4h", 1: "5c 6d 8h", 2: "2d 3c 4d"})
    for _ in range(3):
        expose(hand, {s: str(CARDS[next(c for c, u in zip(hand.hole[s], hand.up[s],
                                                          strict=True) if not u)])
                      for s in range(3)})
        check_round(hand)
    assert hand.pending is not None and hand.pending.kind == "wild"
    chooser = hand.pending.seats[0]
    assert [str(c) for c in hand.pool] == ["2c", "2d", "4h"]
    hand.apply(chooser, PickWild(0))  # the 2c: deuces wild, the other three out of play
    assert hand.wild_ranks == (TWO,)
    assert all(c >> 2 != TWO for s in range(3) for c in hand.hole[s])
    check_round(hand)
    r = hand.result
    assert r is not None
    best = max(high_value(hand.hole[s]) for s in range(3))
    winners = [s for s in range(3) if high_value(hand.hole[s]) == best]
    assert set(r.pots[0].winners) == set(winners)
    for s, desc in r.shown.items():
        assert desc == evaluate(hand.hole[s]).description


@pytest.mark.parametrize("natural_beats_wild", [False, True])
def test_natural_beats_wild_house_option(natural_beats_wild: bool) -> None:
    """R-RYO-9: a nine-high straight made with a wild queen ties a natural one,
    unless the house option ``natural_beats_wild`` is on."""
    holes = {0: "5c 6d 7h 8c Qh Qd", 1: "5d 6h 7s 8s 9c 2c"}
    options = Options(house={"natural_beats_wild": natural_beats_wild})
    hand = ryo_hand(holes, button=1, pool="8s 8c 9c Qh 2c Qd", options=options)
    discard(hand, {0: "8c Qh Qd", 1: "8s 9c 2c"})
    for ups in ({0: "7h", 1: "7s"}, {0: "6d", 1: "6h"}, {0: "5c", 1: "5d"}):
        expose(hand, ups)
        check_round(hand)   # ties: seat 0 (the dealer's left) opens, draws first
    assert hand.openers == [0, 0, 0]
    assert hand.pending is not None and hand.pending.seats == (0,)  # and is lowest too
    hand.apply(0, PickWild(1))
    assert hand.wild_ranks == (QUEEN,)
    check_round(hand)
    r = hand.result
    assert r is not None
    if natural_beats_wild:  # seat 1 cannot win and mucks (R-C-11)
        assert r.shown == {0: "nine-high straight"} and r.pots[0].winners == {0: 2}
    else:
        assert r.shown == {0: "nine-high straight", 1: "nine-high straight"}
        assert r.pots[0].winners == {0: 1, 1: 1}


def test_a_fold_before_the_wild_card_ends_the_hand_without_turning_it() -> None:
    holes = {0: "Ks Kh 9d 2c 3d 4h", 1: "Ac Jd Th 5c 6d 8h"}
    hand = ryo_hand(holes, button=0, pool="5c 2c 6d 3d 8h 4h")
    discard(hand, {0: "2c 3d 4h", 1: "5c 6d 8h"})
    expose(hand, {0: "Ks", 1: "Ac"})
    check_round(hand)
    expose(hand, {0: "Kh", 1: "Jd"})
    check_round(hand)
    expose(hand, {0: "9d", 1: "Th"})
    assert hand.pending is not None and hand.pending.seats == (0,)  # pair of kings
    hand.apply(0, Bet(4))
    hand.apply(1, Fold())
    assert hand.is_over and hand.pending is None
    assert hand.wild_ranks == () and hand.dead == []
    assert not any(e.kind == "wild" for e in hand.events)
    assert len(hand.pool) == 2   # nothing turned
    r = hand.result
    assert r is not None and not r.showdown and r.shown == {}
    assert r.net == {0: 1, 1: -1}


def test_illegal_discards_and_exposes_change_nothing() -> None:
    hand = Hand("rollyourown", [50] * 3, button=0, source=SeededSource(5))
    p = hand.pending
    assert p is not None and p.kind == "discard" and p.simultaneous and set(p.seats) == {0, 1, 2}
    legal = hand.legal_actions(1)
    assert legal.actions == ("discard",) and legal.min_count == legal.max_count == 3
    assert sorted(legal.cards) == sorted(hand.hole[1])
    mine = hand.hole[1]
    before = (list(hand.events), [list(h) for h in hand.hole])
    for bad in (Discard(tuple(mine[:2])), Discard(tuple(mine[:4])),
                Discard((mine[0], mine[0], mine[1])), Discard((hand.hole[0][0], *mine[:2])),
                Expose(mine[0]), Check()):
        with pytest.raises(IllegalAction, match="seat 1 must discard 3"):
            hand.apply(1, bad)
    assert (list(hand.events), [list(h) for h in hand.hole]) == before
    for s in (0, 1, 2):
        hand.apply(s, Discard(tuple(hand.hole[s][:3])))
    assert hand.pending is not None and hand.pending.kind == "expose"
    assert len(hand.pool) == 9 and all(len(hand.hole[s]) == 3 for s in range(3))
    with pytest.raises(IllegalAction, match="down cards"):
        hand.apply(0, Expose(hand.pool[0]))


def test_game_limits_and_betting_sizes() -> None:
    with pytest.raises(EngineError, match="2 to 8 players"):
        Hand("rollyourown", [100] * 9)
    hand = Hand("rollyourown", [100] * 8, button=3, source=SeededSource(1))
    assert hand.stub_left == 4
    rng = random.Random(2)
    sizes = {}
    while not hand.is_over:
        assert hand.pending is not None
        s = hand.pending.seats[0]
        legal = hand.legal_actions(s)
        if hand.pending.kind == "bet":
            if "bet" in legal.actions:
                sizes[hand.round_name] = legal.min_to
            hand.apply(s, Check() if "check" in legal.actions else Call())
        else:
            hand.apply(s, random_action(legal, rng))
    assert sizes == {"first card up": 2, "second card up": 2, "third card up": 4,
                     "after the wild card": 4}


# ------------------------------------------------------------------ properties

# A card as a word of its own, the same matches as r"\b[2-9TJQKA][cdhs]\b": the
# rank first (the lookbehind asks that no word character comes before it), so
# that re scans for it about 3 times faster in a view's JSON.
CARD_TOKEN = re.compile(r"[2-9TJQKA](?<!\w[2-9TJQKA])[cdhs]\b")


def _places(hand: Hand) -> list[int]:
    """Every card's place: hands, muck, pool, the wild card, the stub."""
    r = hand.result
    cards: list[int] = []
    for s in range(hand.n):
        if not hand.dealt[s] or hand.folded[s]:
            continue
        if r is not None and r.showdown and s not in r.shown_cards:
            continue  # mucked at showdown
        cards += hand.hole[s]
    return cards + hand.muck + hand.pool + hand.dead + hand.burned + hand.deck[hand.deck_pos:]


def _action(legal: Legal, rng: random.Random) -> object:
    """A random legal action; folds are rare so that most hands reach the wild card."""
    if "fold" in legal.actions and rng.random() < 0.75:
        legal = replace(legal, actions=tuple(a for a in legal.actions if a != "fold"))
    return random_action(legal, rng)


def _play(hand: Hand, rng: random.Random, check: bool = False) -> str:
    """Play ``hand`` out at random, checking conservation (and with ``check``
    the views) at every decision; returns ``"wild"`` if the wild card was
    turned, else ``"folded"``."""
    ever_up: set[int] = set()
    start = sum(hand.start_stacks)
    while True:
        assert sorted(_places(hand)) == list(range(52))
        assert sum(hand.stacks) + sum(hand.committed) == start or hand.is_over
        if check:
            for s in range(hand.n):
                ever_up.update(c for c, u in zip(hand.hole[s], hand.up[s], strict=True) if u)
            _check_views(hand, ever_up)
        if hand.is_over:
            break
        assert hand.pending is not None
        seats = list(hand.pending.seats)
        seat = rng.choice(seats) if hand.pending.simultaneous else seats[0]
        hand.apply(seat, _action(hand.legal_actions(seat), rng))
    assert hand.result is not None
    assert sum(hand.stacks) == start + hand.carry_in - hand.result.carried
    assert sum(p.amount for p in hand.result.pots) == sum(hand.committed) + hand.carry_in
    turned = any(e.kind == "wild" for e in hand.events)
    assert turned == bool(hand.wild_ranks) == (len(hand.dead) == 1)
    assert turned or not hand.result.showdown  # R-RYO-11
    return "wild" if turned else "folded"
    assert len(hand.hole[0]) in (0, 3, 4, 5) or hand.folded[0]


def _known(hand: Hand, viewer: int | None, ever_up: set[int]) -> set[str]:
    known = set(ever_up) | set(hand.dead)
    if viewer is not None:
        known |= set(hand.hole[viewer]) | set(hand.pool_by_seat.get(viewer, []))
    if hand.result is not None:
        for cs in hand.result.shown_cards.values():
            known |= set(cs)
    return {str(CARDS[c]) for c in known}


def _check_views(hand: Hand, ever_up: set[int]) -> None:
    for viewer in [*range(hand.n), None]:
        view = hand.view(viewer).to_dict()
        text = json.dumps(view)
        seen = set(CARD_TOKEN.findall(text))
        leaked = seen - _known(hand, viewer, ever_up)
        assert not leaked, f"seat {viewer} sees {leaked} at {hand.pending}"
        if viewer is not None:
            assert len(view["my_pool"]) in (0, 3)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(2, 8),
    structure=st.sampled_from(["fixed-limit", "pot-limit", "no-limit"]),
)
def test_chips_and_cards_conserved(seed: int, n: int, structure: str) -> None:
    """R-C-4 and every one of the 52 cards in exactly one place, at every
    decision, over 100 x 15 = 1500 random hands (short stacks: many all-ins)."""
    rng = random.Random(seed)
    for i in range(15):
        stacks = [rng.choice([0, 3, 6, 15, 60, 200]) for _ in range(n)]
        if sum(1 for s in stacks if s) < 2:
            stacks[0] = stacks[1] = 40
        button = rng.choice([s for s in range(n) if stacks[s]])
        hand = Hand("rollyourown", stacks, button=button, options=Options(structure=structure),
                    source=SeededSource(seed * 100 + i), carry_in=rng.choice([0, 0, 3]))
        _play(hand, rng)


def test_no_view_reveals_hidden_cards() -> None:
    """At every decision, each seat's view and the spectator's hold only
    cards that seat may know: its own, those ever turned up, the wild card,
    and at the end those shown (never another seat's down cards, discards,
    pending expose choice, or the pool)."""
    rng = random.Random(7)
    ends: Counter[str] = Counter()
    for i in range(60):
        n = rng.randint(2, 6)
        stacks = [rng.choice([4, 10, 40, 100]) for _ in range(n)]
        hand = Hand("rollyourown", stacks, button=rng.randrange(n), source=SeededSource(i))
        ends[_play(hand, rng, check=True)] += 1
    assert ends["wild"] >= 20 and ends["folded"] >= 3, ends


def test_redacted_histories_reveal_nothing_hidden() -> None:
    rng = random.Random(9)
    for i in range(200):
        n = rng.randint(2, 8)
        hand = Hand("rollyourown", [rng.choice([5, 30, 100]) for _ in range(n)],
                    button=rng.randrange(n), source=SeededSource(i))
        _play(hand, rng)
        text = write_history(hand)
        again = replay(text)
        assert again.result is not None and hand.result is not None
        assert again.result.to_dict() == hand.result.to_dict()
        ever_up = {c for e in hand.events if e.kind == "expose" for c in [e.data["card"]]}
        for seat in range(n):
            mine = redact(text, seat)
            lines = "\n".join(mine["actions"])
            dealt = set()
            for e in hand.events:
                if e.seat == seat and e.kind in ("deal_hole", "pool_draw"):
                    dealt |= set(e.data.get("cards", [])) | (
                        {e.data["card"]} if "card" in e.data else set())
            allowed = {str(CARDS[c]) for c in dealt} | _known(hand, seat, ever_up)
            leaked = set(CARD_TOKEN.findall(lines)) - allowed
            assert not leaked, f"seat {seat}'s copy shows {leaked}"


def _cli(args: list[str]) -> dict[str, object]:
    from click.testing import CliRunner

    from rollem.cli.app import app

    result = CliRunner().invoke(app, args, prog_name="rollem")
    assert result.exit_code == 0, result.output
    out: dict[str, object] = json.loads(result.stdout)
    return out


def test_simulate_command() -> None:
    out = _cli(["simulate", "rollyourown", "--players", "5", "--hands", "40", "--seed", "3",
                "--json"])
    assert out["game"] == "rollyourown" and out["hands"] == 40
    assert out["chips_start"] == out["chips_end"]


def test_replay_command_json() -> None:
    out = _cli(["replay", str(HISTORIES / "rollyourown_seed_example.toml"), "--json"])
    assert out == {
        "game": "rollyourown",
        "pots": [{"amount": 46, "eligible": [0, 1], "winners": {"1": 46}}],
        "net": {"0": -23, "1": 23},
        "shown": {"0": "four sevens, king kicker", "1": "four aces, five kicker"},
        "carried": 0,
    }


def test_hand_history_doc_shows_the_seed_example_as_tested() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "hand-history.md").read_text()
    section = doc[doc.index("## Five Card Roll Your Own"):]
    start = section.index("```toml\n") + 8
    block = section[start:section.index("\n```", start)]
    text = (HISTORIES / "rollyourown_seed_example.toml").read_text()
    assert block == text[text.index("variant ="):].rstrip("\n")
    assert replay(block).result == replay(text).result
    from rollem.narration import narrate_history
    from rollem.text import fit_lines

    # rollem replay tells the hand step by step (issue 14)
    shown = section[section.index("$ rollem replay"):]
    shown = shown[shown.index("\n") + 1:shown.index("\n```")]
    assert shown == fit_lines(narrate_history(text).text())  # (wrapped: s62-term)


def test_replay_names_the_wild_card_not_a_dead_card() -> None:
    # R-RYO-7: the turned card sets the wild rank; only the Stop and the Drop
    # of Stop, Drop and Roll are "dead cards" in a replay's summary
    from rollem.cli.replay_cmd import summary

    out = summary(replay((HISTORIES / "rollyourown_seed_example.toml").read_text()))
    assert "Wild card: Qd (queens wild)" in out.splitlines()
    assert "Dead cards" not in out
    sdr = summary(replay((HISTORIES / "sdr_worked_example.toml").read_text()))
    assert "Dead cards: Qh 7c" in sdr.splitlines() and "Wild" not in sdr
