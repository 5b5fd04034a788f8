"""A refused table setting quotes its value cut short (branch s51-break): the web
table's ``POST /api/tables`` (and the host's settings) quoted the whole value, so a
100,000-character ``stack`` came back as a 100 KB error message, a 1,300-item
``seats`` list as 135 KB, and a 4,000-digit ``buy_in`` as 4 KB."""

from __future__ import annotations

import pytest

from rollem.server.config import SHOWN, ConfigError, parse_config


@pytest.mark.parametrize("body, start", [
    ({"game": "sdr", "stack": "9" * 100_000},
     "stack must be a whole number from 1 to 100000000, not '9999"),
    ({"game": "sdr", "seats": ["x" * 100] * 1300},
     "seats must be a whole number from 2 to 10, not ["),
    ({"game": "sdr", "tournament": "turbo", "buy_in": 10**4000},
     "buy_in must be from 0 to 1000000, not "),
    ({"game": "sdr", "decision_seconds": {"a" * 100_000: 1}},
     "decision_seconds must be a number of seconds, not {'aaaa"),
    ({"game": "x" * 100_000}, "game must be one of sdr, "),
    ({"game": "sdr", "tournament": "y" * 100_000}, "tournament must be one of "),
    ({"game": "sdr", "tournament": "turbo", "payouts": [1] * 5000}, "payouts must be 1 to 10 "),
    ({"game": "dealers-choice", "tournament": "turbo", "rotate": "z" * 100_000},
     "rotate must be one of level, orbit"),
    ({"game": "dealers-choice", "choices": ["q" * 100_000]}, "choices: unknown game 'qqq"),
    ({"game": "sdr", "name": ["n" * 100_000]}, "name must be a text of visible characters"),
    ({"game": "sdr", "rebuys": "r" * 100_000}, "rebuys must be true or false, not 'rrr"),
])
def test_a_refused_value_is_quoted_cut_short(body: dict[str, object], start: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(body)
    message = str(caught.value)
    assert message.startswith(start), message[:200]
    assert len(message) < 400 + SHOWN, len(message)   # (before: up to 135,000)
    assert "characters)" in message, message[-120:]


def test_a_short_refused_value_is_quoted_whole() -> None:
    with pytest.raises(ConfigError, match=r"^stack must be from 1 to 100000000, not 0$"):
        parse_config({"game": "sdr", "stack": 0})
    with pytest.raises(ConfigError, match=r"^seats must be a whole number from 2 to 10, "
                                          r"not 'six'$"):
        parse_config({"game": "sdr", "seats": "six"})
