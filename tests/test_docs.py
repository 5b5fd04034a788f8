"""The user guide and the command help (issue 9): every command's ``--help``
runs, the generated pages (command reference, rules pages) are current, the
MkDocs site builds without warnings, and every doctest in the library and in
the guide passes.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import json
import os
import pkgutil
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import click
import pytest
from click.testing import CliRunner

import rollem
from rollem.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DOCTEST_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def load_script(name: str) -> ModuleType:
    """Import ``scripts/<name>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def command_paths(
    group: click.Group = app, prefix: tuple[str, ...] = ()
) -> Iterator[tuple[str, ...]]:
    """Every registered command as the words after ``rollem`` (the group itself: ())."""
    yield prefix
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            yield from command_paths(command, (*prefix, name))
        else:
            yield (*prefix, name)


COMMANDS = list(command_paths())


def test_known_commands_are_covered() -> None:
    assert {(), ("rules",), ("eval",)} <= set(COMMANDS)


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(("rollem", *p)))
def test_help_runs_cleanly(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], prog_name="rollem")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.stdout.startswith(f"Usage: {' '.join(('rollem', *path))} ")


def test_cli_reference_is_current() -> None:
    gen = load_script("gen_cli_reference")
    committed = (DOCS / "cli-reference.md").read_text(encoding="utf-8")
    assert committed == gen.render(), (
        "docs/cli-reference.md is out of date: run .venv/bin/python scripts/gen_cli_reference.py"
    )


PRINT_HELPS = """\
import contextlib, io, json, runpy, sys
printed = []
for path in json.loads(sys.argv[1]):
    sys.argv = ["rollem", *path, "--help"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            runpy.run_module("rollem", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as stop:
            code = stop.code or 0
    printed.append([code, out.getvalue()])
sys.stdout.write(json.dumps(printed))
"""
"""One child Python, as ``python -m rollem ... --help`` for each path in its first
argument (each run as ``-m rollem`` runs, with that ``sys.argv``): a JSON list of
[exit status, what it printed], in order."""


@pytest.fixture(scope="module")
def printed_help() -> dict[tuple[str, ...], tuple[int, str]]:
    """What ``COLUMNS=100 python -m rollem ... --help`` prints for every command: one
    child process for all of them (a child each cost a Python start and rollem's
    imports, 13 times)."""
    gen = load_script("gen_cli_reference")
    proc = subprocess.run(
        [sys.executable, "-c", PRINT_HELPS, json.dumps(COMMANDS)],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": str(gen.COLUMNS)},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    printed = json.loads(proc.stdout)
    assert len(printed) == len(COMMANDS)
    return {path: (code, text) for path, (code, text) in zip(COMMANDS, printed, strict=True)}


@pytest.fixture(scope="module")
def cli_reference() -> str:
    """The generator's page (scripts/gen_cli_reference.py ``render``), made once."""
    return str(load_script("gen_cli_reference").render())


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(("rollem", *p)))
def test_cli_reference_is_what_the_cli_prints(
        path: tuple[str, ...], printed_help: dict[tuple[str, ...], tuple[int, str]],
        cli_reference: str) -> None:
    """The generator's text is exactly what ``COLUMNS=100 rollem ... --help`` prints."""
    code, text = printed_help[path]
    assert code == 0, text
    heading = f"## `{' '.join(('rollem', *path))}`\n\n```text\n"
    assert heading + text.rstrip() + "\n```\n" in cli_reference


def test_rules_pages_are_current() -> None:
    gen = load_script("gen_rules_pages")
    pages = gen.render()
    assert {p.name for p in pages} == {p.name for p in (DOCS / "rules").glob("*.md")}
    for path, text in pages.items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.relative_to(ROOT)} is out of date: run .venv/bin/python "
            "scripts/gen_rules_pages.py"
        )


def test_mkdocs_builds_without_warnings(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (it is in the dev extras: pip install -e '.[dev]')")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(tmp_path / "site"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "WARNING" not in proc.stderr
    for page in ("index.html", "rules/sdr/index.html", "cli-reference/index.html"):
        assert (tmp_path / "site" / page).is_file(), page


def library_modules() -> list[str]:
    """Every module of the library, ``rollem.__main__`` (runs the CLI) left out."""
    names = ["rollem"]
    # A package that fails to import is still listed, so its test reports why.
    for info in pkgutil.walk_packages(rollem.__path__, "rollem.", onerror=names.append):
        if info.name != "rollem.__main__":
            names.append(info.name)
    return sorted(set(names))


@pytest.mark.parametrize("name", library_modules())
def test_library_doctests(name: str) -> None:
    """Runs the docstring examples of every library module (the public API's
    examples stay true). A module that needs an optional extra not installed
    here is skipped, naming the missing package."""
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name and not err.name.startswith("rollem"):
            pytest.skip(f"{name} needs {err.name}, an optional extra not installed")
        raise
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=DOCTEST_FLAGS)
    for test in finder.find(module, name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name} (output above)"


def test_some_library_doctests_exist() -> None:
    finder = doctest.DocTestFinder(exclude_empty=True)
    for name in ("rollem.cards", "rollem.rules", "rollem.engine", "rollem.games",
                 "rollem.history", "rollem.table", "rollem.odds", "rollem.bots"):
        module = importlib.import_module(name)
        assert sum(len(t.examples) for t in finder.find(module, name)) >= 2, name


GUIDE_PAGES_WITH_EXAMPLES = sorted(
    p for p in DOCS.rglob("*.md") if ">>> " in p.read_text(encoding="utf-8")
)


def test_api_page_has_examples() -> None:
    assert DOCS / "api.md" in GUIDE_PAGES_WITH_EXAMPLES


@pytest.mark.parametrize(
    "page", GUIDE_PAGES_WITH_EXAMPLES, ids=lambda p: str(p.relative_to(ROOT))
)
def test_guide_examples(page: Path) -> None:
    """The ``>>>`` examples in the user guide run as doctests."""
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=DOCTEST_FLAGS, encoding="utf-8"
    )
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} example(s) failed in {page.name} (output above)"


def readme_commands() -> list[str]:
    """The README's ``sh`` blocks: the two commands (set up and serve; the test command)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = readme.split("```sh\n")[1:]
    return [b[:b.index("```")].strip() for b in blocks]


def test_readme_has_the_two_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2
    assert commands[1] == "bash scripts/test.sh"


@pytest.mark.parametrize("page", ["index.md", "getting-started.md"])
def test_guide_front_pages_match_the_readme(page: str) -> None:
    """The home page and getting started show the README's two commands exactly,
    and mention every command a player uses."""
    text = (DOCS / page).read_text(encoding="utf-8")
    for command in readme_commands():
        assert f"```sh\n{command}\n```" in text, f"{page} lacks the README's {command!r}"
    top = {path[0] for path in COMMANDS if len(path) == 1}
    assert top == {"play", "serve", "backup", "rules", "odds", "eval", "replay", "simulate",
                   "check-game", "verify", "export", "convert"}
    for name in sorted(top):
        assert f"`rollem {name}" in text, f"{page} does not mention rollem {name}"


def test_every_computer_player_level_is_described_alike_everywhere() -> None:
    """The three levels (random, basic, strong), each with the create form's one line
    (``BOT_LEVEL_HINTS``), in the form's hint line, the hosting guide, ``rollem play
    --help`` and the terminal guide; the terminal guide's "computer players" section
    has a paragraph for each level."""
    import html

    from rollem.server.config import BOT_LEVEL_HINTS, BOT_LEVELS

    def flat(text: str) -> str:
        return " ".join(text.split())

    assert BOT_LEVELS == ("random", "basic", "strong")
    index = (ROOT / "src/rollem/server/static/index.html").read_text()
    hint = html.unescape(index.split('id="bot-levels">')[1].split("</p>")[0])
    assert hint == " · ".join(f"{lv}: {h}" for lv, h in BOT_LEVEL_HINTS.items())
    hosting = flat((DOCS / "hosting.md").read_text())
    terminal_text = (DOCS / "playing-in-the-terminal.md").read_text()
    terminal = flat(terminal_text)
    play_help = flat(CliRunner().invoke(app, ["play", "--help"], terminal_width=200).output)
    for level, line in BOT_LEVEL_HINTS.items():
        assert f"`{level}` ({line}" in hosting, level
        assert f"{level} (" in play_help and line in play_help, level
        assert line in terminal, level
    section = terminal_text.split("## The computer players")[1].split("\n## ")[0]
    bullets = [b.split()[0] for b in section.split("\n- ")[1:]]
    assert bullets == ["`random`", "`basic`", "`strong`"], bullets
    assert "built for the three home games" in flat(section)


USER_DOCS = sorted([ROOT / "README.md", *DOCS.glob("*.md"), *(DOCS / "rules").glob("*.md")])
INTERNAL_NUMBER = re.compile(r"\b(?:issues?|stops?)\s+#?\d+\b", re.IGNORECASE)


@pytest.mark.parametrize("page", USER_DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_user_docs_cite_no_internal_numbers(page: Path) -> None:
    """User docs say how to use rollem: no "issue 29" or "stop 59" (the project's
    own bookkeeping, kept to docs/dev/)."""
    hits = [
        f"{page.relative_to(ROOT)}:{n}: {m.group(0)!r}"
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        for m in INTERNAL_NUMBER.finditer(line)
    ]
    assert hits == []


def test_internal_number_pattern() -> None:
    assert INTERNAL_NUMBER.search("Close the table (stop 59): the end")
    assert INTERNAL_NUMBER.search("passwords (Issue 27):")
    assert not INTERNAL_NUMBER.search("a stop 'n' go; the Stop card; issues a 403")
