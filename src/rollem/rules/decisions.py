"""Short help for each decision a player faces, per game (read through
:func:`rollem.rules.decision_help`).

Each text is plain sentences, a few lines long, for the terminal's ``?`` key
and the web table's help. Keys are ``(game id or None, decision kind)``;
None is a table before the game is named (dealer's choice).
"""

from __future__ import annotations

DECISION_KINDS: tuple[str, ...] = (
    "bet",
    "discard_to_pool",
    "expose",
    "draw",
    "pick_wild",
    "stack",
    "declare",
    "choose_game",
)
"""Every decision kind, in the order they can come up."""

GAME_DECISIONS: dict[str | None, tuple[str, ...]] = {
    None: ("bet", "choose_game"),
    "sdr": ("bet", "choose_game"),
    "rollyourown": ("bet", "discard_to_pool", "expose", "draw", "pick_wild", "choose_game"),
    "rollem521": ("bet", "draw", "stack", "declare", "choose_game"),
}
"""The decision kinds each game has (R-SDR, R-RYO, R-521 step lists)."""

BET = (
    "Your turn to bet. Check: pass, if nobody has bet this round. Bet: put chips "
    "in first. Call: match the current bet. Raise: match it and put in more. "
    "Fold: give up the hand and what you have put in (allowed even when you could "
    "check for free; you are asked to confirm that). If you cannot cover a call "
    "you may go all-in: you stay in the hand, but can win from each opponent "
    "only as much as you put in (the rest goes to a side pot). An all-in for "
    "less than a full raise is not a raise, but such all-ins add up; if you have "
    "already acted, you may raise again only when you face a full raise more."
)

GAME_BLURBS: dict[str, str] = {
    "sdr": "Stop, Drop and Roll (sdr): two hole cards, two dead cards (the Stop and the "
           "Drop), three community cards (the Roll).",
    "rollyourown": "Five Card Roll Your Own (rollyourown, at most 8 players): choose what "
                   "to show, a wild rank at the end.",
    "rollem521": "5-2-1 Roll 'Em (rollem521): draw, stack, roll up, then declare high, "
                 "low or both.",
}
"""Our three games in one sentence each, for the dealer's choice."""

CHOOSE_GAME_START = "You are on the button: name the game for this hand."
CHOOSE_GAME_END = "The game holds for this hand only."

_CHOOSE_GAME = " ".join((CHOOSE_GAME_START, *GAME_BLURBS.values(), CHOOSE_GAME_END))

DECISION_HELP: dict[tuple[str | None, str], str] = {
    (None, "bet"): BET,
    (None, "choose_game"): _CHOOSE_GAME,
    ("sdr", "bet"): BET
    + " In Stop, Drop and Roll (fixed limit) bets are the small bet in rounds 1 to 3 with "
    "one raise allowed, and the big bet after the Roll with up to three raises. Remember: "
    "the Stop and the Drop are dead; your hand is your two hole cards plus the three "
    "Roll cards.",
    ("sdr", "choose_game"): _CHOOSE_GAME,
    ("rollyourown", "bet"): BET
    + " In Five Card Roll Your Own (fixed limit) bets are the small bet in rounds 1 and 2 "
    "and the big bet in rounds 3 and 4, with up to three raises. The best cards showing "
    "open each round; in round 4, wild cards count.",
    ("rollyourown", "discard_to_pool"): (
        "Choose three of your six cards to put face down into the shared pool. Nobody sees "
        "them, and the pool is shuffled; everyone later draws two cards from it, so the "
        "cards you give up may come back to you or to an opponent. Keep the three that "
        "work best together. Any rank can still turn out wild at the end."
    ),
    ("rollyourown", "expose"): (
        "Choose one of your down cards to turn face up; everyone chooses at the same time. "
        "You end with three cards up and two down. Showing strong cards means you open "
        "the betting; showing weak cards can hide a strong hand, and the lowest hand "
        "showing after round 3 picks the wild card."
    ),
    ("rollyourown", "draw"): (
        "Take the top card of the pool, face down. Draws go clockwise from the player with "
        "the best cards showing. There is nothing to choose: after everyone has drawn, "
        "you choose which down card to turn up."
    ),
    ("rollyourown", "pick_wild"): (
        "You have the lowest hand showing, so you pick the wild card: choose one of the "
        "cards left in the pool by its position (you cannot see them). It is turned face "
        "up and every card of its rank is wild for everyone. The turned card itself is out "
        "of play, so at most three cards are wild."
    ),
    ("rollyourown", "choose_game"): _CHOOSE_GAME,
    ("rollem521", "bet"): BET
    + " In 5-2-1 Roll 'Em (fixed limit) bets are the small bet in rounds 1 and 2 and the "
    "big bet from the first roll on, with up to three raises. Half the pot goes high, "
    "half low (ace-to-five).",
    ("rollem521", "draw"): (
        "Choose cards to throw away and be dealt as many new ones: none, one or two on the "
        "first draw, none or one on the second. Think about both halves: A-2-3-4-5 is the "
        "best low and also a straight. You will never be dealt back a card you threw away "
        "(unless no other card is left)."
    ),
    ("rollem521", "stack"): (
        "Put your five cards in the order you will show them, first card on top. Everyone "
        "stacks at the same time and the order is then fixed. Four cards are rolled up one "
        "at a time, with a betting round after each; the last stays hidden until the "
        "showdown, so keep the card that decides your declare for last."
    ),
    ("rollem521", "declare"): (
        "Declare high, low or both; everyone declares secretly and all are revealed "
        "together. High plays for the high half, low for the low half (ace-to-five). Both "
        "plays for the whole pot, but you must win both ways outright: a tie or a loss "
        "either way and you get nothing from that pot."
    ),
    ("rollem521", "choose_game"): _CHOOSE_GAME,
}
"""(game id or None, decision kind) -> help text."""
