"""A bad stake flag of rollem play and rollem simulate is named by its flag
(R-C-6: ante >= 0, small and big bet >= 1 chip). Before: "small_bet and big_bet
must be at least 1 chip", the engine's field names."""

from __future__ import annotations

import pytest

from cli_helpers import run_cli


@pytest.mark.parametrize("command", [["simulate", "sdr", "--players", "3", "--hands", "2"],
                                     ["play", "sdr"]])
@pytest.mark.parametrize(("flags", "said"), [
    (["--ante", "-1"], "--ante -1: expected a whole number of chips >= 0"),
    (["--small-bet", "0"], "--small-bet 0: expected a whole number of chips >= 1"),
    (["--small-bet", "-3", "--big-bet", "-1"],
     "--small-bet -3: expected a whole number of chips >= 1"),
    (["--small-bet", "0", "--big-bet", "0"],
     "--small-bet 0: expected a whole number of chips >= 1"),
])
def test_a_bad_stake_is_named_by_its_flag(command: list[str], flags: list[str], said: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli([*command, *flags], capsys)
    assert (code, out) == (2, "")
    assert err.strip().splitlines() == [f"rollem: error: {said}"]
