"""Committed decks and ``rollem verify`` (issue 32, docs/verify.md).

The procedure is re-implemented here from its description (docs/verify.md)
with nothing but hashlib and hmac, and a fixed vector pins it: the same
key and client seeds give the same deck on every platform.  A player's own
copy opens exactly the cards its player saw, and nothing in it gives
another card.
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

from cli_helpers import run_cli as run_wrapped
from cli_helpers import unwrapped
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
    committed_deck,
    deal_permutation,
    encode_client_seeds,
    new_client_seed,
    salt,
    seeded_proof,
)
from rollem.engine.hand import Hand
from rollem.history import HistoryError, read_history, redact, write_history, write_own_copy
from rollem.verify import check_chain, verify_history, verify_text

HISTORIES = Path(__file__).parent / "histories"
CARD = re.compile(r"[2-9TJQKA][cdhs]")

# -- the fixed vector ------------------------------------------------------------------

KEY = bytes(range(32))
CLIENTS = {2: "", 0: "abc"}
VECTOR_DECK = ("4h 4d 5d 7c Ac 5c 9c Jh 9h 3h Js 7s Kd 2c 6s Td 8h 8d Ad 3c Qc 8c Ah Tc 9d "
               "7h 2h Ks 6h 6d 5s 9s 6c 7d Qh 2s Kc Qs 3d 4s Qd Kh Jd 5h As Ts Th Jc 4c 8s 3s 2d")
VECTOR_ROOT = "abca7a9571add72a7be41778a9a10e4d2e337e8aed1e50f3a3a28333a996a3a0"
VECTOR_COMMITMENT = "8e5e90d859cc4b280b628418bd497b37997afbe067988e351d4b9e50e958ee48"
VECTOR_HAND_HASH = "f69669b7e4fed9a67caedacf468c6fa313c1d135a50ee9e4a5829c35b45c8d1e"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``rollem ARGS`` (status, stdout, stderr), its long lines as before they
    were wrapped to 80 columns (s62-term)."""
    code, out, err = run_wrapped(args, capsys)
    return code, unwrapped(out), err


def _spec_shuffle(key: bytes, tag: bytes) -> list[int]:
    """docs/verify.md, step by step: the HMAC byte stream, 4-byte draws with
    rejection, Fisher-Yates over 0..51."""
    stream = b""
    counter = 0
    out = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        while True:
            while len(stream) < 4:
                stream += hmac.digest(key, tag + counter.to_bytes(8, "big"), "sha256")
                counter += 1
            x, stream = int.from_bytes(stream[:4], "big"), stream[4:]
            if x < 2**32 - 2**32 % n:
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def _spec_root(key: bytes) -> bytes:
    deck = _spec_shuffle(key, b"rollem-deck")
    level = [hashlib.sha256(b"rollem-leaf" + bytes([i, deck[i]])
                            + hmac.digest(key, b"rollem-salt" + bytes([i]), "sha256")).digest()
             for i in range(52)] + [bytes(32)] * 12
    while len(level) > 1:
        level = [hashlib.sha256(b"rollem-node" + level[k] + level[k + 1]).digest()
                 for k in range(0, len(level), 2)]
    return level[0]


def _spec_dealt(key: bytes, seeds: bytes, hand_no: int, prev: bytes = bytes(32)) -> list[int]:
    deck = _spec_shuffle(key, b"rollem-deck")
    commitment = hashlib.sha256(b"rollem-commit" + _spec_root(key) + prev).digest()
    link = hashlib.sha256(b"rollem-hand" + commitment + seeds
                          + hand_no.to_bytes(8, "big")).digest()
    return [deck[p] for p in _spec_shuffle(link, b"rollem-deal")]


def test_client_seeds_bytes_are_as_documented() -> None:
    # count 2; seat 0, length 3, "abc"; seat 2, length 0
    assert encode_client_seeds(CLIENTS) == bytes.fromhex("0002" "0000" "0003" "616263"
                                                         "0002" "0000")
    assert encode_client_seeds({}) == b"\x00\x00"


def test_fixed_vector() -> None:
    proof = DealProof(KEY, CLIENTS, 7)
    deck = CommittedSource(proof).shuffle("deck", CARDS)
    assert format_cards(deck) == VECTOR_DECK
    seeds = encode_client_seeds(CLIENTS)
    assert format_cards([CARDS[c] for c in _spec_dealt(KEY, seeds, 7)]) == VECTOR_DECK
    assert proof.root.hex() == VECTOR_ROOT == _spec_root(KEY).hex()
    assert proof.commitment.hex() == VECTOR_COMMITMENT == hashlib.sha256(
        b"rollem-commit" + bytes.fromhex(VECTOR_ROOT) + ZERO_HASH).hexdigest()
    assert proof.hand_hash().hex() == VECTOR_HAND_HASH == hashlib.sha256(
        b"rollem-hand" + bytes.fromhex(VECTOR_COMMITMENT) + seeds
        + (7).to_bytes(8, "big")).hexdigest()


def test_an_opening_leads_to_the_root() -> None:
    proof = DealProof(KEY, CLIENTS, 7)
    for pos in (0, 1, 31, 51):
        o = proof.opening(pos)
        assert o.card == committed_deck(KEY)[pos] and o.salt == salt(KEY, pos)
        assert len(o.path) == 6 and o.root() == proof.root
        for wrong in ({"card": (o.card + 1) % 52}, {"pos": (pos + 1) % 52},
                      {"salt": bytes(32)}):
            assert type(o)(**{**o.__dict__, **wrong}).root() != proof.root


def test_every_input_changes_the_deck() -> None:
    base = format_cards(CommittedSource(DealProof(KEY, CLIENTS, 7)).shuffle("deck", CARDS))
    for proof in (DealProof(KEY, {0: "abd", 2: ""}, 7), DealProof(KEY, {0: "abc"}, 7),
                  DealProof(KEY, CLIENTS, 8), DealProof(bytes(32), CLIENTS, 7),
                  DealProof(KEY, CLIENTS, 7, bytes([1]) * 32)):
        assert format_cards(CommittedSource(proof).shuffle("deck", CARDS)) != base


def test_the_permutation_holds_no_secret() -> None:
    """``P`` comes from the hand hash alone (public once the client seeds are in):
    anyone can compute it; the dealt deck is the secret ``D`` moved by it."""
    proof = DealProof(KEY, CLIENTS, 7)
    perm = deal_permutation(proof.hand_hash())
    assert sorted(perm) == list(range(52)) and perm == proof.permutation()
    dealt = CommittedSource(proof).shuffle("deck", CARDS)
    assert [int(c) for c in dealt] == [committed_deck(KEY)[p] for p in perm]


def test_later_shuffles_read_on_in_the_secret_stream() -> None:
    """A pool's shuffle after the deck continues the key's stream (not a fresh
    one, and not the public one: the players could tell where their own
    discards went)."""
    source = CommittedSource(DealProof(KEY, CLIENTS, 7))
    source.shuffle("deck", CARDS)
    pool = source.shuffle("pool", list(range(12)))
    again = CommittedSource(DealProof(KEY, CLIENTS, 7))
    again.shuffle("deck", CARDS)
    assert again.shuffle("pool", list(range(12))) == pool
    other = CommittedSource(DealProof(bytes(32), CLIENTS, 7))  # same seeds, another key
    other.shuffle("deck", CARDS)
    assert sorted(pool) == list(range(12)) and source.outcomes[1] == ("pool", tuple(pool))
    assert other.shuffle("pool", list(range(12))) != pool


def test_a_copied_source_reads_on_where_the_original_would() -> None:
    """A hand is deep-copied to apply an action off the event loop (issue 34:
    ``GameSession.hand_copy``): its committed source copies too (before, its
    HMAC object could not be copied, and a costly game's table froze at its
    first action), and the copy's later shuffles are the original's."""
    import copy

    source = CommittedSource(DealProof(KEY, CLIENTS, 7))
    source.shuffle("deck", CARDS)
    source.shuffle("pool", list(range(5)))  # (the stream is read part-way)
    twin = copy.deepcopy(source)
    assert twin.shuffle("pool", list(range(30))) == source.shuffle("pool", list(range(30)))
    assert twin.outcomes == source.outcomes


@pytest.mark.parametrize("bad", ["x" * 65, "a b", "é", "a\n", 5, None])
def test_a_client_seed_is_short_plain_text(bad: object) -> None:
    with pytest.raises(ProofError, match="0 to 64 characters of A-Z a-z 0-9 _ -"):
        check_client_seed(bad)


# -- uniformity: chi-squared over 50,000 dealt decks ------------------------------------


def _vec_shuffles(keys: list[bytes], tag: bytes, *, byte_draws: bool = False) -> np.ndarray:
    """Fisher-Yates of 0..51 from ``stream(key, tag)`` for every key at once
    (vectorised).  With ``byte_draws``, a biased variant: 1-byte draws taken
    modulo n."""
    count = len(keys)
    size = 7 if not byte_draws else 2  # 51 draws of 4 bytes: 204 <= 7 * 32
    raw = b"".join(hmac.digest(key, tag + k.to_bytes(8, "big"), "sha256")
                   for key in keys for k in range(size))
    if byte_draws:
        x = np.frombuffer(raw, dtype=np.uint8).reshape(count, 64)[:, :51].astype(np.int64)
    else:
        x = np.frombuffer(raw, dtype=">u4").reshape(count, 56)[:, :51].astype(np.int64)
    n = np.arange(52, 1, -1)
    rejected = (x >= 2**32 - (2**32 % n)).any(axis=1) if not byte_draws \
        else np.zeros(count, dtype=bool)
    j = x % n
    out = np.tile(np.arange(52), (count, 1))
    rows = np.arange(count)
    for col, i in enumerate(range(51, 0, -1)):
        a = out[rows, i].copy()
        out[rows, i] = out[rows, j[:, col]]
        out[rows, j[:, col]] = a
    for r in np.flatnonzero(rejected):  # (about one shuffle in 40 million)
        out[r] = committed_deck(keys[r]) if tag == b"rollem-deck" else deal_permutation(keys[r])
    return out


def _keys(tag: bytes, count: int) -> list[bytes]:
    return [hashlib.sha256(tag + r.to_bytes(4, "big")).digest() for r in range(count)]


def _dealt_decks(count: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` secret decks ``D`` (keys ``SHA-256("key" ‖ r)``) and the decks
    dealt from them, ``D[P[i]]`` with ``P`` from hand hashes ``SHA-256("hand" ‖
    r)`` (a hand hash is a SHA-256 of the commitment and the client seeds; the
    Merkle roots of 50,000 keys would take the test too long, and the exact
    path is pinned by the test below)."""
    deck = _vec_shuffles(_keys(b"key", count), b"rollem-deck")
    perm = _vec_shuffles(_keys(b"hand", count), b"rollem-deal")
    return deck, np.take_along_axis(deck, perm, axis=1)


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
    decks = _dealt_decks(50)[1]
    for r in range(50):
        key = hashlib.sha256(b"key" + r.to_bytes(4, "big")).digest()
        link = hashlib.sha256(b"hand" + r.to_bytes(4, "big")).digest()
        assert list(decks[r]) == [committed_deck(key)[p] for p in deal_permutation(link)]
    # and the source deals D[P[i]] with P from the proof's own hand hash
    for h in range(5):
        proof = DealProof(KEY, {0: "chi", 1: "squared"}, h)
        dealt = [int(c) for c in CommittedSource(proof).shuffle("deck", CARDS)]
        assert dealt == [committed_deck(KEY)[p] for p in deal_permutation(proof.hand_hash())]


def test_card_positions_are_uniform_over_50000_dealt_decks() -> None:
    """Each card at each position of the deck dealt 1/52 of the time: the
    chi-squared statistic of the 52x52 table (2601 degrees of freedom) lies
    within 3.72 standard deviations (two-sided p = 0.0002); and so does the
    secret deck ``D`` alone (what an honest dealer deals when every client
    seed is empty); a biased shuffle (1-byte draws taken modulo n) is far
    outside, above twice the upper bound.

    50,000 decks (100,000 before s74-suite2, twice the CPU): the biased
    shuffle's statistic grows as 2601 + 0.087 x decks (4,258 at 20,000, 11,260
    at 100,000), so twice the bound (5,756) needs 36,000 decks; at 50,000 it
    is 6,754, 6.7 of its standard deviations (sqrt(2 x 2601 + 4 x 4,150))
    above."""
    decks = 50_000
    low, high = _bounds(51 * 51, 3.72)
    secret, dealt = _dealt_decks(decks)
    for drawn in (dealt, secret):
        stat = _chi_squared(drawn)
        assert low < stat < high, (low, stat, high)
    biased = _vec_shuffles(_keys(b"key", decks), b"rollem-deck", byte_draws=True)
    assert _chi_squared(biased) > 2 * high


# -- histories of every shipped game verify --------------------------------------------

_EXCHANGE_GAMES = ("draw5", "deuces-wild", "rollem521", "rollyourown")
_DEALT = ("deal_hole", "draw_deal", "deal_up", "board", "burn", "dead", "wild", "pool_draw")


def _play(game: str, players: int, k: int, *, stop: int | None = None,
          prev: bytes = ZERO_HASH) -> Hand:
    """A hand of random legal actions from a committed deck (``stop``: that many actions)."""
    rng = random.Random(k)
    proof = DealProof(hashlib.sha256(f"{game}{k}".encode()).digest(),
                      {s: f"c{s}x{k}" for s in range(players)}, k, prev)
    hand = Hand(game, [200] * players, button=k % players, source=CommittedSource(proof))
    while not hand.is_over and (stop is None or len(hand.actions) < stop):
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    return hand


def _hands(game: str) -> list[Hand]:
    g = games.get(game)
    return [_play(game, players, k) for k, players in
            enumerate((g.min_players, min(g.max_players, 5), 3, 4))]


@pytest.mark.parametrize("game", games.shipped_ids())
def test_every_shipped_games_histories_and_copies_verify(game: str) -> None:
    assert len(games.shipped_ids()) == 11
    for hand in _hands(game):
        verdict = verify_text(write_history(hand))
        assert verdict.status == "verified", verdict.reason
        dealt = sum(len(e.data.get("cards", [0])) for e in hand.events if e.kind in _DEALT)
        assert verdict.cards == dealt > 0 and verdict.opened == 52
        assert verdict.commitment == hand.source.proof.commitment.hex().upper()  # type: ignore[union-attr]
        for seat in range(hand.n):
            copy = verify_text(write_own_copy(hand, seat))
            assert copy.ok, copy.reason
            assert copy.status == "verified" or game in ("rollem521", "rollyourown"), copy.reason
            assert copy.hand_hash == verdict.hand_hash and copy.cards > 0


def _clear(copy: dict[str, Any]) -> set[str]:
    """The cards a copy names in the clear (its lines, shown cards): read as a
    person would, by their text."""
    text = tomli_w.dumps({k: v for k, v in copy.items() if k != "_openings"})
    return set(CARD.findall(text))


@pytest.mark.parametrize("game", games.shipped_ids())
def test_a_copy_opens_exactly_the_cards_its_player_saw(game: str) -> None:
    """For every seat's copy of seeded hands: every opened card is one the copy
    names in the clear, and (in a game where nobody exchanges cards in secret)
    every card it names is opened; the copy holds no deal key, no deck order,
    and no salt of a position it does not open, so no hidden card can be
    computed from it (a leaf's hash without its salt cannot be tried card by
    card)."""
    for hand in _hands(game):
        proof = hand.source.proof
        assert proof is not None
        assert tomllib.loads(write_history(hand))["_deal_key"] == proof.key.hex().upper()
        for seat in range(hand.n):
            text = write_own_copy(hand, seat)
            copy = tomllib.loads(text)
            opened = {o["card"] for o in copy["_openings"]}
            clear = _clear(copy)
            assert opened <= clear, (seat, opened - clear)
            if game not in _EXCHANGE_GAMES:
                assert opened == clear, (seat, clear - opened)
            # the seat's own cards and the face-up cards are opened
            mine = {str(c) for e in hand.events if e.kind in ("deal_hole", "deal_up")
                    and e.seat == seat for c in e.data["cards"]}
            board = {str(c) for e in hand.events if e.kind == "board" for c in e.data["cards"]}
            assert mine | board <= opened
            # never a burn, never a card the seat did not see
            burns = {str(e.data["card"]) for e in hand.events if e.kind == "burn"}
            assert not opened & burns and not opened - clear
            for key in ("_deal_key", "_deck", "_shuffles"):
                assert key not in copy
            upper = text.upper()
            assert proof.key.hex().upper() not in upper
            open_pos = {o["pos"] for o in copy["_openings"]}
            for pos in range(52):
                assert (salt(proof.key, pos).hex().upper() in upper) == (pos in open_pos)
            # each opening is the card at that position of the secret deck
            assert all(str(CARDS[proof.deck[o["pos"]]]) == o["card"] for o in copy["_openings"])


def test_a_folded_hand_is_not_opened_to_anyone_else() -> None:
    """Hold'em: a seat that folds; every other seat's copy opens neither of its
    cards, nor a burn, and so cannot compute them."""
    for k in range(40):
        hand = _play("holdem", 4, k)
        folded = [e.seat for e in hand.events if e.kind == "fold"]
        shown = {e.seat for e in hand.events if e.kind == "show"}
        if folded and folded[0] not in shown:
            break
    seat = folded[0]
    assert seat is not None
    hole = {str(c) for c in hand.hole[seat]}
    for other in range(hand.n):
        copy = tomllib.loads(write_own_copy(hand, other))
        opened = {o["card"] for o in copy["_openings"]}
        assert (hole <= opened) == (other == seat)
        assert not hole & opened or other == seat


def test_a_copy_before_the_end_has_no_openings_and_verifies_after() -> None:
    hand = _play("holdem", 3, 1, stop=3)
    assert not hand.is_over
    mid = tomllib.loads(write_own_copy(hand, 0))
    assert "_openings" not in mid and "_deal_key" not in mid and "_deck" not in mid
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
    assert after["_commitment"] == mid["_commitment"] and after["_openings"]
    assert "_deal_key" not in after
    assert verify_history(after).status == "verified"


def test_a_ryo_copy_is_checked_up_to_the_pool() -> None:
    hand = _play("rollyourown", 3, 2)
    verdict = verify_text(write_own_copy(hand, 1))
    assert verdict.status == "partial" and verdict.ok
    assert "the pool's shuffle (its order is the dealer's secret" in verdict.reason
    assert verdict.cards > 0


@pytest.mark.parametrize(("seat", "who"), [(0, "you turn up 3s"), (1, "Ann turns up 3s")])
def test_where_a_copys_check_stopped_is_told_in_players_words(seat: int, who: str) -> None:
    """Issue 26: the page's verify panel said "not checked from line 7 of actions (p1
    exp 3s) on"; told to a player it names the action as the narration does (the
    log's and rollem replay's words) and its place in the hand, as
    ``rollem replay`` of the same copy tells that line.  ``rollem verify`` keeps the
    file's terms (it checks a file)."""
    from rollem.narration import narrate_history

    hand = _play("rollyourown", 3, 2)  # seat 0 turns up 3s first, after 3 discards
    text = write_own_copy(hand, seat, players=["Ann", "Bob", "Cat"])
    verdict = verify_text(text)
    assert verdict.status == "partial"
    assert "not checked from line 7 of actions (p1 exp 3s) on" in verdict.reason
    assert f"; not checked from the fourth action ({who}) on: the pool's shuffle" \
        in verdict.told
    assert not re.search(r"line \d+ of actions|\bp\d\b|\bexp\b", verdict.told)
    told = narrate_history(text).text()
    assert f"\n{who[0].upper()}{who[1:]}." in told  # the replay's own sentence
    assert "told" not in verdict.to_dict()  # rollem verify --json: unchanged


def test_ordinals_past_ten() -> None:
    from rollem.narration.words import ordinal

    assert [ordinal(k) for k in (1, 10, 11, 12, 13, 21, 22, 23, 52, 101, 111, 112)] == [
        "first", "tenth", "11th", "12th", "13th", "21st", "22nd", "23rd", "52nd", "101st",
        "111th", "112th"]


# -- a changed card, opening, key, client seed or hand fails, named --------------------


def _history(game: str = "holdem", k: int = 3, prev: bytes = ZERO_HASH) -> dict[str, Any]:
    return tomllib.loads(write_history(_play(game, 3, k, prev=prev)))


def _copy(seat: int = 0, game: str = "holdem", k: int = 3) -> dict[str, Any]:
    return tomllib.loads(write_own_copy(_play(game, 3, k), seat))


def _first_hole_line(data: dict[str, Any], seat: str = "p2") -> int:
    return next(i for i, line in enumerate(data["actions"]) if line.startswith(f"d dh {seat} "))


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
    assert "the committed deck" in verdict.reason


def test_a_changed_card_in_a_copy_fails_naming_it() -> None:
    data = _copy()
    i = _first_hole_line(data, "p1")
    line = data["actions"][i]
    real = line.split()[3][:2]
    # a card the copy does not open: no opening for it
    other = next(str(c) for c in CARDS if str(c) not in _clear(data))
    bad = dict(data, actions=list(data["actions"]))
    bad["actions"][i] = line.replace(real, other, 1)
    verdict = verify_history(bad)
    assert verdict.status == "failed"
    assert verdict.reason == (f"line {i + 1} of actions ({bad['actions'][i]}): the copy names "
                              f"{other} here but _openings does not open it")
    # an opened card moved to another place: the deck put another card there
    board = next(o["card"] for o in data["_openings"] if o["card"] not in line)
    bad["actions"][i] = line.replace(real, board, 1)
    verdict = verify_history(bad)
    assert verdict.status == "failed" and f"the replay deals d dh p1 {real}" in verdict.reason


def test_a_changed_opening_fails_naming_it() -> None:
    data = _copy()
    for field, value in (("card", None), ("salt", "00" * 32), ("pos", None)):
        bad = dict(data, _openings=[dict(o) for o in data["_openings"]])
        o = bad["_openings"][1]
        if field == "card":
            value = next(str(c) for c in CARDS if str(c) not in _clear(data))
        if field == "pos":
            value = (o["pos"] + 1) % 52
        o[field] = value
        verdict = verify_history(bad)
        assert verdict.status == "failed"
        assert verdict.reason.startswith("opening 2 of _openings (position ")
        assert "does not match the commitment" in verdict.reason
    bad = dict(data, _openings=data["_openings"][1:])
    verdict = verify_history(bad)
    assert verdict.status == "failed" and "_openings does not open it" in verdict.reason


def test_a_changed_key_fails() -> None:
    data = _history()
    data["_deal_key"] = "00" * 32
    verdict = verify_history(data)
    assert verdict.status == "failed"
    assert verdict.reason.startswith("_deck_root is not the root _deal_key gives")
    del data["_deck_root"]
    verdict = verify_history(data)
    assert verdict.reason.startswith("_deal_key does not match _commitment")


@pytest.mark.parametrize("copy", [False, True])
def test_a_changed_client_seed_fails(copy: bool) -> None:
    data = _copy() if copy else _history()
    data["_client_seeds"]["1"] = "mine"
    verdict = verify_history(data)
    assert verdict.status == "failed"
    assert "_client_seeds" in verdict.reason and "_hand_hash" in verdict.reason
    # and with the hash made to match, the permutation moves the cards: they no longer do
    from rollem.engine.commit_reveal import encode_client_seeds as enc
    from rollem.engine.commit_reveal import hand_hash
    link = hand_hash(bytes.fromhex(data["_commitment"]), enc({int(k): v for k, v in
                                                             data["_client_seeds"].items()}),
                     data["_hand_no"])
    data["_hand_hash"] = link.hex().upper()
    verdict = verify_history(data)
    assert verdict.status == "failed"
    assert "the committed deck puts" in verdict.reason or "the replay deals" in verdict.reason


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
    # copies chain as the full histories do
    copies = [verify_history(redact(d, 1)) for d in session]
    assert [c.hand_hash for c in copies] == [v.hand_hash for v in verdicts]
    assert check_chain(copies + verdicts) is None
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


def test_keys_and_hashes_never_read_as_card_text() -> None:
    """Upper-case hex: a copy's hashes and salts hold no ``4d`` a reader could
    take for a card (the copy names only cards its player saw)."""
    data = _history()
    for key in ("_commitment", "_prev_hash", "_deal_key", "_hand_hash", "_deck_root"):
        assert re.fullmatch(r"[0-9A-F]{64}", data[key]), key
    assert all(re.fullmatch(r"[0-9A-F]*|c\dx\d", v) for v in data["_client_seeds"].values())
    assert re.fullmatch(r"[0-9A-F]{32}", new_client_seed())
    for o in _copy()["_openings"]:
        assert all(re.fullmatch(r"[0-9A-F]{64}", h) for h in [o["salt"], *o["path"]])


def test_redact_opens_only_after_the_hand_and_never_gives_the_key() -> None:
    data = _history()
    assert "_openings" in redact(data, 1) and "_deal_key" not in redact(data, 1)
    del data["_result"]
    mid = redact(data, 1)
    assert "_openings" not in mid and "_deal_key" not in mid and "_commitment" in mid


def test_a_rewritten_result_or_finishing_stacks_fails() -> None:
    """The deal checked, a history whose result was rewritten afterwards is
    no hand this deck dealt: a full history is compared with its replay (was:
    only ``_result`` pots, net and carried; a changed ``finishing_stacks``
    passed), and a copy is checked as ``rollem replay`` checks it (was: a
    copy's ``finishing_stacks``, ``_result.net`` and pots were not looked at)."""
    data = _history()
    assert data["finishing_stacks"] == [200, 208, 192]  # seat 1 won 8 (the seed's hand)
    assert verify_history(data).status == "verified"
    data["finishing_stacks"] = [201, 207, 192]
    verdict = verify_history(data)
    assert verdict.status == "failed"
    assert verdict.reason == ("recorded finishing_stacks [201, 207, 192] differs from the "
                              "replay's [200, 208, 192] (the hand dealt from the committed deck)")
    copy = _copy()
    assert copy["finishing_stacks"] == [200, 208, 192] and verify_history(copy).ok
    bad = dict(copy, finishing_stacks=[201, 208, 191])
    verdict = verify_history(bad)
    assert verdict.status == "failed"
    assert verdict.reason == ("this player's copy describes a hand that cannot happen: its "
                              "finishing_stacks [201, 208, 191] are not its starting stacks "
                              "plus its _result.net: [200, 208, 192]")
    bad = tomllib.loads(tomli_w.dumps(copy))
    bad["_result"]["net"] |= {"0": 1, "1": 7}
    verdict = verify_history(bad)
    assert verdict.status == "failed" and verdict.reason.startswith(
        "this player's copy describes a hand that cannot happen: its _result.net says seat 0 "
        "made +1, but it put 0 in the pot")
    bad = tomllib.loads(tomli_w.dumps(copy))
    bad["_result"]["pots"][0]["amount"] = 18
    verdict = verify_history(bad)
    assert verdict.status == "failed" and verdict.reason.endswith(
        "its _result pots (amount, eligible) [(18, [1])] differ from its actions' [(16, [1])]")


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
    assert got["files"][0]["cards_checked"] > 0 and got["files"][0]["cards_opened"] == 52
    old = str(next(iter(sorted(HISTORIES.glob("*.toml")))))
    code, out, err = run_cli(["verify", old], capsys)
    assert code == 1 and "not verified: no commitment recorded" in out
    bad = tmp_path / "bad.toml"
    bad.write_text("not = [toml", encoding="utf-8")
    code, out, err = run_cli(["verify", str(bad)], capsys)
    assert code == 2 and err.startswith("rollem: error: ") and err.count("\n") == 1


def test_cli_says_a_game_file_or_an_empty_file_is_not_a_hand_history(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out of issue 33 (branch s50-tryout): a game file or an empty file was
    "not verified: no commitment recorded (a hand dealt before issue 32 ...)", exit 1,
    as if it were an old hand; ``rollem replay`` says what it is."""
    game_file = tmp_path / "sdr.toml"
    game_file.write_text(games.get("sdr").spec.text, encoding="utf-8")  # type: ignore[union-attr]
    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    code, out, err = run_cli(["verify", str(game_file)], capsys)
    assert (code, out) == (2, "")
    assert err == (f"rollem: error: {game_file}: this is a game file, not a hand history: "
                   "play it with rollem play --game-file FILE (rollem check-game FILE "
                   "checks it)\n")
    code, out, err = run_cli(["verify", str(empty)], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"rollem: error: {empty}: the history is empty (no fields)")


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
    assert first["_commitment"] == seeded_proof(9, 1).commitment.hex().upper()
    assert "_deal_key" not in first and first["_openings"]
    again = session(tmp_path / "b")
    assert again[0].read_text(encoding="utf-8") == files[0].read_text(encoding="utf-8")
    # a hand left out between them: said to the player reading their own copies
    # (s60-fresh: "You's copies hold only the hands You was dealt into")
    code, out, err = run_cli(["verify", str(files[0]), str(files[2])], capsys)
    assert code == 0, out + err
    assert out.splitlines()[-1] == (
        "chain: ok (each hand's commitment includes the previous hand; hand 2 is not in the "
        "files: not checked across it (your copies hold only the hands you were dealt "
        "into))")


def test_copies_of_one_hand_must_agree() -> None:
    """A dealer who committed to a deck holding a card twice could open it to
    two players at two positions, and each copy alone verifies: checked
    together, they fail, naming the card."""
    key = hashlib.sha256(b"twice").digest()
    proof = DealProof(key, {0: "a", 1: "b"}, 1)
    copies = [verify_history(redact(tomllib.loads(write_history(
        _play_with(proof, 2))), seat)) for seat in (0, 1)]
    assert check_chain(copies) is None
    # the same hand hash, a card claimed at another position
    forged = copies[1]
    pos, card = next(iter(forged.positions.items()))
    forged.positions = {(pos + 1) % 52: card} if (pos + 1) % 52 not in copies[0].positions \
        else {(pos + 2) % 52: card}
    copies[0].positions[pos] = card
    broken = check_chain(copies)
    assert broken is not None and f"{CARDS[card]} is opened at positions" in broken
    assert broken.endswith("the committed deck holds a card twice")


def _play_with(proof: DealProof, players: int) -> Hand:
    rng = random.Random(1)
    hand = Hand("holdem", [200] * players, button=0, source=CommittedSource(proof))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    return hand


def _attack(copy: dict[str, Any], extra: tuple[bytes, ...] = ()) -> list[tuple[int, int]]:
    """Every (position, card) of a position the copy does not open whose leaf
    (as a Merkle path shows it) matches some 32-byte value in the copy (or
    ``extra``) taken as its salt."""
    values = {bytes.fromhex(h) for h in re.findall(r"[0-9A-F]{64}", tomli_w.dumps(copy))}
    values.update(extra)
    opened = {o["pos"] for o in copy["_openings"]}
    leaves = {bytes.fromhex(o["path"][0]) for o in copy["_openings"]}  # siblings' leaves
    return [(pos, card) for pos in range(52) if pos not in opened for card in range(52)
            for value in values
            if hashlib.sha256(b"rollem-leaf" + bytes([pos, card]) + value).digest() in leaves]


@pytest.mark.parametrize("game", ["holdem", "draw5"])
def test_no_hidden_card_can_be_computed_from_a_copy(game: str) -> None:
    """The attack, rebuilt: take every 32-byte value a copy holds (salts,
    hashes, paths) as a possible salt, and try every card at every position
    it does not open against the leaf hashes its paths show: none matches,
    so the copy's hashes give no hidden card (the old scheme revealed the
    server seed, from which every card followed).  With one hidden
    position's salt added, the same attack finds its card."""
    hand = _play(game, 4, 5)
    proof = hand.source.proof
    assert proof is not None
    for seat in range(hand.n):
        copy = tomllib.loads(write_own_copy(hand, seat))
        assert _attack(copy) == []
    opened = {o["pos"] for o in copy["_openings"]}
    hidden = next(o["pos"] ^ 1 for o in copy["_openings"] if o["pos"] ^ 1 not in opened)
    assert _attack(copy, (salt(proof.key, hidden),)) == [(hidden, proof.deck[hidden])]


def test_cli_verifies_a_session_download(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The web table's session download (``history.phhs``: one player's own copies
    as ``[1]``, ``[2]`` ...) was read as one hand: "not verified: no commitment
    recorded", exit 1, for a session dealt fairly.  Each hand is checked, and the
    chain across them; a hand the player was not dealt into (not in the file) is no
    break, but a rewritten one is."""
    session = _session(5)  # (hands 0 to 4)
    mine = {str(k): redact(data, 0) for k, data in enumerate(session) if k != 2}
    path = tmp_path / "history.phhs"
    path.write_text(tomli_w.dumps(mine), encoding="utf-8")
    code, out, err = run_cli(["verify", str(path)], capsys)
    assert code == 0 and err == "", out + err
    assert out.count(": ok: hand ") == 4 and f"{path} [3]: ok: hand 3: " in out
    assert out.splitlines()[-1] == (
        "chain: ok (each hand's commitment includes the previous hand; hand 2 is not in the "
        "files: not checked across it (seat 0's copies hold only the hands seat 0 was dealt "
        "into))")
    got = json.loads(run_cli(["verify", "--json", str(path)], capsys)[1])
    assert [f["hand_no"] for f in got["files"]] == [0, 1, 3, 4] and got["ok"] is True
    other = tomllib.loads(write_history(_play(  # another hand 3: hand 4 does not follow it
        "sdr", 4, 3, prev=bytes.fromhex(session[2]["_hand_hash"]))))
    assert other["_hand_hash"] != session[3]["_hand_hash"]
    mine["3"] = redact(other, 0)
    path.write_text(tomli_w.dumps(mine), encoding="utf-8")
    code, out, err = run_cli(["verify", str(path)], capsys)
    assert code == 1 and "chain: BROKEN: hand 4 does not follow hand 3" in out, out
    # a standard game's hands are standard PHH there: no commitment, and it says where one is
    path.write_text('[1]\nvariant = "FT"\nactions = ["d dh p1 ????"]\n', encoding="utf-8")
    code, out, err = run_cli(["verify", str(path)], capsys)
    assert code == 1 and out == (f"{path} [1]: not verified: a standard PHH hand (as the web "
                                 "table's session download writes a standard game's hands): it "
                                 "carries no commitment; check the hand's own copy (hand-N.toml) "
                                 "instead\n")
    path.write_text("one = 1\n", encoding="utf-8")
    code, out, err = run_cli(["verify", str(path)], capsys)
    assert code == 2 and err == f"rollem: error: {path}: one is not a hand (a .phhs file " \
        "holds hands as [1], [2] ...)\n"


def test_cli_verifies_a_players_hand_copies_with_hands_sat_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A player's own copies (hand-N.toml, from the web table) of a session in
    which they sat out hands 4 to 8: "chain: BROKEN ... (hands 4 to 8 are not
    given)", exit 1, as the session download was before.  Between one player's
    copies a hand not given is named as not checked; next to a full history or
    between two players' copies it still breaks, and a rewritten hand breaks
    the chain at the next hand given."""
    session = _session(11)  # (hands 0 to 10)

    def write(name: str, data: dict[str, Any]) -> str:
        path = tmp_path / name
        path.write_text(tomli_w.dumps(data), encoding="utf-8")
        return str(path)

    mine = [write(f"hand-{k}.toml", redact(session[k], 0)) for k in (0, 1, 2, 3, 9, 10)]
    code, out, err = run_cli(["verify", *mine], capsys)
    assert code == 0 and err == "", out
    assert out.count(": ok: hand ") == 6
    assert out.splitlines()[-1] == (
        "chain: ok (each hand's commitment includes the previous hand; hands 4 to 8 are not "
        "in the files: not checked across them (seat 0's copies hold only the hands seat 0 "
        "was dealt into))")
    got = json.loads(run_cli(["verify", "--json", *mine], capsys)[1])
    assert got["ok"] is True and got["chain"] == {
        "ok": True, "reason": None, "sat_out": [],
        "not_checked": [{"first": 4, "last": 8, "player": "seat 0"}]}
    # mixed: the session download for hands 0 to 3 and copies of hands 9 and 10
    phhs = write("history.phhs", {str(k): redact(session[k], 0) for k in range(4)})
    code, out, _ = run_cli(["verify", phhs, *mine[4:]], capsys)
    assert code == 0 and "hands 4 to 8 are not in the files" in out, out
    # a full history (the dealer's record of every hand) next to the gap: a break
    full = write("full-3.toml", session[3])
    code, out, _ = run_cli(["verify", *mine[:3], full, *mine[4:]], capsys)
    assert code == 1 and "chain: BROKEN: hand 9 does not follow hand 3" in out, out
    assert "(hands 4 to 8 are not given)" in out
    # another player's copy of hand 9: nothing says seat 0 sat hands 4 to 8 out
    theirs = write("theirs-9.toml", redact(session[9], 1))
    code, out, _ = run_cli(["verify", *mine[:4], theirs], capsys)
    assert code == 1 and "chain: BROKEN: hand 9 does not follow hand 3" in out, out
    # hand 9 rewritten (dealt again after hand 8, as a fair hand 9 would be): hand 10
    # does not follow it
    other = tomllib.loads(write_history(_play(
        "sdr", 4, 9, prev=bytes.fromhex(session[8]["_hand_hash"]))))
    assert other["_hand_no"] == 9 and other["_hand_hash"] != session[9]["_hand_hash"]
    mine[4] = write("hand-9.toml", redact(other, 0))
    code, out, _ = run_cli(["verify", *mine], capsys)
    assert code == 1 and "chain: BROKEN: hand 10 does not follow hand 9" in out, out
    # hand 3 rewritten: hand 4 (given by another player) does not follow it
    mine[3] = write("hand-3.toml", redact(tomllib.loads(write_history(_play(
        "sdr", 4, 3, prev=bytes.fromhex(session[2]["_hand_hash"])))), 0))
    code, out, _ = run_cli(["verify", *mine[:4], write("theirs-4.toml", redact(session[4], 1))],
                           capsys)
    assert code == 1 and "chain: BROKEN: hand 4 does not follow hand 3" in out, out


def test_a_standard_phh_hand_beside_its_own_copy_is_that_copys_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out of s43-try: ``rollem verify DIR/*`` over ``rollem play``'s folder
    of a hold'em session (``hand-N.toml`` and ``session.phhs``) said "not
    verified" for every hand of ``session.phhs`` (standard PHH: no commitment)
    and exited 1, though each hand's own copy beside it verified.  Now a standard
    PHH hand written from a copy also given is that copy's check, saying so; one
    alone, or one that differs from every copy given, is not verified as before."""
    from rollem.phh import write_session_phhs

    prev = ZERO_HASH
    copies = []
    for k in range(3):
        hand = _play("holdem", 3, k, prev=prev)
        prev = bytes.fromhex(tomllib.loads(write_history(hand))["_hand_hash"])
        copies.append(write_own_copy(hand, 0))
        (tmp_path / f"hand-{k + 1:04d}-holdem.toml").write_text(copies[-1], encoding="utf-8")
    session = tmp_path / "session.phhs"
    session.write_text(write_session_phhs(copies), encoding="utf-8")
    assert 'variant = "FT"' in session.read_text(encoding="utf-8")  # standard PHH
    files = sorted(str(p) for p in tmp_path.iterdir())
    code, out, _ = run_cli(["verify", *files], capsys)
    assert code == 0, out
    for k in range(3):
        assert (f"session.phhs [{k + 1}]: ok: hand {k}: the same hand as "
                f"{tmp_path / f'hand-{k + 1:04d}-holdem.toml'}, written from it") in out
    assert out.strip().endswith("chain: ok (each hand's commitment includes the previous hand)")
    # alone, a standard PHH hand is still not verified
    code, out, _ = run_cli(["verify", str(session)], capsys)
    assert code == 1 and out.count("not verified: a standard PHH hand") == 3
    # a hand changed after it was written is no copy's: not verified
    data = tomllib.loads(session.read_text(encoding="utf-8"))
    data["2"]["starting_stacks"][0] += 1
    session.write_text(tomli_w.dumps(data), encoding="utf-8")
    code, out, _ = run_cli(["verify", *files], capsys)
    assert code == 1
    assert "session.phhs [2]: not verified: a standard PHH hand" in out
    assert "session.phhs [1]: ok: hand 0: the same hand as" in out


def test_a_standard_phh_file_with_times_is_not_verified_and_its_chain_not_checked(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``rollem verify`` of a .phhs of standard hands (a card room's, or
    ``rollem play``'s session.phhs of a standard game): each hand is named as
    carrying no commitment. It was an internal error where a hand has a TOML
    time (PHH's ``time = 00:00:09``), and otherwise ended "chain: ok (each
    hand's commitment includes the previous hand)" with no commitment at all."""
    path = Path(__file__).parent / "phh" / "handhq-abs-2009.phhs"
    code, out, err = run_cli(["verify", str(path)], capsys)
    assert (code, err) == (1, "")
    assert out.count(": not verified: a standard PHH hand") == 4
    assert out.endswith("chain: not checked: 0 of the 4 hands carry a commitment, and a "
                        "chain needs two\n")
    code, out, err = run_cli(["verify", "--json", str(path)], capsys)
    chain = json.loads(out)["chain"]
    assert code == 1 and chain["ok"] is False and chain["reason"].startswith("not checked: 0 of")


def test_no_commitment_is_said_without_an_issue_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """s60-fresh: ``rollem verify`` said "a hand dealt before issue 32" (an
    internal issue number) for a history with no commitment; a history converted
    from PHH (``rollem convert --to rollem``, its ``_phh`` kept) is named as such."""
    path = next(iter(sorted(HISTORIES.glob("*.toml"))))
    verdict = verify_text(path.read_text(encoding="utf-8"))
    assert verdict.reason == ("no commitment recorded (a hand dealt before rollem "
                              "committed to its decks, or written by hand): nothing to "
                              "verify")
    phh = tmp_path / "hand.phh"
    phh.write_text('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n'
                   'min_bet = 2\nstarting_stacks = [200, 200]\nactions = [\n'
                   '  "d dh p1 AsKs", "d dh p2 7c2d", "p2 f",\n]\n', encoding="utf-8")
    converted = tmp_path / "hand.toml"
    code, _, err = run_cli(["convert", "--to", "rollem", str(phh), "-o", str(converted)],
                           capsys)
    assert code == 0, err
    code, out, _ = run_cli(["verify", str(converted)], capsys)
    assert code == 1
    assert out == (f"{converted}: not verified: no commitment recorded: a hand converted "
                   "from PHH (rollem convert --to rollem) keeps the PHH file's cards, with "
                   "no committed deck to check them against: nothing to verify\n")


@pytest.mark.parametrize("command", [["verify"], ["replay"], ["convert", "--to", "phh"],
                                     ["export", "--phh"], ["odds", "--seat", "0", "--history"]])
def test_a_game_file_without_format_is_named_a_game_file(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """s60-fresh: ``format`` is optional in a game file (write-your-own-game.md), but
    only a file with it was told apart from a hand history; one without it was
    "there is no variant: a rollem history names its game ..."."""
    text = games.get("sdr").spec.text  # type: ignore[union-attr]
    assert "\nformat = 1\n" in text
    game_file = tmp_path / "mine.toml"
    game_file.write_text(text.replace("\nformat = 1\n", "\n", 1), encoding="utf-8")
    code, out, err = run_cli([*command, str(game_file)], capsys)
    assert (code, out) == (2, "")
    assert err == (f"rollem: error: {game_file}: this is a game file, not a hand history: "
                   "play it with rollem play --game-file FILE (rollem check-game FILE "
                   "checks it)\n")


EMPTY = ("the history is empty (no fields): a hand history names its game, the players' "
         "stacks and their actions (rollem play saves one for every hand; "
         "docs/hand-history.md)")


@pytest.mark.parametrize("command", [["replay"], ["replay", "--result"], ["replay", "--json"],
                                     ["replay", "--lenient"], ["verify"],
                                     ["convert", "--to", "phh"],
                                     ["odds", "--seat", "0", "--history"]])
@pytest.mark.parametrize(("name", "text"), [("empty.toml", ""), ("blank.phh", "# none\n\n")])
def test_an_empty_history_is_named_empty(command: list[str], name: str, text: str,
                                         tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """s71: an empty hand history (or one of comments only) was "there is no
    variant: a rollem history names its game ..."; one line says it is empty,
    naming the file."""
    empty = tmp_path / name
    empty.write_text(text, encoding="utf-8")
    code, out, err = run_cli([*command, str(empty)], capsys)
    assert (code, out) == (2, "")
    assert err == f"rollem: error: {empty}: {EMPTY}\n"


def test_read_history_of_nothing_says_empty() -> None:
    with pytest.raises(HistoryError) as err:
        read_history("\ufeff# no fields\n")
    assert str(err.value) == EMPTY


def test_a_521_copy_stops_at_the_hidden_stacking_not_at_a_bet() -> None:
    """s60-tidy: a 5-2-1 copy said "not checked from line 20 of actions (p2 cbr 4)",
    a bet, though the step it cannot follow is p2's hidden stacking before the
    roll-up (R-521-5: the stacking order decides the cards rolled up, and so who
    acts first); it names that stacking, in the file's terms and in players'."""
    hand = _play("rollem521", 3, 0)
    text = write_own_copy(hand, 0, players=["Ann", "Bob", "Cat"])
    assert tomllib.loads(text)["actions"][15:20] == [
        "p2 stack ?? ?? ?? ?? ??", "p1 stack 7c 4h 9h 2c 9d", "# roll p2 9s",
        "# roll p1 7c", "p2 cbr 4"]
    verdict = verify_text(text)
    assert verdict.status == "partial" and verdict.ok
    assert verdict.reason == (
        "7 cards are where the committed deck put them; not checked from line 16 of "
        "actions (p2 stack ?? ?? ?? ?? ??) on: what follows depends on p2's hidden stacking "
        "order: with stand-in cards in its place, line 20 (p2 cbr 4) cannot be played")
    assert verdict.told == (
        "7 cards are where the committed deck put them; not checked from Bob's hidden "
        "stacking order (after the ninth action) on: what follows depends on it, and you "
        "do not see it")
    several = verify_text(write_own_copy(_play("rollem521", 4, 0), 1,
                                         players=["Ann", "Bob", "Cat", "Dan"]))
    assert "not checked from line 23 of actions (p4 stack ?? ?? ?? ?? ??) on: what follows " \
           "depends on p4's and p1's hidden stacking orders" in several.reason
    assert "not checked from Dan's and Ann's hidden stacking orders (after the 14th " \
           "action) on" in several.told


# -- one way to write a seat (s73-verify) ------------------------------------------------


def test_a_seat_keyed_twice_cannot_show_one_seed_and_hash_another() -> None:
    """A dealer deals with a seed of its own choosing for seat 0 ("evil") and
    writes the copy's ``_client_seeds`` with ``0`` = the seed the player sent
    and ``00`` = "evil": both keys read as seat 0, the later one won, so the
    hash took "evil" while the copy (and the page comparing its seat's seed)
    showed the player's own.  On main that copy verified; now a seat's key must
    be written as rollem writes it (``0``, ``1`` ..., ASCII, no leading zero)."""
    proof = DealProof(KEY, {0: "evil", 1: "bob"}, 4)
    hand = _play_with(proof, 2)
    copy = tomllib.loads(write_own_copy(hand, 0))
    assert verify_history(copy).ok
    forged = {**copy, "_client_seeds": {"0": "mine", "00": "evil", "1": "bob"}}
    verdict = verify_history(forged)
    assert verdict.status == "failed"
    assert verdict.reason == ("_client_seeds must be a table of seat number (0 to 65535, as "
                              "0, 1, 2 ...) -> client seed, not one keyed '00'")
    # the same with a seat written in another script's digits
    arabic = {**copy, "_client_seeds": {"0": "mine", "\u0660": "evil", "1": "bob"}}
    assert verify_history(arabic).reason.endswith("not one keyed '\u0660'")
    seated = {**copy, "_seated": {"0": "Ann", "00": "Eve"}}
    assert verify_history(seated).reason.startswith(
        "_seated must be a table of seat number (0 to 65535, as 0, 1, 2 ...) -> player name")


@pytest.mark.parametrize("change", ["seed key", "seated key", "hole line", "bet line"])
def test_a_superscript_digit_is_refused_not_an_internal_error(
        change: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``²`` is a digit to ``str.isdigit`` but not to ``int``: a copy keyed
    ``"²"`` in ``_client_seeds`` or ``_seated``, or naming seat ``p²``, stopped
    ``rollem verify`` with a traceback (ValueError) on main.  Now each is a
    failed check naming what was wrong (exit 1)."""
    copy = _copy()
    lines = list(copy["actions"])
    if change == "seed key":
        copy["_client_seeds"] = {**copy["_client_seeds"], "\u00b2": "x"}
        want = "_client_seeds must be a table of seat number"
    elif change == "seated key":
        copy["_seated"] = {"\u00b2": "Ann"}
        want = "_seated must be a table of seat number"
    else:
        i = _first_hole_line(copy, "p1") if change == "hole line" else next(
            k for k, line in enumerate(lines) if line.startswith("p1 ") or line.startswith("p2 "))
        lines[i] = lines[i].replace(lines[i].split()[2 if change == "hole line" else 0],
                                    "p\u00b2", 1)
        copy["actions"] = lines
        want = "bad player 'p\u00b2': expected p1..p3"
    verdict = verify_history(copy)
    assert verdict.status == "failed" and want in verdict.reason, verdict.reason
    path = tmp_path / "hand.toml"
    path.write_text(tomli_w.dumps(copy), encoding="utf-8")
    code, out, err = run_cli(["verify", str(path)], capsys)
    assert code == 1 and f"{path}: FAILED: hand 3: " in out and want in out, (out, err)


def test_a_deal_no_client_seed_went_into_says_what_it_does_not_show() -> None:
    """Every client seed empty (no person's seed arrived in time, or only computer
    players): the permutation was known to the dealer when it committed, so the
    check shows the deck fixed before the deal but not that it was not chosen.
    On main the verdict said only "all N cards ... are where the committed deck
    put them", as for a deal every player's seed went into; now it says so, for
    the full history and every copy, and says nothing more when one seed is in."""
    note = ("; no player's client seed went into this deal (every one is empty): the "
            "dealer knew the order it would deal when it committed, so this shows the cards "
            "were fixed before the deal, not that they were not chosen")
    for seeds, unseeded in (({0: "", 1: ""}, True), ({}, True), ({0: "", 1: "x"}, False)):
        hand = _play_with(DealProof(KEY, seeds, 2), 2)
        verdicts = [verify_text(write_history(hand))] + [
            verify_text(write_own_copy(hand, seat)) for seat in range(2)]
        for v in verdicts:
            assert v.ok, v.reason
            assert v.reason.endswith(note) is unseeded, (seeds, v.reason)
            assert v.reason.count("client seed") == unseeded


def test_the_pools_shuffle_takes_the_discards_as_documented() -> None:
    """docs/verify.md, "Later shuffles": the Roll Your Own pool is the discards
    player by player from the dealer's left, each in its ``dis`` line's order,
    shuffled by ``stream(K, "rollem-later" ‖ hand_hash)``.  Re-implemented here
    from those words (the doc said "in seat order", which an independent
    implementation read as from seat 1, and failed whenever the button was not
    the last seat: s73-verify), over hands of 2 to 6 players and every button."""
    def spec_shuffle(items: list[str], key: bytes, tag: bytes) -> list[str]:
        stream, counter, out = b"", 0, list(items)
        for i in range(len(out) - 1, 0, -1):
            while True:
                while len(stream) < 4:
                    stream += hmac.digest(key, tag + counter.to_bytes(8, "big"), "sha256")
                    counter += 1
                x, stream = int.from_bytes(stream[:4], "big"), stream[4:]
                if x < 2**32 - 2**32 % (i + 1):
                    break
            j = x % (i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    buttons = set()
    for k in range(12):
        players = 2 + k % 5
        data = tomllib.loads(write_history(_play("rollyourown", players, 40 + k)))
        discards = {int(line.split()[0][1:]) - 1: line.split()[2:]
                    for line in data["actions"] if line.split()[1:2] == ["dis"]}
        first = data["_button"] + 1
        order = sorted(discards, key=lambda s: (s - first) % players)
        gathered = [c for s in order for c in discards[s]]
        key = bytes.fromhex(data["_deal_key"])
        tag = b"rollem-later" + bytes.fromhex(data["_hand_hash"])
        (pool,) = data["_shuffles"]
        assert pool["label"] == "pool"
        assert " ".join(spec_shuffle(gathered, key, tag)) == pool["cards"]
        buttons.add((players, data["_button"]))
    assert len({b for _, b in buttons}) >= 3  # (not only seat 1 first)


@pytest.mark.parametrize("shuffles", [[5], [{"label": 1, "cards": "Ah"}], [{"label": "pool"}]])
def test_a_malformed_shuffle_record_is_named_in_words(shuffles: list[Any]) -> None:
    """``_shuffles = [5]`` failed with "_deck/_shuffles: 'int' object is not
    subscriptable" (Python's words), ``{label = "pool"}`` with "'cards'"; now
    the record is named with what it must be (s73-verify)."""
    data = {**_history("rollyourown"), "_shuffles": shuffles}
    verdict = verify_history(data)
    assert verdict.status == "failed"
    assert verdict.reason.startswith("_shuffles 1 must be a table of label (text) and cards "
                                     "(a string of cards), not "), verdict.reason
