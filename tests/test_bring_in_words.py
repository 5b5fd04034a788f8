"""The stud bring-in is labelled as what it is (the tester's report): at your own
bring-in the choices are "bring in for N" and "complete to M", not "call" and
"bet" (nobody has bet); facing a bring-in, the raise "completes"; ``?`` explains
the bring-in (the web table's buttons: tests/web/test_browser_bring_in.py)."""

from __future__ import annotations

from pathlib import Path

from cli_helpers import ListWriter
from rollem.cli.answers import choices_text, decision_kind
from rollem.cli.play_cmd import TerminalGame
from rollem.engine.decisions import Legal
from rollem.games import get
from rollem.rules.game_help import explain_decision


def _first_decision(game: str, seed: int, tmp_path: Path) -> tuple[str, Legal, str]:
    """Your first decision in ``rollem play GAME --seed S --players 3``: the choices
    line, the seat's Legal and what ``?`` printed (then quit)."""
    out: list[str] = []
    seen: list[Legal] = []

    def read_line(prompt: str) -> str:
        out.append(prompt)
        if prompt == "Your move > " and not seen:
            hand = session.table.hand
            assert hand is not None
            seen.append(hand.legal_actions(0))
            return "?"
        return "q"

    session = TerminalGame(game=game, players=3, level="basic", stack=200, seed=seed,
                           show_odds=False, history_dir=tmp_path, rich=False,
                           read_line=read_line, out=ListWriter(out))
    session.run()
    text = "".join(out)
    choices = next(line for line in text.splitlines() if line.startswith("Choices ("))
    helped = text.split("Your move > ?\n", 1)[1].split("Your move > ", 1)[0]
    return choices, seen[0], " ".join(helped.split())


def test_your_own_bring_in_in_stud_and_razz(tmp_path: Path) -> None:
    for game, seed in (("stud", 7), ("razz", 0)):
        choices, legal, helped = _first_decision(game, seed, tmp_path / game)
        assert legal.forced == "bring-in" and legal.actions == ("call", "bet")
        # (issue 26: stud's and razz's rounds are named streets; "round 1" before)
        assert choices == ("Choices (third street: betting): c = bring in for 1, "
                           "b 2 = complete to 2"), (game, choices)
        assert helped.startswith("You bring it in:"), helped
        assert "you must either bring it in for 1" in helped
        assert "Completing here is a bet of 2." in helped
        assert "Check: pass, if nobody has bet" not in helped
        assert "You may now: bring in for 1, complete to 2." in helped


def test_facing_a_bring_in_the_raise_completes(tmp_path: Path) -> None:
    choices, legal, helped = _first_decision("stud", 0, tmp_path)
    assert legal.forced == "complete" and legal.actions == ("fold", "call", "raise")
    assert choices == ("Choices (third street: betting): c = call 1, r 2 = complete to 2, "
                       "f = fold")
    assert helped.startswith("The bet is only the bring-in, not yet a full bet.")
    assert "Complete: raise it to a full bet (2)" in helped


def test_an_ordinary_bet_is_not_called_a_completion() -> None:
    legal = Legal(kind="bet", actions=("fold", "call", "raise"), call_amount=2,
                  min_to=4, max_to=4)
    assert choices_text(legal) == "c = call 2, r 4 = raise to 4, f = fold"
    assert legal.to_dict()["forced"] == ""
    text = explain_decision(get("stud"), decision_kind(legal), legal, "fixed-limit")
    assert text.startswith("Your turn to bet.") and "You may now: fold, call 2, raise to 4." in text



def test_a_completion_is_told_as_one_and_later_bets_as_bets(tmp_path: Path) -> None:
    """``rollem play stud --players 6 --seed 1``: Eve brings it in for 1, you
    complete to 2 ("r 2"); the story says so, not "raise to 2", and the next
    rounds' raises are raises."""
    answers = iter(["r 2"] + ["c"] * 12 + ["q"] * 5)
    out: list[str] = []

    def read_line(prompt: str) -> str:
        out.append(prompt)
        return next(answers)

    TerminalGame(game="stud", players=6, level="basic", stack=200, seed=1, show_odds=False,
                 history_dir=tmp_path, rich=False, read_line=read_line,
                 out=ListWriter(out)).run()
    lines = "".join(out).splitlines()
    assert "Eve brings it in for 1 (pot 7)." in lines
    assert "You complete to 2 (pot 9)." in lines
    assert not any(line.startswith("You raise to 2") for line in lines)
    told = [line for line in lines if " complete" in line and "=" not in line]
    assert told == ["You complete to 2 (pot 9)."], told


def _threes_wild_stud() -> object:
    """Seven-card stud from its shipped file with threes wild (a ``wild`` step,
    a showdown with ``wild = true``): a game file a home game might write."""
    from rollem.games.gamefile import load_game

    text = (Path(__file__).parent.parent / "src" / "rollem" / "games" / "files"
            / "stud.toml").read_text()
    text = text.replace('id = "stud"', 'id = "stud-threes"').replace(
        '[[steps]]\nstep = "ante"', '[[steps]]\nstep = "ante"\n\n[[steps]]\nstep = "wild"\n'
        'ranks = ["3"]', 1).replace('step = "showdown"', 'step = "showdown"\nwild = true')
    return load_game(text)


def test_a_wild_up_card_brings_in_by_its_own_rank() -> None:
    """s58-tidy, a decision (RULES.md is silent; stop 57 saw it and left it): the
    bring-in goes by each up card's own rank and suit, a wild card included (it is
    wild in the showdown only), as most house rules play it: with threes wild the
    3d brings in against As, Ts, 9d; a deuce up still brings in before a three.
    Documented in docs/write-your-own-game.md (the ``bring-in`` step)."""
    from rollem.cards import format_cards
    from rollem.engine import Hand, SeededSource
    from rollem.engine.forced import _up

    game = _threes_wild_stud()
    for seed, ups, bringer in ((1, ["As", "Ts", "3d", "9d"], 2),
                               (50, ["2d", "3c", "Ah", "2s"], 0)):
        hand = Hand(game, [100] * 4, button=0, source=SeededSource(seed))  # type: ignore[arg-type]
        assert hand.wild_ranks == (1,)  # threes
        assert [format_cards(_up(hand, s)) for s in range(4)] == ups
        assert hand.pending is not None and hand.pending.seats == (bringer,)
        assert hand.legal_actions(bringer).forced == "bring-in"
