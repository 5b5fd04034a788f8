"""The hand routes of the web table's check (docs/verify.md), met by a hostile
cryptographer's review (s73-verify): each test fails on the code before its fix."""

from __future__ import annotations

import httpx
from web_harness import ServerThread, create_table


def test_a_hand_number_of_superscript_digits_is_refused_not_an_internal_error(
        server: ServerThread) -> None:
    """``/hands/²/verify``: ``²`` is a digit to ``str.isdigit`` but not to
    ``int``, and each of the hand routes answered 500 on main (a ValueError in
    the hand number's check).  Now it is refused like ``abc``: 400 ``malformed``
    naming what is needed.  Arabic-Indic ``٣`` (which ``int`` reads as 3) is
    refused too: one way to write a hand's number."""
    tid, _host = create_table(server.url, game="holdem", seats=2, bots=1)
    base = f"{server.url}/api/tables/{tid}/hands"
    for number in ("%C2%B2", "%D9%A3", "abc"):
        for tail in ("", "/verify", "/history.toml"):
            answer = httpx.get(f"{base}/{number}{tail}")
            assert (answer.status_code, answer.json()["error"]) == (400, "malformed"), (
                number, tail, answer.text)
            assert answer.json()["message"] == "a hand number (1 or more) is needed"
