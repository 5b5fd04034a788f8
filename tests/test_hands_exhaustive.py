"""Every five-card hand, and differential checks against treys, phevaluator
and pokerkit (R-C-2 high ordering, R-C-3 ace-to-five low ordering)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import chain, combinations, combinations_with_replacement, pairwise

import numpy as np
import numpy.typing as npt
import pytest

from rollem.cards import CARDS
from rollem.hands import Category, high_value, low_value
from rollem.hands.batch import high_values, low_values
from rollem.hands.tables import RANK_WEIGHTS

ALL_FIVE = 2_598_960


@pytest.fixture(scope="module")
def all_hands() -> npt.NDArray[np.uint8]:
    flat = np.fromiter(
        chain.from_iterable(combinations(range(52), 5)), dtype=np.uint8, count=ALL_FIVE * 5
    )
    return flat.reshape(ALL_FIVE, 5)


@pytest.fixture(scope="module")
def all_high(all_hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32]:
    return high_values(all_hands)


def assert_same_order(ours: npt.ArrayLike, theirs: npt.ArrayLike, *, theirs_lower_better: bool):
    """``ours`` and ``theirs`` rank the same items in the same order with the
    same ties: each of our values maps to exactly one of theirs, and back,
    monotonically."""
    a = np.asarray(ours, dtype=np.int64)
    b = np.asarray(theirs, dtype=np.int64)
    if theirs_lower_better:
        b = -b
    # the distinct (ours, theirs) pairs, sorted by ours, then theirs: np.unique(...,
    # axis=0)'s rows, from one lexsort (stop 63: axis=0 took about 9 s of 2.6 million)
    order = np.lexsort((b, a))
    a, b = a[order], b[order]
    first = np.ones(len(a), dtype=bool)
    first[1:] = (a[1:] != a[:-1]) | (b[1:] != b[:-1])
    pairs = np.stack([a[first], b[first]], axis=1)
    assert len(pairs) == len(np.unique(a)) == len(np.unique(b))
    assert (np.diff(pairs[:, 1]) > 0).all(), "orderings differ"


def test_rank_weights_name_every_five_rank_multiset() -> None:
    sums = Counter(
        sum(RANK_WEIGHTS[r] for r in ranks)
        for ranks in combinations_with_replacement(range(13), 5)
        if max(Counter(ranks).values()) <= 4
    )
    assert len(sums) == 6175
    assert max(sums.values()) == 1


@pytest.mark.slow
def test_category_counts_of_all_five_card_hands(all_high: npt.NDArray[np.int32]) -> None:
    counts = Counter((all_high >> 20).tolist())
    assert counts == {
        Category.STRAIGHT_FLUSH: 40,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3744,
        Category.FLUSH: 5108,
        Category.STRAIGHT: 10200,
        Category.THREE_OF_A_KIND: 54912,
        Category.TWO_PAIR: 123552,
        Category.ONE_PAIR: 1098240,
        Category.HIGH_CARD: 1302540,
    }
    assert len(np.unique(all_high)) == 7462


@pytest.mark.slow
def test_ace_to_five_low_has_6175_values(all_hands: npt.NDArray[np.uint8]) -> None:
    assert len(np.unique(low_values(all_hands))) == 6175


@pytest.mark.slow
def test_batch_equals_single_hand_values(
    all_hands: npt.NDArray[np.uint8], all_high: npt.NDArray[np.int32]
) -> None:
    rng = np.random.default_rng(2)
    rows = rng.choice(ALL_FIVE, size=200_000, replace=False)
    lows = low_values(all_hands[rows])
    for i, row in enumerate(rows.tolist()):
        hand = all_hands[row].tolist()
        assert high_value(hand) == all_high[row]
        assert low_value(hand) == lows[i]


@pytest.mark.slow
def test_high_order_equals_phevaluator_on_every_five_card_hand(
    all_hands: npt.NDArray[np.uint8], all_high: npt.NDArray[np.int32]
) -> None:
    # phevaluator's card ids are ours (rank * 4 + suit, c d h s); checked here.
    from phevaluator import Card as PheCard
    from phevaluator import evaluate_cards

    assert [int(PheCard(str(c))) for c in CARDS] == list(range(52))
    # A five-card hand's place in poker's order is its ranks and whether it is a
    # flush: phevaluator is asked once for each of the 7,462 such classes (stop 63:
    # 2,598,960 calls were about 7 of this test's 10 s) and its answer given to every
    # hand of the class.  Ours is still every hand's own value: a wrong value of any
    # one hand (a suit, a card id) breaks the order below as before.
    ranks = all_hands.astype(np.int64) // 4  # (ascending in each hand: its cards are)
    suits = all_hands % 4
    flush = (suits == suits[:, :1]).all(axis=1)
    key = ranks @ (13 ** np.arange(5, dtype=np.int64)) * 2 + flush
    classes, first, where = np.unique(key, return_index=True, return_inverse=True)
    assert len(classes) == 7462
    theirs = np.array([evaluate_cards(*all_hands[i].tolist()) for i in first.tolist()],
                      dtype=np.int64)[where]
    assert_same_order(all_high, theirs, theirs_lower_better=True)


def test_high_order_equals_treys_on_a_sample(all_hands: npt.NDArray[np.uint8]) -> None:
    from treys import Card as TreysCard
    from treys import Evaluator

    evaluator = Evaluator()
    treys_cards = [TreysCard.new(str(c)) for c in CARDS]
    rng = np.random.default_rng(3)
    hands = all_hands[rng.choice(ALL_FIVE, size=100_000, replace=False)]
    ours = high_values(hands)
    theirs = [
        evaluator.evaluate([treys_cards[a], treys_cards[b]], [treys_cards[c] for c in rest])
        for a, b, *rest in hands.tolist()
    ]
    assert_same_order(ours, theirs, theirs_lower_better=True)


@pytest.mark.slow
def test_seven_card_order_equals_phevaluator() -> None:
    from phevaluator import evaluate_cards

    rng = np.random.default_rng(7)
    n = 1_000_000
    # (the seven lowest of each row: argsort's first seven, as a set, which is all a
    # hand is; argpartition finds them in about a third of the time, stop 63)
    hands = np.argpartition(rng.random((n, 52), dtype=np.float32), 6, axis=1)[:, :7]
    hands = np.sort(hands, axis=1).astype(np.uint8)
    ours = high_values(hands)  # the best of the 21 five-card subsets
    # A seven-card hand's place in poker's order is its ranks and, where five or more
    # share a suit, the ranks of that suit: phevaluator is asked once a class (about a
    # tenth of the hands, stop 63), its answer given to every hand of the class; ours
    # is still every hand's own value, as in the five-card test.
    ranks = hands.astype(np.int64) // 4  # (ascending in each hand: its cards are)
    suits = hands % 4
    flush_ranks = np.zeros(n, dtype=np.int64)
    for suit in range(4):
        of_suit = suits == suit
        ranks_of_suit = (of_suit * (1 << ranks)).sum(axis=1)
        flush_ranks += np.where(of_suit.sum(axis=1) >= 5, ranks_of_suit, 0)
    key = (ranks @ (13 ** np.arange(7, dtype=np.int64))) * 8192 + flush_ranks
    _classes, first, where = np.unique(key, return_index=True, return_inverse=True)
    theirs = np.array([evaluate_cards(*hands[i].tolist()) for i in first.tolist()],
                      dtype=np.int64)[where]
    assert_same_order(ours, theirs, theirs_lower_better=True)
    for i in range(0, n, 50):  # the single-hand path agrees with the batch
        assert high_value(hands[i].tolist()) == ours[i]


def test_six_and_more_cards_take_the_best_five() -> None:
    rng = random.Random(11)
    for size in (6, 7, 8, 10, 13):
        for _ in range(300):
            hand = rng.sample(range(52), size)
            assert high_value(hand) == max(high_value(f) for f in combinations(hand, 5))
            assert low_value(hand) == max(low_value(f) for f in combinations(hand, 5))


def test_low_order_equals_pokerkit_regular_low_hand() -> None:
    """Ace-to-five (R-C-3) against pokerkit's RegularLowHand, once per rank
    multiset (a low ignores suits): all 6,175 classes."""
    from pokerkit import RegularLowHand

    ours = []
    theirs = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        seen: Counter[int] = Counter()
        hand = []
        for r in ranks:  # give repeated ranks different suits, avoid a flush
            hand.append(CARDS[r * 4 + (seen[r] + r) % 4])
            seen[r] += 1
        assert len(set(hand)) == 5
        ours.append(low_value(hand))
        theirs.append(RegularLowHand("".join(str(c) for c in hand)))
    assert len(ours) == 6175
    order = sorted(range(len(ours)), key=lambda i: ours[i])
    for i, j in pairwise(order):
        assert ours[i] < ours[j]
        assert theirs[i] < theirs[j], (theirs[i], theirs[j])
