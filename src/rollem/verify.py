"""Check a dealt hand from its history: ``rollem verify FILE...`` (issue 32).

A hand dealt from a committed deck (:mod:`rollem.engine.commit_reveal`)
carries ``_hand_no``, ``_commitment``, ``_prev_hash``, ``_client_seeds``,
``_deck_root`` and ``_hand_hash`` (and ``_pick_games`` and ``_pick_salt``
when its game was picked at random); the full history also ``_deal_key``, a
player's own copy (once the hand is over) ``_openings`` instead.
:func:`verify_history`

1. checks ``_commitment`` against the root (the full history: the root the
   key gives) and, for a game picked at random, the games offered
   (``_pick_games``) and the pick salt (``_pick_salt``; the full history:
   the salt the key gives); ``_hand_hash`` against the commitment, the
   client seeds and the hand number; and that a game picked at random is the
   one the pick names from the hand's hash and the salt (a hand dealt before
   the salt, with ``_pick_games`` and no ``_pick_salt``: from the hash alone,
   the old rule, and the verdict says so);
2. a full history: deals the hand again from the key and the client seeds
   (the engine asks the same :class:`~rollem.engine.commit_reveal.
   CommittedSource` for the deck and every later shuffle) applying the
   history's actions, and checks that every card dealt, burned, turned up,
   drawn from the pool and dealt after a reshuffle is the card the deal puts
   there, that ``_deck`` and ``_shuffles`` are its orders, that its PHH
   header's ``antes``, ``blinds_or_straddles``, ``small_bet`` and ``big_bet``
   are its ``_options``' (as ``rollem replay`` checks them), and that its
   ``_result`` and ``finishing_stacks`` are the replay's
   (:func:`rollem.history.differences`);
3. a player's own copy (``_redacted_for``): checks each opening against the
   root, then deals the copy's hand from a deck whose opened positions hold
   the opened cards (moved by the public permutation of the client seeds)
   and whose other positions hold stand-in cards, and checks that every card
   the copy names where it was dealt is opened and is the card there, and
   that every shown card of a player who exchanged none was dealt to that
   player.  Another player's hidden choice (``??``) is played with stand-in
   cards, which cannot change where later cards come from; a later shuffle
   (the Roll Your Own pool, a 5-2-1 reshuffle) is the dealer's secret, so
   the check stops there and says so (``partial``); the shuffle of a pool no
   later step uses (a game file's out-of-play discard, Crazy Pineapple's)
   gives no card, and the check reads on past it. The copy must then
   describe a hand that can happen, as ``rollem replay`` checks it
   (:func:`rollem.history_copy.own_copy_hand`: its ``_result`` pots and
   nets, ``finishing_stacks`` and showdown), so a result rewritten after the
   deal fails.

A hand that records who it was dealt to (``_seated``, covered by the
commitment; the web table's) must deal in every seat with chips and a copy's
own player; a copy's ``_sat_out`` (the records of the hands its player sat
out since their previous hand) must chain to its ``_prev_hash`` and deal
that player into none of them.

The first difference is the reason, naming the card and the line.
:func:`check_chain` checks that the hands of a session follow each other:
each hand's ``_prev_hash`` is the previous hand's ``_hand_hash``; between one
player's own copies, the hands not given must be ones the later copy
records them as having sat out (:func:`sat_out`), where the copies keep
that record (else :func:`not_checked`).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from rollem import toml_input
from rollem.cards import CARDS, Card, CardError, format_cards, parse_cards
from rollem.engine.actions import Bet, Call, Check, Discard, Draw, Raise, Stack, action_from_text
from rollem.engine.commit_reveal import (
    DECK_SIZE,
    SAT_OUT_MAX,
    CommittedSource,
    DealProof,
    Opening,
    ProofError,
    chained_commitment,
    client_seeds_field,
    deal_permutation,
    encode_client_seeds,
    hand_hash,
    hand_no_field,
    hash_field,
    hex_text,
    pick_games_field,
    pick_salt_field,
    picked_game,
    seated_field,
)
from rollem.engine.errors import EngineError
from rollem.engine.hand import Hand
from rollem.engine.randomness import RandomSource
from rollem.history import (
    _HIDDEN_CHOICES,
    DealLine,
    History,
    HistoryError,
    _card_tokens,
    _event_key,
    _every_deal_stated,
    _Lines,
    _one_line,
    _run,
    differences,
    history_game,
    parse_history,
)
from rollem.history.copy_checks import check_forced_bets
from rollem.history_copy import own_copy_hand
from rollem.text import ascii_digits, name_key

__all__ = [
    "VERIFIED",
    "Verdict",
    "check_chain",
    "not_checked",
    "sat_out",
    "session_forms",
    "verify_history",
    "verify_text",
    "written_from",
]

VERIFIED, PARTIAL, FAILED, UNREVEALED, NO_COMMITMENT = (
    "verified", "partial", "failed", "unrevealed", "no_commitment")

_SOURCE = "the committed deck"
_OPENED = "the openings"
_DEALT = ("deal_hole", "draw_deal", "deal_up", "board", "burn", "dead", "wild", "pool_draw")


@dataclass
class Verdict:
    """What :func:`verify_history` found.

    Attributes:
        status: ``verified``; ``partial`` (a player's copy checked up to a
            later shuffle, whose order is the dealer's secret); ``failed``;
            ``unrevealed`` (a copy of a hand not over: no openings yet);
            ``no_commitment`` (a history without these fields).
        reason: one line saying why (or what was checked), in the file's terms
            (``line 13 of actions (p3 exp 8d)``: ``rollem verify`` checks a file).
        told: the same for a player at the table (the web page's verify panel;
            not in :meth:`to_dict`, which ``rollem verify --json`` prints):
            where a copy's check stopped in players' words, from the narration
            ``rollem replay`` and the table's log use (``not checked from the 13th
            action (Cat turns up 8d) on``; cards as short text); else the reason.
        cards: how many cards dealt in the hand were checked.
        opened: how many positions a copy opens (a full history: all 52).
        positions: the opened positions of ``D`` -> card (checked across
            copies of one hand by :func:`check_chain`).
        owner: whose own copy this is (the player's name at ``_redacted_for``,
            else ``seat N``, 1-based); ``None`` for a full history.
        seated: whether the hand records who it was dealt to (``_seated``,
            under the commitment: the web table's hands).
        sat_out_from: a copy with ``_sat_out``: the first hand it records its
            player as having sat out (the hands from there to the one before
            this were dealt without them); ``None`` without the record.
        sat_out_prev: the ``_prev_hash`` of that first hand: the hash of the
            hand before it, the player's previous hand (64 hex digits).
    """

    status: str
    reason: str
    hand_no: int | None = None
    commitment: str | None = None
    prev_hash: str | None = None
    hand_hash: str | None = None
    cards: int = 0
    opened: int = 0
    positions: dict[int, int] = field(default_factory=dict)
    told: str = ""
    owner: str | None = None
    seated: bool = False
    sat_out_from: int | None = None
    sat_out_prev: str | None = None

    @property
    def ok(self) -> bool:
        """Verified (wholly, or a player's copy as far as it can be)."""
        return self.status in (VERIFIED, PARTIAL)

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "ok": self.ok, "reason": self.reason,
                "hand_no": self.hand_no, "commitment": self.commitment,
                "prev_hash": self.prev_hash, "hand_hash": self.hand_hash,
                "cards_checked": self.cards, "cards_opened": self.opened}


def verify_text(text: str) -> Verdict:
    """:func:`verify_history` of a history's TOML text.

    Raises:
        HistoryError: not a TOML hand history.
    """
    try:
        data = toml_input.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as err:
        raise HistoryError(f"not a TOML hand history: {_one_line(str(err))}") from None
    except RecursionError:
        raise HistoryError("not a hand history: arrays or tables nested too deeply") from None
    return verify_history(data)


def verify_history(data: Mapping[str, Any]) -> Verdict:
    """Check one hand's history (a dict as :func:`rollem.history.history_dict`
    or :func:`rollem.history.redact` gives); see the module doc."""
    if "_commitment" not in data:
        variant = data.get("variant")
        if isinstance(variant, str) and not variant.startswith("rollem-"):
            number = data.get("_hand")  # (its number in a session download)
            return Verdict(NO_COMMITMENT, "a standard PHH hand (as the web table's session "
                           "download writes a standard game's hands): it carries no "
                           "commitment; check the hand's own copy (hand-N.toml) instead",
                           hand_no=number if type(number) is int else None,
                           owner=_owner(data))
        if isinstance(data.get("_phh"), dict):  # (rollem convert --to rollem's history)
            return Verdict(NO_COMMITMENT, "no commitment recorded: a hand converted from "
                           "PHH (rollem convert --to rollem) keeps the PHH file's cards, "
                           "with no committed deck to check them against: nothing to verify")
        return Verdict(NO_COMMITMENT, "no commitment recorded (a hand dealt before rollem "
                       "committed to its decks, or written by hand): nothing to verify")
    commitment = str(data.get("_commitment")).upper()
    verdict = Verdict(FAILED, "", commitment=commitment,
                      prev_hash=str(data.get("_prev_hash")).upper(),
                      hand_no=data.get("_hand_no") if type(data.get("_hand_no")) is int else None,
                      owner=_owner(data))
    full = "_redacted_for" not in data and "_deal_key" in data
    if not full and "_openings" not in data:
        verdict.status = UNREVEALED
        verdict.reason = ("no openings yet (a copy gets those of the cards its player saw "
                          f"once the hand is over): commitment {commitment}")
        return verdict
    try:
        root = hash_field(data, "_deck_root") if "_deck_root" in data or not full else None
        if full:
            proof = DealProof.from_fields(data)
            if root is not None and root != proof.root:
                raise ProofError(f"_deck_root is not the root _deal_key gives "
                                 f"({hex_text(proof.root)})")
            root = proof.root
            what = "_deal_key"
        else:
            what = "_deck_root"
        assert root is not None
        pick = pick_games_field(data)
        salt = proof.pick_salt if full else pick_salt_field(data, pick)
        seated = seated_field(data)
        chained = chained_commitment(root, hash_field(data, "_prev_hash"), pick, seated, salt)
        if hex_text(chained) != commitment:
            if pick or seated:
                fields = " or ".join([what, *(["_pick_games"] if pick else []),
                                      *(["_pick_salt"] if salt is not None else []),
                                      *(["_seated"] if seated else [])])
                covered = ", ".join(["its root", "_prev_hash",
                                     *([f"the games offered ({', '.join(pick)})"] if pick else []),
                                     *(["the pick salt's hash"] if salt is not None else []),
                                     *(["who it was dealt to (_seated)"] if seated else [])])
                raise ProofError(f"{fields} does not match _commitment: the commitment of "
                                 f"{covered} is {hex_text(chained)}, not {commitment}")
            raise ProofError(f"{what} does not match _commitment: the commitment of its root "
                             f"and _prev_hash is {hex_text(chained)}, not {commitment}")
        seeds = client_seeds_field(data)
        linked = hand_hash(chained, encode_client_seeds(seeds), hand_no_field(data))
        verdict.hand_hash = hex_text(linked)
        if str(data.get("_hand_hash", "")).upper() != verdict.hand_hash:
            raise ProofError(f"_hand_hash {data.get('_hand_hash')!r} is not the hash of "
                             "_commitment, _client_seeds and _hand_no "
                             f"({verdict.hand_hash}): one of them was changed")
        if pick:
            _check_pick(data, pick, linked, salt)
        if seated:
            verdict.seated = True
            _check_seated(data, seated, seeds)
        if "_sat_out" in data and not full:
            mine = _owner_name(data)
            if not seated or mine is None:
                raise ProofError("_sat_out is given, but the copy records no player dealt in "
                                 "(_seated) to have sat those hands out")
            first, before = _sat_out_record(data["_sat_out"], mine,
                                            verdict.hand_no or 0, hash_field(data, "_prev_hash"))
            verdict.sat_out_from, verdict.sat_out_prev = first, hex_text(before)
        if full:
            cards, stopped = _check_full(data, proof), None
            verdict.opened = DECK_SIZE
            verdict.positions = dict(enumerate(proof.deck))
        else:
            openings = _openings(data, root)
            verdict.opened = len(openings)
            verdict.positions = dict(openings)
            cards, stopped = _check_copy(data, openings, deal_permutation(linked))
            own_copy_hand(data)  # its result and stacks: what rollem replay checks (R-C-13)
    except (HistoryError, EngineError, CardError, ProofError) as err:
        verdict.reason = _one_line(str(err))
        return verdict
    verdict.cards = cards
    if stopped is not None:
        verdict.status = PARTIAL
        verdict.reason = f"{cards} cards are where the committed deck put them; " \
            f"not checked from {stopped.where} on: {stopped.why}"
        verdict.told = f"{cards} cards are where the committed deck put them; " \
            f"not checked from {_told_where(data, stopped)}: {stopped.told_why or stopped.why}"
    else:
        verdict.status = VERIFIED
        verdict.reason = f"all {cards} cards {'dealt' if full else 'named'} are where the " \
            "committed deck put them"
    if pick:
        picked = (f"; the game, {history_game(data).id}, is the random pick among "
                  f"the games offered ({', '.join(pick)})")
        if salt is None:  # (a hand dealt before the pick salt)
            picked += (" by the old rule, from the hand's hash alone (no _pick_salt: "
                       "the last player to send a seed could have steered it)")
        verdict.reason += picked
        if verdict.told:
            verdict.told += picked
    if not any(seeds.values()):  # (s73-verify: what such a check does not show)
        unseeded = ("; no player's client seed went into this deal (every one is empty): "
                    "the dealer knew the order it would deal when it committed, so this "
                    "shows the cards were fixed before the deal, not that they were not "
                    "chosen")
        verdict.reason += unseeded
        if verdict.told:
            verdict.told += unseeded
    if verdict.sat_out_from is not None and verdict.hand_no is not None \
            and verdict.sat_out_from < verdict.hand_no:
        words = _sat_out_words(verdict.sat_out_from, verdict.hand_no - 1,
                               verdict.owner or "the player")
        verdict.reason += f"; before it, {words}"
        if verdict.told:
            verdict.told += f"; before it, {words}"
    return verdict


def _sat_out_words(first: int, last: int, who: str) -> str:
    """``hands 4 to 8: Ann sat out (recorded under their commitments)``."""
    if first == last:
        return f"hand {first}: {who} sat out (recorded under its commitment)"
    return f"hands {first} to {last}: {who} sat out (recorded under their commitments)"


def _owner_name(data: Mapping[str, Any]) -> str | None:
    """The name of a copy's player (``players[_redacted_for]``), or ``None``."""
    seat = data.get("_redacted_for")
    players = data.get("players")
    if type(seat) is not int or not isinstance(players, list) or not 0 <= seat < len(players):
        return None
    name = players[seat]
    return name if isinstance(name, str) and name else None


def _dealt_in(seated: Mapping[int, str], seeds: Mapping[int, str]) -> dict[int, str]:
    """Who a hand was dealt to: the seats of ``seated`` (seat -> name, under the
    commitment) with a client seed (fixed with the hand's hash).

    Raises:
        ProofError: a client seed of a seat the deal was not committed for.
    """
    stray = sorted(s for s in seeds if s not in seated)
    if stray:
        raise ProofError(f"_client_seeds has a seed of seat {stray[0]}, which _seated does not "
                         "name: the hand was dealt to a seat its commitment was not for")
    return {s: seated[s] for s in seeds}


def _check_seated(data: Mapping[str, Any], seated: Mapping[int, str],
                  seeds: Mapping[int, str]) -> None:
    """A hand that records who it was dealt to (``_seated``): every seat that
    plays in it (a starting stack) is dealt in (named in ``_seated`` with a
    client seed), and a copy's own player is one of them, under the name the
    copy gives them (``players``: the name its checks across copies go by).

    Raises:
        ProofError: naming the seat.
    """
    dealt = _dealt_in(seated, seeds)
    stacks = data.get("starting_stacks")
    for s, chips in enumerate(stacks if isinstance(stacks, list) else []):
        if type(chips) is int and chips > 0 and s not in dealt:
            raise ProofError(f"seat {s} plays in the hand, but _seated and _client_seeds do "
                             "not record it dealt in")
    mine = data.get("_redacted_for")
    if type(mine) is int:
        if mine not in dealt:
            raise ProofError(f"this is seat {mine}'s own copy, but _seated and _client_seeds "
                             "do not record that seat dealt in")
        name = _owner_name(data)
        if name != dealt[mine]:
            raise ProofError(f"this is {name!r}'s own copy (players), but _seated names "
                             f"{dealt[mine]!r} at seat {mine}: the deal was committed for "
                             "them")


def _read_as(name: str) -> str:
    """What a name reads as (:func:`rollem.text.name_key`, runs of spaces as one):
    the web table gives no two players names that read alike."""
    return " ".join(name_key(name).split())


def _sat_out_record(raw: object, name: str, hand_no: int,
                    prev_hash: bytes) -> tuple[int, bytes]:
    """A copy's ``_sat_out``: the records of the hands its player ``name`` sat out
    since their previous hand, hand ``hand_no - len(raw)`` to ``hand_no - 1`` in
    order, each with its ``_hand_no``, ``_prev_hash``, ``_deck_root``,
    ``_client_seeds``, ``_seated`` (and ``_pick_games``, ``_pick_salt``): each
    record's hash
    (computed as the procedure says) must be the next one's ``_prev_hash``, the
    last one's this hand's ``prev_hash``, and none may deal ``name`` in.  Returns
    the first hand recorded and its ``_prev_hash`` (the hash of ``name``'s
    previous hand).

    Raises:
        ProofError: a malformed record, a broken link or a hand dealt to
            ``name``, named.
    """
    if not isinstance(raw, list) or len(raw) > SAT_OUT_MAX:
        raise ProofError(f"_sat_out must be a list of at most {SAT_OUT_MAX} hands' records")
    first = hand_no - len(raw)
    link: bytes | None = None
    start = prev_hash
    for k, item in enumerate(raw):
        where = f"record {k + 1} of _sat_out"
        if not isinstance(item, Mapping):
            raise ProofError(f"{where}: a record is a table of _hand_no, _prev_hash, "
                             "_deck_root, _client_seeds and _seated")
        try:
            number = hand_no_field(item)
            before = hash_field(item, "_prev_hash")
            root = hash_field(item, "_deck_root")
            pick = pick_games_field(item)
            salt = pick_salt_field(item, pick)
            seated = seated_field(item)
            seeds = client_seeds_field(item)
        except ProofError as err:
            raise ProofError(f"{where}: {err}") from None
        if number != first + k:
            raise ProofError(f"{where} is of hand {number}; the records must be of hands "
                             f"{first} to {hand_no - 1}, in order")
        if not seated:
            raise ProofError(f"{where} (hand {number}) has no _seated: it does not say who "
                             "was dealt in")
        try:
            dealt = _dealt_in(seated, seeds)
        except ProofError as err:
            raise ProofError(f"{where} (hand {number}): {err}") from None
        if link is not None and before != link:
            raise ProofError(f"{where} (hand {number}): its _prev_hash is not the hash of "
                             f"hand {number - 1}'s record: a record was changed")
        if k == 0:
            start = before
        same = [who for who in dealt.values() if _read_as(who) == _read_as(name)]
        if same:
            # (s73-verify: by name_key, as a table keeps its names apart: a record
            # naming Ann dealt in as "Ann" + U+200B, "ANN" or a full-width "Ａｎｎ"
            # passed as a hand Ann sat out, so a hand dealt to her could be hidden)
            named = name if same[0] == name else f"{same[0]!r}, which reads as {name}"
            raise ProofError(f"hand {number} was dealt to {name} (its record in _sat_out, "
                             f"under its commitment, names {named} dealt in), so {name}'s "
                             f"copy of it cannot be one of the hands sat out")
        link = hand_hash(chained_commitment(root, before, pick, seated, salt),
                         encode_client_seeds(seeds), number)
    if link is not None and link != prev_hash:
        raise ProofError(f"_sat_out's last record (hand {hand_no - 1}) does not hash to "
                         "_prev_hash: a record was changed")
    return first, start


@dataclass(frozen=True)
class _Stop:
    """Where a copy's check stopped: the line (0-based ``index`` in ``actions``),
    the players' actions before it, the line in the file's terms and why."""

    index: int
    actions: int
    where: str
    why: str
    choosers: tuple[int, ...] = ()
    """Another player's hidden choice the check stopped at: the seats that made it."""
    kind: str = ""
    """That choice in words (``"stacking order"``)."""
    told_why: str = ""
    """``why`` for a player at the table (no line numbers); empty: ``why``."""


def _told_where(data: Mapping[str, Any], stop: _Stop) -> str:
    """Where the check stopped, in players' words: the action's place in the hand
    and what it tells (``the 13th action (Cat turns up 8d) on``; a deal line: ``the
    cards dealt after the 12th action (you get Qh 4c) on``), from the shared
    narration (:func:`rollem.narration.history.copy_line_words`); the file's terms
    when the narration tells nothing there."""
    from rollem.narration.history import copy_line_words
    from rollem.narration.words import ordinal

    if stop.choosers:  # told by whose hidden choice it is (the story tells none)
        from rollem.text import name_safe

        names = data.get("players")
        named = [(name_safe(str(names[s])) if isinstance(names, list) and s < len(names)
                  else "") or f"seat {s + 1}" for s in stop.choosers]
        after = f" (after the {ordinal(stop.actions)} action)" if stop.actions else ""
        return f"{_possessive(named)} hidden {stop.kind}{'s' if len(named) > 1 else ''}" \
            f"{after} on"
    line = str(data["actions"][stop.index]).split("#", 1)[0].split()
    deal = bool(line) and line[0] == "d"
    words = copy_line_words(data, stop.index)
    if words is None and deal and stop.index > 0:
        # another player's hidden cards dealt after a draw: told with the draw
        words = copy_line_words(data, stop.index - 1)
    if words is None:
        return stop.where
    words = re.sub(r" \(pot \d+\)", "", words)  # (where, not how much)
    if words.startswith(("You ", "The ")):
        words = words[0].lower() + words[1:]
    if deal:
        at = f"the cards dealt after the {ordinal(stop.actions)} action" if stop.actions \
            else "the deal"
    else:
        at = f"the {ordinal(stop.actions + 1)} action"
    return f"{at} ({words}) on"


def _check_pick(data: Mapping[str, Any], pick: Sequence[str], linked: bytes,
                salt: bytes | None) -> None:
    """A game picked at random (``_pick_games``): the history's game must be the
    one the pick among the games offered names from the hand's hash and the
    pick salt (``salt``, under the commitment; ``None``: a hand dealt before
    the salt, picked from the hash alone).

    Raises:
        ProofError: another game, named.
    """
    game = history_game(data).id
    want = picked_game(linked, pick, salt)
    if game != want:
        by = "_hand_hash and _pick_salt" if salt is not None else "_hand_hash"
        raise ProofError(f"the game is {game}, but the random pick among _pick_games "
                         f"({', '.join(pick)}) by {by} names {want}: the pick was "
                         "changed")


def _openings(data: Mapping[str, Any], root: bytes) -> dict[int, int]:
    """A copy's ``_openings``, each checked against ``root``: position -> card.

    Raises:
        ProofError: a malformed opening, one that does not lead to the root, a
            position opened twice or a card at two positions (named).
    """
    raw = data.get("_openings")
    if not isinstance(raw, list) or len(raw) > DECK_SIZE:
        raise ProofError(f"_openings must be a list of at most {DECK_SIZE} openings")
    out: dict[int, int] = {}
    for k, item in enumerate(raw):
        where = f"opening {k + 1} of _openings"
        o = Opening.from_fields(item, where)
        if o.root() != root:
            raise ProofError(f"{where} (position {o.pos}, {CARDS[o.card]}) does not match "
                             "the commitment: its leaf and path do not lead to _deck_root")
        if o.pos in out:
            raise ProofError(f"{where}: position {o.pos} is opened twice")
        if o.card in out.values():
            raise ProofError(f"{where}: {CARDS[o.card]} is opened at two positions")
        out[o.pos] = o.card
    return out


class _CopySource(RandomSource):
    """A copy's deck: the opened cards where the permutation puts them, stand-ins
    (unopened cards) elsewhere; a later shuffle keeps the order it is given
    (the check stops there)."""

    def __init__(self, opened: Mapping[int, int], perm: Sequence[int]) -> None:
        super().__init__()
        rest = iter(c for c in range(DECK_SIZE) if c not in set(opened.values()))
        self.deck = [CARDS[opened[p]] if p in opened else CARDS[next(rest)] for p in perm]

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        if label == "deck" and not self.outcomes:
            return list(self.deck)
        return [CARDS[c] for c in cards]


def _pool_used(hand: Hand) -> bool:
    """Whether a later step takes cards from the pool (a draw from it or a wild
    pick, Roll Your Own).  If not (a game file's out-of-play discard, Crazy
    Pineapple), the pool's secret shuffle decides no card dealt after it: the
    stub's cards that follow are still the committed deck's and are checked."""
    spec = hand.game.spec
    return spec is None or spec.pools_discards


def _cards_dealt(hand: Hand) -> int:
    total = 0
    for e in hand.events:
        if e.kind in _DEALT:
            total += len(e.data["cards"]) if "cards" in e.data else 1
    return total


def _new_hand(h: History, data: Mapping[str, Any], source: RandomSource) -> Hand:
    return Hand(history_game(data), h.stacks, button=h.button, options=h.options,
                source=source, carry_in=h.carry_in)


def _check_full(data: Mapping[str, Any], proof: DealProof) -> int:
    """The whole history: every line and ``_deck``/``_shuffles``; the cards checked."""
    h = parse_history(data)
    hand = _new_hand(h, data, CommittedSource(proof))
    if h.deck is not None:
        for i, (want, dealt) in enumerate(zip(h.deck, hand.deck, strict=False)):
            if want != dealt:
                raise HistoryError(f"card {i + 1} of _deck is {CARDS[want]}, but the "
                                   f"committed deck puts {CARDS[dealt]} there")
    _every_deal_stated(hand, _run(hand, h, True, source=_SOURCE),
                       "a history dealt from a committed deck")
    later = hand.source.outcomes[1:]
    for i, (label, order) in enumerate(h.shuffles):
        if i >= len(later):
            raise HistoryError(f"_shuffles {i + 1} ({label}): the hand has no such shuffle")
        got_label, got = later[i][0], list(later[i][1])
        if (label, list(order)) != (got_label, got):
            at = next((k for k, (a, b) in enumerate(zip(order, got, strict=False)) if a != b),
                      min(len(order), len(got)))
            shown = f"{CARDS[order[at]]}" if at < len(order) else "nothing"
            seeds = f"{CARDS[got[at]]}" if at < len(got) else "nothing"
            raise HistoryError(f"_shuffles {i + 1} ({label}): card {at + 1} is {shown}, but "
                               f"the deal key puts {seeds} there")
    if len(h.shuffles) < len(later):
        raise HistoryError(f"_shuffles records {len(h.shuffles)} later shuffles; the hand "
                           f"has {len(later)}")
    # the PHH header's antes, blinds and bet sizes are the options' (as rollem replay
    # checks them): a rewritten header tells another hand than the one dealt
    check_forced_bets(data, hand)
    found = differences(h, hand)
    if found:  # a rewritten result (_result, finishing_stacks) is no hand this deck dealt
        raise HistoryError(f"{found[0]} (the hand dealt from the committed deck)")
    return _cards_dealt(hand)


def _check_copy(data: Mapping[str, Any], opened: Mapping[int, int],
                perm: Sequence[int]) -> tuple[int, _Stop | None]:
    """A player's own copy: every card it names (see the module doc).  Returns the
    cards checked and, if the check stopped early, why."""
    header = {k: v for k, v in data.items() if k not in ("_redacted_for", "actions", "_result")}
    h = parse_history({**header, "actions": []})
    hand = _new_hand(h, data, _CopySource(opened, perm))
    lines = _Lines(hand, h, True)
    lines.source = _OPENED
    raw = data.get("actions", [])
    if not isinstance(raw, list):
        raise HistoryError("actions must be a list of lines")
    n = len(h.stacks)
    cards_opened = {str(CARDS[c]) for c in opened.values()}
    exchanged = set()  # seats whose exchanges are hidden: their shown cards are not opened
    for line in raw:
        parts = _card_tokens(str(line).split("#", 1)[0].split())
        if len(parts) >= 3 and parts[1] in _HIDDEN_CHOICES and "??" in parts:
            exchanged.add(parts[0])
    checked = 0
    actions = 0
    before: list[int] = []  # players' actions before each line
    for i, line in enumerate(raw):
        before.append(actions)
        body = str(line).split("#", 1)[0]
        parts = _card_tokens(body.split())
        if not parts:
            continue
        where = f"line {i + 1} of actions ({_one_line(str(line))})"
        secret = [label for label, _ in hand.source.outcomes[1:]
                  if label != "pool" or _pool_used(hand)]
        if secret:
            label = secret[0]
            what = "the pool's shuffle" if label == "pool" else f"a {label}"
            return checked, _Stop(i, actions, where, f"{what} (its order is the dealer's "
                                  "secret; the full history checks it)")
        if parts[0] == "d":
            if "??" in parts or len(parts) < 3:
                continue
            code = parts[1]
            seat = _seat(parts[2], n, where) if code in ("dh", "du", "pd") else None
            cards = parse_cards(parts[3:] if seat is not None else parts[2:])
            for c in cards:
                if str(c) not in cards_opened:
                    raise HistoryError(f"{where}: the copy names {c} here but _openings "
                                       "does not open it")
            lines.check(DealLine(code, seat, tuple(cards), i + 1, _one_line(str(line)), actions))
            checked += len(cards)
            continue
        seat = _seat(parts[0], n, where)
        if len(parts) >= 2 and parts[1] == "sm":
            if parts[0] not in exchanged:
                checked += _check_show(hand, seat, parts[2:], where, cards_opened)
            continue
        if hand.is_over:
            continue  # shows by choice are 'sm' lines; nothing else comes after the end
        if "??" in parts:
            action: object = _stand_in(hand, seat, parts[1], parts.count("??"), where)
        else:
            action = _action(hand, seat, " ".join(parts[1:]), where)
        lines.segment()  # lines after it match only what it deals
        try:
            hand.apply(seat, action)
        except EngineError as err:
            if exchanged:  # the stand-in cards may not allow it: stop at the choice
                return checked, _hidden_choice_stop(raw, i, before, actions, where)
            raise HistoryError(f"{where}: {_one_line(str(err))}") from None
        actions += 1
    return checked, None


_CHOICE_WORDS = {"stack": "stacking order", "dis": "discard", "draw": "draw", "sd": "draw"}
"""A hidden choice's kind (a copy line's code, ``_HIDDEN_CHOICES``) in words."""


def _hidden_choice_stop(raw: Sequence[object], index: int, before: Sequence[int],
                        actions: int, where: str) -> _Stop:
    """Where a copy's check stops when line ``index`` (0-based) cannot be played
    after another player's hidden choice was played with stand-in cards: at that
    choice, not at the line that failed (s60-tidy: a 5-2-1 copy said "not checked
    from line 20 of actions (p2 cbr 4)", a bet, when the step it cannot follow is
    p2's hidden stacking before the roll-up, R-521-5). The choice named is the
    first hidden one of the run of choice lines (the same code: every player's
    stacking of one step) holding the last hidden choice before ``index``; each
    hidden chooser of that run is named. Without one, the failed line itself."""
    def tokens(k: int) -> list[str]:
        return _card_tokens(str(raw[k]).split("#", 1)[0].split())

    def hidden(w: Sequence[str]) -> bool:
        return len(w) >= 3 and w[1] in _HIDDEN_CHOICES and "??" in w

    last = next((k for k in range(index - 1, -1, -1) if hidden(tokens(k))), None)
    if last is None:
        return _Stop(index, actions, where, "it depends on another player's hidden choice")
    code = tokens(last)[1]
    first = last
    for k in range(last - 1, -1, -1):
        w = tokens(k)
        if not w:
            continue  # a comment
        if len(w) < 2 or w[1] != code:
            break
        if hidden(w):
            first = k
    who = [w[0] for w in map(tokens, range(first, last + 1)) if hidden(w)]
    kind = _CHOICE_WORDS.get(code, "choice")
    plural = "s" if len(who) > 1 else ""
    return _Stop(first, before[first],
                 f"line {first + 1} of actions ({_one_line(str(raw[first]))})",
                 f"what follows depends on {_possessive(who)} hidden {kind}{plural}: with "
                 f"stand-in cards in {'their' if plural else 'its'} place, line {index + 1} "
                 f"({_one_line(str(raw[index]))}) cannot be played",
                 choosers=tuple(int(p[1:]) - 1 for p in who), kind=kind,
                 told_why=f"what follows depends on {'them' if plural else 'it'}, and you "
                          "do not see it")


def _possessive(names: Sequence[str]) -> str:
    """``"p2's"``, ``"p2's and p3's"``, ``"p2's, p3's and p4's"``."""
    owned = [f"{n}'s" for n in names]
    return owned[0] if len(owned) == 1 else ", ".join(owned[:-1]) + " and " + owned[-1]


def _seat(token: str, n: int, where: str) -> int:
    if not token.startswith("p") or not ascii_digits(token[1:]) or not 1 <= int(token[1:]) <= n:
        raise HistoryError(f"{where}: bad player {token!r}: expected p1..p{n}")
    return int(token[1:]) - 1


def _action(hand: Hand, seat: int, text: str, where: str) -> object:
    try:
        action = action_from_text(text)
    except (ValueError, TypeError) as err:
        raise HistoryError(f"{where}: {_one_line(str(err))}") from None
    p = hand.pending
    if p is not None and p.kind == "bet":
        if isinstance(action, Call) and "check" in hand.legal_actions(seat).actions:
            return Check()
        if isinstance(action, Raise) and hand.current_bet == 0:
            return Bet(action.to)
    return action


def _stand_in(hand: Hand, seat: int, kind: str, count: int, where: str) -> object:
    """Another player's hidden choice of ``count`` cards, played with the first
    cards it may choose: where its real cards went is hidden, and where later
    cards come from does not depend on it until a shuffle of them."""
    legal = hand.legal_actions(seat)
    cards = tuple(legal.cards)
    if kind == "dis":
        return Discard(cards[:count])
    if kind in ("sd", "draw"):
        return Draw(cards[:count])
    if kind == "stack":
        return Stack(cards)
    raise HistoryError(f"{where}: hidden cards (??) in a {kind!r} line; only other "
                       "players' discards, draws and stacking orders are hidden")


def _check_show(hand: Hand, seat: int, cards_text: Sequence[str], where: str,
                opened: set[str]) -> int:
    """A shown hand (in a copy, in the order all saw it) of a seat that exchanged
    no card in secret: each card opened and dealt to that seat.  Returns the
    cards checked."""
    if not cards_text or "??" in cards_text:
        return 0
    shown = parse_cards(list(cards_text))
    unopened = [c for c in shown if str(c) not in opened]
    if unopened:
        raise HistoryError(f"{where}: p{seat + 1} shows {format_cards(unopened)}, but _openings "
                           f"does not open {'it' if len(unopened) == 1 else 'them'}")
    given: set[int] = set()
    for e in hand.events:
        key = _event_key(e.kind, e.seat, e.data)
        if key is not None and key[1] == seat and key[0] in ("dh", "du", "pd"):
            given.update(key[2])
    stray = [c for c in shown if c not in given]
    if stray:
        raise HistoryError(f"{where}: p{seat + 1} shows {format_cards(stray)}, but the committed "
                           f"deck never dealt {'it' if len(stray) == 1 else 'them'} to "
                           f"p{seat + 1}")
    return len(shown)


def _owner(data: Mapping[str, Any]) -> str | None:
    """Whose own copy ``data`` is (:attr:`Verdict.owner`), or ``None``."""
    seat = data.get("_redacted_for")
    if type(seat) is not int:
        return None
    players = data.get("players")
    name = players[seat] if isinstance(players, list) and 0 <= seat < len(players) else None
    return name if isinstance(name, str) and name else f"seat {seat + 1}"


def _form_key(table: Mapping[str, Any]) -> str:
    """A session form's fields, ``_hand`` aside, as one comparable text (TOML's
    dates and times, as a PHH file's ``time`` field, in their ISO form)."""
    import json

    return json.dumps({k: v for k, v in table.items() if k != "_hand"}, sort_keys=True,
                      default=lambda v: v.isoformat() if hasattr(v, "isoformat") else repr(v))


def session_forms(copies: Sequence[tuple[str, Mapping[str, Any], Verdict]]
                  ) -> dict[str, tuple[str, Verdict]]:
    """The session form (:func:`rollem.phh.session.session_table`: how a session
    download or ``rollem play``'s ``session.phhs`` writes a hand) of each own copy
    with a commitment among ``copies`` (``(name, history, verdict)``), keyed for
    :func:`written_from`: ``(name, verdict)`` of the first copy of each form."""
    from rollem.history import HistoryError
    from rollem.phh import PHHError
    from rollem.phh.session import session_table

    forms: dict[str, tuple[str, Verdict]] = {}
    for name, history, verdict in copies:
        if "_redacted_for" not in history or "_commitment" not in history:
            continue
        try:
            table = session_table(history)
        except (HistoryError, PHHError):
            continue
        if table is not None:
            forms.setdefault(_form_key(table), (name, verdict))
    return forms


def written_from(data: Mapping[str, Any],
                 forms: Mapping[str, tuple[str, Verdict]]) -> tuple[str, Verdict] | None:
    """The own copy a standard PHH hand of a session download (``data``: no
    commitment) was written from, among the copies of ``forms``
    (:func:`session_forms`): ``(name, verdict)`` of the one whose session form is
    ``data`` field for field (``_hand`` aside), else ``None``.  Such a hand is
    that copy's hand, so its check is that copy's: ``rollem verify DIR/*`` over
    ``rollem play``'s folder (``hand-N.toml`` and ``session.phhs``), or a web
    download beside the hands' copies, is not failed for the standard-PHH
    duplicates."""
    return forms.get(_form_key(data))


def check_chain(verdicts: Sequence[Verdict]) -> str | None:
    """Whether hands of one session follow each other: sorted by hand number,
    each hand's ``_prev_hash`` must be the previous hand's ``_hand_hash`` and
    the numbers consecutive; and whether copies of one hand agree (a card
    opened at two positions means the committed deck held it twice: each
    copy alone cannot tell).  Returns the first break (one line), or
    ``None``.  Hands without a hash are left out.

    Hands not given between two given hands are no break where one player's
    own copies are given on both sides (:attr:`Verdict.owner`: hand-N.toml
    files or the session download, which hold only the hands that player was
    dealt into).  Where both copies record who each hand was dealt to
    (:attr:`Verdict.seated`), the later one must carry the record of the hands
    between (``_sat_out``, chained from the earlier one): they are then hands
    that player sat out (:func:`sat_out` names them), and a hand it records
    as dealt to them, or a record left out, breaks the chain.  Copies without
    the record: the hands between are not checked (:func:`not_checked` names
    them).  Next to a full history (the dealer's record of every hand), or
    between copies of different players, a hand not given breaks the chain."""
    seen: dict[str, dict[int, int]] = {}
    for v in verdicts:
        if not v.hand_hash:
            continue
        where = seen.setdefault(v.hand_hash, {})
        for pos, card in v.positions.items():
            other = where.setdefault(card, pos)
            if other != pos:
                return (f"hand {v.hand_no}: {CARDS[card]} is opened at positions "
                        f"{min(pos, other)} and {max(pos, other)} in different files: the "
                        "committed deck holds a card twice")
    hands = _chained(verdicts)
    owners = _owners(hands)
    for a, b in pairwise(hands):
        if a.hand_no == b.hand_no:
            if a.hand_hash == b.hand_hash:
                continue  # two copies of one hand (two players' copies)
            return f"two different hands are numbered {a.hand_no}"
        if b.hand_no != (a.hand_no or 0) + 1 and \
                owners[a.hand_no or 0] & owners[b.hand_no or 0]:
            continue  # one player's copies: the gap is judged by _gaps
        if b.prev_hash != a.hand_hash:
            gap = "" if b.hand_no == (a.hand_no or 0) + 1 else \
                f" (hands {(a.hand_no or 0) + 1} to {(b.hand_no or 0) - 1} are not given)"
            return (f"hand {b.hand_no} does not follow hand {a.hand_no}: its _prev_hash is not "
                    f"hand {a.hand_no}'s _hand_hash{gap}; a hand between them is missing, "
                    "or one was rewritten or reordered")
    for kind, _lo, _hi, _who, why in _gaps(verdicts):
        if kind == _BROKEN:
            return why
    return None


_SAT_OUT, _NOT_CHECKED, _BROKEN = "sat_out", "not_checked", "broken"


def _chained(verdicts: Sequence[Verdict]) -> list[Verdict]:
    """The verdicts with a hand number and hash, by hand number."""
    return sorted((v for v in verdicts if v.hand_no is not None and v.hand_hash),
                  key=lambda v: v.hand_no or 0)


def _owners(hands: Sequence[Verdict]) -> dict[int, set[str]]:
    """Hand number -> whose own copies of it are given (empty when only a full
    history is: a full history is the whole table's record, no gap allowed)."""
    owners: dict[int, set[str]] = {}
    full: set[int] = set()
    for v in hands:
        owners.setdefault(v.hand_no or 0, set())
        if v.owner is None:
            full.add(v.hand_no or 0)
        else:
            owners[v.hand_no or 0].add(v.owner)
    for n in full:
        owners[n] = set()
    return owners


def _gaps(verdicts: Sequence[Verdict]) -> list[tuple[str, int, int, str, str]]:
    """The runs of hands not given between one player's own copies (as
    :func:`check_chain` allows them): ``(kind, first, last, owner, why)`` by
    hand number, ``kind`` one of ``sat_out`` (the later copy's ``_sat_out``
    records them, chained from the earlier copy), ``not_checked`` (no record:
    copies made before it, or a run longer than :data:`SAT_OUT_MAX`) and
    ``broken`` (``why``: the break, one line)."""
    hands = _chained(verdicts)
    owners = _owners(hands)
    copies = {(v.hand_no, v.owner): v for v in hands if v.owner is not None}
    unhashed = {(v.hand_no, v.owner) for v in verdicts  # (a standard PHH hand)
                if v.status == NO_COMMITMENT and v.hand_no is not None and v.owner is not None}
    numbers = sorted({v.hand_no or 0 for v in hands})
    runs: list[tuple[str, int, int, str, str]] = []
    for i, j in pairwise(numbers):
        lo, hi = i + 1, j - 1
        if lo > hi:
            continue
        for who in sorted(owners[i] & owners[j]):
            runs.extend(_gap(copies[(i, who)], copies[(j, who)], who, unhashed))
    return runs


def _gap(a: Verdict, b: Verdict, who: str,
         unhashed: set[tuple[int, str]]) -> list[tuple[str, int, int, str, str]]:
    """The hands between ``who``'s copies ``a`` and ``b`` (hands ``i`` and ``j``,
    none of the hands between given), as :func:`_gaps` judges them; ``unhashed``:
    the (hand, owner) pairs given without a commitment."""
    i, j = a.hand_no or 0, b.hand_no or 0
    lo, hi = i + 1, j - 1
    if not (a.seated and b.seated):
        return [(_NOT_CHECKED, lo, hi, who, "")]
    first = b.sat_out_from
    if first is None:
        if hi - lo + 1 > SAT_OUT_MAX:
            return [(_NOT_CHECKED, lo, hi, who, "")]
        return [(_BROKEN, lo, hi, who, (
            f"hands {lo} to {hi} are not in the files, and {who}'s copy of hand {j} "
            f"does not record them as hands {who} sat out (_sat_out): a hand dealt "
            f"to {who} between may have been left out of {who}'s copies"))]
    if first - 1 == i:
        if b.sat_out_prev == a.hand_hash:
            return [(_SAT_OUT, lo, hi, who, "")]
        return [(_BROKEN, lo, hi, who, (
            f"{who}'s copy of hand {j} records hands {lo} to {hi} as sat out, but "
            f"its record does not follow hand {i} (the first record's _prev_hash is "
            f"not hand {i}'s _hand_hash): hand {i} or the record was changed"))]
    if first - 1 < i:
        return [(_BROKEN, lo, hi, who, (
            f"{who}'s copy of hand {j} records hand {first} on as hands {who} sat out, "
            f"but {who}'s copy of hand {i} is given: one of them was changed"))]
    if (first - 1, who) in unhashed:  # given, but with no commitment (standard PHH)
        runs = []
        if lo <= first - 2:
            runs.append((_NOT_CHECKED, lo, first - 2, who, ""))
        if first <= hi:
            runs.append((_SAT_OUT, first, hi, who, ""))
        return runs
    missing = first - 1
    if first <= hi:
        return [(_BROKEN, lo, hi, who, (
            f"hand {missing} was dealt to {who} but {who}'s copy of it is not in the "
            f"files: {who}'s copy of hand {j} records only hands {first} to {hi} as sat "
            f"out, chained from hand {missing} (recorded under the commitments)"))]
    return [(_BROKEN, lo, hi, who, (
        f"hand {missing} was dealt to {who} but {who}'s copy of it is not in the "
        f"files: {who}'s copy of hand {j} follows it directly (its _sat_out "
        f"records no hand sat out)"))]


def not_checked(verdicts: Sequence[Verdict]) -> list[tuple[int, int, str]]:
    """The runs of hands not given that :func:`check_chain` lets pass unchecked
    (one player's own copies on both sides, without the record of the hands
    they sat out): ``(first, last, owner)`` each, by hand number; ``[]`` when
    there is none."""
    return [(lo, hi, who) for kind, lo, hi, who, _ in _gaps(verdicts) if kind == _NOT_CHECKED]


def sat_out(verdicts: Sequence[Verdict]) -> list[tuple[int, int, str]]:
    """The runs of hands not given that one player's copies prove they sat out
    (the later copy's ``_sat_out``, under the commitments, chained from the
    earlier copy): ``(first, last, owner)`` each, by hand number."""
    return [(lo, hi, who) for kind, lo, hi, who, _ in _gaps(verdicts) if kind == _SAT_OUT]
