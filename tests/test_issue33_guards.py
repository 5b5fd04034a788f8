"""Guards for issue 33's terminal and library items that were fixed without a test
of their own (branch s50-tryout's check of the issue, docs/dev/narration.md): each
fails if its fix is reverted."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from rollem.cli.app import app

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("err", "status"), [(EOFError, 0), (KeyboardInterrupt, 130)])
def test_ctrl_d_and_ctrl_c_at_a_terminals_prompt_end_the_line(
        err: type[BaseException], status: int, tmp_path: Path) -> None:
    """Issue 33: on a terminal, Ctrl-D or Ctrl-C at "Your move >" left the cursor
    after the prompt, so "The hand in progress is abandoned" followed it on the same
    line.  Now a newline comes first."""
    from cli_helpers import scripted

    def answers() -> Iterator[str]:
        raise err
        yield ""  # (a generator: the first answer asked for raises)

    game, out = scripted(answers(), rich=True, history_dir=tmp_path)
    assert game.run() == status
    at = max(i for i, s in enumerate(out) if s.startswith("Your move"))
    assert out[at:at + 3] == ["Your move > ", "\n",
                              "The hand in progress is abandoned; it does not count.\n"]


def test_simulate_with_workers_says_the_chips_are_summed_over_their_tables() -> None:
    """Issue 33: ``simulate --workers W`` printed "chips brought" W times the
    table's without saying each worker plays its own table."""
    runner = CliRunner()
    args = ["simulate", "sdr", "--players", "3", "--hands", "8", "--seed", "1"]
    split = runner.invoke(app, [*args, "--workers", "2"])
    assert split.exit_code == 0, split.output
    assert re.search(r"^chips brought 1200, at the table 1200 \(summed over 2 tables: each "
                     r"worker plays its own table\)$", split.output, re.M), split.output
    one = runner.invoke(app, args)
    assert one.exit_code == 0, one.output
    assert re.search(r"^chips brought 600, at the table 600$", one.output, re.M), one.output


def test_simulate_says_where_a_carried_pot_went_and_counts_one_hand() -> None:
    """Stop 74: a 5-2-1 session that ended on a pot nobody won (R-521-9: it carries to
    the next hand) read "1 hands" and "chips brought 600, at the table 600" over nets
    of -19, -3 and -19, with nothing saying where the 41 chips were (seed 92's one hand
    ends so)."""
    runner = CliRunner()
    out = runner.invoke(app, ["simulate", "rollem521", "--players", "3", "--hands", "1",
                              "--seed", "92", "--bots", "random"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].startswith("rollem521: 1 hand, 3 players, "), lines[0]
    assert lines[1:3] == ["chips brought 600, at the table 600",
                          "(41 of them in a pot nobody won, carried to a next hand: R-521-9)"]
    nets = [int(re.search(r"net ([+-]\d+) chips", ln).group(1))  # type: ignore[union-attr]
            for ln in lines[3:]]
    assert sum(nets) == -41


def test_the_api_page_names_the_own_copy_functions() -> None:
    """Issue 33: ``write_own_copy`` was not in docs/api.md, nor how a copy is checked
    (``own_copy_hand``, not ``replay``)."""
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    history = api[api.index("### Hand histories: `rollem.history`"):]
    history = history[:history.index("\n### ", 1)] if "\n### " in history[1:] else history
    for name in ("write_own_copy(hand, seat", "own_copy_hand", "redact(text, seat)"):
        assert name in history, name
    assert "a copy is checked with `own_copy_hand`, not `replay`" in " ".join(history.split())


def test_the_game_file_page_says_rules_is_required_and_what_a_game_needs() -> None:
    """Issue 33: ``check-game`` accepted a game with no betting round or no forced
    bet, and its docs did not say ``rules`` is required.  The page's table says both,
    as the checker has them."""
    from rollem.games.gamefile import GameFileError, load_game

    page = (ROOT / "docs" / "write-your-own-game.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([^`]+)` \| (.*) \|$", page,
                                                         re.M)}
    assert rows["rules"].endswith("; required")
    assert "A game needs a `deal`, at least one `bet` round, a forced bet that starts the " \
           "pot (`ante`, `blinds` or `bring-in`) and ends with a `showdown`" in rows["[[steps]]"]
    example = re.findall(r"```toml\n(.*?)```", page, flags=re.S)[0]
    without_rules = re.sub(r'^rules = """.*?"""\n', "", example, flags=re.S | re.M)
    assert without_rules != example
    with pytest.raises(GameFileError, match=r"^rules: missing"):
        load_game(without_rules)
