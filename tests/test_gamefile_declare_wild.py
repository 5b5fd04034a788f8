"""A game file's declare showdown counts its wild cards (stop 57's try-out,
branch s57-cli); and the other faults that try-out met with game files of
one's own (wild cards in a low pot, the odds note, an option a file could
offer, odds of a file not registered), each below.

A file may pair ``pot = "declare"`` with ``wild = true`` and a ``wild`` or
``pick-wild`` step (check-game takes it, the table header says "Wild: 9", the
felt names "three eights (wild 9d plays as 8c)"), but the declare showdown
scored every hand natural: "You muck pair of eights, ten-nine-five: it loses to
Ann's pair of aces" for 8s 8d 5s Td with the wild 9d. As in a ``high-low``
showdown with wild cards (and ``rollem eval``, which refuses ``--low`` with
``--wild``), the wild cards count in the high hand (R-RYO-9's rule, with the
file's ``wild_duplicates`` and ``natural_beats_wild``); the low is natural
(R-C-3).
"""

from __future__ import annotations

from typing import Any

from rollem import hands as ev
from rollem.cards import RANKS
from rollem.engine import Call, Check, Declare, Hand, SeededSource
from rollem.games.describe import describe_game
from rollem.games.gamefile import load_game, parse_game

WILD_DECLARE = """
id = "wild-declare"
name = "Wild Declare"
players = [2, 6]
rules = "Five down, deuces wild, a betting round, declare high, low or both."

[[steps]]
step = "ante"

[[steps]]
step = "deal"
cards = 5

[[steps]]
step = "wild"
ranks = ["2"]

[[steps]]
step = "bet"
size = "small"
cap = 3

[[steps]]
step = "declare"

[[steps]]
step = "showdown"
pot = "declare"
wild = true
"""


def _all_declare(side: str, seed: int, n: int = 4) -> Hand:
    hand = Hand(load_game(WILD_DECLARE), [100] * n, button=0, source=SeededSource(seed))
    while not hand.is_over:
        pending = hand.pending
        assert pending is not None
        if pending.kind == "declare":
            for s in pending.seats:
                if not hand.is_over and hand.pending is pending:
                    hand.apply(s, Declare(side))
            continue
        s = pending.seats[0]
        actions = hand.legal_actions(s).actions
        hand.apply(s, Check() if "check" in actions else Call())
    return hand


def test_a_declare_showdown_scores_the_high_hand_with_the_wild_cards() -> None:
    deuce = RANKS.index("2")
    changed = 0
    for seed in range(40):
        hand = _all_declare("high", seed)
        result = hand.result
        assert result is not None
        wild = {s: ev.wild_value(hand.hole[s], {deuce}) for s in range(4)}
        natural = {s: ev.high_value(hand.hole[s]) for s in range(4)}
        best = max(wild.values())
        winners = {s for s in range(4) if wild[s] == best}
        assert set(result.pots[0].winners) == winners, (seed, result.pots[0].winners)
        if winners != {s for s in range(4) if natural[s] == max(natural.values())}:
            changed += 1
    # the deals where a deuce decides the pot: before the fix each went to the
    # best natural hand
    assert changed >= 5


def test_a_shown_declare_hand_is_named_with_its_wild_cards_and_the_low_is_natural() -> None:
    for seed in range(40):
        hand = _all_declare("both", seed, n=2)
        holding = [s for s in range(2) if any(c.rank == RANKS.index("2") for c in hand.hole[s])]
        if not holding:
            continue
        s = holding[0]
        shown = hand.result.shown if hand.result is not None else {}
        assert s in shown, shown
        high_words = ev.evaluate(hand.hole[s], wild_ranks={RANKS.index("2")}).description
        low_words = ev.evaluate(hand.hole[s], low=True).description
        assert shown[s] == f"high: {high_words}; low: {low_words}"
        return
    raise AssertionError("no deal in 40 gave a deuce")


def test_check_game_says_the_wild_cards_count_in_a_declare_or_high_low_showdown() -> None:
    lines = describe_game(parse_game(WILD_DECLARE))
    assert lines[-1] == "6. Showdown: high-low by declaration, each pot settled on its own " \
                        "(wild cards count in the high hand)."
    split = parse_game(WILD_DECLARE.replace('step = "declare"\n\n[[steps]]\n', '').replace(
        'pot = "declare"', 'pot = "high-low"'))
    assert describe_game(split)[-1] == (
        "5. Showdown: the pot is split between the best high (wild cards count) and the "
        "best ace-to-five low, with the best five cards.")


def test_wild_cards_in_a_low_only_showdown_are_refused_by_check_game() -> None:
    """A low pot plays every card as itself (wild cards count in high hands only),
    so "Wild razz" (a ``wild`` step and ``wild = true`` with ``pot = "low"``) would
    tell players of wild cards that play as themselves: refused in a new file, as a
    wild step without ``wild = true`` is; a stored file is read as it was."""
    import pytest

    from rollem.games.gamefile import GameFileError

    wild_low = WILD_DECLARE.replace('step = "declare"\n\n[[steps]]\n', '').replace(
        'pot = "declare"', 'pot = "low"')
    with pytest.raises(GameFileError) as err:
        parse_game(wild_low)
    assert str(err.value) == (
        'steps[4].wild: wild cards count only in a high hand, and a pot = "low" showdown '
        'has none (every card plays as itself); use pot = "high", "high-low" or '
        '"declare", or remove the wild cards')
    assert parse_game(wild_low, strict=False).steps[-1].params["pot"] == "low"


def test_the_odds_not_available_note_fits_80_columns(monkeypatch: Any) -> None:
    """``--show-odds`` in a game file's declare game: "(odds not available: no
    plain odds for 'wild-declare': a declare showdown needs a model ...)" was one
    line of 138 columns at every decision, where every odds line is fitted to 80
    (issue 33, item 28)."""
    import rollem.games
    from rollem.odds.display import show_odds_text

    game = load_game(WILD_DECLARE)
    monkeypatch.setitem(rollem.games._GAMES, game.id, game)  # as play --game-file does
    hand = Hand(game, [100] * 3, button=0, source=SeededSource(1))
    text, ok = show_odds_text(hand.view(hand.pending.seats[0]))  # type: ignore[union-attr]
    assert not ok
    assert text.startswith("(odds not available: no plain odds for 'wild-declare'")
    assert len(text.splitlines()) > 1
    assert all(len(line) <= 80 for line in text.splitlines()), text


def test_an_engine_option_a_game_file_could_offer_is_refused_saying_how(
        tmp_path: Any, monkeypatch: Any) -> None:
    """``rollem simulate --game-file F --wild-duplicates`` for a file with wild cards
    that does not list the option said only "not a house option of wild-declare
    (theirs: none)", while the docs list wild_duplicates as an option of any game
    with wild = true: the refusal now says the file must list it (a table sets only
    what the file offers)."""
    from click.testing import CliRunner

    import rollem.games
    from rollem.cli.app import app

    # simulate --game-file registers the file's game in this process, as play does:
    # on a copy of the registry, so no later test (api.md's list of games) sees it
    rollem.games.all_games()
    monkeypatch.setattr(rollem.games, "_GAMES", dict(rollem.games._GAMES))
    path = tmp_path / "wild-declare.toml"
    path.write_text(WILD_DECLARE)
    for flags, line in (
            (["--wild-duplicates"],
             "rollem: error: --wild-duplicates: not a house option of wild-declare (theirs: "
             "none); to offer it, list it under [house] in wild-declare's file with its "
             "default (wild_duplicates = false)"),
            (["--house", "failed_both_rule=split"],
             "rollem: error: --house failed_both_rule: not a house option of wild-declare "
             "(theirs: none); to offer it, list it under [house] in wild-declare's file with "
             "its default (failed_both_rule = \"carry\")")):
        out = CliRunner().invoke(app, ["simulate", "--game-file", str(path), "--players", "3",
                                       "--hands", "1", *flags])
        assert out.exit_code == 2
        assert out.output.strip().splitlines() == [line]
    # a shipped game says nothing of its file; an option its game cannot use, neither
    out = CliRunner().invoke(app, ["simulate", "holdem", "--players", "3", "--hands", "1",
                                   "--house", "small_blind=1"])
    assert out.output.strip() == \
        "rollem: error: --house small_blind: not a house option of holdem (theirs: none)"
    out = CliRunner().invoke(app, ["simulate", "--game-file", str(path), "--players", "3",
                                   "--hands", "1", "--house", "bring_in=1"])
    assert out.output.strip().endswith("(theirs: none)")


def test_odds_of_a_game_file_not_registered_say_how_to_give_it() -> None:
    """``view_equity(view)`` of a hand of ``load_game(text)`` (a user's file, not in
    the registry) said "expected sdr, rollyourown, rollem521 or a game from a game
    file" of a game that is one: the message now says how (``game=`` or
    ``rollem.games.register``), and with ``game=`` the odds come."""
    import pytest

    from rollem.odds import OddsError, view_equity

    text = WILD_DECLARE.replace('step = "declare"\n\n[[steps]]\n', '').replace(
        'pot = "declare"', 'pot = "high"').replace('id = "wild-declare"', 'id = "wild-five"')
    game = load_game(text)
    view = Hand(game, [100] * 2, button=0, source=SeededSource(1)).view(1)
    with pytest.raises(OddsError) as err:
        view_equity(view, samples=200, seed=1)
    assert str(err.value) == (
        "no odds calculator for game 'wild-five': expected sdr, rollyourown, rollem521 or a "
        "game from a game file (a file of your own: pass game=, or "
        "rollem.games.register(game) first)")
    odds = view_equity(view, samples=200, seed=1, game=game)
    assert 0.0 <= odds.equity <= 1.0 and odds.method == "monte-carlo"
