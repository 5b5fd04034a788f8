"""The felt's browser grid (issue 26, :mod:`felt_grid`), the third part: seven-card
stud, stud eight or better, razz and deuces wild at 2, 6 and 10 seats (or as many
as the game seats) on a phone and a desktop, each hand played with the keyboard
alone; labels, pot, your hand's name, and pre-actions at 6 seats.  Screenshots:
test-artifacts/web/grid-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from felt_grid import cells, every_kind_drawn, grid_pages, play_cell
from web_harness import ServerThread, seeded_deals

pytestmark = pytest.mark.browser

GAMES = ("stud", "stud8", "razz", "deuces-wild")


@pytest.fixture(scope="module")
def pages(browser: Any) -> Iterator[dict[str, Any]]:
    yield from grid_pages(browser)


@pytest.mark.parametrize(("game", "seats", "size"), cells(GAMES))
def test_grid(pages: dict[str, Any], live: ServerThread, monkeypatch: pytest.MonkeyPatch,
              game: str, seats: int, size: str) -> None:
    seeded_deals(monkeypatch, seats)
    play_cell(pages, live, game, seats, size)


def test_every_label_kind_drawn() -> None:
    """The cells above drew between them every kind of label each game has
    (:data:`felt_grid.MUST`); runs after them (a file's tests run in order)."""
    every_kind_drawn(GAMES)
