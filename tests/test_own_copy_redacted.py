"""No false refusal of a player's own copy: every copy that
:func:`rollem.history.redact` makes of a full history that ``rollem replay``
accepts is accepted by :func:`rollem.history_copy.own_copy_hand` (the check of
``rollem replay`` and ``rollem odds --history``), for every seat: the
histories of tests/histories/ (hand-written ones leave out dealer lines and
``_result``, spell a stand pat ``draw``), the examples of
docs/hand-history.md, and a ten-handed 5-2-1 hand that reshuffled
(tests/copies/rollem521_ten_reshuffle.toml: a full history the engine wrote;
in seat 5's copy p6 discards 7d before the reshuffle and p3 rolls 7d after it).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import tomli_w

from cli_helpers import run_cli as run
from rollem.history import redact, replay
from rollem.history_copy import action_points, last_stand_in_point, own_copy_hand
from rollem.odds.history import history_odds
from rollem.odds.own_copy import stand_in_history

TESTS = Path(__file__).parent
DOC = (TESTS.parent / "docs" / "hand-history.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^```toml\n(.*?)^```$", re.DOTALL | re.MULTILINE)
RESHUFFLE = TESTS / "copies" / "rollem521_ten_reshuffle.toml"


def _full_histories() -> list[tuple[str, str]]:
    out = [(str(p.relative_to(TESTS)), p.read_text(encoding="utf-8"))
           for p in sorted((TESTS / "histories").rglob("*.toml"))]
    for i, text in enumerate(FENCE.findall(DOC)):
        data = tomllib.loads(text)
        if "actions" in data and "_redacted_for" not in data:
            out.append((f"docs/hand-history.md example {i}", text))
    out.append((str(RESHUFFLE.relative_to(TESTS)), RESHUFFLE.read_text(encoding="utf-8")))
    return out


FULL = _full_histories()


def test_the_histories_are_many_and_full() -> None:
    assert len(FULL) >= 40
    assert sum(name.startswith("docs/") for name, _ in FULL) >= 3


@pytest.mark.parametrize(("name", "text"), FULL, ids=[name for name, _ in FULL])
def test_every_seats_copy_of_an_accepted_history_is_accepted(name: str, text: str) -> None:
    full = replay(text)
    for seat in range(full.n):
        copy = redact(text, seat)
        hand = own_copy_hand(copy)
        # the stand-in hand deals the seat its own cards
        if last_stand_in_point(copy["actions"]) is None:
            assert hand.view(seat).seats[seat].cards == full.view(seat).seats[seat].cards
        # odds --history: a point in the copy (the first: nobody has acted yet)
        if full.dealt[seat]:
            stand_in, at = stand_in_history(copy, seat, 0)
            assert at == 0 and replay(stand_in, check_result=False).dealt[seat]


def test_a_copy_is_compared_in_the_engines_spelling() -> None:
    # docs example 0 (the worked example, written by hand): no burn lines, no
    # _result; example 2 spells a stand pat "p1 draw"
    examples = [text for name, text in FULL if name.startswith("docs/")]
    copy = redact(examples[0], 0)
    assert "d dead Qh # stop" in copy["actions"] and "_result" not in copy
    assert not any(ln.startswith("d burn") for ln in copy["actions"])
    assert own_copy_hand(copy).is_over
    draws = [text for text in examples if '"p1 draw"' in text]
    assert draws
    assert own_copy_hand(redact(draws[0], 0)).is_over
    # a reader's own spelling too: lower-case cards, run apart
    mine = {**copy, "actions": [ln.replace("d dead Qh", "d dead qh") for ln in copy["actions"]]}
    own_copy_hand(mine)


def test_a_copy_that_reshuffled_is_checked_up_to_the_reshuffle(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    copy = redact(RESHUFFLE.read_text(encoding="utf-8"), 5)
    lines = copy["actions"]
    first = next(i for i, ln in enumerate(lines) if ln.startswith("# reshuffle"))
    # p6 (the seat) folds 7d to the muck before the reshuffle; p3 rolls 7d
    # (reshuffled) after it
    assert {"d dh p6 Js7d4hAdQd", "p6 f"} <= set(lines[:first])
    assert "# roll p3 7d" in lines[first:]
    points = action_points(lines)
    last = last_stand_in_point(lines)
    assert last == sum(1 for i in points if i < first) - 1
    hand = own_copy_hand(copy)
    assert len(hand.events) > 0 and not hand.is_over
    path = tmp_path / "copy.toml"
    path.write_text(tomli_w.dumps(copy), encoding="utf-8")
    code, out, err = run(["replay", str(path)], capsys)
    assert (code, err) == (0, "") and "This hand: you lost 2." in out
    # odds: any point up to the reshuffle; after it, refused with the range
    for seat_point in (0, last):
        stand_in_history(copy, 5, seat_point)
    code, _, err = run(["odds", "--history", str(path), "--seat", "5", "--at", str(last + 1)],
                       capsys)
    assert code == 2 and err.endswith(f"choose a point from 0 to {last}\n")
    odds, at = history_odds(tomli_w.dumps(copy), 5, at=0, samples=20, seed=1)
    assert at == 0 and odds.samples == 20
    assert odds.win + odds.tie + odds.lose == pytest.approx(1)
