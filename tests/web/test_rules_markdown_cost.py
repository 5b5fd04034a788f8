"""A host's game file's rules text costs the web table's event loop nothing to
show (stop 56).

markdown-it-py takes about 50 µs a character of some inputs (``[[[...``,
``![![...``, ``*_*_...``: 64 KB about 3 s at load 10), and ``/rules`` rendered
a game file's rules text on the event loop that serves every table: the first
ask of each table (and each ask once 128 other texts had pushed it out of the
cache) held every table for that long.  Now a new game file's ``rules`` has at
most 8,000 characters, and the text is rendered in a worker thread.
"""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
import pytest
from web_harness import ServerThread, create_table

from rollem.games.gamefile import GameFileError, load_game
from rollem.server import routes_tables

HOLDEM = (Path(routes_tables.__file__).parent.parent / "games" / "files" / "holdem.toml"
          ).read_text()


def _file(rules: str) -> str:
    start, end = HOLDEM.index('rules = """'), HOLDEM.index('"""', HOLDEM.index('rules = """') + 11)
    return (HOLDEM[:start] + f'rules = """{rules}"""' + HOLDEM[end + 3:]).replace(
        'id = "holdem"', 'id = "my-holdem"')


def test_a_game_files_rules_text_has_at_most_8000_characters() -> None:
    assert load_game(_file("[" * 8000)).rules == "[" * 8000
    with pytest.raises(GameFileError, match="rules: at most 8000 characters, not 64000"):
        load_game(_file("[" * 64_000))  # (main: taken; 3 s to render on the loop)


def test_the_rules_of_a_game_file_are_rendered_off_the_event_loop(
        server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = "Some [[[ rules ![ *_*_ of this game."
    tid, _ = create_table(server.url, game="my-holdem", game_file=_file(rules), seats=2,
                          bots=1)
    seen: list[str] = []
    render = routes_tables.render_markdown

    def recording(text: str, heading_offset: int = 0) -> str:
        if "this game" in text:
            seen.append(threading.current_thread().name)
        return render(text, heading_offset)

    monkeypatch.setattr(routes_tables, "render_markdown", recording)
    r = httpx.get(f"{server.url}/api/tables/{tid}/rules")
    assert r.status_code == 200
    assert r.json()["sections"][-1]["html"] == \
        "<p>Some [[[ rules ![ <em>_</em>_ of this game.</p>"
    # main: rendered in the server's event loop thread
    assert len(seen) == 1 and seen[0].startswith(("asyncio_", "uvloop_")), seen  # (to_thread)
