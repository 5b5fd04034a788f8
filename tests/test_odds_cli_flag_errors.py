"""``rollem odds sdr`` names the option a wrong value came in: the library's
``sdr_odds`` names its parameter ("hand: ..."), the command says ``--hand: ...``
(issue 33: a newcomer typing ``--hand Qs`` read "hand: expected two hole
cards" and the other refusals already said ``--board``); exit 2, one line."""

from __future__ import annotations

import pytest

from rollem.cli.app import main


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--hand", "Qs"], "rollem: error: --hand: expected two hole cards, got 1"),
        (["--hand", "Qs Qx"], "rollem: error: --hand: bad card 'Qx': expected rank 2-9"),
        (
            ["--hand", "Qs Qd", "--dead", "2c 3c 4c"],
            "rollem: error: --dead: expected at most two cards (the Stop and the Drop), got 3",
        ),
        (
            ["--hand", "Qs Qd", "--dead", "2c 3c", "--board", "4c 5c 6c 7c"],
            "rollem: error: --board: expected at most three Roll cards, got 4",
        ),
        (
            ["--hand", "Qs Qd", "--vs", "As Kd Kc"],
            "rollem: error: --vs: each hand is two hole cards, got 3",
        ),
        (
            ["--hand", "Qs Qd", "--dead", "Qs 2c"],
            "rollem: error: card Qs is given twice; each card exists once",
        ),
    ],
)
def test_odds_sdr_refusal_names_the_option(
    args: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["odds", "sdr", *args])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(expected)
    assert err.count("\n") == 1
