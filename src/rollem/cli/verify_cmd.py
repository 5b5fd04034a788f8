"""``rollem verify FILE... [--json]``: check that each hand was dealt from the
deck its dealer committed to before the deal (issue 32, docs/verify.md).

Each FILE is a hand history or a player's own copy, or a ``.phhs`` file of
several (the web table's session download of one player's own copies: each
hand checked in turn). Several hands of one session are also checked as a
chain: each hand's ``_prev_hash`` must be the previous hand's ``_hand_hash``,
so a hand left out, rewritten or reordered shows (between one player's own
copies, hand-N.toml files or ``.phhs``, a hand not given is no break when the
later copy records it as one that player sat out, ``_sat_out`` under the
commitments: it is named as sat out; copies made before that record name it
as not checked). Exit
status: 0 when every file verifies (a player's copy as far as its hidden
cards allow) and the chain holds; 1 when a check fails or a file has no
commitment or no openings yet; 2 for a file that cannot be read or is not a
hand history (CLI.md).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from rollem import toml_input
from rollem.cli.errors import fail, one_line
from rollem.cli.numbers import PathOf
from rollem.text import fit_lines, name_safe

if TYPE_CHECKING:
    from rollem.verify import Verdict

__all__ = ["verify_command"]

MAX_FILES = 10_000
"""Most files one command checks."""


@click.command("verify",
               short_help="Check that hand histories were dealt from the committed deck.")
@click.argument("files", nargs=-1, required=True,
                type=PathOf(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help="Print the results as one JSON object, on one line (for scripts).")
def verify_command(files: tuple[Path, ...], as_json: bool) -> None:
    """Check that the hands in hand history FILEs were dealt from the committed deck.

    A FILE.phhs (the web table's session download) holds several hands: each
    is checked. Between your own copies (hand-N.toml or .phhs), a hand not
    given must be one you sat out: your next copy records those hands under
    their commitments, and a hand it records as dealt to you fails (copies
    made before this record: the hands between are named as not checked).

    A player's own copy: checks each opened card against the commitment, and
    that every card the copy names where it was dealt is the opened card the
    players' client seeds moved there (and every shown hand of a player who
    exchanged no card in secret). A full history (the dealer's): deals the
    whole hand again from its deal key and the client seeds, and checks every
    card dealt, burned, turned up, drawn from the pool or dealt after a
    reshuffle. Several files of one session are checked as a hand chain too.

    Each FILE's line begins "FILE: ok:", "FILE: FAILED:" or "FILE: not
    verified:"; a line longer than 80 columns goes on under itself, indented.
    The last line, for several hands, is the chain's: "chain: ok" or "chain:
    BROKEN".

    Exit status 0: all verified; 1: a check failed, or a file has no
    commitment (dealt before verifiable deals) or no openings (a copy saved
    before the hand was over); 2: a file cannot be read or is not a hand
    history (a game file, an empty file).

    JSON (--json): ok, files (a list, per file: file, status (verified,
    partial, failed, unrevealed, no_commitment), ok, reason, hand_no,
    commitment, prev_hash, hand_hash, cards_checked, cards_opened), chain (ok,
    reason: the first break, or null; sat_out and not_checked: the runs of
    hands not given between one player's copies, each first, last, player).
    """
    from rollem.history import HistoryError
    from rollem.history.reading import _variant_game_id as history_game_id
    from rollem.userfile import MAX_HISTORY_BYTES, UserFileError, read_user_text
    from rollem.verify import (
        NO_COMMITMENT,
        check_chain,
        not_checked,
        sat_out,
        session_forms,
        verify_history,
    )

    if len(files) > MAX_FILES:
        fail(f"{len(files)} files given; at most {MAX_FILES} at once")
    results = []
    given: list[tuple[str, dict[str, Any], Verdict]] = []
    for file in files:
        try:
            text = read_user_text(file, MAX_HISTORY_BYTES, encoding="utf-8-sig")
        except UserFileError as err:
            fail(err)
        try:
            data = toml_input.loads(text)
        except tomllib.TOMLDecodeError as err:
            fail(f"{file}: not a TOML hand history: {err}")
        except RecursionError:
            fail(f"{file}: not a hand history: arrays or tables nested too deeply")
        hands: list[tuple[str, dict[str, Any]]] = [(str(file), data)]
        if file.suffix.lower() == ".phhs":  # several hands, [1], [2] ... (one a table)
            hands = [(f"{file} [{name}]", one) for name, one in _phhs_hands(file, data)]
        for name, one in hands:
            if one.get("variant") is None:  # a game file, an empty file: no hand at all
                try:
                    history_game_id(one)
                except HistoryError as err:
                    fail(f"{name}: {err}")
            try:
                verdict = verify_history(one)
            except HistoryError as err:  # (verify_history turns check errors into verdicts)
                fail(f"{name}: {err}")
            results.append((name, verdict))
            given.append((name, one, verdict))
    if any(v.status == NO_COMMITMENT for _, v in results):
        forms = session_forms(given)
        results = [(name, _twin(one, v, forms) if v.status == NO_COMMITMENT else v)
                   for (name, v), (_, one, _) in zip(results, given, strict=True)]
    chain = check_chain([v for _, v in results]) if len(results) > 1 else None
    ok = all(v.ok for _, v in results) and chain is None
    # hands without a commitment are left out of the chain: with fewer than two
    # left there is no chain to check (it said "chain: ok" of two standard PHH hands)
    chained = sum(1 for _, v in results if v.hand_hash)
    unchecked = (f"not checked: {chained} of the {len(results)} hands carr"
                 f"{'ies' if chained == 1 else 'y'} a commitment, and a chain needs two"
                 if chain is None and chained < 2 else None)
    if as_json:
        click.echo(json.dumps({
            "ok": ok,
            "files": [{"file": str(f), **v.to_dict()} for f, v in results],
            "chain": {"ok": chain is None and unchecked is None, "reason": chain or unchecked,
                      "sat_out": _runs(sat_out([v for _, v in results])),
                      "not_checked": _runs(not_checked([v for _, v in results]))},
        }))
    else:
        for name, v in results:
            hand = f"hand {v.hand_no}: " if v.hand_no is not None else ""
            mark = "ok" if v.ok else "FAILED" if v.status == "failed" else "not verified"
            # (a file's or a .phhs hand's name on its own line: a name cannot print
            # a forged "ok" line; a long line goes on indented below it, its name
            # and verdict kept whole on its first line)
            head = f"{name_safe(name)}: {mark}: {hand}"
            click.echo(fit_lines(head + one_line(v.reason), keep=len(head)))
        if len(results) > 1 and unchecked is not None:
            click.echo(fit_lines(f"chain: {unchecked}"))
        elif len(results) > 1:
            verdicts = [v for _, v in results]
            missing = "; ".join(filter(None, (_sat_out_runs(sat_out(verdicts)),
                                              _not_given(not_checked(verdicts))))) \
                if chain is None else ""
            click.echo(fit_lines(name_safe("chain: " + (
                f"BROKEN: {chain}" if chain else
                "ok (each hand's commitment includes the previous hand"
                + (f"; {missing}" if missing else "") + ")"))))
    raise SystemExit(0 if ok else 1)


def _twin(data: dict[str, Any], verdict: Verdict,
          forms: dict[str, tuple[str, Verdict]]) -> Verdict:
    """A hand with no commitment: when it is a standard PHH hand written from an own
    copy also given (:func:`rollem.verify.written_from`), that copy's verdict,
    saying so; else ``verdict`` as it is."""
    from dataclasses import replace

    from rollem.phh import is_phh
    from rollem.verify import written_from

    twin = written_from(data, forms) if is_phh(data) else None
    if twin is None:
        return verdict
    source, checked = twin
    return replace(checked, reason=f"the same hand as {source}, written from it (a standard "
                   f"PHH hand carries no commitment): {checked.reason}")


def _phhs_hands(file: Path, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The hands of a ``.phhs`` file (``(name, hand)`` in file order): at most
    :data:`rollem.phh.read.MAX_HANDS`, each a table (else :func:`fail`)."""
    from rollem.phh.variants import MAX_HANDS

    if not data:
        fail(f"{file}: no hand in it (a .phhs file holds hands as [1], [2] ...)")
    if len(data) > MAX_HANDS:
        fail(f"{file}: {len(data)} hands in one .phhs file; at most {MAX_HANDS}")
    out = []
    for name, hand in data.items():
        if not isinstance(hand, dict):
            fail(f"{file}: {name} is not a hand (a .phhs file holds hands as [1], [2] ...)")
        out.append((name, hand))
    return out


def _runs(runs: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    """Runs of hands not given (``(first, last, owner)``) as ``--json`` gives them."""
    return [{"first": lo, "last": hi, "player": who} for lo, hi, who in runs]


def _sat_out_runs(runs: list[tuple[int, int, str]]) -> str:
    """The hands one player's copies prove they sat out (``(first, last, owner)``,
    :func:`rollem.verify.sat_out`), in words: ``hands 4 to 8: Ann sat out
    (recorded under the commitments)``, or ``""``."""
    return "; ".join(f"hand {lo}: {who} sat out (recorded under its commitment)" if lo == hi
                     else f"hands {lo} to {hi}: {who} sat out (recorded under the commitments)"
                     for lo, hi, who in runs)


def _not_given(runs: list[tuple[int, int, str]]) -> str:
    """The hands not given between one player's copies (``(first, last, owner)``,
    :func:`rollem.verify.not_checked`), in words: ``hands 4 to 8 are not in the
    files: not checked across them (Ann's copies hold only the hands Ann was
    dealt into)``, or ``""`` without a gap."""
    if not runs:
        return ""
    words = ", ".join(f"{lo}" if lo == hi else f"{lo} to {hi}" for lo, hi, _ in runs)
    whose = sorted({who for _, _, who in runs})
    if whose == ["You"]:  # (rollem play's copies: "You's copies ... You was dealt")
        why = "your copies hold only the hands you were dealt into"
    elif len(whose) == 1:
        why = f"{whose[0]}'s copies hold only the hands {whose[0]} was dealt into"
    else:
        why = "a player's copies hold only the hands they were dealt into"
    if len(runs) == 1 and runs[0][0] == runs[0][1]:
        return f"hand {words} is not in the files: not checked across it ({why})"
    return f"hands {words} are not in the files: not checked across them ({why})"
