"""What new users and a hostile stranger found at the web table (try-out of
stop 42, docs/dev/hostile.md): each test fails on the code before its fix."""

from __future__ import annotations

import httpx
from web_harness import ServerThread, create_table, host_cookie


def _ask(server: ServerThread, tid: str, address: str, name: str) -> httpx.Response:
    """One stranger's first ask to watch (no cookie yet), from ``address`` (through
    the trusted local proxy's ``X-Forwarded-For``)."""
    return httpx.post(f"{server.url}/api/tables/{tid}/watch", json={"name": name},
                      headers={"X-Forwarded-For": address})


def test_watch_requests_of_one_name_are_told_apart(server: ServerThread) -> None:
    """Two strangers asking to watch as "Dad", or one asking as Ann who sits at the
    table, were listed to the host under the very names: the host could not tell
    them apart, and might let in a stranger for Ann's second device.  Now a
    request's name is made distinct from every name known there (seated and
    departed players, requests waiting, approved watchers), as a newcomer's seat
    name is."""
    tid, host = create_table(server.url, game="sdr", seats=4, bots=1, private=True)
    sat = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "Ann"},
                     cookies={host_cookie(tid): host})
    assert sat.status_code == 200, sat.text
    for i, name in enumerate(["Dad", "Dad", "DAD", "ann", "Dad 2"]):
        answer = _ask(server, tid, f"10.{i}.0.1", name)
        assert answer.json() == {"watch": "waiting"}, answer.text
        assert "Ann" not in answer.text
    table = server.manager.get(tid)
    names = [r["name"] for r in table.session["watch_requests"]]
    assert names == ["Dad", "Dad 2", "DAD 3", "ann 2", "Dad 2 2"]
