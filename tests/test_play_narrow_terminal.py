"""``rollem play`` on a terminal narrower than 80 columns (s69-newcomer).

The table and the narrated lines were fitted to a narrower terminal (s61-term),
but the odds lines (``--show-odds``), the choices, the help and the refusals were
broken at 80 columns and then wrapped again by the terminal wherever its last
column fell: "Your odds: ... (expected share of the pot) · whole" / "pot 54% · a
share 1% ·", "... b 2 = bet 2, f" / "= fold" (issue 33: odds lines broken
mid-phrase).  Ctrl-C while the computer players or the odds were working (not at
a prompt) printed "^CThe hand in progress is abandoned" on one line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from cli_helpers import scripted

NARROW = 60


def _lines(out: list[str]) -> list[str]:
    """The lines printed (a prompt left out: on a terminal the typed answer and its
    newline follow it)."""
    return [line.removeprefix("Your move > ") for line in "".join(out).split("\n")]


def test_odds_choices_help_and_refusals_fit_a_narrow_terminal(tmp_path: Path) -> None:
    def answers() -> Iterator[str]:
        yield "?"
        yield "zzzzzzzz zzzzzzzz"
        yield "q"

    game, out = scripted(answers(), rich=True, colour=False, show_odds=True, players=3,
                         level="basic", seed=4, history_dir=tmp_path)
    game.console.width = NARROW
    game.run()
    lines = _lines(out)
    assert all(len(line) <= NARROW for line in lines), [x for x in lines if len(x) > NARROW]
    odds = next(i for i, line in enumerate(lines) if line.startswith("Your odds: "))
    block = [lines[odds]]
    for line in lines[odds + 1:]:
        if not line.startswith("  "):
            break
        block.append(line)
    assert len(block) >= 2, block
    # broken between phrases only: each line but the last ends at a " ·"
    assert all(line.endswith(" ·") for line in block[:-1]), block
    assert block[-1].endswith(")"), block
    assert all(line.startswith("  ") and not line.startswith("   ") for line in block[1:]), block
    choices = next(i for i, line in enumerate(lines) if line.startswith("Choices ("))
    assert lines[choices + 1].startswith("  "), lines[choices:choices + 3]
    assert not lines[choices].endswith((" f", " c", " b 2")), lines[choices:choices + 3]
    refusal = next(i for i, line in enumerate(lines) if line.startswith("'zzzzzzzz zzzzzzzz'"))
    assert lines[refusal + 1].startswith("  "), lines[refusal:refusal + 3]


def test_the_same_session_at_80_columns_is_unchanged(tmp_path: Path) -> None:
    """At 80 columns (and piped) the odds line is broken at 80 as before."""
    def answers() -> Iterator[str]:
        yield "q"

    game, out = scripted(answers(), rich=True, colour=False, show_odds=True, players=3,
                         level="basic", seed=4, history_dir=tmp_path)
    game.console.width = 80
    game.run()
    lines = _lines(out)
    odds = next(i for i, line in enumerate(lines) if line.startswith("Your odds: "))
    assert lines[odds].endswith("a share 1% ·") and len(lines[odds]) <= 80, lines[odds:odds + 2]
    assert lines[odds + 1].startswith("  nothing "), lines[odds:odds + 2]


def test_ctrl_c_away_from_a_prompt_ends_the_line_of_its_echo(tmp_path: Path) -> None:
    """On a terminal, Ctrl-C while the odds (or the computer players) were working
    left "^C" (the terminal's echo) and "The hand in progress is abandoned" on one
    line; now a newline comes first, as at a prompt (issue 33)."""
    def answers() -> Iterator[str]:
        yield "c"
        while True:
            yield "q"

    game, out = scripted(answers(), rich=True, colour=False, show_odds=True,
                         history_dir=tmp_path)

    def interrupted(view: object) -> object:
        raise KeyboardInterrupt

    game.odds_line = interrupted  # type: ignore[method-assign]
    assert game.run() == 130
    at = out.index("The hand in progress is abandoned; it does not count.\n")
    assert out[at - 1] == "\n", out[at - 3:at + 1]
    assert out[at - 2].endswith("\n"), out[at - 3:at + 1]


def test_the_help_after_a_hand_where_a_fold_is_confirmed_and_at_the_rebuy_fits_80(
        tmp_path: Path) -> None:
    """``?`` after a hand, at "Fold anyway?" and at the rebuy offer printed its help
    as one line (169 columns at the rebuy, piped); now wrapped as every help is."""
    def answers() -> Iterator[str]:
        yield "f"  # where checking is free: "Fold anyway?"
        yield "?"
        yield "y"
        while True:  # (the computer players' bets: fold; then the prompt after the hand)
            yield "?"
            yield "q"

    game, out = scripted(answers(), players=3, level="basic", seed=4, history_dir=tmp_path)
    game.run()
    text = "".join(out)
    assert "Checking costs nothing here" in text and "The hand is over. Enter deals" in text
    # (but the folder the histories are saved in: a word longer than a line stays whole)
    long = [line for line in text.split("\n") if len(line) > 80 and str(tmp_path) not in line]
    assert not long, long

    rebuy = iter(["?", "n"])
    game, out = scripted(rebuy, history_dir=tmp_path)
    assert game.offer_rebuy() is False
    text = "".join(out)
    assert "y buys 50 chips again, counted in what you brought" in " ".join(text.split())
    assert all(len(line) <= 80 for line in text.split("\n")), text


def test_prompts_hints_the_game_chooser_and_a_told_hand_fit_40_columns(tmp_path: Path) -> None:
    """At 40 columns (s73-newcomer) the decision's hint "(? help, t table, last = the
    last hand, q quit)", the game chooser's lines, "=== Hand 1 again: ... ===", "The
    hand in progress is abandoned; it does not count." and the prompts after a hand
    and at a free fold were printed whole, for the terminal to break wherever its
    last column fell (no indent; a prompt's "> " alone on a line). The console does
    not wrap here (``soft_wrap``), so a line too long is seen as it was printed."""
    from cli_helpers import ListWriter
    from rollem.cli.play_cmd import TerminalGame

    width = 40
    answers = iter(["t", "1", "f", "y", "last", "", "q"])
    out: list[str] = []
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        answer = next(answers)
        prompts.append(prompt)
        out.append(prompt + "\n")  # (the typed answer, the terminal's, left out)
        return answer

    game = TerminalGame(read_line=read_line, out=ListWriter(out), game="dealers-choice",
                        players=3, level="basic", stack=50, seed=4, show_odds=False,
                        rich=True, colour=False, history_dir=tmp_path)
    game.console.width = width
    game.console.soft_wrap = True
    game.run()
    lines = "".join(out).split("\n")
    text = "\n".join(lines)
    for seen in ("You have the button: choose the game.", "Hand 1 again:",
                 "Fold anyway?", "Enter = next hand", "The hand in progress is abandoned"):
        assert seen in text, seen
    # a folder's name, one word, may stay whole (say_fitted's rule)
    too_wide = [line for line in lines if len(line) > width and " " in line.strip()]
    assert not too_wide, too_wide
    assert all(len(p) <= width for p in prompts), prompts
    assert all(p.endswith("> ") and len(p) > 2 for p in prompts), prompts
    hint = next(i for i, line in enumerate(lines) if line.startswith("  (? help, t table"))
    assert lines[hint + 1].startswith("   ") and lines[hint + 1].endswith("q quit)"), \
        lines[hint:hint + 2]


def test_a_one_column_terminal_still_plays(tmp_path: Path) -> None:
    """The prompts' wrapping (s73-newcomer) at a terminal one column wide: each
    prompt still ends with "> " and the session runs to its ledger."""
    from cli_helpers import ListWriter
    from rollem.cli.play_cmd import TerminalGame

    answers = iter(["1", "c", "q"])
    prompts: list[str] = []
    out: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    game = TerminalGame(read_line=read_line, out=ListWriter(out), game="dealers-choice",
                        players=3, level="random", stack=50, seed=4, show_odds=False,
                        rich=True, colour=False, history_dir=tmp_path)
    game.console.width = 1
    assert game.run() == 0
    assert prompts and all(p.endswith("> ") for p in prompts), prompts
    assert "Sessionledger" in "".join("".join(out).split())  # (rich breaks every letter)
