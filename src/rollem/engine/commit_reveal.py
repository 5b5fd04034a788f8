"""A deal every player can check, without learning a card they did not see (issue 32).

Before the first card the dealer (the server, or ``rollem play``) fixes a
secret 32-byte *deal key* ``K``; the key gives a secret deck order ``D`` and
one secret salt per position, and the dealer announces a *commitment*: the
Merkle root of the 52 salted positions, chained to the previous hand.  Each
player then sends a *client seed*, fixed for the hand; the client seeds give
a public permutation ``P`` (no secret in it), and the deck dealt is ``D``
permuted by ``P``.  After the hand each player's own copy gets an *opening*
(card, salt, Merkle path) for exactly the positions whose cards that player
saw, so the copy proves every card it names and reveals no other; ``K``
itself never leaves the dealer (the full history keeps it).  The byte
layouts below are the documented procedure (docs/verify.md), so that anyone
can re-implement it; tags are ASCII bytes, integers big-endian unsigned:

- ``stream(key, tag)``: ``block(k) = HMAC-SHA256(key, tag ‖ k)``, ``k`` 8
  bytes, ``k = 0, 1, 2, ...``, read on from one shuffle to the next.
- ``below(n)``: the next 4 bytes as ``x``; if ``x < 2**32 - (2**32 mod n)``,
  ``x mod n``, else read 4 more (rejection sampling: no modulo bias).
- a shuffle of a list: Fisher–Yates, for ``i`` from ``len - 1`` down to 1
  swap positions ``i`` and ``below(i + 1)``.
- ``D``: the shuffle of the card numbers ``0..51`` (``2c 2d 2h 2s 3c ...
  As``) by ``stream(K, "rollem-deck")``.
- ``salt(i) = HMAC-SHA256(K, "rollem-salt" ‖ i)``, ``i`` 1 byte;
  ``leaf(i) = SHA-256("rollem-leaf" ‖ i ‖ D[i] ‖ salt(i))``, ``i`` and the
  card number 1 byte each.
- the tree: 64 leaves (52 to 63 are 32 zero bytes), ``node = SHA-256(
  "rollem-node" ‖ left ‖ right)``, 6 levels up to ``root``; a position's
  *path* is its 6 siblings, from the leaves up.
- ``commitment = SHA-256("rollem-commit" ‖ root ‖ prev_hash [‖ pick])``:
  ``prev_hash`` is the previous hand's ``hand_hash`` in the same session (32
  zero bytes for its first hand): the hand chain; ``pick`` only when the
  hand's game is picked at random (a computer player's or a timed-out
  dealer's choice, R-C-12, R-C-15): ``"rollem-pick" ‖ count ‖ (length ‖
  id)* ‖ "rollem-pick-salt" ‖ SHA-256(pick_salt)``, the games offered in
  order, ``count`` and ``length`` 2 bytes, ``id`` UTF-8, and the hash of the
  secret ``pick_salt = HMAC-SHA256(K, "rollem-pick-salt")`` (a hand dealt
  before the salt has no ``"rollem-pick-salt"`` part); then ``seated`` only
  when the dealer records who the deal is for (the web table):
  ``"rollem-seated" ‖ count ‖ (seat ‖ length ‖ name)*``, by seat, ``count``,
  ``seat`` and ``length`` 2 bytes, ``name`` UTF-8.  The players dealt in
  are those of ``seated`` with a client seed (a computer player's is empty):
  one who left between the commitment and the deal has none.
- ``seeds = count ‖ (seat ‖ length ‖ text)*``: the client seeds sorted by
  seat; ``count``, ``seat``, ``length`` 2 bytes; ``text`` ASCII (0 to
  :data:`CLIENT_SEED_MAX` of ``[A-Za-z0-9_-]``; the empty seed is the public
  default of a player who sent none in time).
- ``hand_hash = SHA-256("rollem-hand" ‖ commitment ‖ seeds ‖ hand_no)``,
  ``hand_no`` 8 bytes: public once the client seeds are in.
- ``P``: the shuffle of ``0..51`` by ``stream(hand_hash, "rollem-deal")``;
  the deck dealt, top first, is ``D[P[0]], D[P[1]], ...``.
- a random pick: the games offered, item ``below(count)`` of
  ``stream(pick_salt, "rollem-pick" ‖ hand_hash)``: made after the client
  seeds, from the list and the salt committed before them; the salt is
  revealed (``_pick_salt``) only once the seeds are in, so that the last
  player to send a seed, knowing the others' and the commitment, cannot try
  seeds for the game they like (and the dealer, committed to the salt,
  cannot change the pick).  A hand dealt before the salt (``_pick_games``
  without ``_pick_salt``) was picked by the old rule: item ``below(count)``
  of ``stream(hand_hash, "rollem-pick")``.
- every later shuffle (the Roll Your Own pool, a 5-2-1 reshuffle) of the
  cards in the order the engine gathers them: by ``stream(K, "rollem-later"
  ‖ hand_hash)``, secret during the hand (a public one would tell each player
  where its own discards went), checked from the full history.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from rollem.cards import CARDS, Card, CardError, parse_cards
from rollem.engine.randomness import RandomSource

__all__ = [
    "CLIENT_SEED_MAX",
    "DECK_SIZE",
    "SAT_OUT_MAX",
    "TREE_DEPTH",
    "ZERO_HASH",
    "CommittedSource",
    "DealProof",
    "Opening",
    "ProofError",
    "chained_commitment",
    "check_client_seed",
    "check_seated",
    "committed_deck",
    "deal_permutation",
    "encode_client_seeds",
    "encode_pick_games",
    "encode_seated",
    "hand_hash",
    "hex_text",
    "leaf_hash",
    "merkle_root",
    "new_client_seed",
    "pick_games_field",
    "pick_salt",
    "pick_salt_field",
    "picked_game",
    "root_from_path",
    "salt",
    "seat_key",
    "seated_field",
    "seeded_proof",
]

KEY_BYTES = 32
"""A deal key's length: 256 bits."""

DECK_SIZE = 52
"""Positions committed to: the whole deck."""

TREE_DEPTH = 6
"""Levels of the Merkle tree: 64 leaves, the last 12 of them zero."""

ZERO_HASH = bytes(32)
"""The ``prev_hash`` of a session's first hand, and an empty leaf."""

CLIENT_SEED_MAX = 64
"""Most characters in a client seed."""

PICK_GAMES_MAX = 64
"""Most games offered to a random pick (a table offers far fewer)."""

SEATED_NAME_MAX = 128
"""Most characters in a name of ``seated`` (a table's names are far shorter)."""

SAT_OUT_MAX = 1000
"""Most hands one copy's ``_sat_out`` records (the hands a player sat out since
their previous hand); a longer run is not recorded (``rollem verify`` says the
hands between are not checked)."""

_T = TypeVar("_T")

_CLIENT_SEED = re.compile(rf"[A-Za-z0-9_-]{{0,{CLIENT_SEED_MAX}}}")

_SEAT_KEY = re.compile(r"0|[1-9][0-9]{0,4}")
"""A seat number as a history's tables key it: ASCII decimal, no leading zero."""


class ProofError(ValueError):
    """A malformed key, seed, opening, commitment or hash field (one line naming it)."""


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
    """Bytes as upper-case hex digits, as histories write keys, salts and hashes
    (no run of them reads as card text such as ``4d``, which lower case could)."""
    return data.hex().upper()


def seat_key(key: object) -> int | None:
    """The seat number a key of ``_client_seeds`` or ``_seated`` names (0 to
    65535, written as rollem writes it: ASCII decimal digits, no leading zero),
    or ``None``.  One way to write each seat: a table keyed both ``0`` and
    ``00`` (or ``3`` and the Arabic-Indic ``٣``) would read as one seat with
    either value, so that a copy could show one seed or name and hash another
    (s73-verify); ``²`` (a digit to :meth:`str.isdigit`, not to :func:`int`)
    was an internal error."""
    if not isinstance(key, str) or _SEAT_KEY.fullmatch(key) is None or int(key) >= 2**16:
        return None
    return int(key)


def encode_client_seeds(seeds: Mapping[int, str]) -> bytes:
    """The client seeds' bytes: count, then per seat (ascending) seat, length, text."""
    out = bytearray(len(seeds).to_bytes(2, "big"))
    for seat in sorted(seeds):
        text = check_client_seed(seeds[seat]).encode("ascii")
        out += seat.to_bytes(2, "big") + len(text).to_bytes(2, "big") + text
    return bytes(out)


# -- the byte stream and the shuffle ---------------------------------------------------


class _Stream:
    """``block(k) = HMAC-SHA256(key, tag ‖ k)`` read on, and unbiased integers from it.

    Plain data (bytes and an integer, no HMAC object): a hand holding its source
    is deep-copied to apply an action off the event loop (issue 34:
    :meth:`~rollem.server.game_session.GameSession.hand_copy`), and the copy
    reads on exactly where the original would."""

    def __init__(self, key: bytes, tag: bytes) -> None:
        self._key = key
        self._tag = tag
        self._counter = 0
        self._buf = b""

    def take(self, n: int) -> bytes:
        while len(self._buf) < n:
            block = self._tag + self._counter.to_bytes(8, "big")
            self._buf += hmac.digest(self._key, block, "sha256")
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


def _shuffle(items: Sequence[_T], below: Callable[[int], int]) -> list[_T]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def committed_deck(key: bytes) -> list[int]:
    """``D``: the secret deck order the key gives (card numbers, ``2c`` = 0)."""
    return _shuffle(range(DECK_SIZE), _Stream(key, b"rollem-deck").below)


def encode_pick_games(games: Sequence[str], pick_salt_: bytes | None = None) -> bytes:
    """The games offered to a random pick, as the commitment takes them:
    ``"rollem-pick" ‖ count ‖ (length ‖ id)* ‖ "rollem-pick-salt" ‖
    SHA-256(pick_salt)`` (2-byte count and lengths, UTF-8 ids, in the order
    offered; the salt's part only with ``pick_salt_``: ``None`` is a hand dealt
    before the salt); empty bytes when no game is picked at random."""
    if not games:
        return b""
    out = bytearray(b"rollem-pick" + len(games).to_bytes(2, "big"))
    for game in games:
        text = game.encode()
        out += len(text).to_bytes(2, "big") + text
    if pick_salt_ is not None:
        out += b"rollem-pick-salt" + hashlib.sha256(pick_salt_).digest()
    return bytes(out)


def pick_salt(key: bytes) -> bytes:
    """``HMAC-SHA256(K, "rollem-pick-salt")``: the secret a random pick of the game
    takes besides the hand's hash; its hash is in the commitment, the salt in
    every copy once the client seeds are in (``_pick_salt``)."""
    return hmac.digest(key, b"rollem-pick-salt", "sha256")


def check_pick_games(games: object) -> tuple[str, ...]:
    """``games`` as the games offered to a random pick: none (no random pick), or
    2 to :data:`PICK_GAMES_MAX` different game ids of 1 to 64 characters.

    Raises:
        ProofError: naming what is allowed.
    """
    if isinstance(games, str) or not isinstance(games, Sequence) or not (
            len(games) == 0 or 2 <= len(games) <= PICK_GAMES_MAX) or not all(
            isinstance(g, str) and 1 <= len(g) <= 64 for g in games) \
            or len(set(games)) != len(games):
        raise ProofError(f"_pick_games must be a list of 2 to {PICK_GAMES_MAX} different "
                         f"game ids, not {str(games)[:80]!r}")
    return tuple(games)


def encode_seated(seated: Mapping[int, str]) -> bytes:
    """Who the deal is for, as the commitment takes it: ``"rollem-seated" ‖
    count ‖ (seat ‖ length ‖ name)*`` by seat (2-byte count, seats and lengths,
    UTF-8 names); empty bytes when the dealer records none (``rollem play``, a
    hand dealt before the record)."""
    if not seated:
        return b""
    out = bytearray(b"rollem-seated" + len(seated).to_bytes(2, "big"))
    for seat in sorted(seated):
        text = seated[seat].encode()
        out += seat.to_bytes(2, "big") + len(text).to_bytes(2, "big") + text
    return bytes(out)


def check_seated(seated: object) -> dict[int, str]:
    """``seated`` as who a deal is for: seat (0 to 65535) -> name (1 to
    :data:`SEATED_NAME_MAX` characters).

    Raises:
        ProofError: naming what is allowed.
    """
    if not isinstance(seated, Mapping) or len(seated) > 2**16 or not all(
            ((type(k) is int and 0 <= k < 2**16) or seat_key(k) is not None)
            and isinstance(v, str) and 1 <= len(v) <= SEATED_NAME_MAX
            for k, v in seated.items()):
        raise ProofError("_seated must be a table of seat number (0 to 65535, as 0, 1, 2 ...) "
                         f"-> player name (1 to {SEATED_NAME_MAX} characters), not "
                         f"{str(seated)[:80]!r}")
    return {int(k): v for k, v in seated.items()}


def picked_game(hand_hash_: bytes, games: Sequence[str],
                pick_salt_: bytes | None = None) -> str:
    """The game a random pick among ``games`` (2 or more, in the order offered)
    names: item ``below(len(games))`` of ``stream(pick_salt, "rollem-pick" ‖
    hand_hash)`` (uniform: rejection sampling).  Nobody but the dealer can
    compute it before the salt is revealed, after the client seeds; the dealer
    cannot change it (the commitment covers the salt's hash).

    ``pick_salt_`` ``None``: the old rule of a hand dealt before the salt, item
    ``below(len(games))`` of ``stream(hand_hash, "rollem-pick")`` (public once
    the seeds are in, so the last player to send one could steer it)."""
    if pick_salt_ is None:
        return games[_Stream(hand_hash_, b"rollem-pick").below(len(games))]
    return games[_Stream(pick_salt_, b"rollem-pick" + hand_hash_).below(len(games))]


def deal_permutation(hand_hash_: bytes) -> list[int]:
    """``P``: position ``i`` of the deck dealt holds ``D[P[i]]`` (public: no secret)."""
    return _shuffle(range(DECK_SIZE), _Stream(hand_hash_, b"rollem-deal").below)


# -- the commitment -------------------------------------------------------------------


def salt(key: bytes, pos: int) -> bytes:
    """``HMAC-SHA256(K, "rollem-salt" ‖ pos)``: position ``pos``'s secret salt."""
    return hmac.digest(key, b"rollem-salt" + bytes([pos]), "sha256")


def leaf_hash(pos: int, card: int, salt_: bytes) -> bytes:
    """``SHA-256("rollem-leaf" ‖ pos ‖ card ‖ salt)``."""
    return hashlib.sha256(b"rollem-leaf" + bytes([pos, card]) + salt_).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"rollem-node" + left + right).digest()


def _levels(leaves: Sequence[bytes]) -> list[list[bytes]]:
    level = list(leaves) + [ZERO_HASH] * (2**TREE_DEPTH - len(leaves))
    out = [level]
    while len(level) > 1:
        level = [_node(level[k], level[k + 1]) for k in range(0, len(level), 2)]
        out.append(level)
    return out


def merkle_root(leaves: Sequence[bytes]) -> bytes:
    """The root of the tree over ``leaves`` (52), padded with zero leaves to 64."""
    return _levels(leaves)[-1][0]


def root_from_path(leaf: bytes, pos: int, path: Sequence[bytes]) -> bytes:
    """The root that ``leaf`` at ``pos`` and its ``path`` (siblings, leaves up) give."""
    node = leaf
    for sibling in path:
        node = _node(sibling, node) if pos & 1 else _node(node, sibling)
        pos >>= 1
    return node


def chained_commitment(root: bytes, prev_hash: bytes = ZERO_HASH,
                       pick_games: Sequence[str] = (),
                       seated: Mapping[int, str] | None = None,
                       pick_salt_: bytes | None = None) -> bytes:
    """``SHA-256("rollem-commit" ‖ root ‖ prev_hash [‖ pick] [‖ seated])``:
    announced before the deal; ``pick`` (:func:`encode_pick_games`, with the
    hash of ``pick_salt_``: ``None`` for a hand dealt before the salt) only
    when the game is picked at random among ``pick_games``; ``seated``
    (:func:`encode_seated`) only when the dealer records who the deal is for."""
    return hashlib.sha256(b"rollem-commit" + root + prev_hash
                          + encode_pick_games(pick_games, pick_salt_)
                          + encode_seated(seated or {})).digest()


def hand_hash(commitment: bytes, seeds: bytes, hand_no: int) -> bytes:
    """``SHA-256("rollem-hand" ‖ commitment ‖ seeds ‖ hand_no)``: the chain's link
    and the key of ``P``."""
    return hashlib.sha256(b"rollem-hand" + commitment + seeds
                          + hand_no.to_bytes(8, "big")).digest()


def _hex(value: object, name: str, size: int = 32) -> bytes:
    if not isinstance(value, str) or len(value) != 2 * size \
            or any(c not in string.hexdigits for c in value):
        raise ProofError(f"{name} must be {2 * size} hex digits, not {str(value)[:80]!r}")
    return bytes.fromhex(value)


@dataclass(frozen=True)
class Opening:
    """Position ``pos`` of ``D`` opened: its card, salt and Merkle path.

    Attributes:
        pos: 0 to 51, a position of ``D`` (not of the deck dealt).
        card: the card number there (``2c`` = 0).
        salt: its 32-byte salt.
        path: its 6 siblings, from the leaves up.
    """

    pos: int
    card: int
    salt: bytes
    path: tuple[bytes, ...]

    def root(self) -> bytes:
        """The root this opening leads to (the commitment's if it is true)."""
        return root_from_path(leaf_hash(self.pos, self.card, self.salt), self.pos, self.path)

    def to_fields(self) -> dict[str, Any]:
        """``{pos, card, salt, path}`` as a history writes it (card text, hex)."""
        return {"pos": self.pos, "card": str(CARDS[self.card]), "salt": hex_text(self.salt),
                "path": [hex_text(p) for p in self.path]}

    @classmethod
    def from_fields(cls, data: object, where: str) -> Opening:
        """An opening from its history fields.

        Raises:
            ProofError: a missing or malformed field, named with ``where``.
        """
        if not isinstance(data, Mapping):
            raise ProofError(f"{where}: an opening is a table of pos, card, salt and path")
        pos = data.get("pos")
        if type(pos) is not int or not 0 <= pos < DECK_SIZE:
            raise ProofError(f"{where}: pos must be 0 to {DECK_SIZE - 1}, not {pos!r}")
        try:
            (card,) = parse_cards(str(data.get("card")))
        except (CardError, ValueError):
            raise ProofError(f"{where}: card must be one card such as Ah, not "
                             f"{str(data.get('card'))[:20]!r}") from None
        path = data.get("path")
        if not isinstance(path, list) or len(path) != TREE_DEPTH:
            raise ProofError(f"{where}: path must be a list of {TREE_DEPTH} hashes")
        return cls(pos, int(card), _hex(data.get("salt"), f"{where}: salt"),
                   tuple(_hex(p, f"{where}: path") for p in path))


@dataclass(frozen=True)
class DealProof:
    """The secrets and seeds of one hand: everything :class:`CommittedSource` needs.

    Attributes:
        key: the 32-byte secret deal key ``K`` (never in a player's copy).
        client_seeds: seat -> client seed text.
        hand_no: the hand's number in its session (0 or more).
        prev_hash: the previous hand's :meth:`hand_hash` (:data:`ZERO_HASH` first).
        pick_games: the games offered when the hand's game is picked at random
            (a computer player's or a timed-out dealer's choice, R-C-12,
            R-C-15), in the order offered; the commitment covers them and
            :meth:`picked_game` names the game.  Empty otherwise.
        seated: who the deal is for (table seat -> the player's name), fixed
            with the commitment, which covers it (the web table records it;
            ``rollem play`` does not: empty).  The players dealt in are those
            of ``seated`` with a client seed.
        pick_salted: whether a random pick takes the secret :attr:`pick_salt`
            (its hash in the commitment); ``False`` only for a hand dealt
            before the salt (the old rule, kept so such hands still verify and
            restore: its pick came from the public hand hash alone).
    """

    key: bytes
    client_seeds: Mapping[int, str] = field(default_factory=dict)
    hand_no: int = 0
    prev_hash: bytes = ZERO_HASH
    pick_games: tuple[str, ...] = ()
    seated: Mapping[int, str] = field(default_factory=dict)
    pick_salted: bool = True

    def __post_init__(self) -> None:
        if len(self.key) != KEY_BYTES or len(self.prev_hash) != 32:
            raise ProofError("a deal key and a hand hash are 32 bytes each")
        if not 0 <= self.hand_no < 2**64:
            raise ProofError(f"hand number {self.hand_no} is out of range")
        for seat, text in self.client_seeds.items():
            if not 0 <= seat < 2**16:
                raise ProofError(f"seat {seat} is out of range")
            check_client_seed(text)
        check_pick_games(self.pick_games)
        if self.seated:
            check_seated(self.seated)

    @cached_property
    def deck(self) -> list[int]:
        """``D``: :func:`committed_deck` of the key."""
        return committed_deck(self.key)

    @cached_property
    def _tree(self) -> list[list[bytes]]:
        return _levels([leaf_hash(i, c, salt(self.key, i)) for i, c in enumerate(self.deck)])

    @property
    def root(self) -> bytes:
        """The Merkle root of ``D``'s 52 salted positions."""
        return self._tree[-1][0]

    @property
    def pick_salt(self) -> bytes | None:
        """:func:`pick_salt` of the key when the game is picked at random by the
        salted rule; ``None`` otherwise (no pick, or a hand dealt before the salt).
        Secret until the client seeds are in."""
        return pick_salt(self.key) if self.pick_games and self.pick_salted else None

    @property
    def commitment(self) -> bytes:
        """:func:`chained_commitment` of the root, the previous hand's hash, the
        games offered and the pick salt's hash (if any), and who it is for."""
        return chained_commitment(self.root, self.prev_hash, self.pick_games, self.seated,
                                  self.pick_salt)

    def seeds_bytes(self) -> bytes:
        return encode_client_seeds(self.client_seeds)

    def hand_hash(self) -> bytes:
        """:func:`hand_hash`: the chain's link, and the key of ``P``."""
        return hand_hash(self.commitment, self.seeds_bytes(), self.hand_no)

    def permutation(self) -> list[int]:
        """``P`` (:func:`deal_permutation`): the deck dealt is ``D[P[0]], D[P[1]], ...``."""
        return deal_permutation(self.hand_hash())

    def picked_game(self) -> str | None:
        """The game the random pick names (:func:`picked_game` of the hand's hash
        and the pick salt), or ``None`` when the game is not picked at random."""
        if not self.pick_games:
            return None
        return picked_game(self.hand_hash(), self.pick_games, self.pick_salt)

    def opening(self, pos: int) -> Opening:
        """Position ``pos`` of ``D`` opened (for a player who saw its card)."""
        path = tuple(self._tree[level][(pos >> level) ^ 1] for level in range(TREE_DEPTH))
        return Opening(pos, self.deck[pos], salt(self.key, pos), path)

    def with_client_seeds(self, seeds: Mapping[int, str]) -> DealProof:
        """The same commitment with the client seeds fixed for the hand."""
        return DealProof(self.key, dict(seeds), self.hand_no, self.prev_hash, self.pick_games,
                         self.seated, self.pick_salted)

    def public_fields(self) -> dict[str, Any]:
        """The fields every copy holds: ``_hand_no``, ``_commitment``,
        ``_prev_hash``, ``_client_seeds`` (seat as a decimal string -> seed),
        ``_deck_root``, ``_hand_hash``, ``_pick_games`` (the games offered)
        and ``_pick_salt`` (the pick's salt, not for a hand dealt before it)
        when the game was picked at random, and ``_seated`` (seat as a decimal
        string -> name) when the dealer recorded who the deal was for; bytes as
        :func:`hex_text`.  Only once the client seeds are in: the pick salt is
        secret before (the last to send a seed could steer the pick with it)."""
        pick: dict[str, Any] = {"_pick_games": list(self.pick_games)} if self.pick_games else {}
        salt_ = self.pick_salt
        if salt_ is not None:
            pick["_pick_salt"] = hex_text(salt_)
        if self.seated:
            pick["_seated"] = {str(s): self.seated[s] for s in sorted(self.seated)}
        return {
            "_hand_no": self.hand_no,
            "_commitment": hex_text(self.commitment),
            "_prev_hash": hex_text(self.prev_hash),
            "_client_seeds": {str(s): self.client_seeds[s] for s in sorted(self.client_seeds)},
            "_deck_root": hex_text(self.root),
            "_hand_hash": hex_text(self.hand_hash()),
            **pick,
        }

    def fields(self) -> dict[str, Any]:
        """The full history's fields: :meth:`public_fields` and ``_deal_key``."""
        return {**self.public_fields(), "_deal_key": hex_text(self.key)}

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> DealProof:
        """The proof a full history's fields give (they must hold ``_deal_key``).

        Raises:
            ProofError: a missing or malformed field, named.
        """
        key = _hex(data.get("_deal_key"), "_deal_key")
        games = pick_games_field(data)
        salt_ = pick_salt_field(data, games)
        proof = cls(key, client_seeds_field(data), hand_no_field(data),
                    _hex(data.get("_prev_hash"), "_prev_hash"), games, seated_field(data),
                    salt_ is not None or not games)  # (only a pick can be by the old rule)
        if salt_ is not None and salt_ != proof.pick_salt:
            raise ProofError("_pick_salt is not the pick salt _deal_key gives: the salt was "
                             "changed")
        return proof

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for storage with the hand (all of it: the dealer's own record)."""
        return {"deal_key": self.key.hex(), "hand_no": self.hand_no,
                "prev_hash": self.prev_hash.hex(),
                "client_seeds": {str(s): t for s, t in self.client_seeds.items()},
                "pick_games": list(self.pick_games),
                "seated": {str(s): n for s, n in self.seated.items()},
                "pick_salted": self.pick_salted}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DealProof:
        """:meth:`to_json`'s proof (one stored before ``seated`` was kept has none;
        one stored before the pick salt, without ``pick_salted``, is dealt and
        checked by the old rule, as it was committed)."""
        return cls(bytes.fromhex(data["deal_key"]),
                   {int(k): str(v) for k, v in data.get("client_seeds", {}).items()},
                   int(data["hand_no"]), bytes.fromhex(data["prev_hash"]),
                   tuple(data.get("pick_games", ())),
                   {int(k): str(v) for k, v in data.get("seated", {}).items()},
                   bool(data.get("pick_salted", not data.get("pick_games"))))

    def sat_out_header(self) -> dict[str, Any]:
        """This hand's record in a later copy's ``_sat_out`` (a hand its player sat
        out): ``_hand_no``, ``_prev_hash``, ``_deck_root``, ``_client_seeds``,
        ``_seated``, ``_pick_games`` and ``_pick_salt`` if any, as
        :meth:`public_fields` writes them; enough to compute the hand's
        ``_hand_hash`` and who was dealt in, nothing about its cards (the root
        is of salted positions)."""
        fields = self.public_fields()
        return {k: fields[k] for k in ("_hand_no", "_prev_hash", "_deck_root", "_client_seeds",
                                       "_seated", "_pick_games", "_pick_salt") if k in fields}

    @classmethod
    def new(cls, hand_no: int, prev_hash: bytes = ZERO_HASH,
            pick_games: Sequence[str] = (), seated: Mapping[int, str] | None = None
            ) -> DealProof:
        """A fresh secret deal key (:mod:`secrets`), no client seeds yet;
        ``pick_games``: the games offered to a random pick (none: no pick);
        ``seated``: who the deal is for (seat -> name; none: not recorded)."""
        return cls(secrets.token_bytes(KEY_BYTES), {}, hand_no, prev_hash, tuple(pick_games),
                   dict(seated or {}))


def hand_no_field(data: Mapping[str, Any]) -> int:
    """``_hand_no`` of a history.

    Raises:
        ProofError: not a whole number >= 0.
    """
    hand_no = data.get("_hand_no")
    if type(hand_no) is not int or not 0 <= hand_no < 2**64:
        raise ProofError(f"_hand_no must be a whole number >= 0, not {hand_no!r}")
    return hand_no


def client_seeds_field(data: Mapping[str, Any]) -> dict[int, str]:
    """``_client_seeds`` of a history: seat -> seed.

    Raises:
        ProofError: not a table of seat number -> client seed.
    """
    raw = data.get("_client_seeds", {})
    if not isinstance(raw, Mapping):
        raise ProofError("_client_seeds must be a table of seat number -> client seed")
    bad = next((k for k in raw if seat_key(k) is None), None)
    if bad is not None:
        raise ProofError(f"_client_seeds must be a table of seat number (0 to 65535, as 0, 1, "
                         f"2 ...) -> client seed, not one keyed {str(bad)[:20]!r}")
    return {int(k): check_client_seed(v) for k, v in raw.items()}


def pick_games_field(data: Mapping[str, Any]) -> tuple[str, ...]:
    """``_pick_games`` of a history: the games offered to a random pick (none
    when the field is absent).

    Raises:
        ProofError: not a list of 2 or more different game ids.
    """
    if "_pick_games" not in data:
        return ()
    games = check_pick_games(data["_pick_games"])
    if not games:
        raise ProofError("_pick_games must be a list of 2 or more different game ids, not []")
    return games


def pick_salt_field(data: Mapping[str, Any], games: Sequence[str]) -> bytes | None:
    """``_pick_salt`` of a history (64 hex digits), ``None`` when the field is
    absent: no random pick, or one by the old rule (a hand dealt before the
    salt).  ``games``: the history's ``_pick_games``.

    Raises:
        ProofError: malformed, or given without ``_pick_games``.
    """
    if "_pick_salt" not in data:
        return None
    if not games:
        raise ProofError("_pick_salt is given, but no _pick_games: a pick salt goes only with "
                         "a game picked at random")
    return _hex(data["_pick_salt"], "_pick_salt")


def seated_field(data: Mapping[str, Any]) -> dict[int, str]:
    """``_seated`` of a history: seat -> name of who the deal was for (none when
    the field is absent: a hand dealt before the record, or by ``rollem play``).

    Raises:
        ProofError: not a table of seat number -> name, or an empty one.
    """
    if "_seated" not in data:
        return {}
    seated = check_seated(data["_seated"])
    if not seated:
        raise ProofError("_seated must name at least one player, not {}")
    return seated


def hash_field(data: Mapping[str, Any], key: str) -> bytes:
    """A 64-hex-digit field of a history.

    Raises:
        ProofError: missing or malformed, named.
    """
    return _hex(data.get(key), key)


def seeded_proof(seed: int, hand_no: int, prev_hash: bytes = ZERO_HASH,
                 seats: Sequence[int] = (0,), pick_games: Sequence[str] = ()) -> DealProof:
    """Repeatable secrets for ``--seed`` deals: the deal key is
    ``SHA-256("rollem-seed:" ‖ seed ‖ ":" ‖ hand_no)`` (decimal text), and each
    of ``seats`` sends the first 32 hex digits of ``SHA-256("rollem-client:" ‖
    seed ‖ ":" ‖ hand_no ‖ ":" ‖ seat)``; ``pick_games`` as :meth:`DealProof.new`."""
    key = hashlib.sha256(f"rollem-seed:{seed}:{hand_no}".encode()).digest()
    clients = {s: hex_text(hashlib.sha256(f"rollem-client:{seed}:{hand_no}:{s}".encode())
                           .digest()[:16]) for s in seats}
    return DealProof(key, clients, hand_no, prev_hash, tuple(pick_games))


class CommittedSource(RandomSource):
    """Every shuffle of the hand from its :class:`DealProof` (module doc): the
    deck (``D`` permuted by ``P``), then later shuffles from the secret stream.

    ``proof`` is kept (the history writes its fields); the shuffles are
    recorded in :attr:`outcomes` like any source's.
    """

    def __init__(self, proof: DealProof) -> None:
        super().__init__()
        self.proof = proof
        self._proof = proof
        self._later = _Stream(proof.key, b"rollem-later" + proof.hand_hash())

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        if label == "deck" and not self.outcomes:
            if len(cards) != DECK_SIZE:
                raise ProofError(f"a committed deck has {DECK_SIZE} cards, not {len(cards)}")
            d = self._proof.deck
            return [CARDS[cards[d[p]]] for p in self._proof.permutation()]
        return _shuffle([CARDS[c] for c in cards], self._later.below)
