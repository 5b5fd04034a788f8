"""No player sits down named with the table's own words (stop 57, s57-names).

The page and the narration name a free seat "seat 3", write "(you)" after the
reader's own name, "(left)" after someone who left, tag the host's tile "host"
and the host's list "· away"; the tables' roles are the host, the dealer (button)
and, for a player who reads the page, the house and rollem itself.  A player
named "seat 3", "Ann (host)", "Ann (you)", "Dealer" or "Computer 2" would read
as those words, or as someone holding a role, to every other player.  Such a
name, in any case and as it looks (``H0st``, full-width letters), is refused
with ``bad_name`` naming what is wrong, and changes nothing; names that only
hold a role word among others (``Dealer Dan``) or start like one (``Hostetler``,
``Seaton``) sit down."""

from __future__ import annotations

import httpx
import pytest
from web_harness import ServerThread, create_table

ROLE = ("names a role at this table ({word!r}), not a person; choose your own name "
        "(one with a role word and more, such as 'Dealer Dan', is fine)")
SEAT = ("reads as the table's name for a seat ('seat' and its number, as in 'seat 3'); "
        "choose your own name")
TAG = ("holds {written!r}, which the page itself writes after players' names (such as "
       "'(you)', '(host)', '(left)' or '· away'); choose your own name without it")


@pytest.mark.parametrize(("name", "says"), [
    ("seat 3", SEAT),
    ("Seat 10", SEAT),
    ("SEAT\uff13", SEAT),                                   # full-width 3
    ("Seat 3 Ann", SEAT),
    ("Dealer", ROLE.format(word="dealer")),
    ("Dealer 2", ROLE.format(word="dealer")),
    ("host", ROLE.format(word="host")),
    ("the Host", ROLE.format(word="host")),
    ("H0ST", ROLE.format(word="host")),                     # a zero for the O
    ("\uff28\uff4f\uff53\uff54", ROLE.format(word="host")),  # full-width Host
    ("House", ROLE.format(word="house")),
    ("The House!", ROLE.format(word="house")),              # marks added (s59)
    ("the-house", ROLE.format(word="house")),
    ("Host?", ROLE.format(word="host")),
    ("rollem", ROLE.format(word="rollem")),
    ("Computer 2", ROLE.format(word="computer")),
    ("Dealer (host)", ROLE.format(word="dealer")),
    ("Ann (host)", TAG.format(written="(host)")),
    ("Ann (you)", TAG.format(written="(you)")),
    ("Ann(YOU)", TAG.format(written="(you)")),
    ("Ann (h0st)", TAG.format(written="(host)")),
    ("Bob (left)", TAG.format(written="(left)")),
    ("Cy (basic)", TAG.format(written="(basic)")),          # as a computer player's level
    ("Ann \u00b7 away", TAG.format(written="\u00b7 away")),
])
def test_a_name_in_the_tables_own_words_is_refused(
        live: ServerThread, name: str, says: str) -> None:
    tid, _host = create_table(live.url, game="holdem", seats=3, bots=1)
    before = live.manager.get(tid).state(None)["table"]["seats"]
    r = httpx.post(f"{live.url}/api/tables/{tid}/join", json={"name": name})
    assert r.status_code == 400, r.text   # (main: 200, seated)
    body = r.json()
    assert body["error"] == "bad_name"
    assert body["message"] == f"{' '.join(name.split())!r} {says}"
    assert live.manager.get(tid).state(None)["table"]["seats"] == before


@pytest.mark.parametrize("name", [
    "Dee", "Sean", "Hostetler", "Seaton", "Dealer Dan", "Housely", "Seat", "Host Hal",
    "Computer Bob", "Ann (Annie)", "Youssef", "Ann \u00b7 Bob", "Tablet", "the Rock",
    "Bob-Host", "Dee!",
])
def test_ordinary_names_near_them_sit_down(live: ServerThread, name: str) -> None:
    tid, _host = create_table(live.url, game="holdem", seats=3, bots=1)
    r = httpx.post(f"{live.url}/api/tables/{tid}/join", json={"name": name})
    assert r.status_code == 200, r.text
    assert live.manager.get(tid).seats[r.json()["seat"]].row.name == name


def test_a_watch_request_in_the_tables_words_is_refused(live: ServerThread) -> None:
    """Asking to watch a private table names the asker to the host ("Watching: ..."):
    the same names are refused there."""
    tid, _host = create_table(live.url, game="holdem", seats=3, bots=1, private=True)
    r = httpx.post(f"{live.url}/api/tables/{tid}/watch", json={"name": "Host"})
    assert r.status_code == 400, r.text   # (main: asked, as "Host")
    assert r.json()["error"] == "bad_name"
    assert r.json()["message"] == "'Host' " + ROLE.format(word="host")
    assert live.manager.get(tid).session.get("watch_requests", []) == []
