"""Dealer's choice while the seats change (R-C-12, R-C-15), on a virtual clock.

The button names the game with a long clock (600 s); each case checks what the
table does within a second of virtual time: a chooser removed by the host times
out at once (a game picked at random) and whoever sits there next inherits
nothing; a player who sits out while the button chooses is not dealt in; a
button who sits out during its own choice is not dealt in either (its choice
lapses to the random pick, the button moves on); a newcomer who sits down
meanwhile (also in the seat of one who left) waits for the next hand; the
host's pause holds the chosen hand until resume and stops the button's clock,
which goes on at resume with the time it had left.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_table_bots import virtual_server
from virtual_table import VirtualLoop

from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable
from rollem.server.protocol import ClientMessage
from rollem.server.store import Store

GAMES = {"sdr", "rollyourown", "rollem521"}


def choice_table(loop: VirtualLoop, store: Store,
                 seats: int = 3) -> tuple[LiveTable, Client, dict[int, Client]]:
    """A started dealer's-choice table of people (P0..P2 in seats 0-2; ``seats``
    seats in all, the others free), the button naming the game; returns the table,
    the host's client and the players' clients."""
    config = parse_config({
        "game": "dealers-choice", "seats": seats, "bots": 0, "stack": 400, "ante": 1,
        "small_bet": 2, "big_bet": 4, "decision_seconds": 600.0, "time_bank_seconds": 0.0,
        "grace_seconds": 1000.0, "between_hands": 0.5, "rebuys": True,
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
    assert table.hand is None and table.session["choice"] is not None
    return table, host, people


def send(loop: VirtualLoop, table: LiveTable, client: Client, kind: str,
         hand: int | None = None, **body: Any) -> None:
    loop.call(table.handle, client, ClientMessage(kind, hand, table.seq, body))


def play_out_hand(loop: VirtualLoop, table: LiveTable, people: dict[int, Client],
                  hand_no: int) -> None:
    """Hand ``hand_no`` played to its end: each player to act folds, or checks where
    folding is not offered (``people`` by seat)."""
    for _ in range(200):
        if table.hand is None or table.hand.hand_no != hand_no:
            return
        seat = table.hand.pending_seats()[0]
        send(loop, table, people[seat], "action", hand_no,
             action={"kind": "fold"} if "fold" in table.hand.view(seat)["legal"]["actions"]
             else {"kind": "check"})
    raise AssertionError(f"hand {hand_no} did not end in 200 actions")


def errors(client: Client) -> list[str]:
    """The error codes sent to ``client`` so far (read and cleared)."""
    texts = [json.loads(text) for text, _ in client._pending]
    client._pending.clear()
    return [m["code"] for m in texts if m["type"] == "error"]


def you(table: LiveTable, client: Client) -> dict[str, Any]:
    state: dict[str, Any] = table.state(client.seat)["you"]
    return state


def test_a_chooser_removed_by_the_host_times_out_at_once_and_leaves_nothing() -> None:
    with virtual_server() as (loop, store):
        table, host, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        hand_no = int(table.session["choice"]["hand"])
        assert you(table, people[chooser])["choose_game"]
        loop.call(table.disconnect, people[chooser])  # away: the host may remove them
        send(loop, table, host, "host", op="remove", seat=chooser)
        loop.advance(0.5)
        # Dealt at once (not 600 s later), without the removed seat; a game was
        # picked at random and the button moved on to the next seat dealt in.
        assert table.hand is not None and table.hand.hand_no == hand_no
        assert chooser not in table.hand.seats and len(table.hand.seats) == 2
        assert table.hand.game in GAMES
        assert table.session["button"] == (chooser + 1) % 3
        assert table.session["choice"] is None
        # A newcomer in that seat has no choice to make.
        _, token = loop.call(table.join, "Dan", chooser)
        dan = Client(table.seat_for_token(token))
        loop.call(table.connect, dan)
        assert dan.seat == chooser and not you(table, dan)["choose_game"]
        send(loop, table, dan, "choose_game", hand_no, game="rollem521")
        assert errors(dan) == ["not_your_turn"]


def test_a_later_occupant_of_the_choosers_seat_is_not_the_chooser() -> None:
    """The choice belongs to the player it was offered to, not to the seat number."""
    with virtual_server() as (loop, store):
        table, _, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        assert table.chooser() == chooser
        table.seats[chooser].row.token_digest = "someone else"  # (the seat changed hands)
        assert table.chooser() is None and not you(table, people[chooser])["choose_game"]
        send(loop, table, people[chooser], "choose_game", table.session["choice"]["hand"],
             game="sdr")
        assert errors(people[chooser]) == ["not_your_turn"]
        assert table.hand is None
        # The chooser's token digest is never shown to the table.
        assert "digest" not in table.table_public()["choice"]


def test_a_player_who_sits_out_while_the_button_chooses_is_not_dealt_in() -> None:
    with virtual_server() as (loop, store):
        table, _, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        hand_no = int(table.session["choice"]["hand"])
        other = (chooser + 1) % 3
        send(loop, table, people[other], "sit_out", out=True)
        assert table.hand is None and table.chooser() == chooser  # the choice stands
        send(loop, table, people[chooser], "choose_game", hand_no, game="sdr")
        assert errors(people[chooser]) == []
        assert table.hand is not None and table.hand.game == "sdr"
        assert sorted(table.hand.seats) == sorted({0, 1, 2} - {other})
        assert table.session["button"] == chooser
        assert other not in table.decision_seq


def sit(loop: VirtualLoop, table: LiveTable, name: str, seat: int) -> Client:
    """``name`` takes ``seat`` (and connects); returns their client."""
    _, token = loop.call(table.join, name, seat)
    client = Client(table.seat_for_token(token))
    loop.call(table.connect, client)
    assert client.seat == seat
    return client


def test_a_newcomer_while_the_button_chooses_waits_for_the_next_hand() -> None:
    """R-C-12: the button names the game among those that fit the players dealt
    in, so those players are the ones the choice was offered for; whoever sits
    down after that waits for the next hand, as one who sits down during a hand."""
    with virtual_server() as (loop, store):
        table, _, people = choice_table(loop, store, seats=4)
        chooser = int(table.session["choice"]["seat"])
        hand_no = int(table.session["choice"]["hand"])
        assert table.session["choice"]["players"] == [0, 1, 2]
        dan = sit(loop, table, "Dan", 3)
        assert table.hand is None and table.chooser() == chooser
        send(loop, table, people[chooser], "choose_game", hand_no, game="sdr")
        assert errors(people[chooser]) == []
        assert table.hand is not None and table.hand.hand_no == hand_no
        assert sorted(table.hand.seats) == [0, 1, 2]
        assert not table.views.dealt_in_hand(3, table.hand) and 3 not in table.decision_seq
        assert table.state(dan.seat)["hand"]["seat"] is None  # a watcher's view of it


def test_a_newcomer_in_a_seat_left_while_the_button_chooses_is_not_dealt_in() -> None:
    """The seats of the choice are the players it was offered for: a newcomer who
    takes the seat of one who left meanwhile waits for the next hand (R-C-12)."""
    with virtual_server() as (loop, store):
        table, host, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        hand_no = int(table.session["choice"]["hand"])
        other = (chooser + 1) % 3
        loop.call(table.disconnect, people[other])  # away: the host may remove them
        send(loop, table, host, "host", op="remove", seat=other)
        assert errors(host) == [] and other not in table.seats
        assert table.hand is None and table.chooser() == chooser  # the choice stands
        dan = sit(loop, table, "Dan", other)
        send(loop, table, people[chooser], "choose_game", hand_no, game="sdr")
        assert errors(people[chooser]) == []
        assert table.hand is not None and table.hand.hand_no == hand_no
        assert sorted(table.hand.seats) == sorted({0, 1, 2} - {other})
        assert not table.views.dealt_in_hand(other, table.hand) and other not in table.decision_seq
        assert table.state(dan.seat)["hand"]["seat"] is None
        # ... and is dealt into the next one.
        play_out_hand(loop, table, people, hand_no)
        loop.advance(1.0)
        if table.session["choice"] is not None:
            assert other in table.session["choice"]["players"]
        else:
            assert table.hand is not None and other in table.hand.seats


def test_a_button_who_sits_out_during_its_own_choice_is_not_dealt_in() -> None:
    with virtual_server() as (loop, store):
        table, _, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        hand_no = int(table.session["choice"]["hand"])
        send(loop, table, people[chooser], "sit_out", out=True)
        loop.advance(0.5)
        # Its choice lapsed at once to the random pick; the button moved on.
        assert table.hand is not None and table.hand.hand_no == hand_no
        assert table.hand.game in GAMES
        assert sorted(table.hand.seats) == sorted({0, 1, 2} - {chooser})
        assert table.session["button"] == (chooser + 1) % 3
        assert table.session["choice"] is None


def test_the_hosts_pause_holds_the_chosen_hand_until_resume() -> None:
    with virtual_server() as (loop, store):
        table, host, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        hand_no = int(table.session["choice"]["hand"])
        send(loop, table, host, "host", op="pause")
        send(loop, table, people[chooser], "choose_game", hand_no, game="rollem521")
        assert errors(people[chooser]) == []
        loop.advance(5.0)
        # Named, but nothing is dealt while paused; the choice is made (no clock).
        assert table.hand is None and table.session["host_paused"]
        assert table.table_public()["choice"]["game"] == "rollem521"
        assert table.chooser() is None and not table.decision_seq
        send(loop, table, people[chooser], "choose_game", hand_no, game="sdr")
        assert errors(people[chooser]) == ["not_your_turn"]
        send(loop, table, host, "host", op="resume")
        loop.advance(0.5)
        assert table.hand is not None and table.hand.hand_no == hand_no
        assert table.hand.game == "rollem521" and sorted(table.hand.seats) == [0, 1, 2]
        assert table.session["button"] == chooser and table.session["choice"] is None


def test_the_host_changes_the_choices_only_to_a_list_of_games_each_once() -> None:
    with virtual_server() as (loop, store):
        table, host, _ = choice_table(loop, store)
        before = list(table.config.choices)
        for bad, says in (([], "at least one game"), ("sdr", "must be a list"),
                          (["sdr", "rollem521", "sdr"], "'sdr' more than once")):
            send(loop, table, host, "host", op="config", config={"choices": bad})
            sent = [json.loads(text) for text, _ in host._pending]
            host._pending.clear()
            refused = [m for m in sent if m["type"] == "error"]
            assert [m["code"] for m in refused] == ["bad_config"], bad
            assert says in refused[0]["message"], refused[0]["message"]
            assert table.config.choices == before and "config_next" not in table.session
        send(loop, table, host, "host", op="config", config={"choices": ["sdr", "rollem521"]})
        assert errors(host) == []
        assert table.session["config_next"] == {"choices": ["sdr", "rollem521"]}


def test_a_rebuy_in_the_hand_is_told_the_chips_in_the_pot_count_until_it_ends() -> None:
    with virtual_server() as (loop, store):
        table, _, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        send(loop, table, people[chooser], "choose_game", table.session["choice"]["hand"],
             game="sdr")
        assert table.hand is not None
        errors(people[chooser])
        send(loop, table, people[chooser], "rebuy")
        sent = [json.loads(text) for text, _ in people[chooser]._pending]
        refused = [m for m in sent if m["type"] == "error"]
        assert [m["code"] for m in refused] == ["in_hand"]
        assert "chips in the pot count until it ends" in refused[0]["message"]
        assert table.seats[chooser].row.brought == 400  # nothing bought


def deadline(table: LiveTable, seat: int) -> float | None:
    """The end of ``seat``'s clock as every player is shown it (``None``: no clock)."""
    value: float | None = table.table_public()["seats"][seat]["deadline"]
    return value


def test_the_hosts_pause_stops_the_choice_clock_and_resume_gives_back_the_time_left() -> None:
    """R-C-15 on a 600 s clock: 100 s used before the pause, none during 1000 s of
    pause (no game is picked for the button), 500 s left at resume -- also when
    the server restarts during the pause."""
    with virtual_server() as (loop, store):
        table, host, _ = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        hand_no = int(table.session["choice"]["hand"])
        end = deadline(table, chooser)
        assert end is not None and loop.time() <= end - 600.0 + 1.0  # a 600 s clock
        loop.advance(100.0)
        used = loop.time() - (end - 600.0)  # 100 s and the moment before it
        send(loop, table, host, "host", op="pause")
        assert errors(host) == []
        assert deadline(table, chooser) is None and chooser not in table.decision_seq
        loop.advance(1000.0)  # past the 600 s clock: it stood still
        assert table.hand is None and table.chooser() == chooser
        assert "game" not in table.session["choice"]
        # A restart during the pause: still no clock, the time used is kept.
        table.shutdown()
        table = loop.call(LiveTable.restore, store, table.id)
        loop.call(table.resume)
        host.closed = False
        loop.call(table.connect, host)
        loop.advance(200.0)
        assert table.hand is None and table.chooser() == chooser
        assert deadline(table, chooser) is None
        send(loop, table, host, "host", op="resume")
        assert errors(host) == []
        assert deadline(table, chooser) == pytest.approx(loop.time() + 600.0 - used)
        loop.advance(600.0 - used - 1.0)
        assert table.hand is None and table.chooser() == chooser
        loop.advance(2.0)  # the time left ran out: a game picked at random, dealt
        assert table.hand is not None and table.hand.hand_no == hand_no
        assert table.hand.game in GAMES and table.session["choice"] is None
