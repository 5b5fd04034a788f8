"""Players' names: :func:`clean_name` checks and tidies the name a player
sits down with (length, invisible characters, words mixing scripts, names
kept for computer players, the table's own words, also as look-alikes:
:mod:`rollem.lookalike`).
No rule of its own."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from rollem.lookalike import MAX_MARKS_ON_ONE, look_alike_key, mixed_script_word, stacked_marks
from rollem.server.live_table.errors import TableError
from rollem.text import hidden_character, name_key, shown_length

MAX_NAME = 24
"""Longest player name (characters as shown, after trimming: an emoji sequence
such as 👨‍👩‍👧‍👦 counts one, :func:`rollem.text.shown_length`)."""


MAX_NAME_CODE_POINTS = 4 * MAX_NAME
"""Longest player name in code points (bounds what emoji sequences may add)."""


NAME_KEYS_KEPT = 8192
"""Names whose keys (:func:`name_keys`) and verdicts (:func:`clean_name`) are kept
(a few hundred bytes each)."""

MAX_NAME_SENT = 4 * MAX_NAME_CODE_POINTS
"""Longest text :func:`clean_name` reads at all, in code points (spaces around and
between words included, before they are trimmed): a longer one is refused before
any other check (s59-safe: a join's body may hold 16 KB)."""


_BOT_NAME = re.compile(r"^bot(\s*\d+)?(\s*\(.*\))?$", re.IGNORECASE)
"""Names reserved for computer players ("Bot 1 (random)", "bot", "BOT 2")."""
_FIRST_WORD = re.compile(r"^(\S+?)(\s*\d+)?(\s*\(.*\))?$")
"""A name split as a computer player's is: its first word, a number, a level."""


def kept_for_bots(name: str) -> bool:
    """Whether ``name`` (NFC) reads as a computer player's name, or is one with a
    look-alike first word (``Воt`` with Cyrillic ``В`` and ``о``, ``B0t 2``)."""
    if _BOT_NAME.match(" ".join(name_key(name).split())):
        return True
    parts = _FIRST_WORD.match(" ".join(unicodedata.normalize("NFKC", name).split()))
    return parts is not None and look_alike_key(parts.group(1)) == "bot"


def _kept_for_reader(name: str) -> bool:
    """Whether ``name`` (NFC) reads, or looks, like ``You``: the narration calls its
    reader "You" (:class:`rollem.narration.words.Names`, which also takes a lone seat
    named ``You`` for ``rollem play``'s player), so a player of that name would read
    to every other player, and to watchers, as the reader ("Ann and you are dealt 2
    cards each" told to a watcher, who holds none)."""
    reads = " ".join(name_key(name).split())
    looks = look_alike_key(" ".join(unicodedata.normalize("NFKC", name).split()))
    return reads == "you" or looks == "you"


_SUMMED_LINE = re.compile(r"^[0-9]+ earlier players?$")
"""How the ledger's one line summing people who left long ago is named, as names
read ("70 earlier players": :func:`rollem.server.live_table.seats.earlier_players_name`)."""
_SUMMED_LINE_LOOKS = re.compile(r"^[0-9ol]+ earlier players?$")
"""The same as names look (:func:`rollem.lookalike.look_alike_key` makes ``0`` ``o``
and ``1`` ``l``: ``"1O earIier players"`` looks like ``"10 earlier players"``)."""


def _kept_for_ledger(name: str) -> bool:
    """Whether ``name`` (NFC) reads, or looks, like the name of the ledger's line of
    earlier players ("3 earlier players", any number): the settle-up adds the nets
    of the ledger's lines by name, so a player of that name would be summed with
    that line, which grows into their name as more people leave (stop 52)."""
    reads = " ".join(name_key(name).split())
    looks = look_alike_key(" ".join(unicodedata.normalize("NFKC", name).split()))
    return bool(_SUMMED_LINE.match(reads) or _SUMMED_LINE_LOOKS.match(looks))


ROLE_WORDS = ("host", "dealer", "house", "rollem", "computer", "cpu", "watcher",
              "table", "server", "system", "admin", "everyone", "nobody")
"""Words naming a role at the table, or the table itself, that no player may take as
their whole name (also with a number or a note: ``Host 2``, ``Dealer (host)``,
``the House``): the tile's tag ``host``, the dealer button, the house, the program,
a computer player.  A name with a role word and more, such as ``Dealer Dan``,
``Hostetler`` or ``Housely``, is a person's (stop 57)."""

PAGE_TAGS = ("you", "host", "left", "away", "bot", "computer", "dealer", "watcher",
             "watching", "waiting", "sitting out", "timed out", "away (timed out)",
             "joins next hand", "free", "empty", "random", "basic", "strong")
"""What the page writes after a player's name, in parentheses or after a ``·``
("Ann (you)", "Bob (left)", "Bot 1 (basic)", "Cy · away"), or as its tile's tags
(``host``, ``away``, ``sitting out``): no name may hold one of them so written
(``Ann (host)``, ``Ann · away``), or it would read as the page's own words about
that player (stop 57)."""


def _words(words: tuple[str, ...], looks: bool) -> str:
    keys = [look_alike_key(w) if looks else w for w in words]
    return "|".join(re.escape(k) for k in sorted(set(keys), key=len, reverse=True))


_NUMBER = {False: r"[0-9]+", True: r"[0-9ol]+"}
"""A number as names read, and as they look (``0`` looks ``o``, ``1`` looks ``l``)."""


def _role_pattern(looks: bool) -> re.Pattern[str]:
    return re.compile(rf"^(?:the\s+)?({_words(ROLE_WORDS, looks)})(\s*{_NUMBER[looks]})?"
                      r"(\s*\(.*\))?$")


def _seat_pattern(looks: bool) -> re.Pattern[str]:
    return re.compile(rf"^seat\s*{_NUMBER[looks]}\b")


def _tag_pattern(looks: bool) -> re.Pattern[str]:
    return re.compile(rf"(?:\(\s*({_words(PAGE_TAGS, looks)})\s*\)"
                      rf"|[\u00b7\u2022]\s*({_words(PAGE_TAGS, looks)})\b)")


_ROLE = {looks: _role_pattern(looks) for looks in (False, True)}
_SEAT = {looks: _seat_pattern(looks) for looks in (False, True)}
_TAG = {looks: _tag_pattern(looks) for looks in (False, True)}
_WORD_OF = {(looks, words): {(look_alike_key(w) if looks else w): w for w in words}
            for looks in (False, True) for words in (ROLE_WORDS, PAGE_TAGS)}
"""Each role word and tag by its key as names read and as they look."""


def _without_marks(text: str) -> str:
    """``text`` with its punctuation and symbols made spaces and its spaces made one:
    ``The House!`` and ``the-house`` read as ``the house`` (s59: the settle-up's
    party "the house" could be taken with a mark added)."""
    plain = "".join(" " if unicodedata.category(c)[0] in "PS" else c for c in text)
    return " ".join(plain.split())


def _table_words(name: str) -> str | None:
    """Why ``name`` (NFC) reads, or looks, like the table's own words rather than a
    person's name (the end of a refusal), or ``None``: a role word
    (:data:`ROLE_WORDS`) as the whole name, with at most ``the`` before it and a
    number and a note after it (``Host``, ``DEALER 2``, ``the House``,
    ``Computer 2``, ``H0st``); ``seat`` and a number first (``Seat 3``, the
    narration's name for a free seat); a page's tag (:data:`PAGE_TAGS`) in
    parentheses or after ``·`` (``Ann (host)``, ``Ann (you)``, ``Ann (H0ST)``)."""
    reads = " ".join(name_key(name).split())
    looks = look_alike_key(" ".join(unicodedata.normalize("NFKC", name).split()))
    for text, as_looks in ((reads, False), (looks, True)):
        role = _ROLE[as_looks].match(text) or _ROLE[as_looks].match(_without_marks(text))
        if role:
            word = _WORD_OF[as_looks, ROLE_WORDS][role.group(1)]
            return (f"names a role at this table ({word!r}), not a person; choose your own "
                    f"name (one with a role word and more, such as 'Dealer Dan', is fine)")
        if _SEAT[as_looks].match(text):
            return ("reads as the table's name for a seat ('seat' and its number, as in "
                    "'seat 3'); choose your own name")
        tag = _TAG[as_looks].search(text)
        if tag:
            word = _WORD_OF[as_looks, PAGE_TAGS][tag.group(1) or tag.group(2)]
            written = f"({word})" if tag.group(1) else f"· {word}"
            return (f"holds {written!r}, which the page itself writes after players' names "
                    "(such as '(you)', '(host)', '(left)' or '· away'); choose your own name "
                    "without it")
    return None


def clean_name(name: object) -> str:
    """A player's name: NFC, trimmed, inner runs of spaces made one, 1 to
    :data:`MAX_NAME` visible characters (an emoji sequence counts one; at most
    :data:`MAX_NAME_CODE_POINTS` code points), no control, format, bidi,
    default-ignorable or blank filler characters (a zero width joiner only
    between two emoji, a variation selector only after what it varies:
    :func:`rollem.text.hidden_character`), no word mixing the letters of
    several scripts (``Аnn`` with a Cyrillic ``А``; Latin with Han and kana is
    allowed: :func:`rollem.lookalike.mixed_script_word`), not made mostly of
    combining marks ("Zalgo" text: :func:`rollem.lookalike.stacked_marks`, issue
    34), not a computer player's name, not ``You`` (the narration's word for
    its reader, in any case or look-alike), not a number followed by "earlier
    players" (the ledger's line summing people who left long ago, any number, as
    read or as looks: :func:`_kept_for_ledger`), not the table's own words (a role
    word such as ``Host``, ``Dealer 2`` or ``the House`` as the whole name, ``seat``
    and a number first, or a tag the page writes after names, ``(you)``,
    ``(host)``, ``· away``: :func:`_table_words`). A name is judged as it reads
    (:func:`rollem.text.name_key`) and as it looks
    (:func:`rollem.lookalike.look_alike_key`): one of only invisible characters
    (U+FE0F, U+034F, U+3164 ...) is empty, and
    ``Bot`` + U+034F, ``Ｂｏｔ``, ``𝐁𝐨𝐭``, ``B0t``, ``Bót`` and ``Воt`` (Cyrillic)
    are ``Bot``.  Raises :class:`TableError` (``bad_name``)."""
    if not isinstance(name, str):
        raise TableError("bad_name", f"name must be text of 1 to {MAX_NAME} characters")
    if len(name) > MAX_NAME_SENT:  # (first: the checks below are not all linear)
        raise TableError("bad_name", f"a name has at most {MAX_NAME} characters; this text "
                         f"has {len(name)} code points (at most {MAX_NAME_SENT} are read, "
                         "spaces included)")
    kept, words = _judged(name)
    if words is not None:
        raise TableError("bad_name", words)
    return kept


@lru_cache(maxsize=NAME_KEYS_KEPT)
def _judged(name: str) -> tuple[str, str | None]:
    """:func:`clean_name`'s verdict on ``name`` (text of at most :data:`MAX_NAME_SENT`
    code points): the name as kept and ``None``, or ``""`` and the refusal's words;
    kept for the names last judged (s59-safe: a stranger's or watcher's name made
    distinct judges ``Ann 2`` to ``Ann 99`` again at each request, 1 to 2 ms each
    for a long emoji name)."""
    try:
        return _clean(name), None
    except TableError as err:
        return "", err.message


def _clean(name: str) -> str:
    name = unicodedata.normalize("NFC", name)
    _check_length(" ".join(name.split()))
    reads = " ".join(name_key(name).split())
    if not reads:
        raise TableError("bad_name", f"a name is needed to sit down (1 to {MAX_NAME} characters)")
    if kept_for_bots(name):
        raise TableError("bad_name", f"{' '.join(name.split())!r} is kept for computer "
                         "players; choose another name")
    if _kept_for_reader(name):
        raise TableError("bad_name", f"{' '.join(name.split())!r} is how the table speaks to "
                         "each player reading it; choose another name")
    if _kept_for_ledger(name):
        raise TableError("bad_name", f"{' '.join(name.split())!r} is how the ledger names its "
                         "one line summing the players who left long ago (a number, then "
                         "'earlier players'); choose another name")
    table_words = _table_words(name)
    if table_words is not None:
        raise TableError("bad_name", f"{' '.join(name.split())!r} {table_words}")
    hidden = hidden_character(name)
    if hidden is not None:
        raise TableError(
            "bad_name", f"a name may not hold invisible, control or text-direction "
            f"characters ({hidden}); use letters, digits, spaces, punctuation")
    mixed = mixed_script_word(name)
    if mixed is not None:
        word, scripts = mixed
        raise TableError(
            "bad_name", f"{word!r} mixes letters of {' and '.join(s.title() for s in scripts)} "
            "in one word, so it can pass for another name; write each word in one script")
    if stacked_marks(name):
        raise TableError(
            "bad_name", f"a name may not be made mostly of accents or other combining marks "
            f"(at most {MAX_MARKS_ON_ONE} on a letter, fewer than its letters): they spill "
            "over the names around it")
    return " ".join(name.split())


def _check_length(name: str) -> None:
    """Refuse ``name`` (NFC, trimmed, inner spaces made one) longer than
    :data:`MAX_NAME` characters as shown or :data:`MAX_NAME_CODE_POINTS` code
    points (``bad_name``).  Checked before anything else of a name (s59-safe):
    the patterns of :func:`kept_for_bots` and :func:`_table_words` take time
    growing with the square of a name's length on some texts (``"1" * 16000 +
    "x"``: 15 to 23 s of the event loop at a join, whose body may be 16 KB);
    within 96 code points they take microseconds."""
    shown = shown_length(name)
    if shown > MAX_NAME:
        raise TableError("bad_name", f"a name has at most {MAX_NAME} characters, not {shown}")
    if len(name) > MAX_NAME_CODE_POINTS:
        raise TableError("bad_name", f"a name has at most {MAX_NAME_CODE_POINTS} Unicode code "
                         f"points (an emoji sequence has several), not {len(name)}")



_REPEATS = re.compile(r"(.)\1{2,}")
"""A character three or more times in a row (``Annn``): read as twice."""


def near_key(name: str) -> str:
    """What two names are compared by to tell whether one reads as the other with
    a slip of the keyboard (s58-tidy): :func:`rollem.lookalike.look_alike_key`
    (case, width, accents and look-alike letters already ignored) without
    punctuation and spaces (Unicode categories P and Z), a character three or more
    times in a row taken as twice (``"Ann."``, ``"A nn"``, ``"ANN!"``, ``"Annn"``,
    ``"A.n.n"`` -> ``"ann"``; ``"An"``, ``"Anna"``, ``"Ann 2"`` and ``"Matt"``
    beside ``"Mat"`` stay names of their own). ``""`` for a name with no letter,
    digit or symbol (``"?!"``), which is compared only as it reads and looks."""
    return name_keys(name)[2]


def _near_of_looks(looks: str) -> str:
    kept = "".join(c for c in looks if unicodedata.category(c)[0] not in "PZ" and not c.isspace())
    return _REPEATS.sub(r"\1\1", kept)


@lru_cache(maxsize=NAME_KEYS_KEPT)
def name_keys(name: str) -> tuple[str, str, str]:
    """``name``'s keys as it reads (:func:`rollem.text.name_key`), looks
    (:func:`rollem.lookalike.look_alike_key`) and nearly reads (:func:`near_key`),
    kept for the :data:`NAME_KEYS_KEPT` names last asked (s59-safe: a sit-down
    compares its name with every seated and departed player's, 73 names, each key
    0.1 to 0.3 ms for a long emoji name; worked out at each attempt, a refused
    sit-down sent again and again cost the event loop 25 to 50 ms each)."""
    looks = look_alike_key(name)
    return name_key(name), looks, _near_of_looks(looks)


def reads_as(name: str, other: str) -> bool:
    """Whether ``name`` reads as ``other`` but for punctuation, spaces or a letter
    repeated (:func:`near_key`, both not empty)."""
    mine = near_key(name)
    return bool(mine) and mine == near_key(other)


NEAR_NAME_FINE = ("names that differ only by punctuation, spaces, case or a letter "
                  "repeated are one name here; one with a letter or a number of its own, "
                  "such as {example!r}, is fine")
"""The end of the refusal of a name that reads as one at the table."""


def same_name(name: str, other: str) -> bool:
    """Whether ``name`` and ``other`` are one name at a table: as they read
    (:func:`rollem.text.name_key`), as they look
    (:func:`rollem.lookalike.look_alike_key`) or but for punctuation, spaces or a
    letter repeated (:func:`reads_as`)."""
    mine, theirs = name_keys(name), name_keys(other)
    return mine[0] == theirs[0] or mine[1] == theirs[1] or (bool(mine[2]) and mine[2] == theirs[2])


def distinct_name(name: str, taken: list[str]) -> str:
    """``name`` (already :func:`clean_name`), or ``name`` with a number (``Ann 2``,
    shortened to fit :data:`MAX_NAME`) that is none of ``taken`` as names read or
    look (:func:`same_name`): a stranger's name the host can tell apart from the
    names already known at the table.  Raises :class:`TableError` (``bad_name``)
    when none of 2 to 99 is free."""
    if not any(same_name(name, other) for other in taken):
        return name
    for number in range(2, 100):
        base = name
        while True:
            try:
                candidate = clean_name(f"{base} {number}")
                break
            except TableError:
                if len(base) <= 1:
                    raise
                base = base[:-1].rstrip()
        if not any(same_name(candidate, other) for other in taken):
            return candidate
    raise TableError("bad_name", "choose another name")
