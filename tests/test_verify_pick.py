"""A dealer's-choice game picked at random, checkable (issue 32, docs/verify.md).

A computer player's (or a timed-out) pick among the games offered is made
from the hand's hash and the dealer's secret pick salt once the client seeds
are in, by rejection sampling; the commitment covers the games offered and
the salt's hash, every copy reveals the salt, and ``rollem verify`` checks
that the history's game is the one the pick names.  The procedure is re-done
here with nothing but hashlib and hmac against a fixed vector.  A hand dealt
before the salt (the old rule: the pick from the public hash alone, which the
last player to send a seed could steer) still verifies.
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
    encode_client_seeds,
    encode_pick_games,
    hand_hash,
    hex_text,
    pick_salt,
    picked_game,
)
from rollem.engine.hand import Hand
from rollem.history import write_history, write_own_copy
from rollem.verify import verify_history, verify_text

KEY = bytes(range(32))
CLIENTS = {2: "", 0: "abc"}
OFFERED = ("sdr", "rollyourown", "rollem521")
VECTOR_SALT = "613d33e4f16b38fabf8aa9374938ff234c37d3769a28d4c7401668b48f6ac760"
VECTOR_COMMITMENT = "e9191034b998cda7b0a76f2cedba10fa0f881c498ae0d8eec5053c7aadb773a2"
VECTOR_HAND_HASH = "9cb584735cada38d36c9181aa2bfa7782c333de42fc18fdefa596514fcf3a74e"
VECTOR_PICK = "rollyourown"
# a hand dealt before the pick salt (the old rule), as its histories recorded it
OLD_COMMITMENT = "8f9957412715ed486d5e4a9717bcf938ff966e017ddfed7f827242ced6a58717"
OLD_HAND_HASH = "e4125d09acff3a14a66d374912982738a0b564eccaa0b99b82e6752a53629cdd"


def _spec_pick(key: bytes, tag: bytes, offered: tuple[str, ...]) -> str:
    """docs/verify.md: 4 bytes at a time of stream(key, tag), rejecting
    x >= 2^32 - (2^32 mod n)."""
    n = len(offered)
    stream, counter = b"", 0
    while True:
        if len(stream) < 4:
            stream += hmac.digest(key, tag + counter.to_bytes(8, "big"), "sha256")
            counter += 1
        x, stream = int.from_bytes(stream[:4], "big"), stream[4:]
        if x < 2**32 - 2**32 % n:
            return offered[x % n]


def test_pick_fixed_vector() -> None:
    proof = DealProof(KEY, CLIENTS, 7, pick_games=OFFERED)
    # the games offered: tag, count 3, then each id's length and UTF-8 bytes
    games = (b"rollem-pick" + bytes.fromhex("0003") + b"\x00\x03sdr"
             + b"\x00\x0brollyourown" + b"\x00\x09rollem521")
    assert encode_pick_games(OFFERED) == games
    # the pick salt: HMAC-SHA256(K, "rollem-pick-salt"); the commitment takes its hash
    salt = hmac.digest(KEY, b"rollem-pick-salt", "sha256")
    assert proof.pick_salt == salt and salt.hex() == VECTOR_SALT
    assert proof.commitment == hashlib.sha256(
        b"rollem-commit" + proof.root + bytes(32) + games + b"rollem-pick-salt"
        + hashlib.sha256(salt).digest()).digest()
    assert proof.commitment.hex() == VECTOR_COMMITMENT
    assert proof.hand_hash().hex() == VECTOR_HAND_HASH
    # the pick: stream(pick_salt, "rollem-pick" ‖ hand_hash)
    assert proof.picked_game() == _spec_pick(salt, b"rollem-pick" + proof.hand_hash(),
                                             OFFERED) == VECTOR_PICK
    fields = proof.public_fields()
    assert fields["_pick_salt"] == hex_text(salt) and fields["_pick_games"] == list(OFFERED)
    assert DealProof.from_json(proof.to_json()) == proof
    # a hand dealt before the salt: the old rule, its fixed vector unchanged
    old = DealProof(KEY, CLIENTS, 7, pick_games=OFFERED, pick_salted=False)
    assert old.pick_salt is None and "_pick_salt" not in old.public_fields()
    assert old.commitment == hashlib.sha256(
        b"rollem-commit" + old.root + bytes(32) + games).digest()
    assert old.commitment.hex() == OLD_COMMITMENT and old.hand_hash().hex() == OLD_HAND_HASH
    assert old.picked_game() == _spec_pick(old.hand_hash(), b"rollem-pick", OFFERED)
    # a proof stored before the salt (no "pick_salted") restores by the old rule
    stored = {k: v for k, v in old.to_json().items() if k != "pick_salted"}
    assert DealProof.from_json(stored) == old
    # no pick: the commitment is as before (the deck's fixed vector is unchanged)
    assert DealProof(KEY, CLIENTS, 7).commitment == chained_commitment(proof.root)
    assert DealProof(KEY, CLIENTS, 7).picked_game() is None
    for bad in (("sdr",), ("sdr", "sdr"), ("sdr", ""), "sdr"):
        with pytest.raises(ProofError, match="_pick_games must be a list of 2 to 64"):
            DealProof(KEY, CLIENTS, 7, pick_games=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("salted", [True, False])
def test_picks_are_uniform(salted: bool) -> None:
    """Chi-squared over 24,000 picks among 3 games (2 degrees of freedom) and
    among 5 (4): below the 0.1% critical values 13.82 and 18.47 (with one
    salt and many hands' hashes; and by the old rule)."""
    salt = hashlib.sha256(b"a salt").digest() if salted else None
    for offered, critical in ((OFFERED, 13.82), (("a", "b", "c", "d", "e"), 18.47)):
        counts = dict.fromkeys(offered, 0)
        picks = 24_000
        for i in range(picks):
            counts[picked_game(hashlib.sha256(i.to_bytes(4, "big")).digest(), offered,
                               salt)] += 1
        expected = picks / len(offered)
        chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
        assert chi2 < critical, counts


def _picked_hand(k: int = 1, salted: bool = True) -> Hand:
    """A hand of the game a random pick names, played out by random actions
    (``salted`` ``False``: a hand dealt before the pick salt, by the old rule)."""
    proof = DealProof(hashlib.sha256(b"pick-%d" % k).digest(), {0: "x", 1: "", 2: "y"}, k,
                      pick_games=OFFERED, pick_salted=salted)
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
    assert data["_pick_salt"] == hex_text(hand.source.proof.pick_salt)
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
        f"({', '.join(OFFERED)}) by _hand_hash and _pick_salt names {picked}: the pick was "
        "changed")
    # the games offered changed (reordered, one dropped): the commitment covered them
    what = "_deck_root" if copy else "_deal_key"
    for offered in ([*OFFERED[1:], OFFERED[0]], [g for g in OFFERED if g != other]):
        verdict = verify_history({**data, "_pick_games": offered})
        assert verdict.status == "failed"
        assert verdict.reason.startswith(
            f"{what} or _pick_games or _pick_salt does not match _commitment")
    verdict = verify_history({**data, "_pick_games": [picked]})
    assert verdict.status == "failed" and verdict.reason.startswith("_pick_games must be")
    verdict = verify_history({k: v for k, v in data.items() if k != "_pick_games"})
    assert verdict.status == "failed"
    assert verdict.reason.startswith("_pick_salt is given, but no _pick_games")
    # the salt changed: the commitment covered its hash (and the key gives it)
    changed = hex_text(hashlib.sha256(b"another salt").digest())
    verdict = verify_history({**data, "_pick_salt": changed})
    assert verdict.status == "failed"
    assert verdict.reason.startswith(
        "_deck_root or _pick_games or _pick_salt does not match _commitment: the commitment "
        "of its root, _prev_hash, the games offered (sdr, rollyourown, rollem521), the pick "
        "salt's hash is" if copy else
        "_pick_salt is not the pick salt _deal_key gives: the salt was changed"), verdict.reason
    verdict = verify_history({**data, "_pick_salt": "12AB"})
    assert verdict.status == "failed"
    assert verdict.reason.startswith("_pick_salt must be 64 hex digits, not '12AB'")
    # the salt removed, to pass the hand off as one picked by the old rule: the
    # commitment took the salt's hash
    verdict = verify_history({k: v for k, v in data.items() if k != "_pick_salt"})
    assert verdict.status == "failed"
    assert verdict.reason.startswith(f"{what} or _pick_games does not match _commitment")


@pytest.mark.parametrize("copy", [False, True])
def test_a_hand_picked_by_the_old_rule_still_verifies(copy: bool) -> None:
    """A history of a hand dealt before the pick salt (``_pick_games``, no
    ``_pick_salt``) verifies by the old rule, and says so; a changed game fails."""
    hand = _picked_hand(2, salted=False)
    data = tomllib.loads(write_own_copy(hand, 1) if copy else write_history(hand))
    assert "_pick_salt" not in data and data["_pick_games"] == list(OFFERED)
    picked = hand.game.id
    assert picked == picked_game(bytes.fromhex(data["_hand_hash"]), OFFERED)
    verdict = verify_history(data)
    assert verdict.ok and verdict.reason.endswith(
        f"; the game, {picked}, is the random pick among the games offered "
        "(sdr, rollyourown, rollem521) by the old rule, from the hand's hash alone (no "
        "_pick_salt: the last player to send a seed could have steered it)"), verdict.reason
    other = next(g for g in OFFERED if g != picked)
    verdict = verify_history(_with_game(data, other))
    assert verdict.status == "failed" and verdict.reason.startswith(
        f"the game is {other}, but the random pick among _pick_games "
        f"({', '.join(OFFERED)}) by _hand_hash names {picked}")
    # a salt added afterwards (even the one the key gives) does not make it a
    # salted pick: the commitment took no salt
    salt = hex_text(pick_salt(hand.source.proof.key))
    verdict = verify_history({**data, "_pick_salt": salt})
    assert verdict.status == "failed" and verdict.reason.startswith(
        f"{'_deck_root' if copy else '_deal_key'} or _pick_games or _pick_salt does not "
        "match _commitment"), verdict.reason


def _last_seeders_seeds(commitment: bytes, others: dict[int, str], hand_no: int,
                        want: str, count: int) -> list[str]:
    """What the last player to send a seed (seat 0) can do with what they know
    before the deal (the commitment, the games offered, the others' seeds): try
    seeds offline and keep ``count`` that the pick from the hand's public hash
    (main's rule) gives ``want``."""
    out: list[str] = []
    k = 0
    while len(out) < count:
        seed = f"try-{k}"
        k += 1
        seeds = encode_client_seeds({**others, 0: seed})
        if picked_game(hand_hash(commitment, seeds, hand_no), OFFERED) == want:
            out.append(seed)
    return out


def test_the_last_seed_sender_cannot_steer_the_pick() -> None:
    """The finding of docs/dev/hostile.md: a person alone with computer players
    (empty seeds), the last to send, knows every other seed and the commitment.
    By the old rule every seed they try offline that names the game they want
    does deal it (they steer it at will); with the pick salt the seeds they pick
    that way deal that game only by chance (about 1 in 3), because the pick
    takes a secret they do not hold until the deal."""
    others = {1: "", 2: ""}
    for salted in (False, True):
        hits = 0
        for hand_no in range(1, 21):
            proof = DealProof(hashlib.sha256(b"steer-%d" % hand_no).digest(), {}, hand_no,
                              pick_games=OFFERED, seated={0: "Ann", 1: "Bot1", 2: "Bot2"},
                              pick_salted=salted)
            # what the player was shown before the deal: the commitment and the games
            (seed,) = _last_seeders_seeds(proof.commitment, others, hand_no, "rollem521", 1)
            dealt = proof.with_client_seeds({**others, 0: seed})
            hits += dealt.picked_game() == "rollem521"
        if salted:  # 20 hands at 1 in 3: chance, not steering (fixed keys: no flake)
            assert 2 <= hits <= 12, hits
        else:
            assert hits == 20


def test_rollem_play_bot_picks_verify(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``rollem play`` in dealer's choice: the computer players' picks are the
    committed deal's, each hand's copy carries the games offered and the pick
    salt, verifies, and the same seed picks the same again (the salt comes
    from the deal key, which ``--seed`` fixes)."""
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
                                            data["_pick_games"],
                                            bytes.fromhex(data["_pick_salt"]))
    again = session(tmp_path / "b")
    assert [f.read_text("utf-8") for f in again] == [f.read_text("utf-8") for f in files]


def test_a_sat_out_record_of_a_salted_pick_carries_its_salt() -> None:
    """A hand a player sat out whose game was picked at random: its record in the
    player's next copy (``_sat_out``) carries ``_pick_salt`` (its commitment took
    the salt's hash, so the hash chain needs it); without it, or with another
    salt, the record no longer leads to the copy's ``_prev_hash``."""
    from rollem.verify import _sat_out_record

    sat = DealProof(hashlib.sha256(b"sat").digest(), {1: "", 2: "b"}, 4,
                    pick_games=OFFERED, seated={1: "Bot", 2: "Bea"})
    record = sat.sat_out_header()
    assert record["_pick_salt"] == hex_text(pick_salt(sat.key))
    assert record["_pick_games"] == list(OFFERED)
    nxt = sat.hand_hash()  # the next hand's _prev_hash
    assert _sat_out_record([record], "Ann", 5, nxt) == (4, bytes(32))
    for changed in ({k: v for k, v in record.items() if k != "_pick_salt"},
                    {**record, "_pick_salt": hex_text(bytes(32))}):
        with pytest.raises(ProofError, match="does not hash to _prev_hash"):
            _sat_out_record([changed], "Ann", 5, nxt)
