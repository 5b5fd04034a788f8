"""Random game files from the step grammar: every file the checks accept can be dealt.

A file ``rollem check-game`` accepts but the engine cannot deal froze a web table
(every deal failed) and crashed ``rollem play`` (a pick-wild with no pool before
it, a stack after a card was turned up, an expose with no face-down card left).
Here seeded random files, biased towards plausible ones, are checked; each one
accepted is played on trial (:func:`rollem.games.trial.trial_deal`), which must
then succeed: the checks alone must refuse what cannot be played.
"""

from __future__ import annotations

import random
from typing import Any

import tomli_w

from rollem.games.gamefile import OPENERS, STEP_KINDS, GameFileError, load_game
from rollem.games.trial import trial_deal

FILES = 1000
"""Random files tried (about one in twenty is accepted; a few seconds in all)."""


def _value(typ: str, rng: random.Random) -> Any:
    if typ.startswith("count:"):
        low, high = map(int, typ[6:].split(".."))
        return rng.randint(max(low, 1 if low else 0), min(high, 4))
    choices: dict[str, list[Any]] = {
        "amount": [0, 1, 2, "small-bet", "half-small-bet", "big-bet", "ante"],
        "bool": [False, False, True], "label": ["x"], "face": ["down", "down", "up"],
        "opener": list(OPENERS), "bringin": ["lowest", "highest"], "size": ["small", "big"],
        "pot": ["high", "high", "low", "high-low", "declare"],
        "low": ["ace-to-five", "deuce-to-seven", "badugi"], "qualifier": [0, 0, 8],
        "high": ["standard", "standard", "short-deck"],  # (badugi, short-deck: PHH only)
        "ranks": [["2"], ["Q"], ["2", "7"]],
    }
    return rng.choice(choices[typ])


def random_game_file(rng: random.Random) -> str:
    """A game file: forced bets, a deal, 1 to 7 random steps, a showdown."""
    middle = [k for k in STEP_KINDS if k not in ("showdown", "ante", "blinds")]
    steps: list[dict[str, Any]] = [{"step": rng.choice(["ante", "ante", "blinds"])},
                                   {"step": "deal", "cards": rng.randint(2, 7)}]
    kinds = [rng.choice([*middle, "bet", "bet", "deal"]) for _ in range(rng.randint(1, 7))]
    if "bet" not in kinds and rng.random() < 0.9:  # (check-game refuses a game without)
        kinds.insert(rng.randint(0, len(kinds)), "bet")
    for kind in kinds:
        step: dict[str, Any] = {"step": kind}
        for name, (typ, default) in STEP_KINDS[kind].items():
            if not isinstance(default, int | str | bool) or rng.random() < 0.3:
                step[name] = _value(typ, rng)
        steps.append(step)
    showdown: dict[str, Any] = {"step": "showdown"}
    for name, (typ, _default) in STEP_KINDS["showdown"].items():
        if rng.random() < 0.25:
            showdown[name] = _value(typ, rng)
    # mostly the showdown that goes with the steps (check-game refuses the others)
    kinds_dealt = {s["step"] for s in steps}
    if rng.random() < 0.9:
        showdown["wild"] = bool(kinds_dealt & {"wild", "pick-wild"})
    if rng.random() < 0.9:
        if "declare" in kinds_dealt:
            showdown["pot"] = "declare"
        elif showdown.get("pot") == "declare":
            showdown["pot"] = "high-low"
    steps.append(showdown)
    low = rng.randint(2, 4)
    return tomli_w.dumps({"id": "fuzz", "name": "Fuzz", "players": [low, rng.randint(low, 7)],
                          "rules": "Random steps.", "steps": steps})


def test_every_game_file_the_checks_accept_can_be_dealt() -> None:
    accepted = 0
    for seed in range(FILES):
        text = random_game_file(random.Random(seed))
        try:
            game = load_game(text)
        except GameFileError:
            continue
        accepted += 1
        try:
            trial_deal(game, hands=1)
        except GameFileError as err:
            raise AssertionError(f"seed {seed}: accepted but not playable: {err}\n{text}") \
                from None
    assert accepted >= 40  # the generator still makes enough plausible files
