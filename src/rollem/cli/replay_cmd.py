"""``rollem replay FILE [--result | --json]``: tell a hand history step by step.

By default the hand is told as it happened (:mod:`rollem.narration`): the
deal, each action with its amount and the pot, dead cards, draws, exposes,
the wild card, roll-ups, declarations, the showdown and the result, with the
players' names from the file. A player's redacted copy (``_redacted_for``)
is told as that player saw it. ``--result`` prints only the summary,
``--json`` the result as CLI.md pins it. A full history whose recorded
result, finishing stacks or players the replay contradicts is refused
(:func:`rollem.history.differences`); ``--lenient`` tells it as replayed and
lists the differences on stderr (issue 34).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from rollem import toml_input
from rollem.cli.errors import fail
from rollem.cli.numbers import PathOf
from rollem.text import ascii_digits, fit_lines, name_safe, terminal_safe

if TYPE_CHECKING:
    from rollem.engine.hand import Hand
    from rollem.engine.result import HandOutcome

__all__ = ["replay_command", "summary"]


def summary(hand: Hand, names: Sequence[str] | None = None,
            outcome: HandOutcome | None = None) -> str:
    """A short summary of a hand: the table cards, each hand shown, each pot
    and who won it, the net per player (players by ``names``, else by seat).
    ``outcome``: the result to tell instead of ``hand.result`` (a player's own
    copy, whose hand has stand-in cards: its recorded ``_result``)."""
    from rollem.cards import CARDS, RANK_PLURALS, format_cards
    from rollem.engine.declare import whole_pot_description
    from rollem.narration.words import Names, and_list

    # A seat named "You" (rollem play's player) takes "have", "show", "win", and is
    # "you" inside a line (s55: "Net: A -9, You +9"), as in the step-by-step header.
    said = Names(names or [], None)

    def who(seat: int) -> str:
        return said.who(seat, start=False)

    def wins(part: dict[int, int]) -> str:
        return ", ".join(f"{said.says(s, 'win', 'wins', start=False)} {c}"
                         for s, c in part.items())

    r = outcome if outcome is not None else hand.result
    button = f"{said.says(hand.button, 'have', 'has', start=False)} the button" \
        if names is not None \
        else f"button seat {hand.button + 1}"
    lines = [f"{hand.game.name}: {sum(hand.dealt)} players, {button}"]
    wild_card = hand.extra.get("wild_card")  # R-RYO-7: turned up, part of no hand
    dead = [c for c in hand.dead if c != wild_card]
    if dead:  # the Stop and the Drop (R-SDR-6)
        lines.append("Dead cards: " + format_cards(dead))
    if hand.board:
        lines.append("Board: " + format_cards(hand.board))
    if hand.wild_ranks:
        ranks = and_list(RANK_PLURALS[r] for r in hand.wild_ranks) + " wild"
        if wild_card is not None:
            lines.append(f"Wild card: {CARDS[wild_card]} ({ranks})")
        else:
            lines.append(f"Wild: {ranks}")
    if r is None:
        p = hand.pending
        waiting = ", ".join(who(s) for s in p.seats) if p else "-"
        lines.append(f"The history ends before the hand is over (waiting for {waiting}).")
        return "\n".join(lines)
    declared = hand.extra.get("declarations")
    if declared:  # 5-2-1 (R-521-8)
        lines.append("Declared: " + ", ".join(f"{who(s)} {d}" for s, d in declared.items()))
    for seat, desc in r.shown.items():
        cards = format_cards(r.shown_cards.get(seat, ()))
        lines.append(f"{said.says(seat, 'show', 'shows')} {cards}: {desc}")
    if not r.showdown:
        lines.append("Won without a showdown (everyone else folded).")
    for i, pot in enumerate(r.pots):
        name = "Main pot" if i == 0 else f"Side pot {i}"
        won = wins(pot.winners)
        elig = ", ".join(who(s) for s in pot.eligible)  # seats counted from 1
        if pot.high is not None and pot.low is not None:  # high-low (R-521-9)
            if bool(pot.high) != bool(pot.low):
                side = "high" if pot.high else "low"
                part = pot.high or pot.low
                won = wins(part) + f" ({whole_pot_description(side)})"
            else:
                won = "; ".join(
                    f"{half}: {wins(part)}"
                    for half, part in (("high", pot.high), ("low", pot.low)) if part
                ) or "nobody wins it"
        lines.append(f"{name}: {pot.amount} chips (eligible: {elig}); {won}")
    lines.append("Net: " + ", ".join(f"{who(s)} {c:+d}" for s, c in r.net.items()))
    if r.carried:
        lines.append(f"Carried to the next hand: {r.carried}")
    return "\n".join(lines)


def _in_show_order(outcome: HandOutcome, data: dict[str, Any]) -> HandOutcome:
    """``outcome`` with its shown hands in the order the copy's ``sm`` lines show
    them (a recorded ``_result`` keeps them by seat), each hand's cards in its
    ``sm`` line's order, as play and the step-by-step replay show them: the
    copy's own player's as held, another's as all saw them
    (:func:`rollem.engine.public_order.public_order`); a recorded
    ``_result.shown_cards`` has every hand in public order (stop 52's try-out:
    "You show As Jc" where play showed "Jc As")."""
    from dataclasses import replace

    from rollem.cards import CardError, parse_cards

    order = []
    held = dict(outcome.shown_cards)
    for line in data.get("actions", []):
        parts = str(line).split("#", 1)[0].split()
        if len(parts) >= 3 and parts[1] == "sm" and ascii_digits(parts[0][1:]):
            seat = int(parts[0][1:]) - 1
            order.append(seat)
            try:
                cards = tuple(c for part in parts[2:] for c in parse_cards(part))
            except CardError:
                continue
            if sorted(cards) == sorted(held.get(seat, ())):
                held[seat] = cards
    seats = [s for s in order if s in outcome.shown] + \
        [s for s in outcome.shown if s not in order]
    return replace(outcome, shown={s: outcome.shown[s] for s in seats}, shown_cards=held)


def _names(data: dict[str, Any], n: int) -> list[str] | None:
    """The names of ``players`` (``"seat N"`` for a seat written ``""``: not dealt in)."""
    players = data.get("players")
    if (isinstance(players, list) and len(players) == n and any(players)
            and all(isinstance(p, str) for p in players)):
        return [name_safe(str(p)) or f"seat {s + 1}" for s, p in enumerate(players)]
    return None


def _list_differences(file: Path, data: Any) -> None:
    """``--lenient``: each difference between what the full history ``data``
    records and its replay (:func:`rollem.history.differences`), on stderr;
    nothing when it replays as recorded or does not replay at all (the replay
    that follows says why)."""
    from rollem.history import HistoryError, differences, parse_history, replay

    try:
        h = parse_history(data)
        found = differences(h, replay(h, check_result=False))
    except HistoryError:
        return
    if found:
        click.echo(fit_lines(f"rollem: {file}: told as replayed; {len(found)} difference"
                             f"{'s' if len(found) != 1 else ''} from what the history "
                             "records (--lenient):", keep=len(f"rollem: {file}:")), err=True)
        for line in found:  # each its own line (a long one goes on indented below it)
            click.echo(fit_lines(f"  {name_safe(line)}"), err=True)


@click.command("replay")
@click.argument("file", type=PathOf(dir_okay=False, path_type=Path))
@click.option("--result", "only_result", is_flag=True,
              help="Print only a summary of the result instead of the hand step by step.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the result as one JSON object, on one line (for scripts).")
@click.option("--lenient", is_flag=True,
              help="Replay a full history even where what it records (_result, "
                   "finishing_stacks, players) differs from the replay; tell the hand as "
                   "replayed and list each difference on stderr.")
def replay_command(file: Path, only_result: bool, as_json: bool, lenient: bool) -> None:
    """Tell the hand in a hand history FILE step by step.

    FILE is a hand history (TOML, docs/hand-history.md). The hand is told as
    it happened: the deal, each action with the pot, the cards turned, draws,
    declarations, the showdown and who won what with which hand.

    Players are named as in the file. A player's own copy of a history
    (rollem play's files, the web table's download: other players' hidden
    cards replaced by ??) is told as that player saw it. A full history is
    replayed through the engine, so a history whose actions are not legal is
    an error, and so is one that records what the replay contradicts: a
    _result field (pots, net, shown hands and cards, carried),
    finishing_stacks, or players and seats that are not one per starting
    stack. The error names the first difference; with --lenient the hand is
    told as replayed and every difference listed on stderr. A player's copy is
    replayed with stand-in cards where it shows ??, so one that describes a
    hand that cannot happen is an error too (--lenient does not change that).

    The text is for people: a line longer than 80 columns goes on under
    itself, indented. Scripts: --json, one line: game, pots (main pot first:
    amount, eligible, winners), net (seat -> chips), shown (seat -> hand
    description), carried.

    A standard PHH file (FILE.phh, or any FILE whose variant is a PHH code
    such as NT) is replayed through rollem's engine with PHH's seat order
    (p1 left of the button, the button last): FT, NT, PO, FO/8, F7S, F7S/8,
    FR, the deuce-to-seven draws N2L1D and F2L3D, badugi FB and short-deck
    NS (all 11 of phh-std 0.0.2); amounts
    with a fraction are played in chips of the smallest unit. --json adds
    variant, players, starting_stacks and finishing_stacks (in the file's
    player order). A FILE.phhs holds several
    hands: each is summed up in turn (its result as above, each player's net
    and finishing stacks; not step by step: replay one hand's own file for
    that, e.g. rollem play's hand-0001-GAME.toml); --json prints {"hands":
    [...]}, one entry per hand, a hand that cannot be replayed holding its
    one-line error.
    If any hand cannot be replayed, the others are still told, and the
    command then exits 2 with one line on stderr naming the (first) bad hand
    and what was wrong.
    """
    from rollem.history import HistoryError, replay
    from rollem.userfile import MAX_HISTORY_BYTES, UserFileError, read_user_text

    if file.suffix.lower() == ".phhs":  # several standard PHH hands (issue 29)
        from rollem.cli.phh_cmd import replay_phh_file

        replay_phh_file(file, as_json, lenient=lenient)
        return
    try:  # a byte order mark is read like any other file
        text = read_user_text(file, MAX_HISTORY_BYTES, encoding="utf-8-sig")
    except UserFileError as err:
        fail(err)
    try:
        data = toml_input.loads(text)
    except tomllib.TOMLDecodeError as err:
        fail(f"{file}: not a TOML hand history: {err}")
    except RecursionError:
        fail(f"{file}: not a hand history: arrays or tables nested too deeply")
    from rollem.phh import is_phh

    if is_phh(data):  # a standard PHH hand whatever its file's name (issue 29)
        from rollem.cli.phh_cmd import replay_phh_file

        replay_phh_file(file, as_json, text, lenient)  # (named as given in errors)
        return
    redacted = isinstance(data, dict) and "_redacted_for" in data
    if lenient and not redacted:
        _list_differences(file, data)
    if as_json or only_result:
        if redacted:
            from rollem.engine.result import outcome_from_dict
            from rollem.history_copy import own_copy_hand

            try:
                stand_in = own_copy_hand(data)  # the copy must describe a hand that can happen
                result = data.get("_result")
                if not isinstance(result, dict):
                    fail(f"{file}: the history ends before the hand is over")
                outcome = outcome_from_dict(result)
            except (HistoryError, ValueError) as err:
                fail(f"{file}: {err}")
            if as_json:
                click.echo(json.dumps({k: result[k] for k in
                                       ("game", "pots", "net", "shown", "carried")
                                       if k in result}))
                return
            if not stand_in.is_over:  # replayed only up to its first reshuffle
                fail(f"{file}: this copy's deck ran out and was reshuffled, so its table "
                     "cannot be summed up from it; use rollem replay FILE (step by step) "
                     "or --json")
            # The table cards are public, so the stand-in hand has them right; who
            # won is what the copy records (stand-ins would decide it at random).
            click.echo(fit_lines(terminal_safe(summary(
                stand_in, _names(data, len(stand_in.start_stacks)),
                _in_show_order(outcome, data)))))
            return
        try:
            hand = replay(text, check_result=not lenient)
        except HistoryError as err:
            fail(f"{file}: {err}")
        if as_json:
            if hand.result is None:
                fail(f"{file}: the history ends before the hand is over")
            click.echo(json.dumps(hand.result.to_dict()))
        else:
            click.echo(fit_lines(terminal_safe(summary(hand,
                                                       _names(data, len(hand.start_stacks))))))
        return
    from rollem.narration import narrate_history

    try:
        story = narrate_history(data, lenient=lenient)
    except HistoryError as err:
        fail(f"{file}: {err}")
    click.echo(fit_lines(terminal_safe(story.text())))
