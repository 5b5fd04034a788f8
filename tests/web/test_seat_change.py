"""Stop 59 (s59-seat): a friends' night's staples and faults, at the server.

- the creator's seat is stored with the table (``session["creator_digest"]``): the
  settle-up names them as the house after a restart, before any page connects.
"""

from __future__ import annotations

from pathlib import Path

import httpx
from web_harness import ServerThread, create_table

from rollem.server.app import host_cookie, seat_cookie


def join_as_host(base: str, tid: str, host: str, name: str) -> tuple[int, str]:
    """Sit ``name`` from the creator's browser (the host cookie sent)."""
    r = httpx.post(f"{base}/api/tables/{tid}/join", json={"name": name},
                   cookies={host_cookie(tid): host})
    assert r.status_code == 200, r.text
    return r.json()["seat"], r.cookies[seat_cookie(tid)]


def test_the_creators_seat_is_stored_so_a_restart_still_names_the_house(
        tmp_path: Path) -> None:
    db = tmp_path / "house.db"
    srv = ServerThread(db)
    try:
        tid, host = create_table(srv.url, game="sdr", seats=4, bots=1, bot_delay=0.0)
        join_as_host(srv.url, tid, host, "Ann")
        house = httpx.get(f"{srv.url}/api/tables/{tid}").json()["settle"]["house"]
        assert (house["by"], house["host"]) == ("Ann", True)  # (no page open)
    finally:
        srv.stop()
    again = ServerThread(db)
    try:
        settle = httpx.get(f"{again.url}/api/tables/{tid}").json()["settle"]
        assert (settle["house"]["by"], settle["house"]["host"]) == ("Ann", True)
        assert again.manager.get(tid).session["creator_digest"]
    finally:
        again.stop()
