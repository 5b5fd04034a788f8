"""Imported once by the fork server of the practice-odds workers (issue 34,
:data:`rollem.server.game_session.ODDS_PRELOAD`), never by the server itself:
loads the odds and builds the tables their first use builds
(:func:`rollem.server.game_session.warm_odds`), so that every worker forked
from it -- a new one after each one killed at its budget -- answers at full
speed from its first request."""

from __future__ import annotations

from rollem.server.game_session import warm_odds

warm_odds()
