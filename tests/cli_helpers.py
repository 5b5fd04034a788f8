"""Helpers for the command-line tests: run ``rollem`` in this process."""

from __future__ import annotations

import pytest

from rollem.cli.app import main


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``rollem ARGS``: its exit status, standard output and standard error."""
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err
