"""The web table's JSON routes refuse a field they do not take (try-out of stop
41): ``POST /api/tables {"game": "sdr", "privte": true}`` created a *public*
table (the typo was ignored), and ``join`` and ``watch`` ignored stray fields
too.  Now each answers 400 ``unknown_field`` naming the field (and the one it
likely misspells) and the fields allowed, and nothing is created; the lobby's
own payload, read from its form, is still taken.  The tests that refuse a field
fail on the code before the fix; the lobby's are guards (a new form field must
be a field the server takes)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from rollem.bots.basic import BasicBot
from rollem.bots.random_bot import RandomBot
from rollem.server.app import create_app, host_cookie
from rollem.server.config import CREATE_FIELDS, HOUSE_OPTIONS
from rollem.server.routes_tables import JOIN_FIELDS, WATCH_FIELDS

INDEX = Path(__file__).parents[2] / "src" / "rollem" / "server" / "static" / "index.html"


@pytest.fixture
def http(tmp_path: Path) -> Any:
    with TestClient(create_app(tmp_path / "strict.db")) as client:
        yield client


def _tables(http: Any) -> int:
    return int(http.app.state.manager.store_count())


@pytest.mark.parametrize(("typo", "meant"), [("privte", "private"),
                                             ("watcher_dealy", "watcher_delay"),
                                             ("practise_odds", "practice_odds")])
def test_a_mistyped_create_field_is_refused_and_no_table_is_made(http: Any, typo: str,
                                                                 meant: str) -> None:
    r = http.post("/api/tables", json={"game": "sdr", typo: True})
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["error"] == "unknown_field"
    assert f"unknown field {typo!r} (did you mean {meant!r}?)" in body["message"]
    assert body["message"].endswith("allowed: " + ", ".join(CREATE_FIELDS))
    assert _tables(http) == 0
    assert not any(name.startswith("rollem_host_") for name in r.cookies)
    # spelt right, the same request makes the table asked for
    r = http.post("/api/tables", json={"game": "sdr", meant: True})
    assert r.status_code == 200, r.text
    assert getattr(http.app.state.manager.get(r.json()["id"]).config, meant) is True


def test_a_field_of_no_table_is_named_without_a_guess(http: Any) -> None:
    r = http.post("/api/tables", json={"game": "sdr", "colour": "green", "zzz": 1})
    assert r.status_code == 400
    assert r.json()["message"].startswith(
        "a table's configuration: unknown field 'colour'; allowed: addon_chips, addon_price, "
        "ante, away_after, ")
    assert _tables(http) == 0


@pytest.mark.parametrize(("field", "where"), [
    ("house.burn_before_roll", '{"house": {"burn_before_roll": true}}'),
    ("choice.holdem", '{"choices": ["holdem"]}'),
])
def test_a_form_input_name_says_where_its_value_goes(http: Any, field: str,
                                                     where: str) -> None:
    """The form's dotted names (``house.*``, ``choice.*``) are folded into the
    ``house`` object and the ``choices`` list before sending; sent as they are,
    the refusal says so."""
    r = http.post("/api/tables", json={"game": "dealers-choice", field: True})
    assert r.status_code == 400
    assert r.json()["error"] == "unknown_field"
    assert f"unknown field {field!r}" in r.json()["message"]
    assert where in r.json()["message"]
    assert _tables(http) == 0


def test_the_families_keys_are_checked_too(http: Any) -> None:
    """``house`` takes only house options (with a guess at a typo), ``choices``
    only game ids; either refused makes no table."""
    r = http.post("/api/tables", json={"game": "sdr", "house": {"cap_heads_upp": False}})
    assert r.status_code == 400
    assert r.json()["error"] == "bad_config"
    assert ("unknown house option 'cap_heads_upp' (did you mean 'cap_heads_up'?); allowed: "
            in r.json()["message"])
    r = http.post("/api/tables", json={"game": "dealers-choice", "choices": ["sdr", "hodlem"]})
    assert r.status_code == 400
    assert "choices: unknown game 'hodlem'" in r.json()["message"]
    assert _tables(http) == 0


class _Form(HTMLParser):
    """The named controls of the lobby's ``form#create``: (tag, attributes, the
    selected or first option's value for a select)."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[tuple[str, dict[str, str | None], str | None]] = []
        self._in_form = False
        self._select: list[Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and a.get("id") == "create":
            self._in_form = True
        elif self._in_form and tag in ("input", "select", "textarea") and a.get("name"):
            self.controls.append((tag, a, None))
            if tag == "select":
                self._select = [len(self.controls) - 1, None]
        elif tag == "option" and self._select is not None:
            index, value = self._select
            if value is None or "selected" in a:
                self._select[1] = a.get("value")
                tag_, attrs_, _ = self.controls[index]
                self.controls[index] = (tag_, attrs_, a.get("value"))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._in_form = False


def lobby_payload(**changes: Any) -> dict[str, Any]:
    """What the lobby sends (static/lobby.js, ``submit``) for its form as served,
    with ``changes`` (by input name, ``house.*`` and ``choice.*`` too) set first:
    ``choice.*`` boxes fold into ``choices``, ``house.*`` into ``house``, a file
    input is sent only when a file is chosen, ``payouts`` as a list of numbers,
    numbers as numbers, boxes as true/false; ``choice.<id>`` of a game the page
    adds from ``/api/info`` (not in its HTML) is a box ticked after its own."""
    form = _Form()
    form.feed(INDEX.read_text())
    assert form.controls, "the lobby's form#create has no named controls"
    data: dict[str, Any] = {"house": {}, "choices": []}
    for tag, attrs, selected in form.controls:
        name = str(attrs["name"])
        kind = attrs.get("type") or ("select" if tag == "select" else "text")
        value: Any
        if kind == "checkbox":
            value = changes.get(name, "checked" in attrs)
        elif kind == "file":
            if name in changes:
                data[name] = changes[name]
            continue
        else:
            value = changes.get(name, selected if tag == "select" else attrs.get("value", ""))
        if name.startswith("choice."):
            if value:
                data["choices"].append(name[len("choice."):])
            continue
        if name == "payouts":
            text = str(value).strip()
            data["payouts"] = [] if text == "" else [int(p) for p in text.split("/")]
            continue
        if kind == "number":
            value = float(value) if "." in str(value) else int(value)
        if name.startswith("house."):
            data["house"][name[len("house."):]] = value
        else:
            data[name] = value
    # the boxes of the other shipped games, added from /api/info, after the page's own
    for name, value in changes.items():
        game = name.partition("choice.")[2]
        if game and value and game not in data["choices"]:
            data["choices"].append(game)
    return data


def test_the_lobbys_own_payload_is_taken(http: Any) -> None:
    """Every field the lobby's form sends is one the server takes, the house
    options are house options, and a cash game and a tournament from the form
    (with every box ticked) are created as asked."""
    plain = lobby_payload()
    assert set(plain) <= set(CREATE_FIELDS), set(plain) - set(CREATE_FIELDS)
    assert set(plain["house"]) <= set(HOUSE_OPTIONS)
    for key in ("private", "watcher_delay", "practice_odds", "buy_in", "payouts", "rotate",
                "tournament", "game", "bot_delay", "between_hands", "grace_seconds"):
        assert key in plain, f"the lobby no longer sends {key!r}: is the form read right?"
    r = http.post("/api/tables", json=plain)
    assert r.status_code == 200, r.text
    everything = lobby_payload(**{
        "private": True, "watcher_delay": True, "practice_odds": True, "rebuys": False,
        "house.burn_before_roll": True, "house.wild_duplicates": True,
        "house.natural_beats_wild": True, "house.bet_after_declare": True,
        "house.failed_both_rule": "split", "tournament": "turbo", "payouts": "65/35",
        "rotate": "orbit", "buy_in": "20", "rebuy_levels": "2", "seats": "4", "bots": "2",
        "choice.holdem": True})
    r = http.post("/api/tables", json=everything)
    assert r.status_code == 200, r.text
    config = http.app.state.manager.get(r.json()["id"]).config
    assert (config.private, config.watcher_delay, config.tournament, config.rotate,
            config.payouts, config.buy_in) == (True, True, "turbo", "orbit", [65, 35], 20)
    assert config.house["failed_both_rule"] == "split"
    assert config.choices == ["sdr", "rollyourown", "rollem521", "holdem"]


def test_a_table_made_without_a_bot_level_has_basic_computer_players(http: Any) -> None:
    """``POST /api/tables`` without ``bot_level`` makes computer players of level
    ``basic``, the level the lobby's form selects and ``rollem play --bots`` deals
    (docs/hosting.md; it was ``random``): the table's setting, the seats' names and
    the players themselves.  A level asked for is kept."""
    assert lobby_payload()["bot_level"] == "basic"
    r = http.post("/api/tables", json={"game": "sdr", "seats": 3, "bots": 2,
                                       "between_hands": 600})
    assert r.status_code == 200, r.text
    table = http.app.state.manager.get(r.json()["id"])
    assert table.config.bot_level == "basic"
    seated = {n: (s.row.name, s.row.bot) for n, s in table.seating.seats.items()}
    assert seated == {1: ("Bot 1 (basic)", "basic"), 2: ("Bot 2 (basic)", "basic")}
    assert {type(table.seating.computer_player(n)) for n in (1, 2)} == {BasicBot}
    r = http.post("/api/tables", json={"game": "sdr", "seats": 2, "bots": 1,
                                       "bot_level": "random", "between_hands": 600})
    table = http.app.state.manager.get(r.json()["id"])
    assert table.config.bot_level == "random"
    assert isinstance(table.seating.computer_player(1), RandomBot)


def _table(http: Any, **config: Any) -> tuple[str, str]:
    r = http.post("/api/tables", json={"game": "sdr", "seats": 4, "bots": 0,
                                       "between_hands": 600, **config})
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    token = r.cookies[host_cookie(tid)]
    http.cookies.clear()
    return tid, token


def test_join_refuses_a_stray_field_and_seats_nobody(http: Any) -> None:
    tid, _ = _table(http)
    r = http.post(f"/api/tables/{tid}/join", json={"name": "Ann", "sead": 2})
    assert r.status_code == 400
    assert r.json() == {"error": "unknown_field", "message": (
        "joining a table: unknown field 'sead' (did you mean 'seat'?); allowed: "
        + ", ".join(JOIN_FIELDS))}
    assert http.app.state.manager.get(tid).seats == {}
    # what the table page sends: its join form, and the locked page's (seat null)
    assert http.post(f"/api/tables/{tid}/join", json={"name": "Ann", "seat": 2}).status_code \
        == 200
    http.cookies.clear()
    r = http.post(f"/api/tables/{tid}/join", json={"name": "Bea", "seat": None,
                                                   "password": "unused"})
    assert r.status_code == 200, r.text
    assert sorted(http.app.state.manager.get(tid).seats) == [0, 2]


def test_watch_refuses_a_stray_field_and_asks_nothing(http: Any) -> None:
    tid, _ = _table(http, private=True)
    r = http.post(f"/api/tables/{tid}/watch", json={"name": "Wat", "pasword": "x"})
    assert r.status_code == 400
    assert r.json()["error"] == "unknown_field"
    assert r.json()["message"] == ("asking to watch: unknown field 'pasword' (did you mean "
                                   "'password'?); allowed: " + ", ".join(WATCH_FIELDS))
    table = http.app.state.manager.get(tid)
    assert table.session.get("watch_requests", []) == []
    r = http.post(f"/api/tables/{tid}/watch", json={"name": "Wat"})
    assert r.status_code == 200 and r.json() == {"watch": "waiting"}
    # an open table's answer is "open", and a stray field is refused there too
    open_tid, _ = _table(http)
    assert http.post(f"/api/tables/{open_tid}/watch", json={"name": "Wat"}).json() == {
        "watch": "open"}
    assert http.post(f"/api/tables/{open_tid}/watch",
                     json={"nmae": "Wat"}).json()["error"] == "unknown_field"


def test_parse_config_refuses_a_new_tables_stray_field_but_reads_a_stored_one() -> None:
    """A new table's configuration (``strict``) refuses a field no table has; a
    stored one (``TableConfig.from_dict``) is read as it was accepted, a field of
    an older rollem ignored, so a table stored before still opens."""
    from rollem.server.config import TableConfig, UnknownFieldError, parse_config

    with pytest.raises(UnknownFieldError, match=r"unknown field 'privte' \(did you mean "
                       r"'private'\?\); allowed: addon_chips, addon_price, ante, "):
        parse_config({"game": "sdr", "privte": True})
    stored = {**TableConfig(game="sdr", private=True).to_dict(), "retired_setting": 3}
    assert TableConfig.from_dict(stored).private is True
