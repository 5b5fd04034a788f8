"""A dealer's-choice game picked at random, checkable (issue 32, docs/verify.md).

A computer player's (or a timed-out) pick among the games offered is made
from the hand's hash once the client seeds are in, by rejection sampling;
the commitment covers the games offered, and ``rollem verify`` checks that
the history's game is the one the pick names.  The procedure is re-done here
with nothing but hashlib and hmac against a fixed vector.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import run_cli
from rollem import games
from rollem.bots.random_bot import random_action
from rollem.cli.play_cmd import TerminalGame
from rollem.engine.commit_reveal import (
    CommittedSource,
    DealProof,
    ProofError,
    chained_commitment,
    encode_pick_games,
    picked_game,
)
from rollem.engine.hand import Hand
from rollem.history import write_history, write_own_copy
from rollem.verify import verify_history, verify_text

KEY = bytes(range(32))
CLIENTS = {2: "", 0: "abc"}
OFFERED = ("sdr", "rollyourown", "rollem521")
VECTOR_COMMITMENT = "8f9957412715ed486d5e4a9717bcf938ff966e017ddfed7f827242ced6a58717"
VECTOR_HAND_HASH = "e4125d09acff3a14a66d374912982738a0b564eccaa0b99b82e6752a53629cdd"
VECTOR_PICK = "rollyourown"


def _spec_pick(hand_hash: bytes, offered: tuple[str, ...]) -> str:
    """docs/verify.md: 4 bytes at a time of stream(hand_hash, "rollem-pick"),
    rejecting x >= 2^32 - (2^32 mod n)."""
    n = len(offered)
    stream, counter = b"", 0
    while True:
        if len(stream) < 4:
            stream += hmac.digest(hand_hash, b"rollem-pick" + counter.to_bytes(8, "big"),
                                  "sha256")
            counter += 1
        x, stream = int.from_bytes(stream[:4], "big"), stream[4:]
        if x < 2**32 - 2**32 % n:
            return offered[x % n]


def test_pick_fixed_vector() -> None:
    proof = DealProof(KEY, CLIENTS, 7, pick_games=OFFERED)
    # the games offered: tag, count 3, then each id's length and UTF-8 bytes
    assert encode_pick_games(OFFERED) == (b"rollem-pick" + bytes.fromhex("0003") + b"\x00\x03sdr"
                                          + b"\x00\x0brollyourown" + b"\x00\x09rollem521")
    assert proof.commitment == hashlib.sha256(
        b"rollem-commit" + proof.root + bytes(32) + encode_pick_games(OFFERED)).digest()
    assert proof.commitment.hex() == VECTOR_COMMITMENT
    assert proof.hand_hash().hex() == VECTOR_HAND_HASH
    assert proof.picked_game() == _spec_pick(proof.hand_hash(), OFFERED) == VECTOR_PICK
    # no pick: the commitment is as before (the deck's fixed vector is unchanged)
    assert DealProof(KEY, CLIENTS, 7).commitment == chained_commitment(proof.root)
    assert DealProof(KEY, CLIENTS, 7).picked_game() is None
    for bad in (("sdr",), ("sdr", "sdr"), ("sdr", ""), "sdr"):
        with pytest.raises(ProofError, match="_pick_games must be a list of 2 to 64"):
            DealProof(KEY, CLIENTS, 7, pick_games=bad)  # type: ignore[arg-type]


def test_picks_are_uniform() -> None:
    """Chi-squared over 24,000 picks among 3 games (2 degrees of freedom) and
    among 5 (4): below the 0.1% critical values 13.82 and 18.47."""
    for offered, critical in ((OFFERED, 13.82), (("a", "b", "c", "d", "e"), 18.47)):
        counts = dict.fromkeys(offered, 0)
        picks = 24_000
        for i in range(picks):
            counts[picked_game(hashlib.sha256(i.to_bytes(4, "big")).digest(), offered)] += 1
        expected = picks / len(offered)
        chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
        assert chi2 < critical, counts


def _picked_hand(k: int = 1) -> Hand:
    """A hand of the game a random pick names, played out by random actions."""
    proof = DealProof(hashlib.sha256(b"pick-%d" % k).digest(), {0: "x", 1: "", 2: "y"}, k,
                      pick_games=OFFERED)
    game = games.get(str(proof.picked_game()))
    hand = Hand(game, [200] * 3, button=0, source=CommittedSource(proof))
    import random

    rng = random.Random(k)
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    return hand


def _with_game(data: dict[str, Any], game: str) -> dict[str, Any]:
    return {**data, "variant": f"rollem-{game}", "_game": game}


@pytest.mark.parametrize("copy", [False, True])
def test_a_random_pick_verifies_and_a_changed_one_fails_naming_it(copy: bool) -> None:
    hand = _picked_hand()
    text = write_own_copy(hand, 1) if copy else write_history(hand)
    data = tomllib.loads(text)
    assert data["_pick_games"] == list(OFFERED)
    picked = hand.game.id
    verdict = verify_history(data)
    assert verdict.ok and verdict.reason.endswith(
        f"; the game, {picked}, is the random pick among the games offered "
        f"(sdr, rollyourown, rollem521)"), verdict.reason
    other = next(g for g in OFFERED if g != picked)
    verdict = verify_history(_with_game(data, other))
    assert verdict.status == "failed"
    assert verdict.reason.startswith(
        f"the game is {other}, but the random pick among _pick_games "
        f"({', '.join(OFFERED)}) by _hand_hash names {picked}")
    # the games offered changed (reordered, one dropped, or the field removed):
    # the commitment covered them
    what = "_deck_root" if copy else "_deal_key"
    for offered in ([*OFFERED[1:], OFFERED[0]], [g for g in OFFERED if g != other]):
        verdict = verify_history({**data, "_pick_games": offered})
        assert verdict.status == "failed"
        assert verdict.reason.startswith(f"{what} or _pick_games does not match _commitment")
    verdict = verify_history({k: v for k, v in data.items() if k != "_pick_games"})
    assert verdict.status == "failed"
    assert verdict.reason.startswith(f"{what} does not match _commitment")
    verdict = verify_history({**data, "_pick_games": [picked]})
    assert verdict.status == "failed" and verdict.reason.startswith("_pick_games must be")


def test_rollem_play_bot_picks_verify(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``rollem play`` in dealer's choice: the computer players' picks are the
    committed deal's, each hand's copy carries the games offered, verifies, and
    the same seed picks the same again."""
    def session(folder: Path) -> list[Path]:
        between = [0]

        def answer(prompt: str) -> str:  # name the first game, check or call; 3 hands
            if prompt.startswith("Game"):
                return "1"
            if "Enter = next hand" not in prompt:
                return "c"
            between[0] += 1
            return "" if between[0] < 3 else "q"

        game = TerminalGame(game="dealers-choice", players=3, level="random", stack=200,
                            seed=5, show_odds=False, history_dir=folder, rich=False,
                            read_line=answer, out=io.StringIO(),
                            games=["sdr", "holdem", "omaha"])  # (no card choices)
        game.run()
        return sorted(folder.glob("*/hand-*.toml"))

    files = session(tmp_path / "a")
    picked = [f for f in files if "_pick_games" in tomllib.loads(f.read_text("utf-8"))]
    assert len(files) == 3 and len(picked) == 2  # the two computer players' buttons
    code, out, err = run_cli(["verify", *map(str, files)], capsys)
    assert code == 0 and "chain: ok" in out, out + err
    for f in picked:
        data = tomllib.loads(f.read_text("utf-8"))
        assert verify_text(f.read_text("utf-8")).status == "verified"
        assert data["_game"] == picked_game(bytes.fromhex(data["_hand_hash"]),
                                            data["_pick_games"])
    again = session(tmp_path / "b")
    assert [f.read_text("utf-8") for f in again] == [f.read_text("utf-8") for f in files]
