"""Start-up (issue 14): commands load lazily (Click's lazy group) and import only
what they use; ``rollem --help`` lists every command from the stored summaries,
which match each command's own; the version comes from the package metadata."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import click
import pytest

from rollem.cli.app import COMMANDS, app

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "rich", "rollem.odds", "rollem.hands.tables", "rollem.server", "starlette",
         "uvicorn", "rollem.engine", "rollem.bots")


def imported_after(args: list[str]) -> set[str]:
    """The HEAVY modules loaded by ``rollem ARGS`` (stdin not a terminal)."""
    code = ("import sys\nfrom rollem.cli.app import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         timeout=120, stdin=subprocess.DEVNULL)
    return set(out.stderr.split())


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (["--help"], set()),
        (["--version"], set()),
        (["rules", "sdr"], set()),  # piped: the Markdown as is, no Rich
        (["eval", "As Ks Qs Js Ts"], {"rollem.hands.tables"}),
        (["replay", "--help"], set()),
    ],
)
def test_commands_import_only_what_they_use(args: list[str], allowed: set[str]) -> None:
    assert imported_after(args) <= allowed


def test_help_lists_every_command_with_its_own_summary() -> None:
    ctx = click.Context(app)
    for name, (target, summary) in COMMANDS.items():
        command = app.get_command(ctx, name)
        assert command is not None, target
        assert command.get_short_help_str(10**6) == summary, (
            f"COMMANDS[{name!r}] in rollem/cli/app.py: update the summary to the command's "
            "first sentence")
    out = subprocess.run([sys.executable, "-c", "from rollem.cli.app import main; main()",
                          "--help"], capture_output=True, text=True, timeout=60)
    listed = out.stdout.split("Commands:", 1)[1]
    assert [line.split()[0] for line in listed.strip().splitlines()] == sorted(COMMANDS)


def test_version_is_written_once_and_read_from_the_metadata() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    written = pyproject["project"]["version"]
    assert version("rollem") == written
    out = subprocess.run([sys.executable, "-c", "from rollem.cli.app import main; main()",
                          "--version"], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == f"rollem, version {written}"
    import rollem

    assert rollem.__version__ == written
    sources = [p for p in (ROOT / "src").rglob("*.py") if written in p.read_text("utf-8")]
    assert sources == [], "the version is written only in pyproject.toml"


def test_long_bad_input_is_cut_in_the_error(tmp_path: Path) -> None:
    # issue 14: a 2 MB bad input line was echoed whole (one argument holds at most 128 KiB)
    huge = "Zz" * 60_000
    out = subprocess.run([sys.executable, "-c", "from rollem.cli.app import main; main()",
                          "eval", huge], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert len(out.stderr) < 400 and out.stderr.count("\n") == 1
    assert "characters cut" in out.stderr and out.stderr.startswith("rollem: error:")
