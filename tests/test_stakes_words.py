"""The stakes as players say them, in every header (s59-tidy; stop 55's "Seen
and left alone": a no-limit hold'em header read "blinds 1 and 2, bets 2/4").

The forced bets then the structure and bet sizes, for every shipped game under
every structure: "blinds 1/2, fixed limit 2/4", "ante 1, bring-in 1, no limit,
min bet 2/4". The same words in a replay's header (the terminal) and in what the
web table's header is made of (``forced_bets``; ``betWords`` in stakes.js is
checked by the browser tests)."""

from __future__ import annotations

import random
import re

import pytest

from rollem import games
from rollem.bots import make_bot
from rollem.engine import Hand, Options, SeededSource
from rollem.games.describe import bet_words, forced_bet_words, stakes_words
from rollem.history import write_history
from rollem.narration.history import narrate_history

SAID = re.compile(r"(ante \d+, )?(bring-in \d+, |blinds \d+/\d+(, straddle \d+)?, )?"
                  r"(fixed limit \d+/\d+|(no|pot) limit, min bet \d+/\d+)")
STRUCTURES = ("fixed-limit", "pot-limit", "no-limit")


def test_bet_words_say_the_structure_with_its_sizes() -> None:
    assert bet_words("fixed-limit", 2, 4) == "fixed limit 2/4"
    assert bet_words("no-limit", 2, 4) == "no limit, min bet 2/4"
    assert bet_words("pot-limit", 10, 20) == "pot limit, min bet 10/20"
    assert stakes_words("fixed-limit", "blinds 1/2", 2, 4) == "blinds 1/2, fixed limit 2/4"
    assert stakes_words("no-limit", "", 2, 4) == "no limit, min bet 2/4"


@pytest.mark.parametrize("structure", STRUCTURES)
def test_every_games_stakes_read_as_players_say_them(structure: str) -> None:
    """main: "blinds 1 and 2" (and no bet_words: the terminal said "Fixed
    limit, blinds 1 and 2, bets 2 and 4.")."""
    options = Options(structure=structure)
    said = {}
    for gid in games.shipped_ids():
        words = stakes_words(structure, forced_bet_words(games.get(gid), options),
                             options.small_bet, options.big_bet)
        assert SAID.fullmatch(words), (gid, words)
        assert " and " not in words, (gid, words)
        said[gid] = words
    limit = "fixed limit 2/4" if structure == "fixed-limit" \
        else f"{structure.replace('-', ' ')}, min bet 2/4"
    assert said["holdem"] == f"blinds 1/2, {limit}"
    assert said["stud"] == f"ante 1, bring-in 1, {limit}"
    assert said["sdr"] == f"ante 1, {limit}"


@pytest.mark.parametrize("gid", games.shipped_ids())
@pytest.mark.parametrize("structure", ["fixed-limit", "no-limit"])
def test_every_games_replay_header_says_the_stakes_alike(gid: str, structure: str) -> None:
    """A replay's second line (``rollem replay``), for every shipped game."""
    options = Options(structure=structure)
    hand = Hand(gid, [100] * 4, button=3, source=SeededSource(1), options=options)
    bots = [make_bot("random", random.Random(s)) for s in range(4)]
    while not hand.is_over:
        s = hand.pending.seats[0]  # type: ignore[union-attr]
        hand.apply(s, bots[s].act(hand.view(s)))
    line = narrate_history(write_history(hand, players=["Ann", "Bob", "Cat", "Dan"])
                           ).text().splitlines()[1]
    words = stakes_words(structure, forced_bet_words(games.get(gid), options), 2, 4)
    assert line == words[:1].upper() + words[1:] + ".", (gid, line)
