"""s63-table2: the time bank a button spends naming the game of a dealer's choice
(R-C-15, stop 57: "what you use of it is spent for the session"), on a virtual clock."""

from __future__ import annotations

import pytest
from test_dealers_choice_seats import send
from test_table_bots import virtual_server
from virtual_table import VirtualLoop

from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable
from rollem.server.store import Store


def _choosing(loop: VirtualLoop, store: Store) -> tuple[LiveTable, dict[int, Client]]:
    """A started dealer's-choice table of three people (a 30 s clock, a 60 s bank),
    its button naming the game; the table and the people's clients."""
    config = parse_config({
        "game": "dealers-choice", "seats": 3, "bots": 0, "stack": 400, "ante": 1,
        "small_bet": 2, "big_bet": 4, "decision_seconds": 30.0,
        "time_bank_seconds": 60.0, "grace_seconds": 1000.0, "between_hands": 0.5,
    })
    table, _ = loop.call(LiveTable.create, store, config)
    host = Client(None, True)
    loop.call(table.connect, host)
    people = {}
    for seat in range(3):
        _, token = loop.call(table.join, f"P{seat}", seat)
        people[seat] = Client(table.seat_for_token(token))
        loop.call(table.connect, people[seat])
    send(loop, table, host, "start")
    loop.advance(0.1)
    assert table.session["choice"] is not None
    return table, people


def test_naming_the_game_in_the_bank_spends_what_it_used() -> None:
    """The button's clock is 30 s and its bank 60 s: named at 50 s, 20 s of the bank
    are spent and stored (before, the bank stood full: a player could take 89 s at
    every choice, as a hand's action never could)."""
    with virtual_server() as (loop, store):
        table, people = _choosing(loop, store)
        choice = table.session["choice"]
        chooser = int(choice["seat"])
        loop.advance(50.0)
        assert table.session["choice"] is not None  # (in the bank)
        send(loop, table, people[chooser], "choose_game", hand=int(choice["hand"]),
             game=choice["games"][0])
        loop.advance(0.1)
        assert table.session["choice"] is None
        assert table.seats[chooser].row.bank == pytest.approx(40.0, abs=0.2)
        stored = {r.seat: r.bank for r in store.load_seats(table.id)}
        assert stored[chooser] == table.seats[chooser].row.bank
        loop.call(table.shutdown)


def test_the_clocks_pick_spends_the_bank_and_stores_it() -> None:
    """Nobody names the game: at 90 s the clock picks and the bank is spent, stored at
    once (before, only the hand's end wrote it: a restart in that hand gave the
    button its 60 s back)."""
    with virtual_server() as (loop, store):
        table, _people = _choosing(loop, store)
        chooser = int(table.session["choice"]["seat"])
        loop.advance(89.0)
        assert table.session["choice"] is not None
        loop.advance(1.5)
        assert table.session["choice"] is None and table.seats[chooser].row.bank == 0.0
        stored = {r.seat: r.bank for r in store.load_seats(table.id)}
        assert stored[chooser] == 0.0
        loop.call(table.shutdown)
