"""The ``rollem`` command line (Click): one module per command, registered here.

To add a command, write ``rollem/cli/<name>_cmd.py`` exposing a
``click.Command`` and add one line to :func:`_register`.
"""

from __future__ import annotations

import sys

import click

from rollem import __version__
from rollem.cli.errors import one_line


@click.group(
    name="rollem",
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="rollem")
def app() -> None:
    """Dealer's-choice home poker: Stop, Drop and Roll (sdr), Five Card Roll
    Your Own (rollyourown) and 5-2-1 Roll 'Em (rollem521)."""


def _register() -> None:
    """Import each command module and add its command (one line each)."""
    from rollem.cli import eval_cmd

    app.add_command(eval_cmd.eval_command)
    from rollem.cli import rules_cmd

    app.add_command(rules_cmd.rules_command)
    from rollem.cli import serve_cmd

    app.add_command(serve_cmd.serve_command)
    from rollem.cli import replay_cmd

    app.add_command(replay_cmd.replay_command)
    from rollem.cli import simulate_cmd

    app.add_command(simulate_cmd.simulate_command)
    from rollem.cli import odds_cmd

    app.add_command(odds_cmd.odds_command)
    from rollem.cli import play_cmd

    app.add_command(play_cmd.play_command)


_register()


def main(argv: list[str] | None = None) -> None:
    """Entry point. Usage errors become one line on stderr and exit status 2."""
    try:
        app.main(args=argv, prog_name="rollem", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as err:
        # `rollem` alone: show the help, as a user expects.
        click.echo(err.ctx.get_help() if err.ctx else "")
        sys.exit(0)
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
    sys.exit(0)


if __name__ == "__main__":
    main()
