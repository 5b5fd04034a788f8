"""s61-table2: the rounds of an all-in run-out (GameSession.runout_stages), which the
live table shows one by one (rollem.server.live_table.runout): the hand after the
call and after each round of face-up cards, before the showdown; each view holds
only what was dealt face up by then; none for a hand that ends without cards to
come; the pause between them bounded (Pacing.runout_pause)."""

from __future__ import annotations

from typing import Any

import pytest

from rollem.server.config import parse_config
from rollem.server.game_session import GameSession
from rollem.server.pacing import RUNOUT_MOST, RUNOUT_STEP, Pacing


def _all_in(game: str, config: dict[str, Any], stacks: int, *, fold: bool = False) -> GameSession:
    conf = parse_config({"game": game, "seats": 3, "stack": stacks, **config})
    s = GameSession.new(1, game, conf, [0, 1, 2], dict.fromkeys(range(3), stacks), 0)
    while not s.over:
        seat = s.pending_seats()[0]
        legal = s.view(seat)["legal"]
        acts = legal["actions"]
        if fold and "fold" in acts:
            s.apply(seat, {"kind": "fold"})
        elif "raise" in acts:
            s.apply(seat, {"kind": "raise", "to": legal["max_to"]})
        elif "bet" in acts:
            s.apply(seat, {"kind": "bet", "amount": legal["max_to"]})
        elif "call" in acts:
            s.apply(seat, {"kind": "call"})
        else:
            s.apply(seat, {"kind": acts[0]})
    return s


def test_holdem_all_in_before_the_flop_runs_out_street_by_street() -> None:
    hand = _all_in("holdem", {"structure": "no-limit"}, 200)
    stages = hand.runout_stages()
    final = hand.view(None)
    assert [len(st.view(None)["board"]) for st in stages] == [0, 3, 4, 5]
    for st in stages:
        watcher = st.view(None)
        assert watcher["result"] is None and watcher["board"] == final["board"][:len(
            watcher["board"])]
        assert all(c is None for seat in watcher["seats"] for c in seat["cards"])
        for n in range(3):   # a player's own cards, nobody else's; nothing to do
            own = st.view(n)
            assert own["seats"][n]["cards"] == hand.view(n)["seats"][n]["cards"]
            assert all(c is None for m, seat in enumerate(own["seats"]) if m != n
                       for c in seat["cards"])
            assert own["legal"] is None or own["legal"]["actions"] == []
    # the recorded hand is untouched: the same result and replay as before
    assert hand.view(None)["result"] == final["result"]
    assert len(hand.replay(None)["frames"]) == len(hand.hand.actions) + 1


def test_stud_all_in_runs_out_by_street_its_down_cards_their_holders_own() -> None:
    hand = _all_in("stud", {}, 12)
    stages = hand.runout_stages()
    assert len(stages) >= 2
    ups = [sum(c is not None for seat in st.view(None)["seats"] for c in seat["cards"])
           for st in stages]
    assert ups == sorted(ups) and len(set(ups)) == len(ups)   # one more street each


def test_no_run_out_when_the_hand_ends_without_cards_to_come() -> None:
    assert _all_in("holdem", {"structure": "no-limit"}, 200, fold=True).runout_stages() == []


def test_the_pause_fits_the_whole_run_out_in_its_bound() -> None:
    real = Pacing(runout_step=RUNOUT_STEP)
    assert real.runout_pause(3) == RUNOUT_STEP           # hold'em: the result 4 s after the call
    assert real.runout_pause(4) * 5 <= RUNOUT_MOST + 1e-9  # stud from 3rd street
    assert Pacing().runout_pause(3) == 0.0
    with pytest.raises(ValueError, match="at least 1 round"):
        real.runout_pause(0)
