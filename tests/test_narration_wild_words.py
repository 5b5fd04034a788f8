"""What a wild card plays as, in every telling of a fixed-wild game (issue 33's
try-out, branch s50-tryout): a game file's showdown (hold'em with twos wild) is
worded by the engine, which names no wild card, and a player's copy of a
deuces-wild or game-file hand lost its wild ranks altogether when replayed."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

from rollem.engine import Call, Check, Draw, Hand, SeededSource
from rollem.games import get
from rollem.games.gamefile import load_game
from rollem.history import redact, write_history
from rollem.narration import narrate_hand, narrate_history, narrate_view

NAMES = ["Ann", "Bob", "Cat"]


def _wild_holdem() -> Any:
    """Hold'em from the shipped file with a ``wild`` step (twos) and a showdown that
    counts wild cards: a game file not in ``OWN_WORDS``, so its hands keep the
    engine's words."""
    text = resources.files("rollem.games.files").joinpath("holdem.toml").read_text()
    text = text.replace('id = "holdem"', 'id = "wildem"').replace(
        '[[steps]]\nstep = "blinds"', '[[steps]]\nstep = "wild"\nranks = ["2"]\n\n'
        '[[steps]]\nstep = "blinds"', 1).replace('step = "showdown"',
                                                 'step = "showdown"\nwild = true')
    return load_game(text)


def _checked_down(game: Any, seed: int) -> Hand:
    hand = Hand(game, [100] * 3, button=0, source=SeededSource(seed))
    while not hand.is_over:
        s = hand.pending.seats[0]  # type: ignore[union-attr]
        actions = hand.legal_actions(s).actions
        hand.apply(s, Check() if "check" in actions else Call() if "call" in actions
                   else Draw(()))  # stand pat at a draw
    return hand


def test_a_game_files_shown_hands_say_what_each_wild_card_plays_as() -> None:
    # Before: "Cat shows Jh 5c: four jacks, ace kicker." (the engine's words alone)
    hand = _checked_down(_wild_holdem(), 0)
    lines = [ln.text for ln in narrate_view(hand.view(0), NAMES)]
    assert "Twos are wild." in lines
    assert "Bob shows Qd 9c: ace-high straight (wild 2d plays as Kd)." in lines
    assert "Cat shows Jh 5c: four jacks, ace kicker (wild 2d plays as Jd, wild 2c plays " \
           "as Js)." in lines
    assert "Cat wins the pot (6) with four jacks, ace kicker (wild 2d plays as Jd, wild 2c " \
           "plays as Js)." in lines
    assert "You muck ace-high straight (wild 2d plays as Qd): it loses to Cat's four jacks, " \
           "ace kicker (wild 2d plays as Jd, wild 2c plays as Js)." in lines


def test_a_game_files_words_without_a_wild_card_are_left_as_the_engine_said() -> None:
    from rollem.narration.hands import with_wild_note

    cards = ["Ac", "Kd", "6h", "6d", "6c", "9s", "2s"]
    # no wild rank, or words the cards do not give (Omaha's two cards): unchanged
    assert with_wild_note("three sixes, ace-king", cards, [], {}) == "three sixes, ace-king"
    assert with_wild_note("pair of sixes, ace-king-nine", cards, ["2"], {}) \
        == "pair of sixes, ace-king-nine"
    assert with_wild_note("four sixes, ace kicker", cards, ["2"], {}) \
        == "four sixes, ace kicker (wild 2s plays as 6s)"


def test_a_copy_of_a_fixed_wild_game_is_told_with_its_wild_cards() -> None:
    """Before: a deuces-wild copy replayed said nothing of twos being wild and
    "Bob wins the pot (16) with ace high, king-seven-six-deuce" for a pair of aces."""
    word_card = re.compile(r"\b[2-9TJQKA][cdhs]\b")
    for game, seed in ((get("deuces-wild"), 0), (_wild_holdem(), 0)):
        hand = _checked_down(game, seed)
        full = write_history(hand, players=NAMES)
        wild_lines = 0
        for seat in range(3):
            # (a game file's words for your own mucked hand are the engine's, which a
            # copy does not keep: its "it loses to" line is left out of a copy)
            loses = game.id != "deuces-wild"
            told = [ln.text for ln in narrate_history(redact(full, seat)).lines
                    if not (loses and "it loses to" in ln.text)]
            live = [ln.text for ln in narrate_hand(hand, NAMES, viewer=seat)
                    if not (loses and "it loses to" in ln.text)]
            assert told[0] == live[0] == "Twos are wild.", (game.id, seat)
            assert [t for t in told if word_card.search(t)] \
                == [t for t in live if word_card.search(t)], (game.id, seat)
            wild_lines += sum("plays as" in t for t in told)
        assert wild_lines > 0, game.id


def test_three_or_more_wild_ranks_are_listed_with_commas() -> None:
    # s65-check: a game file with five wild ranks was told "Twos and threes and
    # fours and fives and sixes are wild." (and replay --result's "Wild:" line so)
    from rollem.cli.replay_cmd import summary

    text = resources.files("rollem.games.files").joinpath("holdem.toml").read_text()
    text = text.replace('id = "holdem"', 'id = "wildem"').replace(
        '[[steps]]\nstep = "blinds"', '[[steps]]\nstep = "wild"\nranks = ["2", "3", "4"]\n\n'
        '[[steps]]\nstep = "blinds"', 1).replace('step = "showdown"',
                                                 'step = "showdown"\nwild = true')
    hand = _checked_down(load_game(text), 0)
    assert "Twos, threes and fours are wild." in [ln.text for ln in narrate_hand(hand, NAMES)]
    assert "Wild: twos, threes and fours wild" in summary(hand, NAMES).split("\n")
    two = _checked_down(_wild_holdem(), 0)  # one rank, and two, read as before
    assert "Twos are wild." in [ln.text for ln in narrate_hand(two, NAMES)]
