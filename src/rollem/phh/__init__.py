"""Standard Poker Hand History (PHH, phh-std 0.0.2) in and out (issue 29).

rollem's own histories (:mod:`rollem.history`) are a PHH *dialect*
(``variant = "rollem-<game>"``, burn lines, seat 0 as ``p1`` with the
button in ``_button``) that PokerKit cannot replay, and a standard PHH file
is not a rollem history. This module translates:

- :func:`replay_phh`: a standard PHH hand (a TOML table as PokerKit's
  ``HandHistory`` reads it) played through rollem's engine, for the variant
  codes rollem plays (:data:`VARIANTS`); :func:`read_phhs` splits a ``.phhs``
  file (several hands, one TOML table each) into its hands.
- :func:`phh_dict` / :func:`write_phh`: a hand rollem played, as standard
  PHH that PokerKit's ``HandHistory.loads`` replays to the same finishing
  stacks (the standard games with a PHH variant code, :data:`CODES`);
  :func:`copy_phh_dict`: a player's own copy, its hidden cards ``??``.

Modules: :mod:`~rollem.phh.variants` (the codes, :class:`PHHError`),
:mod:`~rollem.phh.deal` (amounts, cards and actions read; the deal through
the engine), :mod:`~rollem.phh.read` (:func:`replay_phh`),
:mod:`~rollem.phh.write` (export), :mod:`~rollem.phh.session` (a whole
session as one ``.phhs``: :func:`write_session_phhs`, :func:`session_table`,
:func:`phhs_entry`, :func:`replay_table`).

Cards a file hides (``??``) are dealt as stand-ins, which decide nothing:
a hand still hidden at the showdown, or mucked there (``pN sm``), wins
nothing, as in PokerKit; a pot with no known contender left cannot be told
and is refused.

PHH's seat order: players are numbered from the left of the button, the
button last (``p1`` is the first player dealt, the small blind in a blind
game); rollem's seat ``s`` is ``p{s+1}`` with the button anywhere. So a
PHH hand is played with PHH player ``i`` in rollem seat ``i`` and the button
at the last seat, and an exported hand numbers rollem's dealt-in seats from
the button's left.

Antes follow PokerKit. With ``ante_trimming_status`` false (PHH's default)
every ante is dead money in the main pot (equal antes, a big-blind ante, a
button ante), so they are taken from the stacks before the deal and put in
the main pot (:class:`~rollem.engine.hand.Hand`'s ``carry_in``). With it
true each ante is the player's own chips in the pots, none above the second
largest (PokerKit trims them). Exports write equal antes with
``ante_trimming_status = true``: PokerKit then counts them as rollem's
engine does (R-C-5: a short stack's ante is all it has, and side pots are
made over it). As PokerKit's ``HandHistory`` does, an action a file leaves
out is filled in (a check where the player may, else a fold).

Chips are whole numbers: a hand whose amounts have a fraction (``0.5``)
is played in chips of its smallest unit and told in its own
(:mod:`~rollem.phh.units`). Every refusal is a :class:`PHHError` with one
line naming the field or the action.
"""

from rollem.phh.read import PHHHand, is_phh, read_phh, read_phhs, replay_phh
from rollem.phh.session import phhs_entry, replay_table, session_table, write_session_phhs
from rollem.phh.variants import CODES, NOT_PLAYED, VARIANTS, PHHError
from rollem.phh.write import copy_phh_dict, phh_dict, write_phh, write_phhs

__all__ = [
    "CODES",
    "NOT_PLAYED",
    "VARIANTS",
    "PHHError",
    "PHHHand",
    "copy_phh_dict",
    "is_phh",
    "phh_dict",
    "phhs_entry",
    "read_phh",
    "read_phhs",
    "replay_phh",
    "replay_table",
    "session_table",
    "write_phh",
    "write_phhs",
    "write_session_phhs",
]
