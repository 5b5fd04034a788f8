"""``rollem play``: Ctrl-C away from a prompt (s69-newcomer).

Ctrl-C while the computer players or the odds were working (not at a prompt)
printed "^CThe hand in progress is abandoned" on one line (issue 33: no newline
after Ctrl-C).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from cli_helpers import scripted


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
