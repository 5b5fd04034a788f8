"""Commit-reveal deals and ``rollem verify`` (issue 32, docs/verify.md).

The procedure is re-implemented here from its description (docs/verify.md)
with nothing but hashlib and hmac, and a fixed vector pins it: the same
seeds give the same deck on every platform.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import math
import random
import re
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tomli_w

from cli_helpers import run_cli
from rollem import games
from rollem.bots.random_bot import random_action
from rollem.cards import CARDS, format_cards
from rollem.cli.play_cmd import TerminalGame
from rollem.engine.commit_reveal import (
    ZERO_HASH,
    CommittedSource,
    DealProof,
    ProofError,
    check_client_seed,
    encode_client_seeds,
    new_client_seed,
    seeded_proof,
)
from rollem.engine.hand import Hand
from rollem.history import redact, write_history, write_own_copy
from rollem.verify import check_chain, verify_history, verify_text

HISTORIES = Path(__file__).parent / "histories"

# -- the fixed vector ------------------------------------------------------------------

SEED = bytes(range(32))
CLIENTS = {2: "", 0: "abc"}
VECTOR_DECK = ("Ks 3c 3h 6d 9c Kh Kc 8d 6s Ac 9h Js 2s Th As 4h 7s 5h 2h 2d 9s Td 5d 2c 9d "
               "7h 6h 3d 7c 8c 4c Tc Jh Ad Qc Kd 4s 5s Jc 7d Jd Ah Qs Qd 3s 8s 8h 6c Ts 5c "
               "4d Qh")
VECTOR_COMMITMENT = "5576ce645abbf23973c63a02b3cdb0efc8ed3c9bd7dac3845f6b9ad6820b4bde"
VECTOR_HAND_HASH = "30e2aa04283fb581ae332b50e7d66d043d6761499436f72e07652ccb47a481b3"


def _spec_deck(server_seed: bytes, seeds: bytes, hand_no: int) -> list[int]:
    """docs/verify.md, step by step: the HMAC byte stream, 4-byte draws with
    rejection, Fisher-Yates over the cards 0..51 (2c 2d 2h 2s 3c ...)."""
    stream = b""
    counter = 0
    deck = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        while True:
            while len(stream) < 4:
                msg = seeds + hand_no.to_bytes(8, "big") + counter.to_bytes(8, "big")
                stream += hmac.digest(server_seed, msg, "sha256")
                counter += 1
            x, stream = int.from_bytes(stream[:4], "big"), stream[4:]
            if x < 2**32 - 2**32 % n:
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_client_seeds_bytes_are_as_documented() -> None:
    # count 2; seat 0, length 3, "abc"; seat 2, length 0
    assert encode_client_seeds(CLIENTS) == bytes.fromhex("0002" "0000" "0003" "616263"
                                                         "0002" "0000")
    assert encode_client_seeds({}) == b"\x00\x00"


def test_fixed_vector() -> None:
    proof = DealProof(SEED, CLIENTS, 7)
    deck = CommittedSource(proof).shuffle("deck", CARDS)
    assert format_cards(deck) == VECTOR_DECK
    assert format_cards([CARDS[c] for c in _spec_deck(SEED, encode_client_seeds(CLIENTS), 7)]) \
        == VECTOR_DECK
    assert proof.commitment.hex() == VECTOR_COMMITMENT == \
        hashlib.sha256(SEED + ZERO_HASH).hexdigest()
    assert proof.hand_hash().hex() == VECTOR_HAND_HASH == hashlib.sha256(
        bytes.fromhex(VECTOR_COMMITMENT) + SEED + encode_client_seeds(CLIENTS)
        + (7).to_bytes(8, "big")).hexdigest()


def test_every_input_changes_the_deck() -> None:
    base = format_cards(CommittedSource(DealProof(SEED, CLIENTS, 7)).shuffle("deck", CARDS))
    for proof in (DealProof(SEED, {0: "abd", 2: ""}, 7), DealProof(SEED, {0: "abc"}, 7),
                  DealProof(SEED, CLIENTS, 8), DealProof(bytes(32), CLIENTS, 7)):
        assert format_cards(CommittedSource(proof).shuffle("deck", CARDS)) != base


def test_later_shuffles_read_on_in_the_same_stream() -> None:
    """A pool's shuffle after the deck continues the stream (not a fresh one)."""
    source = CommittedSource(DealProof(SEED, CLIENTS, 7))
    source.shuffle("deck", CARDS)
    pool = source.shuffle("pool", [0, 1, 2, 3, 4, 5])
    fresh = CommittedSource(DealProof(SEED, CLIENTS, 7)).shuffle("pool", [0, 1, 2, 3, 4, 5])
    assert sorted(pool) == [0, 1, 2, 3, 4, 5] and source.outcomes[1] == ("pool", tuple(pool))
    assert pool != fresh


@pytest.mark.parametrize("bad", ["x" * 65, "a b", "é", "a\n", 5, None])
def test_a_client_seed_is_short_plain_text(bad: object) -> None:
    with pytest.raises(ProofError, match="0 to 64 characters of A-Z a-z 0-9 _ -"):
        check_client_seed(bad)


# -- uniformity: chi-squared over 100,000 decks -----------------------------------------


def _many_decks(count: int, *, byte_draws: bool = False) -> np.ndarray:
    """``count`` decks (hands 0..count-1 of one server seed), vectorised: the
    HMAC blocks per deck, then Fisher-Yates on every deck at once.  With
    ``byte_draws``, a biased variant: 1-byte draws taken modulo n."""
    seeds = encode_client_seeds({0: "chi", 1: "squared"})
    size = 7 if not byte_draws else 2  # 51 draws of 4 bytes: 204 <= 7 * 32
    raw = b"".join(hmac.digest(SEED, seeds + h.to_bytes(8, "big") + k.to_bytes(8, "big"),
                               "sha256") for h in range(count) for k in range(size))
    if byte_draws:
        x = np.frombuffer(raw, dtype=np.uint8).reshape(count, 64)[:, :51].astype(np.int64)
    else:
        x = np.frombuffer(raw, dtype=">u4").reshape(count, 56)[:, :51].astype(np.int64)
    n = np.arange(52, 1, -1)
    if not byte_draws:
        limit = 2**32 - (2**32 % n)
        rejected = (x >= limit).any(axis=1)
    else:
        rejected = np.zeros(count, dtype=bool)
    j = x % n
    decks = np.tile(np.arange(52), (count, 1))
    rows = np.arange(count)
    for col, i in enumerate(range(51, 0, -1)):
        a = decks[rows, i].copy()
        decks[rows, i] = decks[rows, j[:, col]]
        decks[rows, j[:, col]] = a
    for r in np.flatnonzero(rejected):  # (about one deck in 40 million)
        proof = DealProof(SEED, {0: "chi", 1: "squared"}, int(r))
        decks[r] = [int(c) for c in CommittedSource(proof).shuffle("deck", CARDS)]
    return decks


def _chi_squared(decks: np.ndarray) -> float:
    counts = np.zeros((52, 52))
    for pos in range(52):
        counts[:, pos] = np.bincount(decks[:, pos], minlength=52)
    expected = len(decks) / 52
    return float(((counts - expected) ** 2 / expected).sum())


def _bounds(df: int, z: float) -> tuple[float, float]:
    """Wilson-Hilferty: the chi-squared quantiles at -z and +z standard deviations."""
    def q(zz: float) -> float:
        return df * (1 - 2 / (9 * df) + zz * math.sqrt(2 / (9 * df))) ** 3
    return q(-z), q(z)


def test_the_vectorised_decks_are_the_sources() -> None:
    decks = _many_decks(50)
    for h in range(50):
        proof = DealProof(SEED, {0: "chi", 1: "squared"}, h)
        assert list(decks[h]) == [int(c) for c in CommittedSource(proof).shuffle("deck", CARDS)]


def test_card_positions_are_uniform_over_100000_decks() -> None:
    """Each card at each position 1/52 of the time: the chi-squared statistic
    of the 52x52 table (2601 degrees of freedom) lies within 3.72 standard
    deviations (two-sided p = 0.0002); a biased shuffle (1-byte draws taken
    modulo n) is far outside."""
    low, high = _bounds(51 * 51, 3.72)
    stat = _chi_squared(_many_decks(100_000))
    assert low < stat < high, (low, stat, high)
    assert _chi_squared(_many_decks(100_000, byte_draws=True)) > 2 * high


# -- histories of every shipped game verify --------------------------------------------


def _play(game: str, players: int, k: int, *, stop: int | None = None,
          prev: bytes = ZERO_HASH) -> Hand:
    """A hand of random legal actions from committed seeds (``stop``: that many actions)."""
    rng = random.Random(k)
    proof = DealProof(hashlib.sha256(f"{game}{k}".encode()).digest(),
                      {s: f"c{s}x{k}" for s in range(players)}, k, prev)
    hand = Hand(game, [200] * players, button=k % players, source=CommittedSource(proof))
    while not hand.is_over and (stop is None or len(hand.actions) < stop):
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    return hand


@pytest.mark.parametrize("game", games.shipped_ids())
def test_every_shipped_games_histories_verify(game: str) -> None:
    g = games.get(game)
    assert len(games.shipped_ids()) == 11
    for k, players in enumerate((g.min_players, min(g.max_players, 5))):
        hand = _play(game, players, k)
        verdict = verify_text(write_history(hand))
        assert verdict.status == "verified", verdict.reason
        dealt = sum(len(e.data.get("cards", [0])) for e in hand.events if e.kind in (
            "deal_hole", "draw_deal", "deal_up", "board", "burn", "dead", "wild", "pool_draw"))
        assert verdict.cards == dealt > 0
        assert verdict.commitment == hand.source.proof.commitment.hex().upper()  # type: ignore[union-attr]
        for seat in range(players):
            copy = verify_text(write_own_copy(hand, seat))
            assert copy.ok and copy.status in ("verified", "partial"), copy.reason
            assert copy.hand_hash == verdict.hand_hash


def test_a_copy_before_the_end_reveals_nothing_and_verifies_after() -> None:
    hand = _play("holdem", 3, 1, stop=3)
    assert not hand.is_over
    mid = tomllib.loads(write_own_copy(hand, 0))
    assert "_server_seed" not in mid and "_hand_hash" not in mid and "_deck" not in mid
    assert mid["_commitment"] == hand.source.proof.commitment.hex().upper()  # type: ignore[union-attr]
    assert set(mid["_client_seeds"]) == {"0", "1", "2"}
    verdict = verify_history(mid)
    assert verdict.status == "unrevealed" and not verdict.ok
    assert mid["_commitment"] in verdict.reason
    rng = random.Random(1)
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    after = tomllib.loads(write_own_copy(hand, 0))
    assert after["_server_seed"] == hand.source.proof.server_seed.hex().upper()  # type: ignore[union-attr]
    assert after["_commitment"] == mid["_commitment"]
    assert verify_history(after).status == "verified"


def test_a_ryo_copy_is_checked_up_to_the_pool() -> None:
    hand = _play("rollyourown", 3, 2)
    verdict = verify_text(write_own_copy(hand, 1))
    assert verdict.status == "partial" and verdict.ok
    assert "the pool's shuffle holds other players' hidden discards" in verdict.reason
    assert verdict.cards > 0


# -- a changed card, seed, client seed or hand fails, named ------------------------------


def _history(game: str = "holdem", k: int = 3, prev: bytes = ZERO_HASH) -> dict[str, Any]:
    return tomllib.loads(write_history(_play(game, 3, k, prev=prev)))


def _first_hole_line(data: dict[str, Any]) -> int:
    return next(i for i, line in enumerate(data["actions"]) if line.startswith("d dh p2 "))


def test_a_changed_card_fails_naming_it() -> None:
    data = _history()
    i = _first_hole_line(data)
    line = data["actions"][i]
    real = line.split()[3][:2]
    other = next(str(c) for c in CARDS if str(c) not in " ".join(data["actions"]))
    data["actions"][i] = line.replace(real, other, 1)
    verdict = verify_history(data)
    assert verdict.status == "failed"
    assert verdict.reason.startswith(f"line {i + 1} of actions (d dh p2 {other}")
    assert f"the replay deals d dh p2 {real}" in verdict.reason
    assert "the committed seeds" in verdict.reason


def test_a_changed_deck_fails_naming_the_card() -> None:
    data = _history()
    deck = data["_deck"].split()
    deck[4], deck[9] = deck[9], deck[4]
    data["_deck"] = " ".join(deck)
    verdict = verify_history(data)
    assert verdict.reason == f"card 5 of _deck is {deck[4]}, but the seeds put {deck[9]} there"


def test_a_changed_server_seed_fails() -> None:
    data = _history()
    data["_server_seed"] = "00" * 32
    verdict = verify_history(data)
    assert verdict.status == "failed"
    assert verdict.reason.startswith("_server_seed does not match _commitment")


def test_a_changed_client_seed_fails() -> None:
    data = _history()
    data["_client_seeds"]["1"] = "mine"
    verdict = verify_history(data)
    assert verdict.status == "failed"
    assert "_client_seeds" in verdict.reason and "_hand_hash" in verdict.reason
    # and with the hash made to match, the cards no longer do
    data["_hand_hash"] = DealProof.from_fields(data).hand_hash().hex().upper()
    verdict = verify_history(data)
    assert verdict.status == "failed"
    assert "the seeds put" in verdict.reason or "the replay deals" in verdict.reason


def _session(hands: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    prev = ZERO_HASH
    for k in range(hands):
        data = tomllib.loads(write_history(_play("sdr", 3, k, prev=prev)))
        prev = bytes.fromhex(data["_hand_hash"])
        out.append(data)
    return out


def test_a_deleted_or_reordered_hand_breaks_the_chain() -> None:
    session = _session(3)
    verdicts = [verify_history(d) for d in session]
    assert all(v.status == "verified" for v in verdicts)
    assert check_chain(verdicts) is None
    assert check_chain(list(reversed(verdicts))) is None  # the files' order does not matter
    broken = check_chain([verdicts[0], verdicts[2]])
    assert broken is not None and broken.startswith("hand 2 does not follow hand 0")
    assert "hands 1 to 1 are not given" in broken
    # hands 1 and 2 swapped (renumbered): each fails on its own
    one, two = dict(session[1]), dict(session[2])
    one["_hand_no"], two["_hand_no"] = 2, 1
    for data in (one, two):
        verdict = verify_history(data)
        assert verdict.status == "failed" and "_hand_hash" in verdict.reason


def test_an_old_history_has_no_commitment() -> None:
    path = next(iter(sorted(HISTORIES.glob("*.toml"))))
    verdict = verify_text(path.read_text(encoding="utf-8"))
    assert verdict.status == "no_commitment" and not verdict.ok
    assert verdict.reason.startswith("no commitment recorded")


def test_seeds_and_hashes_never_read_as_card_text() -> None:
    """Upper-case hex: a copy's seeds and hashes hold no ``4d`` a reader could
    take for a card (the copy names only cards its player saw)."""
    data = _history()
    for key in ("_commitment", "_prev_hash", "_server_seed", "_hand_hash"):
        assert re.fullmatch(r"[0-9A-F]{64}", data[key]), key
    assert all(re.fullmatch(r"[0-9A-F]*|c\dx\d", v) for v in data["_client_seeds"].values())
    assert re.fullmatch(r"[0-9A-F]{32}", new_client_seed())


def test_redact_keeps_the_seed_only_after_the_hand() -> None:
    data = _history()
    assert "_server_seed" in redact(data, 1)
    del data["_result"]
    assert "_server_seed" not in redact(data, 1) and "_commitment" in redact(data, 1)


# -- the command line -------------------------------------------------------------------


def test_cli_verifies_files_and_their_chain(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    paths = []
    for k, data in enumerate(_session(3)):
        path = tmp_path / f"hand-{k}.toml"
        path.write_text(tomli_w.dumps(data), encoding="utf-8")
        paths.append(str(path))
    code, out, err = run_cli(["verify", *paths], capsys)
    assert code == 0 and err == ""
    assert out.count(": ok: hand ") == 3 and "chain: ok" in out
    code, out, err = run_cli(["verify", "--json", paths[0], paths[2]], capsys)
    got = json.loads(out)
    assert code == 1 and got["ok"] is False and got["chain"]["ok"] is False
    assert [f["status"] for f in got["files"]] == ["verified", "verified"]
    assert got["files"][0]["cards_checked"] > 0 and len(got["files"][0]["server_seed"]) == 64
    old = str(next(iter(sorted(HISTORIES.glob("*.toml")))))
    code, out, err = run_cli(["verify", old], capsys)
    assert code == 1 and "not verified: no commitment recorded" in out
    bad = tmp_path / "bad.toml"
    bad.write_text("not = [toml", encoding="utf-8")
    code, out, err = run_cli(["verify", str(bad)], capsys)
    assert code == 2 and err.startswith("rollem: error: ") and err.count("\n") == 1


def test_play_sessions_verify_as_a_chain(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``rollem play --seed``: each saved copy verifies, and the hands chain; the
    same seed deals the same cards again."""
    def session(folder: Path) -> list[Path]:
        between = [0]

        def answer(prompt: str) -> str:  # check or call; two hands, then quit
            if "Enter = next hand" not in prompt:
                return "c"
            between[0] += 1
            return "" if between[0] < 3 else "q"

        game = TerminalGame(game="sdr", players=3, level="random", stack=200, seed=9,
                            show_odds=False, history_dir=folder, rich=False,
                            read_line=answer, out=io.StringIO())
        game.run()
        return sorted(folder.glob("*/hand-*.toml"))

    files = session(tmp_path / "a")
    assert len(files) == 3
    code, out, err = run_cli(["verify", *map(str, files)], capsys)
    assert code == 0, out + err
    assert "chain: ok" in out
    first = tomllib.loads(files[0].read_text(encoding="utf-8"))
    assert first["_hand_no"] == 1 and first["_prev_hash"] == "00" * 32
    assert first["_server_seed"] == seeded_proof(9, 1).server_seed.hex().upper()
    again = session(tmp_path / "b")
    assert again[0].read_text(encoding="utf-8") == files[0].read_text(encoding="utf-8")
