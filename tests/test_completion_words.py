"""A stud completion is told "completes to N" whoever completes (docs/dev/hostile.md:
the bring-in seat completing at once was told "Bob bets 2", another player
completing over a bring-in "completes to 2"). The same words in every telling: the
engine's story (``rollem replay`` of a full history), a player's own copy told
without the engine, the terminal (``rollem play stud``) and the web table's log and
seat labels; a bet after the completion and a raise keep their words."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import ListWriter, run_cli
from rollem.cli.play_cmd import TerminalGame
from rollem.engine import Hand, SeededSource
from rollem.engine.actions import Action, Bet, Call, Fold, Raise
from rollem.history import redact, write_history
from rollem.narration import narrate_history, narrate_view
from rollem.server.game_session import GameSession

NAMES = ["Ann", "Bob", "Cat"]

# Seed 1, 3 players, button Cat: in stud Bob's 4s brings in (the lowest up card), in
# razz Cat's Ts (the highest, aces low), in stud hi-lo Bob's 4s.
BRINGER = {"stud": 1, "razz": 2, "stud8": 1}


def _hand(game: str, third: list[Action]) -> Hand:
    """Seed 1's hand of GAME at 3 seats: third street played as ``third`` (from the
    bring-in seat on), then fourth street's opener bets 2 and the others fold."""
    hand = Hand(game, [100] * 3, button=2, source=SeededSource(1))
    assert hand.pending is not None and hand.pending.seats == (BRINGER[game],)
    for action in [*third, Bet(2), Fold(), Fold()]:
        assert hand.pending is not None
        hand.apply(hand.pending.seats[0], action)
    assert hand.is_over
    return hand


def _third_and_fourth(lines: list[str]) -> list[str]:
    """The betting lines of third street and the first of fourth street."""
    start = next(i for i, t in enumerate(lines) if t.startswith("Third street"))
    fourth = next(i for i, t in enumerate(lines) if t.startswith("Fourth street"))
    return [t for t in lines[start:fourth + 2] if " dealt " not in t]


@pytest.mark.parametrize("game", ["stud", "razz", "stud8"])
def test_the_bring_in_seat_completing_is_told_completes_to(game: str) -> None:
    b = BRINGER[game]
    nxt, last = NAMES[(b + 1) % 3], NAMES[(b + 2) % 3]
    hand = _hand(game, [Bet(2), Raise(4), Call(), Call()])
    rounds = [e for e in hand.events if e.kind == "round"]
    opener = NAMES[rounds[1].seat or 0]
    engine = [t.text for t in narrate_view(hand.view(None), NAMES)]
    want = [
        "Third street (pot 3).",
        f"{NAMES[b]} completes to 2 (pot 5).",     # "bets 2" before
        f"{nxt} raises to 4 (pot 9).",
        f"{last} calls 4 (pot 13).",
        f"{NAMES[b]} calls 2 (pot 15).",
        "Fourth street (pot 15).",
        f"{opener} bets 2 (pot 17).",             # a bet after the completion: a bet
    ]
    assert _third_and_fourth(engine) == want
    # the engine marks the round that opens with a bring-in (its first full bet completes)
    assert rounds[0].data == {"round": "third street", "opener": b, "to_complete": True}
    assert "to_complete" not in rounds[1].data  # fourth street: no bring-in
    mine = [t.text for t in narrate_view(hand.view(b), NAMES)]
    assert "You complete to 2 (pot 5)." in mine
    full = write_history(hand, players=NAMES)
    assert _third_and_fourth(narrate_history(full).text().splitlines()) == want
    for seat in range(3):  # each player's copy, told without the engine, says the same
        told = narrate_history(redact(full, seat)).text().splitlines()
        assert told[3:] == [t.text for t in narrate_view(hand.view(seat), NAMES)], seat
        assert (f"{'You complete' if seat == b else NAMES[b] + ' completes'} to 2 (pot 5)."
                in told), seat


def test_a_completion_over_the_bring_in_and_a_raise_keep_their_words() -> None:
    hand = _hand("stud", [Call(), Raise(2), Raise(4), Call(), Call()])
    engine = [t.text for t in narrate_view(hand.view(None), NAMES)]
    assert _third_and_fourth(engine)[:6] == [
        "Third street (pot 3).",
        "Bob brings it in for 1 (pot 4).",
        "Cat completes to 2 (pot 6).",
        "Ann raises to 4 (pot 10).",
        "Bob calls 3 (pot 13).",
        "Cat calls 2 (pot 15).",
    ]
    full = write_history(hand, players=NAMES)
    for seat in range(3):
        told = narrate_history(redact(full, seat)).text().splitlines()
        assert told[3:] == [t.text for t in narrate_view(hand.view(seat), NAMES)], seat


def test_the_web_tables_label_and_log_say_completes_to() -> None:
    hand = Hand("stud", [100] * 3, button=2, source=SeededSource(1))
    session = GameSession(1, {"game": "stud", "seats": [0, 1, 2]}, hand)
    session.apply(1, {"kind": "bet", "amount": 2})
    for seat in (None, 1):
        view = session.view(seat, NAMES)
        assert view["last_actions"]["1"] == {"kind": "complete", "text": "completes to 2"}
        assert view["log"][-1]["text"] == ("You complete" if seat == 1 else "Bob completes") \
            + " to 2 (pot 5)."
    session.apply(2, {"kind": "raise", "to": 4})
    assert session.view(None, NAMES)["last_actions"]["2"] == {"kind": "raise",
                                                              "text": "raises to 4"}


@pytest.mark.parametrize(("game", "seed"), [("stud", 7), ("razz", 0)])
def test_rollem_play_and_replay_say_you_complete(game: str, seed: int, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """You bring in (seed 7's stud, seed 0's razz, 3 players) and complete: "b 2"."""
    out: list[str] = []
    answers = iter(["b 2"])

    def read_line(prompt: str) -> str:
        out.append(prompt)
        assert len(out) < 200, "".join(out)[-2000:]  # (never loop)
        if prompt == "Your move > ":
            return next(answers, "f")  # then fold
        return "y" if "Fold anyway?" in prompt else "q"

    TerminalGame(game=game, players=3, level="basic", stack=200, seed=seed, show_odds=False,
                 history_dir=tmp_path, rich=False, read_line=read_line,
                 out=ListWriter(out)).run()
    text = "".join(out)
    assert "c = bring in for 1, b 2 = complete to 2" in text
    told = text.split("Your move > ", 1)[1].splitlines()
    assert told[:2] == ["b 2", "You complete to 2 (pot 5)."]  # (the answer echoed)
    saved = sorted(tmp_path.rglob("*.toml"))
    assert saved, "no history saved"
    code, replayed, err = run_cli(["replay", str(saved[0])], capsys)
    assert code == 0, err
    assert "You complete to 2 (pot 5)." in replayed.splitlines()
    assert " bets 2 (pot 5)" not in replayed
