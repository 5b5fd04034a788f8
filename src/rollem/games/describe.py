"""A game file's steps in words (``rollem check-game``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rollem.engine.forced import Blinds, BringIn
from rollem.engine.game import Game
from rollem.engine.options import Options
from rollem.engine.steps import Ante
from rollem.games.gamefile import OPENERS, GameSpec, StepSpec

__all__ = ["bet_words", "describe_game", "describe_step", "forced_bet_words", "stakes_words"]


def forced_bet_words(game: Game, options: Options) -> str:
    """The forced bets of a hand of ``game`` under ``options``, as a table header says
    them: ``"ante 1"``, ``"blinds 1/2"`` (``", straddle 4"``), ``"ante 1, bring-in 1"``;
    ``""`` when the game has none (R-C-5). Blinds as players say them, small/big
    (s59-tidy; before: "blinds 1 and 2")."""
    words: list[str] = []
    for step in game.build(options):
        if isinstance(step, Ante) and step.ante > 0:
            words.append(f"ante {step.ante}")
        elif isinstance(step, Blinds):
            words.append(f"blinds {step.small}/{step.big}"
                         + (f", straddle {step.straddle}" if step.straddle > 0 else ""))
        elif isinstance(step, BringIn):
            words.append(f"bring-in {step.amount}")
    return ", ".join(words)


def bet_words(structure: str, small: int, big: int) -> str:
    """The bet sizes as players say them (R-C-6): ``"fixed limit 2/4"`` (the small
    and the big bet, exactly), ``"no limit, min bet 2/4"`` and ``"pot limit, min
    bet 2/4"`` (there the two sizes are only the least a bet may be). Chips.
    ``structure``: ``fixed-limit``, ``pot-limit`` or ``no-limit``."""
    words = structure.replace("-", " ")
    if structure == "fixed-limit":
        return f"{words} {small}/{big}"
    return f"{words}, min bet {small}/{big}"


def stakes_words(structure: str, forced: str, small: int, big: int) -> str:
    """A table's stakes in one phrase, as a header says them: the forced bets
    (:func:`forced_bet_words`), then :func:`bet_words`: ``"blinds 1/2, fixed
    limit 2/4"``, ``"ante 1, bring-in 1, no limit, min bet 2/4"``."""
    return (f"{forced}, " if forced else "") + bet_words(structure, small, big)


def _amount(v: int | str) -> str:
    if isinstance(v, int):
        return f"{v} chip{'s' if v != 1 else ''}"
    return {"small-bet": "the small bet", "half-small-bet": "half the small bet",
            "big-bet": "the big bet", "ante": "the ante"}[v]


def describe_step(s: StepSpec, *, pooled: bool = True) -> str:
    """One step as a line of plain words; ``pooled``: the game's discards go to a
    pool a later step uses (:attr:`GameSpec.pools_discards`), else out of play."""
    p = s.params
    k = s.kind
    if k == "ante":
        text = "Everyone antes."
    elif k == "blinds":
        text = (f"Blinds: small blind {_amount(p['small'])}, big blind {_amount(p['big'])}"
                + (f", straddle {_amount(p['straddle'])}" if p["straddle"] else "") + ".")
    elif k == "bring-in":
        card = ("highest up card (aces low)" if p["card"] == "highest"
                else "lowest up card (ties: clubs, diamonds, hearts, spades)")
        text = f"The {card} brings in for {_amount(p['amount'])} or completes the bet."
    elif k == "deal":
        n = p["cards"]
        text = f"Deal {n} card{'s' if n != 1 else ''} face {p['face']} to each player."
    elif k == "burn":
        text = "Burn a card."
    elif k == "dead":
        text = f"Turn up a dead card ({p['label']}): part of no hand."
    elif k == "board":
        text = f"Deal {p['cards']} community card{'s' if p['cards'] != 1 else ''} ({p['label']})."
    elif k == "wild":
        text = f"Wild cards: {', '.join(p['ranks'])}."
    elif k == "discard":
        n = p["cards"]
        text = (f"All at once, each player discards {n} card{'s' if n != 1 else ''} face down "
                + ("into a common pool." if pooled else "(out of play)."))
    elif k == "draw-from-pool":
        text = f"Each player takes the top pool card, starting with {OPENERS[p['first']]}."
    elif k == "draw":
        text = (f"A draw ({p['label']}): in turn, each player discards 0 to {p['max']} and is "
                "dealt replacements.")
    elif k == "expose":
        text = "All at once, each player turns one more card up."
    elif k == "pick-wild":
        text = (f"{OPENERS[p['chooser']].capitalize()} picks a pool card: turned up, its "
                "rank is wild.")
    elif k == "stack":
        text = "All at once, each player stacks the order to roll the cards up."
    elif k == "roll-up":
        text = "Everyone rolls up the next card."
    elif k == "declare":
        text = "All at once, each player declares high, low or both."
    elif k == "bet":
        size = "small" if p["size"] == "small" else "big"
        label = f" ({p['label']})" if p["label"] else ""
        text = (f"Betting round{label}: {size} bet, a bet and {p['cap']} raise"
                f"{'s' if p['cap'] != 1 else ''} in fixed limit; opened by {OPENERS[p['opener']]}.")
    else:
        text = _showdown(p)
    if s.when:
        text += f" (only with house option {s.when})"
    return text


def _showdown(p: Mapping[str, Any]) -> str:
    pot = p["pot"]
    use = (f"exactly {p['hole']} own cards and {p['board']} from the board"
           if p["hole"] else "the best five cards")
    low = "deuce-to-seven low" if p["low"] == "deuce-to-seven" else "ace-to-five low"
    if p["qualifier"]:
        low += f" ({p['qualifier']} or better)"
    wild = " (wild cards count)" if p["wild"] else ""
    if pot == "declare":
        counted = " (wild cards count in the high hand)" if p["wild"] else ""
        return f"Showdown: high-low by declaration, each pot settled on its own{counted}."
    if pot == "low":
        return f"Showdown: {low} wins, with {use}."
    if pot == "high-low":
        return (f"Showdown: the pot is split between the best high{wild} and the best "
                f"{low}, with {use}.")
    return f"Showdown: the best high hand{wild} wins, with {use}."


def describe_game(spec: GameSpec) -> list[str]:
    """The game's header and its steps, numbered, one line each."""
    lines = [f"{spec.name} ({spec.id}): {spec.min_players} to {spec.max_players} players."]
    if spec.house:
        opts = ", ".join(f"{k} = {v!r}".replace("True", "true").replace("False", "false")
                         for k, v in spec.house.items())
        lines.append(f"House options (defaults): {opts}.")
    lines += [f"{i + 1}. {describe_step(s, pooled=spec.pools_discards)}"
              for i, s in enumerate(spec.steps)]
    return lines
