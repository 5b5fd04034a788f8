"""5-2-1's best declaration on an equity tie (stop 54's newcomer: A♥ 10♣ 8♠ 4♣ 2♣
heads-up against J♦ read "high half 0% · low half 100% · best declare high")."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from rollem.odds import advice, look521
from rollem.odds.display import odds_line
from rollem.odds.look521 import Look521, Option521
from rollem.odds.policy import FAST
from rollem.odds.r521 import best_declaration


def test_an_equity_tie_goes_to_the_side_the_hand_wins_outright() -> None:
    shares = {"high": 0.5, "low": 0.5, "both": 0.0}
    assert best_declaration(shares, {"high": 0.0, "low": 1.0, "both": 0.0}) == "low"
    assert best_declaration(shares, {"high": 0.7, "low": 0.2, "both": 0.1}) == "high"
    # no outright winner either way: the safer single side, high then low, before both
    assert best_declaration({"high": 0.4, "low": 0.4, "both": 0.4}, {}) == "high"
    assert best_declaration({"high": 0.3, "low": 0.6, "both": 0.6},
                            {"high": 1.0, "low": 1.0, "both": 1.0}) == "low"
    # no tie: the greatest share, whatever the hand wins outright
    assert best_declaration({"high": 0.5, "low": 0.49, "both": 0.0},
                            {"high": 0.0, "low": 1.0, "both": 0.0}) == "high"


def _look(decision: str | None) -> Look521:
    options = []
    if decision == "declare":
        options = [Option521("declare high", [], 0.5, 0.0, 0.0, 0.0, 0.0),
                   Option521("declare low", [], 0.5, 0.0, 0.0, 1.0, 0.0, policy=True),
                   Option521("declare both", [], 0.0, 0.0, 0.0, 0.0, 0.0)]
    return Look521(equity=0.5, stderr=0.0, whole=0.0, share=1.0, nothing=0.0,
                   high_half=0.0, low_half=1.0, best_high=0.0, best_low=1.0, best_both=0.0,
                   declare={"high": 0.5, "low": 0.5, "both": 0.0}, samples=2000,
                   effective=2000.0, options=options, decision=decision)


@pytest.mark.parametrize("decision", [None, "declare"])
def test_the_odds_line_names_the_side_the_hand_wins(monkeypatch: pytest.MonkeyPatch,
                                                    decision: str | None) -> None:
    state = SimpleNamespace(opponents=[object()], declared=None)

    def fake_look(*args: Any, **kwargs: Any) -> Look521:
        return _look(decision)

    monkeypatch.setattr(look521, "state_of", lambda info: state)
    monkeypatch.setattr(look521, "r521_look", fake_look)
    odds = advice._r521(None, samples=2000, rng=None, seed=1,  # type: ignore[arg-type]
                        advice=True, top=3, policy=FAST)
    assert odds is not None and odds.best_declare == "low"
    line = odds_line(odds)
    assert "high half 0% · low half 100%" in line
    if decision is None:
        assert line.endswith("best declare low")
    else:
        assert line.startswith("equity 50% if you declare low (the best")


def test_the_declare_options_list_the_best_first_on_a_tie() -> None:
    # every card but the opponent's known: a ten-low without a pair against a
    # hand that holds the high; high and both tie, the safer high is first
    from rollem.cards import parse_card
    from rollem.odds.look521 import Seat521, State521, r521_look

    def c(text: str) -> list[int]:
        return [int(parse_card(t)) for t in text.split()]

    mine, up = c("2c Ah Tc 8s 4c"), c("Jd")
    state = State521(mine=mine, drew=[1, 0], stacked=True, declared=None,
                     opponents=[Seat521(1, up, [1, 0], True, None)],
                     unseen=[x for x in range(52) if x not in mine + up], decision="declare")
    look = r521_look(state, samples=2000, seed=1)
    top = look.options[0]
    assert top.equity == max(look.declare.values())
    assert top.label == "declare " + best_declaration(
        look.declare, {"high": look.best_high, "low": look.best_low, "both": look.best_both})
