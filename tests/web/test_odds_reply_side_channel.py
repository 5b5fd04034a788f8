"""A practice-odds reply tells a passive observer nothing of the asker's cards
by its length or by when it leaves (stop 56).

TLS hides content, not length or time.  The odds' numbers, the hand
categories they list and the advice's notes follow the asker's hidden cards,
so the reply's length did (hold'em at 4 players, random play: 390 to 454
bytes; Roll Your Own's discard advice 2,934 to 3,434); and the sampling stops
sooner far from an even chance (some spots are counted exactly), so the time
from the request to the reply did too.  Every reply is now padded to a length
that follows public things only (:func:`rollem.server.own_pad.pad_odds`) and
leaves at a whole number of ``LiveTable.ODDS_ANSWER_GRID`` after its request.

Here the odds worker is replaced by one answering on the virtual clock of
``test_table_bots`` after a chosen time with a chosen answer.
"""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Callable
from typing import Any

import pytest
from test_table_bots import virtual_server
from virtual_table import VirtualLoop

from rollem.server import live_table
from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable
from rollem.server.protocol import ClientMessage

SHORT = {"game": "holdem", "win": 0.5, "tie": 0.0, "lose": 0.5, "equity": 0.5,
         "method": "exact", "interval": 0.0, "text": "Your odds: equity 50%"}
LONG = {"game": "holdem", "win": 0.41013824884792627, "tie": 0.03489137590520079,
        "lose": 0.5549703752468731, "equity": 0.42681588764538075, "method": "monte-carlo",
        "samples": 1519, "stderr": 0.01245200685554255, "interval": 0.024960277981801216,
        "categories": {"straight": 0.005, "three of a kind": 0.19, "one pair": 0.74},
        "text": "Your odds: equity 43% (expected share of the pot) · whole pot 41% · "
                "a share 3% · nothing 56% · each ± 2.5 points (95% interval, Monte Carlo)"}


class TimedOdds(concurrent.futures.Executor):
    """An odds thread answering each request, in turn, with ``(seconds, answer)``."""

    def __init__(self, loop: VirtualLoop, answers: list[tuple[float, dict[str, Any]]]) -> None:
        self.loop, self.answers = loop, list(answers)

    def submit_for(self, key: object, fn: Callable[..., Any], /, *args: Any,
                   **kwargs: Any) -> concurrent.futures.Future[Any]:
        fut: concurrent.futures.Future[Any] = concurrent.futures.Future()
        fut.set_running_or_notify_cancel()
        after, answer = self.answers.pop(0)
        self.loop.call_later(after, fut.set_result, answer)
        return fut


def _replies(answers: list[tuple[float, dict[str, Any]]]) -> list[tuple[float, int, Any]]:
    """Ann asks for her odds once per answer (each after the last reply), at a
    practice hold'em table: each reply as (seconds from her request, its length in
    bytes, its ``odds``)."""
    with virtual_server() as (loop, store):
        saved = live_table._ODDS_THREAD
        live_table._ODDS_THREAD = TimedOdds(loop, answers)  # type: ignore[assignment]
        try:
            config = parse_config({"game": "holdem", "seats": 2, "bots": 0, "stack": 200,
                                   "practice_odds": True, "decision_seconds": 600.0,
                                   "time_bank_seconds": 0.0, "grace_seconds": 1000.0})
            table, _ = loop.call(LiveTable.create, store, config)
            host = Client(None, True)
            loop.call(table.connect, host)
            people = []
            for seat, name in enumerate(("Ann", "Bob")):
                _, token = loop.call(table.join, name, seat)
                client = Client(table.seat_for_token(token))
                loop.call(table.connect, client)
                people.append(client)
            loop.call(table.handle, host, ClientMessage("start", None, table.seq, {}))
            ann = people[0]
            while table.hand is None:
                loop.advance(0.1)
            replies: list[tuple[float, int, Any]] = []
            sent: list[tuple[float, str]] = []
            send = ann.send
            ann.send = lambda text: (sent.append((loop.time(), text)), send(text))[1]  # type: ignore[method-assign]
            for _ in answers:
                asked = loop.time()
                loop.call(table.handle, ann, ClientMessage(
                    "odds", table.hand.hand_no, table.seq, {}))
                while not any(json.loads(t).get("type") == "odds" for _, t in sent):
                    assert loop.time() < asked + 30, "no odds reply"
                    loop.advance(0.01)
                at, text = next((at, t) for at, t in sent if json.loads(t).get("type") == "odds")
                replies.append((round(at - asked, 6), len(text.encode()),
                                json.loads(text)["odds"]))
                sent.clear()
                loop.advance(0.37)
            loop.call(table.shutdown)
        finally:
            live_table._ODDS_THREAD = saved  # type: ignore[assignment]
        return replies


def test_odds_replies_leave_on_the_grid_at_one_length_whatever_they_hold() -> None:
    replies = _replies([(0.02, SHORT), (0.9, LONG), (0.4, LONG), (1.49, SHORT), (1.6, SHORT)])
    assert [odds for _, _, odds in replies] == [SHORT, LONG, LONG, SHORT, SHORT]
    # main: 0.02, 0.9, 0.4, 1.49 and 1.6 s after the request; lengths 170 and 476
    assert [at for at, _, _ in replies] == [1.5, 1.5, 1.5, 1.5, 3.0]
    assert [length for _, length, _ in replies] == [2048] * 5  # (own_pad.ODDS_PLAIN)


def test_the_odds_pad_keeps_the_json_and_follows_only_public_things() -> None:
    from rollem.server.own_pad import ODDS_CHOICE, ODDS_PLAIN, odds_length, pad_odds

    text = json.dumps({"type": "odds", "odds": LONG}, ensure_ascii=False)
    for choice, length in ((False, ODDS_PLAIN), (True, ODDS_CHOICE)):
        padded = pad_odds(text, choice)
        assert len(padded.encode()) == length and json.loads(padded) == json.loads(text)
    assert odds_length(ODDS_PLAIN + 1, False) == 2 * ODDS_PLAIN  # (never seen: doubled)
    assert odds_length(ODDS_CHOICE, True) == ODDS_CHOICE
    with pytest.raises(ValueError, match="ending in"):
        pad_odds("[1]", False)
