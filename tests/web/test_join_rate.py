"""Attempts to get in have a rate per address of their own (s60-safe).

A refused join changes nothing, so it could be sent again at once: at an open
table (no password, not private) nothing but the HTTP connection bounded how
often one address asked, and each judged its name against the table's (up to
3 ms of the event loop a long emoji name) and looked the table up (a read of
the store for a table not loaded).  Now every ``POST .../join`` and ``POST
.../watch`` of an address, at all tables together, spends one of its
``joins_per_minute`` (bursts of ``join_burst``); past them HTTP 429
``rate_limited`` with ``Retry-After`` and a JSON body saying what and when,
before the table is looked up or the body read.  Another address is not
touched; a private table's own count per address and table stays.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from web_harness import UNLIMITED, ServerThread

from rollem.server.config import ConfigError, ServerSettings

MALLORY = "203.0.113.9"
HONEST = "198.51.100.7"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(tmp_path / "j.db", replace(
        UNLIMITED, joins_per_minute=30.0, join_burst=5, forwarded_allow_ips="127.0.0.1"))
    try:
        yield srv
    finally:
        srv.stop()


def _table(base: str, **more: object) -> str:
    r = httpx.post(base + "/api/tables", json={"game": "holdem", "bots": 0, "seats": 6,
                                               **more},
                   headers={"X-Forwarded-For": HONEST})
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def _post(base: str, path: str, body: object, address: str) -> httpx.Response:
    return httpx.post(base + path, json=body, headers={"X-Forwarded-For": address})


def test_refused_joins_past_the_burst_are_429_with_when_to_try_again(
        server: ServerThread) -> None:
    base = server.url
    tid = _table(base)
    # a name refused every time (a role word): nothing changes, so it could be repeated
    codes = [_post(base, f"/api/tables/{tid}/join", {"name": "the house"}, MALLORY)
             for _ in range(8)]
    assert [r.json()["error"] for r in codes] == ["bad_name"] * 5 + ["rate_limited"] * 3
    last = codes[-1]
    assert last.status_code == 429
    body = last.json()
    # 30 a minute: one more in 2 s, told in whole seconds, in the header and the body
    assert last.headers["Retry-After"] == "2" and body["retry_after"] == 2
    assert body["message"] == (
        "too many attempts to sit down or watch from your address (at most 5 at once, "
        "then 30 a minute, all tables together); try again in 2 s")
    # the body is not read, nor the table looked up: a malformed body or no such table
    # is answered the same
    assert httpx.post(f"{base}/api/tables/{tid}/join", content=b"{not json",
                      headers={"X-Forwarded-For": MALLORY}).json()["error"] == "rate_limited"
    assert _post(base, "/api/tables/nosuchtable/join", {"name": "x"},
                 MALLORY).json()["error"] == "rate_limited"
    # watching counts in the same bucket, at any table
    other = _table(base, private=True)
    assert _post(base, f"/api/tables/{other}/watch", {"name": "Mal"},
                 MALLORY).json()["error"] == "rate_limited"
    # another address is not touched: it sits down
    ok = _post(base, f"/api/tables/{tid}/join", {"name": "Ann"}, HONEST)
    assert ok.status_code == 200, ok.text
    # after the wait one more attempt is taken (and refused for its name again)
    time.sleep(2.05)
    again = _post(base, f"/api/tables/{tid}/join", {"name": "the house"}, MALLORY)
    assert again.json()["error"] == "bad_name"
    assert _post(base, f"/api/tables/{tid}/join", {"name": "the house"},
                 MALLORY).json()["error"] == "rate_limited"


def test_a_households_sit_downs_fit_in_the_default_burst(tmp_path: Path) -> None:
    """The real defaults: 20 at once (ten people behind one address, each
    trying twice), then 30 a minute."""
    defaults = ServerSettings()
    assert (defaults.joins_per_minute, defaults.join_burst) == (30.0, 20)
    srv = ServerThread(tmp_path / "d.db", replace(
        UNLIMITED, joins_per_minute=defaults.joins_per_minute,
        join_burst=defaults.join_burst))
    try:
        base = srv.url
        tid = _table(base, seats=10)
        seated = 0
        for i in range(10):  # each first refused (a role word), then seated
            assert _post(base, f"/api/tables/{tid}/join", {"name": "the house"},
                         MALLORY).json()["error"] == "bad_name"
            r = _post(base, f"/api/tables/{tid}/join", {"name": f"P{i}"}, MALLORY)
            seated += r.status_code == 200
        assert seated == 10
        assert _post(base, f"/api/tables/{tid}/join", {"name": "Late"},
                     MALLORY).json()["error"] == "rate_limited"
    finally:
        srv.stop()


@pytest.mark.parametrize("name,value", [("joins_per_minute", 0), ("join_burst", 0)])
def test_the_settings_are_checked(name: str, value: float) -> None:
    with pytest.raises(ConfigError, match=name):
        ServerSettings(**{name: value}).check()  # type: ignore[arg-type]
