"""A TOML key of very many dotted parts is refused before it is read (stop 56).

``tomllib`` takes time quadratic in one key's parts: ``a.a.a... = 1`` of 16 KB
took 1.3 s, of 64 KB about 20 s (a table header ``[a.a.a...]`` too: 32,000
parts 3.3 s).  A tournament schedule sent with a table's creation (64 KB of
TOML in a 144 KB body) was read on the web table's event loop, so one request
stopped every table for that long (16 KB: 2.4 s at load 10), and a refused
creation did not count against the hourly limit; a 1 MB history given to
``rollem verify`` or ``rollem replay`` ran for hours.  :mod:`rollem.toml_input`
now refuses a key of more than 32 parts first, in one line, as bad TOML.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from cli_helpers import run_cli
from rollem import toml_input
from rollem.games.gamefile import GameFileError, load_game
from rollem.server.config import ConfigError, parse_config

WORDS = "a dotted key of more than 32 parts"


def _key(parts: int, part: str = "a") -> str:
    return ".".join([part] * parts)


def test_keys_of_more_than_32_parts_are_refused_in_every_form() -> None:
    read = toml_input.loads(f"{_key(32)} = 1\nx = {{{_key(32, 'c')} = 2}}\n[{_key(32, 'b')}]\n")
    assert set(read) == {"a", "b", "x"}
    quoted = ".".join(['"q"'] * 40)
    spaced = " . ".join(["a"] * 33)
    for text in (f"{_key(33)} = 1", f"[{_key(40)}]", f"[[{_key(40)}]]",
                 "x = {" + quoted + " = 1}", f"{spaced} = 1",
                 f"ok = 1\n{_key(100_000)} = 1\n"):
        with pytest.raises(tomllib.TOMLDecodeError, match=WORDS):
            toml_input.loads(text)
    # (floats, sentences and a 32-part key stay readable)
    assert toml_input.loads('f = 1.5\ng = "x.y.z. And so on..."') == {
        "f": 1.5, "g": "x.y.z. And so on..."}


def test_a_tournament_schedule_with_a_key_bomb_is_refused_before_it_is_read() -> None:
    # (2,000 parts: on main 0.1 s to read, then "stack is missing")
    with pytest.raises(ConfigError, match=f"tournament_schedule: not TOML: {WORDS}"):
        parse_config({"game": "holdem", "tournament": "custom",
                      "tournament_schedule": f"{_key(2000)} = 1\n"})
    with pytest.raises(GameFileError, match=f"game file: not valid TOML: {WORDS}"):
        load_game(f'id = "x"\n[{_key(2000)}]\n')


def test_rollem_verify_and_replay_refuse_a_history_key_bomb(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bomb = tmp_path / "bomb.toml"
    bomb.write_text(f"{_key(2000)} = 1\n")
    for command in ("verify", "replay"):
        code, _, err = run_cli([command, str(bomb)], capsys)
        assert code == 2 and WORDS in err, (command, err)
