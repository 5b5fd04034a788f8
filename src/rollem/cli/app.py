"""The ``rollem`` command line (Click): one module per command, loaded lazily.

Each command lives in ``rollem/cli/<name>_cmd.py`` and is imported only when
it runs (or when its own ``--help`` is asked for), so ``rollem --help`` and a
quick ``rollem rules`` start fast: Click's documented lazy group
(click.palletsprojects.com, "Complex Applications: Lazily Loading
Subcommands"). To add a command, add one line to :data:`COMMANDS`: its name,
``"module:attribute"`` and the one-line summary ``rollem --help`` lists
(a test checks it matches the command's own).
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from rollem.cli.errors import one_line

__all__ = ["COMMANDS", "LazyGroup", "app", "main"]

COMMANDS: dict[str, tuple[str, str]] = {
    "backup": ("rollem.cli.backup_cmd:backup_command",
               "Back up the web table's SQLite database to PATH while it runs."),
    "check-game": ("rollem.cli.checkgame_cmd:check_game_command",
                   "Check a game file (TOML) and print its steps in words."),
    "convert": ("rollem.cli.convert_cmd:convert_command",
                "Convert hand histories from standard PHH to rollem's, or back."),
    "eval": ("rollem.cli.eval_cmd:eval_command",
             'Evaluate a poker hand from its cards ("Qs Qd Kc Kh 2s").'),
    "export": ("rollem.cli.phh_cmd:export_command",
               "Write rollem hand histories FILES as standard PHH."),
    "odds": ("rollem.cli.odds_cmd:odds_command",
             "Your equity and chances to win, from what one player can see."),
    "play": ("rollem.cli.play_cmd:play_command",
             "Play poker in the terminal against computer players."),
    "replay": ("rollem.cli.replay_cmd:replay_command",
               "Tell the hand in a hand history FILE step by step."),
    "rules": ("rollem.cli.rules_cmd:rules_command", "Show the rules of a game in plain words."),
    "serve": ("rollem.cli.serve_cmd:serve_command",
              "Run the web table, to play with friends in their browsers."),
    "simulate": ("rollem.cli.simulate_cmd:simulate_command",
                 "Play a session of computer players; report each seat's result."),
    "verify": ("rollem.cli.verify_cmd:verify_command",
               "Check that hand histories were dealt from the committed deck."),
}
"""Command name -> (``"module:attribute"`` of its ``click.Command``, the
summary ``rollem --help`` lists without importing it)."""


def _shorten(text: str, limit: int) -> str:
    """``text`` cut at a word to at most ``limit`` characters, with ``...`` (as Click does)."""
    if len(text) <= limit:
        return text
    cut = text[: max(limit - 3, 1)].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "..."


class LazyGroup(click.Group):
    """A group whose commands are imported on first use (Click's lazy group),
    and whose ``--help`` lists them from :data:`COMMANDS` without importing."""

    def __init__(self, *args: object, lazy: dict[str, tuple[str, str]] | None = None,
                 **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in self.lazy:
            return super().get_command(ctx, cmd_name)
        module, _, attr = self.lazy[cmd_name][0].partition(":")
        command = getattr(importlib.import_module(module), attr)
        if not isinstance(command, click.Command):
            raise TypeError(f"{module}:{attr} is not a click.Command")
        self.commands[cmd_name] = command
        return command

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """Click's, but an unknown command's error names the commands there are
        (and the nearest, when one is close)."""
        name = args[0] if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            import difflib

            names = self.list_commands(ctx)
            near = difflib.get_close_matches(name, names, n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            raise click.UsageError(f"no such command {name!r}{hint}: expected one of "
                                   f"{', '.join(names)}", ctx)
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max((len(n) for n in names), default=0)
        rows = []
        for name in names:
            if name in self.lazy:  # the stored summary, so listing imports nothing
                rows.append((name, _shorten(self.lazy[name][1], limit)))
                continue
            command = self.commands[name]
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(
    name="rollem",
    cls=LazyGroup,
    lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(package_name="rollem", prog_name="rollem")
def app() -> None:
    """Dealer's-choice home poker: Stop, Drop and Roll (sdr), Five Card Roll
    Your Own (rollyourown) and 5-2-1 Roll 'Em (rollem521); also hold'em, Omaha,
    stud, razz and draw, or your own game from a game file.

    \b
    Start here:
      rollem rules    the rules of the games, in plain words
      rollem play     play in the terminal against computer players
      rollem serve    host the web table, to play with friends
    Each command's --help tells more: rollem play --help."""


def missing_words(err: click.exceptions.MissingParameter) -> str:
    """What a missing argument or required option is, and what to give
    (s61-term: click's "Missing argument 'FILE'." and "Missing option '--phh'."
    said only what was missing): ``missing FILE; usage: rollem replay [OPTIONS]
    FILE``, ``missing --to: expected --to phh or --to rollem``, ``missing --phh:
    give it (write standard PHH ...)``."""
    param, ctx = err.param, err.ctx
    if param is None or ctx is None:
        return err.format_message()
    if isinstance(param, click.Option):
        flag = max(param.opts, key=len)
        if isinstance(param.type, click.Choice):
            from rollem.cli.numbers import or_list

            return f"missing {flag}: expected " + or_list(
                [f"{flag} {c}" for c in param.type.choices])
        if param.is_flag:
            said = (param.help or "").split(". ")[0].rstrip(".")
            return f"missing {flag}: give it" + (f" ({said[:1].lower()}{said[1:]})"
                                                 if said else "")
        return f"missing {flag} {param.make_metavar(ctx)}"
    pieces = " ".join(ctx.command.collect_usage_pieces(ctx))
    return f"missing {param.make_metavar(ctx)}; usage: {ctx.command_path} {pieces}"


def main(argv: list[str] | None = None) -> None:
    """Entry point. Usage errors become one line on stderr and exit status 2."""
    try:
        app.main(args=argv, prog_name="rollem", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as err:
        # `rollem` alone: show the help, as a user expects.
        click.echo(err.ctx.get_help() if err.ctx else "")
        sys.exit(0)
    except click.exceptions.MissingParameter as err:
        print(f"rollem: error: {one_line(missing_words(err))}", file=sys.stderr)
        sys.exit(2)
    except click.exceptions.UsageError as err:
        print(f"rollem: error: {one_line(err.format_message())}", file=sys.stderr)
        sys.exit(2)
    except click.exceptions.Abort:
        print("rollem: aborted", file=sys.stderr)
        sys.exit(130)
    except click.exceptions.ClickException as err:
        print(f"rollem: error: {one_line(err.format_message())}", file=sys.stderr)
        sys.exit(2)
    except click.exceptions.Exit as err:
        sys.exit(err.exit_code)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as err:
        # A bug: one line for the user (CLI.md: no traceback ever reaches a user);
        # ROLLEM_DEBUG=1 shows the traceback for whoever reports or fixes it.
        if os.environ.get("ROLLEM_DEBUG"):
            raise
        print(f"rollem: internal error: {type(err).__name__}: {one_line(str(err))} (a bug in "
              "rollem: please report it with the command you ran; ROLLEM_DEBUG=1 shows the "
              "traceback)", file=sys.stderr)
        sys.exit(70)
    sys.exit(0)


if __name__ == "__main__":
    main()
