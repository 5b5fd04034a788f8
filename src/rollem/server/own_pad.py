"""A seat's own view padded to a length that follows public information only.

TLS hides a message's content, not its length, and the web table sends its
states uncompressed (stop 55), so a passive observer of one player's
connection reads the length of what that player is sent.  A seat's view holds
words that follow its own hidden cards (``hand_name``: "ace high" against
"queen high"; its own muck line; a 5-2-1 declaration before its reveal, in its
own event, label and hand name), so its raw length tells something of them.
Padding the whole message to a bucket would not do: an eavesdropper who also
plays knows the public part's length exactly.

The rule here: a seat's view text is padded with spaces (JSON allows
whitespace before the closing brace; parsers never see them) to the length of
a watcher's view of the same moment plus :func:`own_allowance`, a bound on the
seat's own part that is itself a function of the watcher's length only
(:data:`OWN_BASE` bytes plus one eighth of it: the own part grows with public
things too, the seat's own decision and the log).  Both are public, so the
padded length is.

Measured (tests' random play, every shipped game, 2 to 6 players, every state
of every seat): the own part (a seat's view minus a watcher's) ran up to
1,064 bytes and never past ``462 + watcher // 10``; the allowance leaves
room above that.  Should an own part ever exceed it, the allowance doubles
until it fits (:func:`padded_length`): that step alone would tell a little,
once, and never happened in the measurements (docs/dev/hostile.md, "Own state
padded").
"""

from __future__ import annotations

OWN_BASE = 768
"""Bytes of the own part's allowance before the public share (:func:`own_allowance`)."""

PUBLIC_SHARE = 8
"""The allowance grows by one byte per this many bytes of the watcher's view."""


def own_allowance(watcher_length: int) -> int:
    """The bytes a seat's view may exceed a watcher's of the same moment by:
    :data:`OWN_BASE` + ``watcher_length // PUBLIC_SHARE`` (``watcher_length``:
    characters of the watcher's view text, >= 0)."""
    return OWN_BASE + watcher_length // PUBLIC_SHARE


def padded_length(own_length: int, watcher_length: int) -> int:
    """The length a seat's view text of ``own_length`` characters is padded to,
    when a watcher's of the same moment has ``watcher_length``: the watcher's
    plus :func:`own_allowance`, the allowance doubled until the own view fits
    (never seen in the measurements)."""
    allowance = own_allowance(watcher_length)
    while watcher_length + allowance < own_length:
        allowance *= 2
    return watcher_length + allowance


def pad_view(own: str, watcher: str) -> str:
    """``own`` (a seat's view: a JSON object's text, ending in ``}``) with spaces
    before its closing brace, to :func:`padded_length` of ``own`` and ``watcher``
    (a watcher's view of the same moment).  The JSON value is unchanged.

    Raises ``ValueError`` if ``own`` does not end in ``}``."""
    if not own.endswith("}"):
        raise ValueError(f"a view's text must be a JSON object ending in '}}', not {own[-20:]!r}")
    extra = padded_length(len(own), len(watcher)) - len(own)
    return own[:-1] + " " * extra + "}"


ODDS_PLAIN = 2048
"""Bytes every practice-odds reply (the answer, or its ``too_costly``,
``odds_failed``, ``cancelled`` or ``paused`` error) is padded to when its seat
faces no card choice at the request (:func:`odds_length`)."""

ODDS_CHOICE = 8192
"""Bytes every practice-odds reply is padded to when its seat faces a card
choice at the request (a discard, expose, draw, wild pick, stacking order or
declaration: the answer carries advice, up to ten options)."""

CARD_CHOICES = frozenset({"discard", "expose", "draw", "wild", "stack", "declare"})
"""The decisions (legal action kinds) that practice odds answer with advice."""


def odds_length(raw_bytes: int, card_choice: bool) -> int:
    """The length in bytes (UTF-8) a practice-odds reply of ``raw_bytes`` is
    padded to: :data:`ODDS_CHOICE` when its seat faced a card choice at the
    request (public: the decision is on the table), else :data:`ODDS_PLAIN`;
    doubled until the reply fits (never seen: docs/dev/hostile.md, stop 56).

    The odds' numbers, the hand categories they list, the advice's options and
    notes all follow the asker's hidden cards, and so did the reply's length:
    a passive observer of the connection read the asker's equity from it."""
    length = ODDS_CHOICE if card_choice else ODDS_PLAIN
    while length < raw_bytes:
        length *= 2
    return length


def pad_odds(text: str, card_choice: bool) -> str:
    """``text`` (a practice-odds reply: a JSON object's text, ending in ``}``)
    with spaces before its closing brace to :func:`odds_length` bytes of UTF-8.
    The JSON value is unchanged.  Raises ``ValueError`` if ``text`` does not
    end in ``}``."""
    if not text.endswith("}"):
        raise ValueError(f"a reply's text must be a JSON object ending in '}}', not "
                         f"{text[-20:]!r}")
    raw = len(text.encode())
    return text[:-1] + " " * (odds_length(raw, card_choice) - raw) + "}"


REPLAY_BASE = 1024
"""Bytes of a seat's own replay's allowance before the public share
(:func:`replay_length`)."""

REPLAY_SHARE = 4
"""A seat's own replay's allowance grows by one byte per this many bytes of the
watcher's replay of the same hand (a frame a step: the own part grows with the
steps, about a tenth of a watcher's frame)."""


def replay_length(own_bytes: int, watcher_bytes: int) -> int:
    """The length in bytes a seat's replay of a finished hand (``own_bytes``) is
    padded to, when a watcher's replay of the same hand has ``watcher_bytes``:
    the watcher's plus :data:`REPLAY_BASE` + ``watcher_bytes // REPLAY_SHARE``,
    that allowance doubled until the seat's fits (never seen).

    A replay holds the seat's own hand's name at each step ("ace high",
    "pair of kings") and its own muck line, so its raw length told a passive
    observer something of a hand that was never shown (stop 56)."""
    allowance = REPLAY_BASE + watcher_bytes // REPLAY_SHARE
    while watcher_bytes + allowance < own_bytes:
        allowance *= 2
    return watcher_bytes + allowance


def pad_replay(own: bytes, watcher_bytes: int) -> bytes:
    """``own`` (a seat's replay: a JSON object's UTF-8, ending in ``}``) with
    spaces before its closing brace to :func:`replay_length`.  The JSON value is
    unchanged.  Raises ``ValueError`` if ``own`` does not end in ``}``."""
    if not own.endswith(b"}"):
        raise ValueError(f"a replay must be a JSON object ending in '}}', not {own[-20:]!r}")
    extra = replay_length(len(own), watcher_bytes) - len(own)
    return own[:-1] + b" " * extra + b"}"
