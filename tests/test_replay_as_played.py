"""``rollem replay`` of a player's own copy tells the hand as ``rollem play``
told it (one narration, :class:`rollem.narration.Narrator`, for both): the
new user's try-out of stop 52 found a Roll Your Own copy told without "The pool
(N cards) is shuffled." and with each turn-up in the order chosen (the copy's
line order) where play tells them as the engine reveals them, from the
button's left; and ``replay --result`` listing the player's own shown cards
in the public order (highest first) where play shows them as held."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_helpers import first_card_to_turn_up, scripted
from cli_helpers import run_cli as run
from rollem.narration import narrate_history
from rollem.narration.lines import Line


def _play_one_hand(game: str, players: int, seed: int, hands: int,
                   folder: Path) -> tuple[list[list[str]], list[Path], str]:
    """Play ``hands`` hands of ``game`` (you check or call, put in the pool and turn
    up the row's first card still down, pick pool card 1), then quit: each hand's told lines
    (play's narration, as :meth:`TerminalGame.tell` got them), saved copies and
    all that play wrote."""
    out: list[str] = []

    def answers() -> Iterator[str]:
        while True:
            choices = next((s for s in reversed(out) if s.startswith("Choices (")), "")
            if out[-1].startswith("Enter = next hand"):
                yield "q" if sum(s.startswith("Enter = next") for s in out) >= hands else ""
            elif "): c = " in choices:  # a bet
                yield "c"
            elif "turn up 1 card, from " in choices:  # the row's first card still down
                yield first_card_to_turn_up(choices)
            else:  # the pool, the wild card: the first cards
                yield "1 2 3" if "in the pool" in choices else "1"

    game_, out = scripted(answers(), game=game, players=players, stack=100, seed=seed,
                          history_dir=folder)
    told: list[list[str]] = []
    tell, play_hand = game_.tell, game_.play_hand

    def record(lines: list[Line]) -> None:
        if told:
            told[-1].extend(line.text for line in lines)
        tell(lines)

    def new_hand(hand: object) -> None:
        told.append([])
        play_hand(hand)

    game_.tell = record  # type: ignore[method-assign]
    game_.play_hand = new_hand  # type: ignore[method-assign]
    assert game_.run() == 0, "".join(out[-12:])
    return told, sorted(folder.rglob("hand-*.toml")), "".join(out)


@pytest.mark.parametrize(("players", "seed"), [(3, 2), (4, 3)])
def test_replay_of_a_roll_your_own_copy_tells_what_play_told(
        players: int, seed: int, tmp_path: Path) -> None:
    """Hand 2 (another seat has the button): the pool's shuffle, and each turn-up
    from the button's left, in replay as in play."""
    told, saved, _ = _play_one_hand("rollyourown", players, seed, 2, tmp_path)
    assert len(told) == len(saved) == 2
    for lines, path in zip(told, saved, strict=True):
        replayed = [line.text for line in narrate_history(path.read_text("utf-8")).lines]
        assert replayed == lines, path.name
    assert f"The pool ({3 * players} cards) is shuffled." in told[1]


def test_replay_result_shows_each_hand_in_the_order_play_showed_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Hold'em, seed 3: you show Jc As (as dealt), which the copy's result records
    as As Jc (public order); ``--result`` now says what play said."""
    told, saved, _ = _play_one_hand("holdem", 3, 3, 1, tmp_path / "h")
    monkeypatch.chdir(tmp_path)
    shows = [line.split(":")[0] for line in told[0] if re.match(r"\w+ shows? ", line)]
    assert "You show Jc As" in shows
    code, out, err = run(["replay", str(saved[0]), "--result"], capsys)
    assert (code, err) == (0, "")
    assert [line.split(":")[0] for line in out.splitlines()
            if re.match(r"\w+ shows? ", line)] == shows


def test_play_and_replay_help_say_what_replay_of_a_session_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``rollem replay session.phhs`` sums up each hand (its result, nets and
    stacks; tests/test_phh_session.py pins that form); play's farewell said
    "all of them" and replay's help "each is told in turn", as if step by step."""
    told, _, out = _play_one_hand("holdem", 3, 3, 2, tmp_path)
    assert "each hand's net and stacks: rollem replay session.phhs)" in " ".join(out.split())
    (session,) = tmp_path.glob("*/session.phhs")
    code, summed, err = run(["replay", str(session)], capsys)
    assert (code, err) == (0, "")
    blocks = summed.split("\n\n")
    assert [b.split("]")[0] for b in blocks] == ["[1", "[2"]
    for block, lines in zip(blocks, told, strict=True):
        assert "\nNet: " in block and "\nFinishing stacks: " in block
        assert not any(line in block for line in lines if " is dealt" in line
                       or " are dealt" in line)
    helped = " ".join(run(["replay", "--help"], capsys)[1].split())
    assert "each is summed up in turn" in helped and "not step by step" in helped
    assert "told in turn" not in helped


@pytest.mark.parametrize("game", ["rollyourown", "rollem521", "sdr"])
def test_every_seats_copy_is_told_as_the_engine_told_that_seat(game: str) -> None:
    """Each seat's copy of four-handed bot hands (seeds 0-3), told from its lines,
    says line for line what the engine's view of that seat says
    (:func:`rollem.narration.history.narrate_hand`, play's narration)."""
    from bot_helpers import basic_hand
    from rollem.history import redact, write_history
    from rollem.narration.history import narrate_hand

    names = ["You", "Ann", "Bob", "Cy"]
    for seed in range(4):
        hand = basic_hand(game, 4, seed)
        full = write_history(hand, players=names)
        for seat in range(4):
            told = [line.text for line in narrate_history(redact(full, seat)).lines]
            assert told == [line.text for line in narrate_hand(hand, names, seat)], (seed, seat)
