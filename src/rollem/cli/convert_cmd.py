"""``rollem convert``: hand histories between standard PHH and rollem's own
format, files and ``.phhs`` (issue 29; :mod:`rollem.phh.convert`)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import click

from rollem import toml_input
from rollem.cli.errors import fail, refusal
from rollem.cli.numbers import OneOf, PathOf

__all__ = ["convert_command"]


def _hands(file: Path) -> Iterator[tuple[str, Any]]:
    """Each hand of FILE with its name in messages: ``FILE`` for a one-hand
    file, ``FILE[k]`` for table ``[k]`` of a ``.phhs``."""
    from rollem.cli.phh_cmd import MAX_PHHS_BYTES
    from rollem.phh import PHHError, read_phhs
    from rollem.userfile import MAX_HISTORY_BYTES, UserFileError, read_user_text

    bulk = file.suffix.lower() == ".phhs"
    try:
        text = read_user_text(file, MAX_PHHS_BYTES if bulk else MAX_HISTORY_BYTES,
                              encoding="utf-8-sig")
    except UserFileError as err:
        fail(err)
    try:
        if bulk:
            for name, table in read_phhs(text):
                yield f"{file}[{name}]", table
        else:
            yield str(file), toml_input.loads(text, parse_float=_decimal)
    except PHHError as err:  # read_phhs's own words (bad TOML already says so)
        fail(refusal(str(file), str(err)))
    except tomllib.TOMLDecodeError as err:
        fail(refusal(str(file), f"not a TOML hand history: {err}"))
    except RecursionError:
        fail(refusal(str(file), "not a hand history: arrays or tables nested too deeply"))


def _decimal(text: str) -> Any:
    from decimal import Decimal

    return Decimal(text)


def _convert(table: Any, to: str) -> dict[str, Any]:
    """One hand converted (raises PHHError or HistoryError)."""
    from rollem.history import history_dict, replay
    from rollem.phh import PHHError, is_phh
    from rollem.phh.convert import history_to_phh, phh_to_history

    if not isinstance(table, Mapping):
        raise PHHError("not a table of hand history fields")
    standard = is_phh(table)
    if to == "phh":
        if standard:
            raise PHHError(f"already standard PHH (variant {str(table.get('variant'))[:20]})")
        return history_to_phh(_plain(table))
    if standard:
        return phh_to_history(table)
    if "_redacted_for" in table:
        raise PHHError("a player's own copy is rewritten to PHH only (--to phh): its hidden "
                       "cards cannot be replayed into a full history")
    data = _plain(table)
    hand = replay(data)  # an older version's history, written again as this version's
    names = data.get("players")
    out = history_dict(hand, players=names if isinstance(names, list)
                       and len(names) == hand.n else None)
    for key in ("_phh", *(k for k in data if k.startswith("_") and k not in out)):
        if key in data:
            out[key] = data[key]
    return out


def _plain(table: Mapping[str, Any]) -> dict[str, Any]:
    """A rollem history read with decimals (``parse_float``) back to floats
    where it has any (rollem's own fields hold none but options)."""
    from decimal import Decimal

    def plain(value: Any) -> Any:
        if isinstance(value, Decimal):
            return float(value)
        if isinstance(value, Mapping) and not isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, dict):
            return {k: (v if k == "_phh" else plain(v)) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    return {k: (v if k == "_phh" else plain(v)) for k, v in table.items()}


@click.command("convert",
               short_help="Convert hand histories from standard PHH to rollem's, or back.")
@click.argument("files", nargs=-1, required=True,
                type=PathOf(dir_okay=False, path_type=Path))
@click.option("--to", "to", type=OneOf(["phh", "rollem"]), required=True,
              help="phh: standard PHH (phh-std 0.0.2, as PokerKit reads it); rollem: "
                   "rollem's own history format, this version.")
@click.option("-o", "--output", type=PathOf(dir_okay=False, path_type=Path, writes=True),
              help="Write to this file instead of stdout.")
@click.option("--skip", is_flag=True,
              help="Leave out the hands that cannot be converted, each named on stderr with "
                   "its reason, instead of stopping at the first.")
def convert_command(files: tuple[Path, ...], to: str, output: Path | None,
                    skip: bool) -> None:
    """Convert hand histories FILES between standard PHH and rollem's format.

    Each FILE is one hand (a rollem history .toml, a PHH .phh) or several (a
    .phhs: tables [1], [2] ..., such as rollem play's session.phhs). One hand
    in all is written as one TOML table; several as one .phhs, in the order
    given.

    --to phh: a rollem history (full, or a player's own copy with its hidden
    cards ??; any version rollem reads) as standard PHH that PokerKit
    replays: PHH's variant code and seat order, players numbered from the
    button's left. A game with no PHH variant (Stop, Drop and Roll, 5-2-1,
    Roll Your Own, draw, deuces wild) is refused: its rollem history is its
    only form. A history converted from PHH gives back the PHH file's fields
    and its amounts in its own unit.

    --to rollem: a standard PHH hand as a rollem history that rollem replays
    to the same stacks (the PHH file's own fields kept in _phh), amounts with
    a fraction in whole chips of the hand's smallest unit. Refused: a hand
    whose hidden cards (??) reach the showdown, a player with some cards
    hidden and some shown (so a player's copy of a stud or razz hand converts
    only when every other player shows down: one who folds has their down
    cards hidden and their up cards shown), a hand that stops before its end,
    or antes counted as the players' chips in hold'em or Omaha. A rollem history of an older version
    is written again as this version's; a rollem player's own copy converts
    --to phh only.

    Errors name the file, the hand ([k] of a .phhs) and the field or line.
    """
    from rollem.history import HistoryError
    from rollem.phh import PHHError, write_phhs
    from rollem.phh.variants import MAX_HANDS

    tables: list[dict[str, Any]] = []
    for file in files:
        for where, table in _hands(file):
            try:
                tables.append(_convert(table, to))
            except (PHHError, HistoryError) as err:
                if not skip:
                    fail(refusal(where, err))
                click.echo(f"rollem: {refusal(where, f'left out: {err}')}", err=True)
            if len(tables) > MAX_HANDS:
                fail(f"more than {MAX_HANDS} hands to convert; convert fewer at a time")
    if not tables:
        fail("no hand could be converted")
    import tomli_w

    result = tomli_w.dumps(tables[0]) if len(tables) == 1 else write_phhs(tables)
    if output is None:
        click.echo(result, nl=False)
        return
    try:
        output.write_text(result, encoding="utf-8")
    except OSError as err:
        fail(f"{output}: cannot write: {err.strerror}")
