"""A table reads its game file and its custom schedule once (stop 57).

``TableConfig.own_game()`` (asked at each deal, each practice-odds request, each
``/rules``, each state's game names) and ``TableConfig.schedule()`` (asked at
every state of a tournament) read the host's TOML text through process-wide
caches of 64 texts each.  Anyone who creates tables (30 an hour an address, from
many addresses more) could push a table's text out with 64 others, and every
later ask read a 64 KB file again on the event loop every table shares (10 to
25 ms a read at load 13: stop 55-safe's leftover).  Now a configuration keeps
what it read.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from web_harness import ServerThread, create_table

from rollem.games import gamefile
from rollem.server import config as config_mod
from rollem.server import routes_tables
from rollem.server.config import file_game, parse_config
from rollem.tournament import schedule as schedule_mod

HOLDEM = (Path(routes_tables.__file__).parent.parent / "games" / "files" / "holdem.toml"
          ).read_text()
MINE = HOLDEM.replace('id = "holdem"', 'id = "my-holdem"')
SCHEDULE = """stack = 150
[[levels]]
ante = 1
small_bet = 2
big_bet = 4
[[levels]]
ante = 2
small_bet = 4
big_bet = 8
"""


def _count(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[str]:
    calls: list[str] = []
    real = getattr(module, name)

    def counting(text: str, *args: object, **kwargs: object) -> object:
        calls.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def test_a_tables_game_file_is_not_read_again_after_64_other_files(
        server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    tid, _ = create_table(server.url, game="my-holdem", game_file=MINE, seats=2, bots=1)
    table = server.manager.get(tid)
    assert table.config.own_game() is not None
    for n in range(70):  # other tables' files, pushing this one out of the shared cache
        file_game(MINE.replace('id = "my-holdem"', f'id = "other-{n}"'), strict=False)
    reads = _count(monkeypatch, gamefile, "load_game")
    assert table.config.own_game().id == "my-holdem"
    assert table.config.game_ids()[-1] == "my-holdem"
    assert table.config.public_dict()["game_file"] == "my-holdem"
    r = httpx.get(f"{server.url}/api/tables/{tid}/rules")
    assert r.status_code == 200
    assert reads == []  # main: read again (the text had left the shared cache)
    assert "_read" not in table.config.to_dict()


def test_a_custom_schedule_is_not_read_again_after_64_other_schedules(
        monkeypatch: pytest.MonkeyPatch) -> None:
    config = parse_config({"tournament": "custom", "tournament_schedule": SCHEDULE,
                           "game": "sdr"})
    assert config.schedule() is not None
    for n in range(70):
        config_mod._custom_schedule(SCHEDULE.replace("stack = 150", f"stack = {200 + n}"))
    reads = _count(monkeypatch, schedule_mod, "load_schedule")
    monkeypatch.setattr("rollem.tournament.load_schedule", schedule_mod.load_schedule)
    for _ in range(3):
        assert config.schedule().stack == 150  # type: ignore[union-attr]
    assert reads == []  # main: read again at each ask


def test_a_new_configuration_reads_its_own_text_and_keeps_no_old_one() -> None:
    first = parse_config({"tournament": "custom", "tournament_schedule": SCHEDULE,
                          "game": "sdr"})
    other = SCHEDULE.replace("stack = 150", "stack = 300")
    second = parse_config({**first.to_dict(), "tournament_schedule": other})
    assert first.schedule().stack == 150  # type: ignore[union-attr]
    assert second.schedule().stack == 300  # type: ignore[union-attr]
    assert "_read" not in config_mod.CREATE_FIELDS
