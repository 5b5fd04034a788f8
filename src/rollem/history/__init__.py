"""Hand histories: a versioned TOML text recording a whole hand (R-C-13).

The layout follows PHH (PokerKit's Poker Hand History): ``variant``
(``"rollem-<game id>"``), ``antes``, ``min_bet``, ``small_bet``/``big_bet``,
``starting_stacks``, ``actions`` (``"d dh p1 Qs Qd"``, ``"p2 cbr 4"``...),
``players``; what PHH lacks is in ``_``-prefixed fields: ``_version``,
``_button``, ``_options``, ``_deck`` (the deck order), ``_shuffles`` (every
later random outcome: the pool's shuffle, reshuffles), ``_carry_in``,
``_result``, and for a game that is not a shipped game file ``_game_file``
(the game file's text, so the history replays on its own); a hand dealt from
committed deck (issue 32, :mod:`rollem.engine.commit_reveal`) also has
``_hand_no``, ``_commitment``, ``_prev_hash``, ``_client_seeds``,
``_deck_root``, ``_hand_hash`` and ``_deal_key`` (a player's copy: the
``_openings`` of the cards it saw instead of the key; ``rollem verify``). Seat ``s`` is
written ``p{s+1}`` as in PHH. See ``docs/hand-history.md``.

- :func:`write_history` / :func:`history_dict`: a finished (or running) hand.
- :func:`read_history`: parse and check a history's text into a :class:`History`.
- :func:`replay`: rebuild the :class:`Hand` by applying everything again;
  raises :class:`HistoryError` if what the history records differs from the
  replay (:func:`differences`: ``_result``, ``finishing_stacks``, the
  per-seat fields' lengths, issue 34).
- :func:`differences`: every such difference, one line each (``rollem replay
  --lenient`` lists them and replays anyway).
- :func:`redact`: one seat's copy (what it saw plus what was shown).

Modules, one job each: :mod:`~rollem.history.format` (the version,
:class:`HistoryError`, :class:`History`), :mod:`~rollem.history.writing`,
:mod:`~rollem.history.reading`, :mod:`~rollem.history.replaying`,
:mod:`~rollem.history.compare` (:func:`differences`),
:mod:`~rollem.history.redaction` (:func:`redact`); a player's own copy is
checked by :mod:`rollem.history_copy`.

A history may be written by hand: leave out ``_deck`` and give the cards
with deal lines (``"d dh p1 Qs Qd"``, ``"d dead Qh"``, ``"d db Kc 7d 2s"``,
``"d burn 2c"``) or a ``_deck`` prefix; every other card is filled from the
remaining cards in deck order (2c 2d 2h 2s 3c ...).

>>> from rollem.engine import Hand, SeededSource, Call, Check
>>> hand = Hand("sdr", [200, 200], button=1, source=SeededSource(7))
>>> while not hand.is_over:
...     seat = hand.pending.seats[0]
...     legal = hand.legal_actions(seat)
...     events = hand.apply(seat, Call() if "call" in legal.actions else Check())
>>> text = write_history(hand, players=["Ann", "Bob"])
>>> read_history(text).actions[:2]
[(0, 'cc'), (1, 'cc')]
>>> replay(text).result == hand.result
True
>>> replay(text.replace('"p1 cc"', '"p1 cbr 3"', 1))
Traceback (most recent call last):
    ...
rollem.history.HistoryError: action 1 (line 3 of actions: p1 cbr 3): seat 0 cannot do that: ...
"""

from __future__ import annotations

# (``X as X``: private names other modules of rollem use: verify, openings, history_copy)
from rollem.history.compare import _RESULT_FIELDS as _RESULT_FIELDS
from rollem.history.compare import differences, same_words
from rollem.history.format import (
    MAX_MESSAGE,
    READ_VERSIONS,
    VERSION,
    DealLine,
    History,
    HistoryError,
)
from rollem.history.format import _brief as _brief
from rollem.history.format import _cap as _cap
from rollem.history.format import _one_line as _one_line
from rollem.history.format import _p as _p
from rollem.history.format import _phh as _phh
from rollem.history.reading import history_game, parse_history, read_history
from rollem.history.redaction import _HIDDEN_CHOICES as _HIDDEN_CHOICES
from rollem.history.redaction import _SECRETS as _SECRETS
from rollem.history.redaction import _card_tokens as _card_tokens
from rollem.history.redaction import _turned_up as _turned_up
from rollem.history.redaction import redact
from rollem.history.replaying import DealPreset, replay
from rollem.history.replaying import _event_key as _event_key
from rollem.history.replaying import _every_deal_stated as _every_deal_stated
from rollem.history.replaying import _Lines as _Lines
from rollem.history.replaying import _run as _run
from rollem.history.writing import history_dict, write_history, write_own_copy

HistoryError.__module__ = __name__  # raised and shown as rollem.history.HistoryError

__all__ = [
    "MAX_MESSAGE",
    "READ_VERSIONS",
    "VERSION",
    "DealLine",
    "DealPreset",
    "History",
    "HistoryError",
    "differences",
    "history_dict",
    "history_game",
    "parse_history",
    "read_history",
    "redact",
    "replay",
    "same_words",
    "write_history",
    "write_own_copy",
]
