"""A deal every player can check: commit before the deal, reveal after (issue 32).

Before the first card the dealer (the server, or ``rollem play``) picks a
secret 32-byte *server seed* and announces its *commitment*; each player
then sends a *client seed*, fixed for the hand; every random outcome of the
hand (the deck order, the Roll Your Own pool's shuffle, a 5-2-1 reshuffle)
comes from both; after the hand the server seed is revealed, and anyone can
recompute the deck (``rollem verify``).  The byte layouts below are the
documented procedure (docs/verify.md), so that anyone can re-implement it:

- ``commitment = SHA-256(server_seed ‖ prev_hash)``: 32 + 32 bytes;
  ``prev_hash`` is the previous hand's :func:`DealProof.hand_hash` in the
  same session (32 zero bytes for its first hand): the hand chain.
- ``seeds = count ‖ (seat ‖ length ‖ text)*``: the client seeds, sorted by
  seat; ``count``, ``seat`` and ``length`` are 2-byte big-endian unsigned;
  ``text`` the seed's ASCII bytes (0 to :data:`CLIENT_SEED_MAX` of
  ``[A-Za-z0-9_-]``; the empty seed is the public default of a player who
  sent none in time).
- ``block(k) = HMAC-SHA256(key=server_seed, msg=seeds ‖ hand_no ‖ k)``,
  ``hand_no`` and ``k`` 8-byte big-endian unsigned, ``k = 0, 1, 2, ...``; the
  hand's byte stream is ``block(0) ‖ block(1) ‖ ...``, read on from one
  shuffle to the next.
- ``below(n)``: the next 4 bytes of the stream as a big-endian unsigned
  ``x``; if ``x < 2**32 - (2**32 mod n)``, ``x mod n``, else read 4 more
  (rejection sampling: no modulo bias).
- a shuffle of ``cards`` (in the order the engine lists them: the deck is
  ``2c 2d 2h 2s 3c ... As``): Fisher–Yates, for ``i`` from ``len - 1`` down
  to 1 swap positions ``i`` and ``below(i + 1)``.
- ``hand_hash = SHA-256(commitment ‖ server_seed ‖ seeds ‖ hand_no)``: the
  link the next hand's commitment includes.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rollem.cards import CARDS, Card
from rollem.engine.randomness import RandomSource

__all__ = [
    "CLIENT_SEED_MAX",
    "ZERO_HASH",
    "CommittedSource",
    "DealProof",
    "ProofError",
    "check_client_seed",
    "commitment",
    "encode_client_seeds",
    "hex_text",
    "new_client_seed",
    "seeded_proof",
]

SEED_BYTES = 32
"""A server seed's length: 256 bits."""

ZERO_HASH = bytes(32)
"""The ``prev_hash`` of a session's first hand."""

CLIENT_SEED_MAX = 64
"""Most characters in a client seed."""

_CLIENT_SEED = re.compile(rf"[A-Za-z0-9_-]{{0,{CLIENT_SEED_MAX}}}")


class ProofError(ValueError):
    """A malformed seed, commitment or hash field (one line naming it)."""


def check_client_seed(text: object) -> str:
    """``text`` if it is a valid client seed (0 to 64 of ``[A-Za-z0-9_-]``).

    Raises:
        ProofError: naming what is allowed.
    """
    if not isinstance(text, str) or _CLIENT_SEED.fullmatch(text) is None:
        shown = repr(text)[:40]
        raise ProofError(f"a client seed is 0 to {CLIENT_SEED_MAX} characters of A-Z a-z 0-9 _ -,"
                         f" not {shown}")
    return text


def new_client_seed() -> str:
    """A random client seed (32 hex digits: 128 bits), as the terminal sends."""
    return hex_text(secrets.token_bytes(16))


def hex_text(data: bytes) -> str:
    """Bytes as upper-case hex digits, as histories write seeds and hashes (no
    run of them reads as card text such as ``4d``, which lower case could)."""
    return data.hex().upper()


def encode_client_seeds(seeds: Mapping[int, str]) -> bytes:
    """The client seeds' bytes: count, then per seat (ascending) seat, length, text."""
    out = bytearray(len(seeds).to_bytes(2, "big"))
    for seat in sorted(seeds):
        text = check_client_seed(seeds[seat]).encode("ascii")
        out += seat.to_bytes(2, "big") + len(text).to_bytes(2, "big") + text
    return bytes(out)


def commitment(server_seed: bytes, prev_hash: bytes = ZERO_HASH) -> bytes:
    """``SHA-256(server_seed ‖ prev_hash)``."""
    return hashlib.sha256(server_seed + prev_hash).digest()


def _hex(data: Mapping[str, Any], key: str, size: int = 32) -> bytes:
    value = data.get(key)
    if not isinstance(value, str) or len(value) != 2 * size \
            or any(c not in string.hexdigits for c in value):
        raise ProofError(f"{key} must be {2 * size} hex digits, not {str(value)[:80]!r}")
    return bytes.fromhex(value)


@dataclass(frozen=True)
class DealProof:
    """The seeds of one hand: everything :class:`CommittedSource` needs.

    Attributes:
        server_seed: 32 secret bytes (revealed after the hand).
        client_seeds: seat -> client seed text.
        hand_no: the hand's number in its session (0 or more).
        prev_hash: the previous hand's :meth:`hand_hash` (:data:`ZERO_HASH` first).
    """

    server_seed: bytes
    client_seeds: Mapping[int, str] = field(default_factory=dict)
    hand_no: int = 0
    prev_hash: bytes = ZERO_HASH

    def __post_init__(self) -> None:
        if len(self.server_seed) != SEED_BYTES or len(self.prev_hash) != 32:
            raise ProofError("a server seed and a hand hash are 32 bytes each")
        if not 0 <= self.hand_no < 2**64:
            raise ProofError(f"hand number {self.hand_no} is out of range")
        for seat, text in self.client_seeds.items():
            if not 0 <= seat < 2**16:
                raise ProofError(f"seat {seat} is out of range")
            check_client_seed(text)

    @property
    def commitment(self) -> bytes:
        """:func:`commitment` of the seed and the previous hand's hash."""
        return commitment(self.server_seed, self.prev_hash)

    def seeds_bytes(self) -> bytes:
        return encode_client_seeds(self.client_seeds)

    def hand_hash(self) -> bytes:
        """``SHA-256(commitment ‖ server_seed ‖ seeds ‖ hand_no)``: the chain's link."""
        return hashlib.sha256(self.commitment + self.server_seed + self.seeds_bytes()
                              + self.hand_no.to_bytes(8, "big")).digest()

    def with_client_seeds(self, seeds: Mapping[int, str]) -> DealProof:
        """The same commitment with the client seeds fixed for the hand."""
        return DealProof(self.server_seed, dict(seeds), self.hand_no, self.prev_hash)

    def fields(self, *, reveal: bool = True) -> dict[str, Any]:
        """The history fields: ``_hand_no``, ``_commitment``, ``_prev_hash``,
        ``_client_seeds`` (seat as a decimal string -> seed), and when
        ``reveal`` (after the hand) ``_server_seed`` and ``_hand_hash``; bytes
        as :func:`hex_text`."""
        out: dict[str, Any] = {
            "_hand_no": self.hand_no,
            "_commitment": hex_text(self.commitment),
            "_prev_hash": hex_text(self.prev_hash),
            "_client_seeds": {str(s): self.client_seeds[s] for s in sorted(self.client_seeds)},
        }
        if reveal:
            out["_server_seed"] = hex_text(self.server_seed)
            out["_hand_hash"] = hex_text(self.hand_hash())
        return out

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> DealProof:
        """The proof a history's fields give (they must hold ``_server_seed``).

        Raises:
            ProofError: a missing or malformed field, named.
        """
        hand_no = data.get("_hand_no")
        if type(hand_no) is not int or hand_no < 0:
            raise ProofError(f"_hand_no must be a whole number >= 0, not {hand_no!r}")
        raw = data.get("_client_seeds", {})
        if not isinstance(raw, Mapping) or not all(str(k).isdigit() for k in raw):
            raise ProofError("_client_seeds must be a table of seat number -> client seed")
        seeds = {int(k): v for k, v in raw.items()}
        return cls(_hex(data, "_server_seed"), seeds, hand_no, _hex(data, "_prev_hash"))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for storage with the hand (all of it: the server's own record)."""
        return {"server_seed": self.server_seed.hex(), "hand_no": self.hand_no,
                "prev_hash": self.prev_hash.hex(),
                "client_seeds": {str(s): t for s, t in self.client_seeds.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DealProof:
        return cls(bytes.fromhex(data["server_seed"]),
                   {int(k): str(v) for k, v in data.get("client_seeds", {}).items()},
                   int(data["hand_no"]), bytes.fromhex(data["prev_hash"]))

    @classmethod
    def new(cls, hand_no: int, prev_hash: bytes = ZERO_HASH) -> DealProof:
        """A fresh secret server seed (:mod:`secrets`), no client seeds yet."""
        return cls(secrets.token_bytes(SEED_BYTES), {}, hand_no, prev_hash)


def seeded_proof(seed: int, hand_no: int, prev_hash: bytes = ZERO_HASH,
                 seats: Sequence[int] = (0,)) -> DealProof:
    """Repeatable seeds for ``--seed`` deals: the server seed is
    ``SHA-256("rollem-seed:" ‖ seed ‖ ":" ‖ hand_no)`` (decimal text), and each
    of ``seats`` sends the first 32 hex digits of ``SHA-256("rollem-client:" ‖
    seed ‖ ":" ‖ hand_no ‖ ":" ‖ seat)``."""
    server = hashlib.sha256(f"rollem-seed:{seed}:{hand_no}".encode()).digest()
    clients = {s: hex_text(hashlib.sha256(f"rollem-client:{seed}:{hand_no}:{s}".encode())
                           .digest()[:16]) for s in seats}
    return DealProof(server, clients, hand_no, prev_hash)


class _Stream:
    """The hand's HMAC-SHA256 byte stream and unbiased integers from it."""

    def __init__(self, proof: DealProof) -> None:
        self._mac = hmac.new(proof.server_seed, digestmod=hashlib.sha256)
        self._prefix = proof.seeds_bytes() + proof.hand_no.to_bytes(8, "big")
        self._counter = 0
        self._buf = b""

    def take(self, n: int) -> bytes:
        while len(self._buf) < n:
            mac = self._mac.copy()
            mac.update(self._prefix + self._counter.to_bytes(8, "big"))
            self._buf += mac.digest()
            self._counter += 1
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (``1 <= n <= 2**32``): rejection sampling."""
        limit = 2**32 - (2**32 % n)
        while True:
            x = int.from_bytes(self.take(4), "big")
            if x < limit:
                return x % n


class CommittedSource(RandomSource):
    """Every shuffle of the hand from its :class:`DealProof` (module doc).

    ``proof`` is kept (the history writes its fields); the shuffles are
    recorded in :attr:`outcomes` like any source's.
    """

    def __init__(self, proof: DealProof) -> None:
        super().__init__()
        self.proof = proof
        self._stream = _Stream(proof)

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        out = [CARDS[c] for c in cards]
        for i in range(len(out) - 1, 0, -1):
            j = self._stream.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
