"""rollem: dealer's-choice home poker.

Stop, Drop and Roll, Five Card Roll Your Own and 5-2-1 Roll 'Em, played by
their rules (``RULES.md``): cards, hand evaluation, a rules engine, bots,
odds, hand histories, a terminal game and a web table.
"""

__version__ = "0.1.0"
