"""``rollem replay`` and ``rollem verify`` print lines that fit 80 columns
(s62-term: they printed lines of 83 to 280 columns, where every other command's
fit): a long line goes on under itself, indented, broken between words; a
file's verify line still begins with its name and verdict, and ``--json`` is
still one line for scripts."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
import tomli_w
from click.testing import CliRunner

from cli_helpers import unwrapped
from rollem.bots.random_bot import random_action
from rollem.cli.app import app
from rollem.engine.commit_reveal import ZERO_HASH, CommittedSource, DealProof
from rollem.engine.hand import Hand
from rollem.history import redact, write_history

HISTORIES = Path(__file__).parent / "histories"
FILES = sorted(p for p in HISTORIES.rglob("*.toml"))
WIDTH = 80


def _long(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > WIDTH]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_replay_lines_fit_80_columns(path: Path) -> None:
    for extra in ([], ["--result"]):
        result = CliRunner().invoke(app, ["replay", str(path),
                                          *extra])
        if result.exit_code != 0:  # (a history kept for its error: told elsewhere)
            continue
        assert _long(result.output) == [], extra


def test_a_521_showdown_is_told_under_itself() -> None:
    """The line that ran to 255 columns, now four lines, the later three indented."""
    result = CliRunner().invoke(app, ["replay", f"{HISTORIES}/"
                                      "rollem521_both_fails_two_pots.toml"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    at = lines.index("B declared both and fails, collecting nothing from the main pot and side "
                     "pot 1:")
    assert lines[at + 1:at + 4] == [
        "  A's five-four low, three-deuce-ace (the wheel) beats B's six-four low,",
        "  three-deuce-ace for low; C's three kings, eight-seven beats B's ace high,",
        "  six-four-three-deuce for high."]
    json_out = CliRunner().invoke(app, ["replay", "--json", f"{HISTORIES}/"
                                        "rollem521_both_fails_two_pots.toml"]).output
    assert json_out.count("\n") == 1 and json.loads(json_out)["net"] == {
        "0": 1, "1": -7, "2": 6}


def _session(hands: int) -> list[dict[str, object]]:
    """Full histories of ``hands`` SDR hands dealt from committed decks, chained."""
    import tomllib

    out: list[dict[str, object]] = []
    prev = ZERO_HASH
    for k in range(hands):
        proof = DealProof(hashlib.sha256(f"sdr{k}".encode()).digest(),
                          {s: f"c{s}x{k}" for s in range(3)}, k, prev)
        hand = Hand("sdr", [200] * 3, button=k % 3, source=CommittedSource(proof))
        rng = random.Random(k)
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            hand.apply(seat, random_action(hand.legal_actions(seat), rng))
        data = tomllib.loads(write_history(hand))
        prev = bytes.fromhex(str(data["_hand_hash"]))
        out.append(data)
    return out


def test_verify_lines_fit_80_columns_and_begin_with_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    names = []
    for k, data in enumerate(_session(5)):
        if k == 2:  # a hand not given between one player's copies
            continue
        name = f"a-rather-long-folder-name-for-hands/hand-{k}.toml"
        Path(name).parent.mkdir(exist_ok=True)
        Path(name).write_text(tomli_w.dumps(redact(data, 0)), encoding="utf-8")
        names.append(name)
    result = runner.invoke(app, ["verify", *names])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert _long(result.output) == []
    heads = [line for line in lines if not line.startswith("  ")]
    assert [h.split(": ")[:3] for h in heads[:-1]] == [
        [name, "ok", f"hand {k}"] for name, k in zip(names, (0, 1, 3, 4), strict=True)]
    assert heads[-1].startswith("chain: ok (")
    assert unwrapped(result.output).splitlines()[-1] == (
        "chain: ok (each hand's commitment includes the previous hand; hand 2 is not in "
        "the files: not checked across it (seat 0's copies hold only the hands seat 0 "
        "was dealt into))")
    as_json = runner.invoke(app, ["verify", "--json", *names]).output
    assert as_json.count("\n") == 1 and json.loads(as_json)["ok"] is True


def test_fit_lines_keeps_a_head_and_a_long_word_whole() -> None:
    from rollem.text import fit_lines

    line = "a b: ok: hand 1: " + "word " * 20
    assert fit_lines(line.strip(), 30, keep=len("a b: ok: hand 1: ")).splitlines() == [
        "a b: ok: hand 1: word word", "  word word word word word", "  word word word word word",
        "  word word word word word", "  word word word"]
    assert fit_lines("x" * 40 + " y", 30) == "x" * 40 + "\n  y"
    assert fit_lines("  short\n\nline", 30) == "  short\n\nline"
    assert fit_lines("  " + "ab " * 12, 20).splitlines()[1] == "    ab ab ab ab ab"


def test_rollem_help_cuts_no_command_summary_at_80_columns() -> None:
    """``rollem --help`` cut eight summaries with "..." ("Copy the web table's SQLite
    database to PATH, safely while..."): each now fits whole."""
    out = CliRunner().invoke(app, ["--help"], terminal_width=80).output
    rows = out.split("Commands:", 1)[1].strip().splitlines()
    assert len(rows) == 12 and not any(row.endswith("...") for row in rows), rows
    assert "  backup      Back up the web table's SQLite database to PATH while it runs." \
        in out.splitlines()
    assert _long(out) == []


def test_fit_lines_leaves_a_private_use_character_of_a_name_alone() -> None:
    from rollem.text import fit_lines

    assert fit_lines("a\ue000b " + "w " * 20, 20).splitlines()[0] == "a\ue000b w w w w w w w w"
