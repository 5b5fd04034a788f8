"""No player sits down named like the ledger's line of earlier players (stop 52).

Past ``seats.DEPARTED_KEPT`` people who left, the ledger sums the oldest into one
line named "N earlier players"; the settle-up adds the ledger's nets by name, so a
player seated as "5 earlier players" would be summed with that line once it grew to
5 (their win paid to, or their loss taken from, the people who left).  Such a name,
any number, as read or as looks, is refused with ``bad_name`` and changes nothing."""

from __future__ import annotations

import httpx
import pytest
from web_harness import ServerThread, create_table


@pytest.mark.parametrize("name", [
    "5 earlier players", "1 earlier player", "  70   Earlier PLAYERS ",
    "\uff15 earlier players",          # fullwidth 5: reads as "5 earlier players"
    "1O earIier pIayers",              # capital O and I: looks like "10 earlier players"
])
def test_a_name_like_the_summed_ledger_line_is_refused(live: ServerThread, name: str) -> None:
    tid, _host = create_table(live.url, game="holdem", seats=3, bots=1)
    before = live.manager.get(tid).state(None)["table"]["seats"]
    r = httpx.post(f"{live.url}/api/tables/{tid}/join", json={"name": name})
    assert r.status_code == 400, r.text   # (main: 200, seated)
    body = r.json()
    assert body["error"] == "bad_name"
    said = " ".join(name.split())
    assert body["message"] == (
        f"{said!r} is how the ledger names its one line summing the players who left long "
        "ago (a number, then 'earlier players'); choose another name")
    assert live.manager.get(tid).state(None)["table"]["seats"] == before


@pytest.mark.parametrize("name", ["Earlier", "5 earlier", "earlier players",
                                  "Players 5", "5 earlier players club"])
def test_names_near_it_sit_down(live: ServerThread, name: str) -> None:
    tid, _host = create_table(live.url, game="holdem", seats=3, bots=1)
    r = httpx.post(f"{live.url}/api/tables/{tid}/join", json={"name": name})
    assert r.status_code == 200, r.text
    seat = r.json()["seat"]
    assert live.manager.get(tid).seats[seat].row.name == name
