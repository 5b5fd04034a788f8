"""The server's per-action work leaves no reference cycles (issue 13).

Every cycle is work for the cyclic garbage collector, whose pauses stall
every table at once; a recursive closure in ``_event_json`` made one cycle
(function, cell, closure tuple) per event: 99% of what the server's young
collections found in the load benchmark.
"""

from __future__ import annotations

import gc

from rollem.engine.events import Event
from rollem.server.game_session import _event_json


def test_an_event_in_json_leaves_no_cycle() -> None:
    event = Event("show", 2, {"cards": (4, 51), "rank": {"kind": "pair", "of": [12]}},
                  frozenset({2}), {"count": 2})
    gc.collect()
    gc.disable()
    try:
        for _ in range(100):
            out = _event_json(event)
        # 300 before (3 per call); other threads of the test run may leave a few.
        assert gc.collect() < 50
    finally:
        gc.enable()
    assert out == {"kind": "show", "seat": 2, "data": {"cards": [4, 51],
                   "rank": {"kind": "pair", "of": [12]}}, "to": [2],
                   "public": {"count": 2}}
