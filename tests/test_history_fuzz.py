"""Fuzz the hand-history reader (issue 12): thousands of random mutations of
real histories (lines deleted, duplicated, swapped, cards and amounts
changed, in the file and in its ``actions``) either replay to a consistent
hand (every card in one place, chips conserved) or are refused with one
line (:class:`HistoryError`); never another exception."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

import tomli_w

from rollem.bots.random_bot import random_action
from rollem.cards import CARDS
from rollem.engine import Hand, Options, SeededSource
from rollem.history import HistoryError, replay, write_history

HISTORIES = Path(__file__).parent / "histories"
CARD = re.compile(r"[2-9TJQKA][cdhs]")
NUMBER = re.compile(r"\b\d+\b")
TEXT_MUTANTS = 2000
ACTION_MUTANTS = 4000


def corpus() -> list[str]:
    texts = [p.read_text() for p in sorted(HISTORIES.glob("*.toml"))]
    rng = random.Random(12)
    for i, (game, structure) in enumerate([(g, s) for g in ("sdr", "rollyourown", "rollem521")
                                           for s in ("fixed-limit", "no-limit", "pot-limit")]):
        n = 2 + i % 4
        h = Hand(game, [rng.randint(8, 80) for _ in range(n)], button=i % n,
                 options=Options(structure=structure), source=SeededSource(i))
        while not h.is_over:
            assert h.pending is not None
            s = h.pending.seats[0]
            h.apply(s, random_action(h.legal_actions(s), rng))
        texts.append(write_history(h))
    return texts


def consistent(hand: Hand) -> None:
    """Every card in exactly one place and chips conserved (R-C-1, R-C-4)."""
    assert sorted(hand.deck) == list(range(52))
    seen = [c for s in range(hand.n) for c in hand.hole[s]]
    seen += hand.board + hand.dead + hand.burned
    assert len(seen) == len(set(seen)), sorted(CARDS[c] for c in seen)
    start = sum(hand.start_stacks)
    if hand.result is not None:
        assert sum(hand.stacks) + hand.result.carried == start + hand.carry_in
    else:
        assert sum(hand.stacks) + sum(hand.committed) == start


def judge(text: str) -> str:
    try:
        hand = replay(text)
    except HistoryError as err:
        message = str(err)
        assert message and "\n" not in message, message
        return "refused"
    consistent(hand)
    return "replayed"


def mutate_line(rng: random.Random, line: str) -> str:
    cards = list(CARD.finditer(line))
    numbers = list(NUMBER.finditer(line))
    if cards and (not numbers or rng.random() < 0.6):
        m = rng.choice(cards)
        new = str(CARDS[rng.randrange(52)])
        return line[:m.start()] + new + line[m.end():]
    if numbers:
        m = rng.choice(numbers)
        value = int(m.group())
        new = str(rng.choice([0, 1, value + 1, max(value - 1, 0), value * 2, 10**6]))
        return line[:m.start()] + new + line[m.end():]
    return line[::-1]


def mutate(rng: random.Random, items: list[str]) -> list[str]:
    out = list(items)
    if not out:
        return out
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        i = rng.randrange(len(out))
        kind = rng.randrange(4)
        if kind == 0:
            del out[i]
        elif kind == 1:
            out.insert(i, out[i])
        elif kind == 2:
            j = rng.randrange(len(out))
            out[i], out[j] = out[j], out[i]
        else:
            out[i] = mutate_line(rng, out[i])
        if not out:
            break
    return out


def test_mutated_histories_replay_consistently_or_are_refused_in_one_line() -> None:
    rng = random.Random(2026)
    texts = corpus()
    for text in texts:
        assert judge(text) == "replayed"
    tally = {"refused": 0, "replayed": 0}
    for _ in range(TEXT_MUTANTS):  # the file's own lines
        lines = rng.choice(texts).splitlines()
        tally[judge("\n".join(mutate(rng, lines)))] += 1
    for _ in range(ACTION_MUTANTS):  # the actions list only: a valid TOML file
        data = tomllib.loads(rng.choice(texts))
        data["actions"] = mutate(rng, data["actions"])
        tally[judge(tomli_w.dumps(data))] += 1
    # both outcomes happen often: the mutations are neither all fatal nor all harmless
    assert tally["refused"] > 1000 and tally["replayed"] > 300, tally
