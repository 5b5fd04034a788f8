"""Fixtures of the web-table tests: a live server in a thread with its own database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from web_harness import ServerThread


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(tmp_path / "table.db")
    try:
        yield srv
    finally:
        srv.stop()
