"""The felt's browser grid (issue 26, :mod:`felt_grid`), the second part: hold'em,
Omaha, Omaha eight or better and five-card draw at 2, 6 and 10 seats (draw: 6 at
most) on a phone and a desktop, each hand played with the keyboard alone; labels,
pot, your hand's name, and pre-actions at 6 seats; at the end of each hold'em hand every
opponent's tile, given the longest words a shown hand has, stays inside the felt and
clear of the others (:func:`felt_ui.tiles_stay_inside_the_felt`, issue 26's leftovers:
tests/web/test_felt_small_browser.py checks 8 desktop seats).  Screenshots:
test-artifacts/web/grid-*.png, felt-small-*-seats-tiles.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from felt_grid import cells, every_kind_drawn, grid_pages, play_cell
from felt_ui import tiles_stay_inside_the_felt
from web_harness import ServerThread, seeded_deals

pytestmark = pytest.mark.browser

GAMES = ("holdem", "omaha", "omaha8", "draw5")


@pytest.fixture(scope="module")
def pages(browser: Any) -> Iterator[dict[str, Any]]:
    yield from grid_pages(browser)


@pytest.mark.parametrize(("game", "seats", "size"), cells(GAMES))
def test_grid(pages: dict[str, Any], live: ServerThread, monkeypatch: pytest.MonkeyPatch,
              game: str, seats: int, size: str) -> None:
    seeded_deals(monkeypatch, seats)
    play_cell(pages, live, game, seats, size)
    if game == "holdem":   # (the hand ended: every opponent's tile with its shown cards)
        tiles_stay_inside_the_felt(pages[size], size, seats)


def test_every_label_kind_drawn() -> None:
    """The cells above drew between them every kind of label each game has
    (:data:`felt_grid.MUST`); runs after them (a file's tests run in order)."""
    every_kind_drawn(GAMES)
