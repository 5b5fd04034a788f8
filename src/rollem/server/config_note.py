"""What a host's change of the table's settings is told to everyone (try-out of stop 55).

A host's **Change** (``{"type": "host", "op": "config"}``) applies at the next
deal; before this, only the host's own form said so, and the other players found
the new game or stakes in the header once the next hand was dealt.  The table now
tells everyone, as a toast and a line of the chat (the table's own line, as the
host role's passing): "Ann changed, from the next hand, the game from Dealer's
choice to Texas Hold'em; the bets from 2/4 to 5/10."

:func:`change_words` compares two :class:`~rollem.server.config.TableConfig`
(the settings before the change, including one still waiting for the next deal,
and after it); :func:`note` makes the line, saying whether the change waits
for the next deal.  Words only: nothing here changes a
setting.
"""

from __future__ import annotations

from rollem.server.config import TableConfig

__all__ = ["change_words", "note"]

DEALERS_CHOICE = "dealers-choice"
STRADDLES = {"off": "off", "optional": "left of the big blind",
             "mississippi": "Mississippi (button first)"}


def _game(config: TableConfig, game_id: str) -> str:
    if game_id == DEALERS_CHOICE:
        return "Dealer's choice"
    return config.game_names().get(game_id, game_id)


def _rebuys(config: TableConfig) -> str:
    if not config.rebuys:
        return "off"
    words = "the host approves each" if config.rebuy_approval else "free"
    cap = config.rebuy_cap  # (a count of rebuys a person, not chips: s59-seat)
    return words + (f", at most {cap} rebuy{'' if cap == 1 else 's'} a player" if cap else "")


def _bomb_pots(config: TableConfig) -> str:
    if not config.bomb_pot_every:
        return "off"
    ante = (f"ante {config.bomb_pot_ante}" if config.bomb_pot_ante
            else "ante twice the big blind")
    return f"every {config.bomb_pot_every} hands, {ante}"


def _pairs(config: TableConfig) -> list[tuple[str, str]]:
    """Each told setting of ``config`` as (its name, its value in words), in the
    order of the host's form."""
    return [
        ("the game", _game(config, config.game)),
        ("the dealer's choice games", ", ".join(_game(config, g) for g in config.choices)),
        ("the betting", config.structure),
        ("the ante", str(config.ante)),
        ("the bets", f"{config.small_bet}/{config.big_bet}"),
        ("straddles", STRADDLES.get(config.straddle, config.straddle)),
        ("run it twice", "when all agree" if config.run_twice else "no"),
        ("bomb pots", _bomb_pots(config)),
        ("rebuys", _rebuys(config)),
        ("the add-on", (f"+{config.addon_chips} chips for {config.addon_price}"
                        if config.addon_chips and config.tournament else "none")),
        ("watchers", "one hand behind" if config.watcher_delay else "seeing each hand as played"),
        ("the table", "private" if config.private else "open"),
        ("a chip's worth", config.chip_value or "nothing (chips only)"),
        ("the least seconds a hand", f"{config.hand_seconds:g}"),
        ("away after clocked decisions", str(config.away_after) if config.away_after else "off"),
    ]


def change_words(before: TableConfig, after: TableConfig) -> list[str]:
    """What differs from ``before`` to ``after``, one phrase a setting (``"the bets
    from 2/4 to 5/10"``, ``"the game from Texas Hold'em to Razz"``), in the order of
    the host's form; empty when nothing a player is told of changed.  The dealer's
    choice games are told only while the game is (or becomes) dealer's choice."""
    words = []
    for (name, old), (_, new) in zip(_pairs(before), _pairs(after), strict=True):
        if old == new:
            continue
        if name == "the dealer's choice games" and after.game != DEALERS_CHOICE:
            continue
        words.append(f"{name} from {old} to {new}")
    return words


def note(who: str, words: list[str], later: bool) -> str:
    """The line told to the table: ``who`` (the host's name, or "The host") and the
    phrases of :func:`change_words`; ``later``: the change waits for the next deal
    (a hand, or the button's naming of the game, is in play), else it applied at
    once ("Ann changed the bets from 2/4 to 5/10.")."""
    return f"{who} changed{', from the next hand,' if later else ''} {'; '.join(words)}."
