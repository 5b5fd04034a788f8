"""Standard PHH on the command line (issue 29): ``rollem replay FILE.phh``
and ``FILE.phhs`` (:func:`replay_phh_file`), and ``rollem export --phh``
(:func:`export_command`). See :mod:`rollem.phh` and docs/hand-history.md,
"PHH, the standard"."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import click

from rollem import toml_input
from rollem.cli.errors import fail, one_line
from rollem.cli.numbers import PathOf
from rollem.text import fit_lines, name_safe, terminal_safe

__all__ = ["export_command", "replay_phh_file"]

MAX_PHHS_BYTES = 16 * 1024 * 1024
"""The largest ``.phhs`` file read (16 MiB: a few thousand hands)."""


def _read(file: Path, limit: int) -> str:
    from rollem.userfile import UserFileError, read_user_text

    try:
        return read_user_text(file, limit, encoding="utf-8-sig")
    except UserFileError as err:
        fail(err)


def _told(h: Any) -> str:
    """A replayed PHH hand in words: the summary and the finishing stacks."""
    from rollem.cli.replay_cmd import summary

    names = [name_safe(n) for n in h.players]  # one line each (a file's names)
    told = summary(h.hand, names).splitlines()
    # the engine's net leaves the antes out (they are its carried-in pot)
    text = f"PHH {h.variant}: " + "\n".join(ln for ln in told if not ln.startswith("Net: "))
    if h.scale != 1:
        text += f"\n(Amounts above in chips of {h.units(1)}; below in the file's unit.)"
    if h.finishing_stacks is not None:
        text += "\nNet: " + ", ".join(f"{n} {h.units(f - s):+}" for n, f, s in zip(
            names, h.finishing_stacks, h.starting_stacks, strict=True))
    if h.filled:
        text += "\nLeft out of the file, filled in as PokerKit does: " + "; ".join(h.filled)
    if h.unknown:
        text += "\nCards the file hides (??) were played as stand-ins: " + ", ".join(
            names[s] for s in sorted(h.unknown)) + " (no result depends on them)"
    if h.finishing_stacks is not None:
        text += "\nFinishing stacks: " + ", ".join(
            f"{n} {h.units(s)}" for n, s in zip(names, h.finishing_stacks, strict=True))
    return text


def _game_name(entry: dict[str, Any]) -> str:
    """A rollem history's game as players call it ("5-2-1 Roll 'Em"), its
    ``variant`` (``rollem-rollem521``) for a game not shipped (a game file's)."""
    from rollem import games

    try:
        return games.get(str(entry["game"])).name
    except KeyError:
        return str(entry["variant"])


def _differences(file: Path, h: Any) -> None:
    """``--lenient``: what the file records that the replay contradicts, on stderr."""
    if h.differences:
        n = len(h.differences)
        click.echo(fit_lines(f"rollem: {file}: told as replayed; {n} difference"
                             f"{'s' if n != 1 else ''} from what the history records "
                             "(--lenient):", keep=len(f"rollem: {file}:")), err=True)
        for line in h.differences:  # each its own line (a long one goes on indented)
            click.echo(fit_lines(f"  {name_safe(line)}"), err=True)


def replay_phh_file(file: Path, as_json: bool, text: str | None = None,
                    lenient: bool = False) -> None:
    """``rollem replay`` of a standard PHH file (``.phh``, one hand) or a
    ``.phhs`` (several): each hand replayed through the engine (prints and
    exits; a bad hand of a ``.phhs`` is reported in its place, the others
    still replay, and the command then exits 2 with one line on stderr naming
    the first bad hand and what was wrong, CLI.md)."""
    from rollem.phh import PHHError, is_phh, read_phh, read_phhs, replay_phh, replay_table

    bulk = file.suffix.lower() == ".phhs"
    if text is None:
        text = _read(file, MAX_PHHS_BYTES if bulk else 1024 * 1024)
    try:
        if not bulk:
            h = replay_phh(read_phh(text), check_result=not lenient)
            _differences(file, h)
            if as_json:
                click.echo(json.dumps(h.to_json()))
            else:
                click.echo(fit_lines(terminal_safe(_told(h))))
            return
        hands = list(read_phhs(text))
    except PHHError as err:
        fail(f"{file}: {err}")
    out: list[dict[str, Any]] = []
    told: list[str] = []
    bad: list[tuple[str, str]] = []  # (hand, its one-line error)
    for name, table in hands:
        try:
            if not isinstance(table, dict):
                raise PHHError(f"{name} is not a table of PHH fields")
            if not is_phh(table):  # a session's hand of a game with no PHH code
                entry = replay_table(table, check_result=not lenient)
                out.append({"hand": name, **entry})
                names = [name_safe(n) for n in entry["players"]]
                told.append(f"[{name_safe(name)}] {_game_name(entry)}: Net: " + ", ".join(
                    f"{n} {f - s:+d}" for n, f, s in zip(
                        names, entry["finishing_stacks"], entry["starting_stacks"],
                        strict=True) if n != "") + "\nFinishing stacks: " + ", ".join(
                    f"{n} {f}" for n, f in zip(names, entry["finishing_stacks"],
                                               strict=True) if n != ""))
                continue
            h = replay_phh(table, check_result=not lenient)
            _differences(Path(f"{file}[{name}]"), h)
            out.append({"hand": name, **h.to_json()})
            told.append(f"[{name_safe(name)}] " + _told(h))
        except PHHError as err:
            out.append({"hand": name, "error": one_line(err)})
            told.append(f"[{name_safe(name)}] error: {one_line(err)}")
            bad.append((name, one_line(err)))
    click.echo(json.dumps({"hands": out}) if as_json
               else fit_lines(terminal_safe("\n\n".join(told))))
    if bad:
        fail(_bad_hands(file, len(hands), bad))


def _bad_hands(file: Path, total: int, bad: list[tuple[str, str]]) -> str:
    """The one error line of a ``.phhs`` some of whose hands did not replay:
    ``FILE: hand [k] did not replay: what was wrong``, or with more than one
    bad hand how many of how many and the first (every hand's own line is in
    the output, in its place)."""
    from rollem.cli.errors import refusal

    name, error = bad[0]
    if len(bad) == 1:
        return refusal(str(file), f"hand [{name}] did not replay: {error}")
    return refusal(str(file), f"{len(bad)} of {total} hands did not replay; the first, "
                   f"[{name}]: {error}")


@click.command("export")
@click.argument("files", nargs=-1, required=True,
                type=PathOf(dir_okay=False, path_type=Path))
@click.option("--phh", "to_phh", is_flag=True, required=True,
              help="Write standard PHH (phh-std 0.0.2), as PokerKit's HandHistory reads it.")
@click.option("-o", "--output", type=PathOf(dir_okay=False, path_type=Path, writes=True),
              help="Write to this file instead of stdout.")
@click.option("--skip-other-games", is_flag=True,
              help="Leave out the hands with no PHH form (a dealer's-choice session's "
                   "games with no PHH variant, a hand run twice, a bomb pot), each named "
                   "on stderr, instead of refusing.")
def export_command(files: tuple[Path, ...], to_phh: bool, output: Path | None,
                   skip_other_games: bool) -> None:
    """Write rollem hand histories FILES as standard PHH.

    One FILE gives one PHH hand; several give one .phhs (tables [1], [2] ...
    in the order given). Each FILE is a rollem history, full or a player's
    own copy (rollem play's files, the web table's download: the cards it
    hides stay ?? in the PHH), of a game with a PHH variant: hold'em fixed
    limit (FT) or no limit (NT), Omaha pot limit (PO), Omaha hi-lo fixed
    limit (FO/8), seven-card stud (F7S), stud hi-lo (F7S/8) and razz (FR).
    Other games and structures are refused, and so are a hand run twice and
    a bomb pot: their rollem history (variant rollem-GAME) is the only form.

    Players are numbered from the button's left, the button last, as PHH
    does; _seats maps each back to the rollem seat, _burns holds the burned
    cards. rollem convert --to phh does this too, and also reads .phhs files
    and converts back (--to rollem).
    """
    from rollem.history import HistoryError, replay
    from rollem.phh import PHHError, copy_phh_dict, phh_dict, write_phhs

    tables = []
    for file in files:
        text = _read(file, 1024 * 1024)
        try:
            data = toml_input.loads(text)
        except tomllib.TOMLDecodeError as err:
            fail(f"{file}: not a TOML hand history: {err}")
        except RecursionError:  # tomllib recurses once per level of [ or {
            fail(f"{file}: not a hand history: arrays or tables nested too deeply")
        try:
            if "_redacted_for" in data:  # a player's own copy: its hidden cards stay ??
                tables.append(copy_phh_dict(data))
                continue
            hand = replay(text)
            names = data.get("players")
            names = names if isinstance(names, list) and len(names) == hand.n else None
            tables.append(phh_dict(hand, players=names))
        except PHHError as err:
            # (a game with no code; a hand run twice, a bomb pot, a straddle off the gun)
            if skip_other_games and "has no PHH" in str(err):
                click.echo(f"rollem: {file}: left out: {err}", err=True)
                continue
            fail(f"{file}: {err}")
        except HistoryError as err:
            fail(f"{file}: {err}")
    if not tables:
        fail("no hand of a game with a PHH variant to export (FT, NT, PO, FO/8, F7S, F7S/8, FR)")
    import tomli_w

    result = tomli_w.dumps(tables[0]) if len(tables) == 1 else write_phhs(tables)
    if output is None:
        click.echo(result, nl=False)
    else:
        try:
            output.write_text(result, encoding="utf-8")
        except OSError as err:
            fail(f"{output}: cannot write: {err.strerror}")
