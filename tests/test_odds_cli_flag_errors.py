"""``rollem odds sdr`` names the option a wrong value came in: the library's
``sdr_odds`` names its parameter ("hand: ..."), the command says ``--hand: ...``
(issue 33: a newcomer typing ``--hand Qs`` read "hand: expected two hole
cards" and the other refusals already said ``--board``); exit 2, one line."""

from __future__ import annotations

import json

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
            "rollem: error: --board: expected none or all three Roll cards (the Roll's three "
            "cards are dealt at once), got 4 (4c 5c 6c 7c)",
        ),
        (  # s60-tidy: a two-card Roll never happens (R-SDR-5); it was taken
            ["--hand", "Ts Td", "--dead", "Qh 7c", "--board", "Kc 7d"],
            "rollem: error: --board: expected none or all three Roll cards (the Roll's three "
            "cards are dealt at once), got 2 (Kc 7d)",
        ),
        (
            ["--hand", "Ts Td", "--dead", "Qh 7c", "--board", "Kc"],
            "rollem: error: --board: expected none or all three Roll cards (the Roll's three "
            "cards are dealt at once), got 1 (Kc)",
        ),
        (
            ["--hand", "Ts Td", "--dead", "Qh", "--board", "Kc 7d 2s"],
            "rollem: error: --board: the Roll is dealt after the Stop and the Drop are turned "
            "up; give both with --dead",
        ),
        (
            ["--hand", "Ts Td", "--dead", "Qh 7c", "--board", "Kc 7x 2s"],
            "rollem: error: --board: bad card '7x'",
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


@pytest.mark.parametrize(("dead", "board"), [("", ""), ("Qh", ""), ("Qh 7c", ""),
                                             ("Qh 7c", "Kc 7d 2s")])
def test_every_point_of_a_hand_is_taken(
        dead: str, board: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The points a hand of Stop, Drop and Roll reaches (R-SDR-3 to 5): before the
    Stop, after it, after the Drop, after the Roll."""
    with pytest.raises(SystemExit) as stop:
        main(["odds", "sdr", "--hand", "Ts Td", "--dead", dead, "--board", board,
              "--samples", "200", "--seed", "1", "--json"])
    out, err = capsys.readouterr()
    assert (stop.value.code or 0, err) == (0, "")
    assert 0 < json.loads(out)["equity"] <= 1
