"""The OpenSpiel information-state tensor recalls a folded seat's face-up cards
(s62-fresh, docs/ai-research.md).

The tensor's face-up rows left out a seat once it folded, so at stud two
histories that differ only in the up card a folded seat showed (Ac or Ad,
seen by all) gave seat 0 the same information-state tensor while its
information-state string told them apart: two information states, one tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import rollem.rl.openspiel  # noqa: E402,F401  (registers python_rollem)
from rollem.rl.tensors import observation_size  # noqa: E402


def _stud(seat1_up: int) -> Any:
    """Three-handed stud, button 0 (dealt 1, 2, 0): seat 1 shows ``seat1_up``
    and folds at third street; stopped at seat 0's fourth-street decision."""
    game = pyspiel.load_game("python_rollem", {"game": "stud", "players": 3})
    state = game.new_initial_state()
    feed = [0, 1, 2, 3, 4, 5, seat1_up, 44, 40, 36, 32, 28]  # downs, then the ups
    folded = False
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            pick = next((c for c in feed if c in outcomes), outcomes[0])
            if pick in feed:
                feed.remove(pick)
            state.apply_action(pick)
            continue
        player, legal = state.current_player(), state.legal_actions()
        if player == 1 and not folded and 0 in legal:
            state.apply_action(0)  # fold
            folded = True
            continue
        if folded and player == 0 and len(state.moves.hand.hole[0]) >= 4:
            return state
        state.apply_action(1 if 1 in legal else legal[0])
    raise AssertionError("the hand ended before seat 0's fourth street")


def test_a_folded_seats_up_card_stays_in_the_information_state_tensor() -> None:
    ace_clubs, ace_diamonds = 48, 49  # Ac, Ad
    a, b = _stud(ace_clubs), _stud(ace_diamonds)
    assert a.information_state_string(0) != b.information_state_string(0)
    ta = np.array(a.information_state_tensor(0))
    tb = np.array(b.information_state_tensor(0))
    assert not np.array_equal(ta, tb)
    n = 3
    seat1_row = n + 52 + 52  # after the seat one-hot, own down cards, seat 0's face-up row
    assert ta[seat1_row + ace_clubs] == 1 and ta[seat1_row + ace_diamonds] == 0
    assert tb[seat1_row + ace_diamonds] == 1 and tb[seat1_row + ace_clubs] == 0
    assert len(ta) > observation_size(n)
