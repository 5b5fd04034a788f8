"""docs/hand-history.md stays true (issue 9): every TOML example in it replays
with ``rollem replay`` (text and ``--json``), the output the page shows is
what the command prints today, the example named after a file in
tests/histories/ is that file, the documented replay error is the one the
command gives, and the "Fields" table names every field a history has.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from random import Random

import pytest

from rollem.bots import make_bot
from rollem.cli.app import main
from rollem.engine import Hand, Options, SeededSource
from rollem.games import DEFAULT_CHOICE, all_games
from rollem.history import history_dict

ROOT = Path(__file__).resolve().parent.parent
DOC_PATH = ROOT / "docs" / "hand-history.md"
DOC = DOC_PATH.read_text(encoding="utf-8")
HISTORIES = Path(__file__).resolve().parent / "histories"

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.DOTALL | re.MULTILINE)


@dataclass
class Example:
    """One ```toml block of the page and the ``$ rollem replay`` block after it, if any."""

    index: int
    toml: str
    command: str | None  # "rollem replay NAME.toml"
    shown: str | None  # the output the page shows, without a final newline


def examples() -> list[Example]:
    blocks = [(m.group(1), m.group(2)) for m in FENCE.finditer(DOC)]
    out = []
    for i, (lang, body) in enumerate(blocks):
        if lang != "toml":
            continue
        command = shown = None
        if i + 1 < len(blocks) and blocks[i + 1][1].startswith("$ rollem replay "):
            first, _, rest = blocks[i + 1][1].partition("\n")
            command, shown = first[2:], rest.rstrip("\n")
        out.append(Example(len(out) + 1, body.rstrip("\n"), command, shown))
    return out


EXAMPLES = examples()


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``rollem ARGV`` in this process: (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    code = info.value.code
    return (0 if code is None else int(code)), out, err


def test_the_page_has_an_example_per_game() -> None:
    variants = {tomllib.loads(e.toml)["variant"] for e in EXAMPLES}
    assert variants == {f"rollem-{g}" for g in DEFAULT_CHOICE}  # our three games
    assert all(e.command is not None for e in EXAMPLES), "each example shows its replay"


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: f"example{e.index}")
def test_example_replays_as_shown(
    ex: Example, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = ex.command.split()[-1] if ex.command else f"example{ex.index}.toml"
    path = tmp_path / name
    path.write_text(ex.toml + "\n", encoding="utf-8")

    code, out, err = run_cli(["replay", str(path)], capsys)
    assert (code, err) == (0, ""), err
    if ex.shown is not None:
        assert out.rstrip("\n") == ex.shown

    code, out, err = run_cli(["replay", str(path), "--json"], capsys)
    assert (code, err) == (0, ""), err
    data = json.loads(out)  # exactly one JSON object
    assert set(data) == {"game", "pots", "net", "shown", "carried"}
    assert "rollem-" + data["game"] == tomllib.loads(ex.toml)["variant"]
    assert sum(data["net"].values()) + data["carried"] == 0  # chips are conserved
    recorded = tomllib.loads(ex.toml).get("_result")
    if recorded is not None:  # "rollem replay --json gives the _result above plus shown"
        for key in ("pots", "net", "carried"):
            assert data[key] == recorded[key], key


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: f"example{e.index}")
def test_example_is_the_test_history_it_names(ex: Example) -> None:
    assert ex.command is not None
    file = HISTORIES / ex.command.split()[-1]
    assert file.is_file(), f"{file.name} is named on the page but not in tests/histories/"
    text = file.read_text(encoding="utf-8")
    assert ex.toml == text[text.index("variant ="):].rstrip("\n")
    assert f"`tests/histories/{file.name}`" in DOC


def test_documented_replay_error_is_what_rollem_replay_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "### Numbering": the first example with "p2 cbr 4" changed to "p2 cbr 400"
    section = DOC[DOC.index("### Numbering"):DOC.index("## Writing a history by hand")]
    shown = section[section.index("```\n") + 4:]
    shown = shown[:shown.index("\n```")]
    sdr = EXAMPLES[0].toml
    assert sdr.count('"p2 cbr 4",') == 1
    path = tmp_path / "wrong.toml"
    path.write_text(sdr.replace('"p2 cbr 4",', '"p2 cbr 400",'), encoding="utf-8")
    code, out, err = run_cli(["replay", str(path)], capsys)
    assert (code, out) == (2, "")
    assert err == f"rollem: error: {path}: {shown}\n"


# ---------------------------------------------------------------- fields


def field_rows() -> dict[str, str]:
    """The "## Fields" table: each field named in the first column -> its meaning."""
    section = DOC[DOC.index("## Fields"):]
    section = section[:section.index("\n## ", 1)]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].startswith("`"):
            continue
        for name in re.findall(r"`([^`]+)`", cells[0]):
            rows[name] = cells[1]
    return rows


FIELDS = field_rows()


def is_marked_optional(meaning: str) -> bool:
    return "optional" in meaning or "written, not read" in meaning


def test_fields_table_is_read() -> None:
    assert {"variant", "starting_stacks", "actions", "_deck", "_result"} <= set(FIELDS)


@pytest.mark.parametrize("name", sorted(FIELDS))
def test_each_field_is_in_an_example_or_marked_optional(name: str) -> None:
    used = set().union(*(tomllib.loads(e.toml) for e in EXAMPLES))
    assert name in used or is_marked_optional(FIELDS[name]), (
        f"{name} is in no example on the page and its row does not say it is optional"
    )


def played_hand(game: str, players: int) -> Hand:
    """A finished hand of ``game``, played by seeded random computer players."""
    hand = Hand(game, [100] * players, button=0, options=Options(), source=SeededSource(11))
    bots = [make_bot("random", Random(seat)) for seat in range(players)]
    while hand.pending is not None:
        seat = hand.pending.seats[0]
        hand.apply(seat, bots[seat].act(hand.view(seat)))
    return hand


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_every_field_written_is_documented(game: str) -> None:
    """What ``write_history`` writes is all in the table (the page cannot miss a
    field), and each option in ``_options`` is named on the page."""
    data = history_dict(played_hand(game, 3))
    assert set(data) <= set(FIELDS), sorted(set(data) - set(FIELDS))
    for key in data["_options"]:
        assert f"`{key}`" in DOC, f"_options key {key} is not named in docs/hand-history.md"
