"""``rollem play [GAME] [--players N] [--bots LEVEL] [--stack CHIPS] [--seed S] ...``: the
terminal game.

You sit in seat 0 at a :class:`rollem.table.Table` with computer players and
play hand after hand until you quit. You and the bots see only
``Hand.view(seat)``. On a terminal the table is drawn with Rich (suit
symbols, colour); with stdin not a terminal the same game reads one answer
per line and prints plain text, so it can be scripted. Each finished hand is
saved as your own copy of its history (what seat 0 saw, as the web table's
download: ``rollem replay`` and ``rollem odds --history`` read it).
"""

from __future__ import annotations

import os
import random
import re
import sys
import tempfile
import textwrap
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.text import Text

from rollem.cards import parse_card
from rollem.cli.answers import (
    AnswerError,
    Command,
    choices_text,
    decision_kind,
    parse_answer,
    parse_game_choice,
    parse_show_answer,
)
from rollem.cli.colour import colour_allowed
from rollem.cli.errors import cut, fail
from rollem.cli.numbers import PathOf, Whole
from rollem.cli.screen import Part, Style, decision_title, fit_parts, render_table
from rollem.cli.seed_opt import seed_option
from rollem.cli.table_options import (
    check_house,
    check_stack,
    check_staples,
    options_from_flags,
    staple_flags,
    staples_from_flags,
    table_option_flags,
)
from rollem.cli.tourney_flags import TournamentFlags, tournament_flags, tournament_from_flags
from rollem.engine.commit_reveal import (
    ZERO_HASH,
    CommittedSource,
    DealProof,
    new_client_seed,
    seeded_proof,
)
from rollem.limits import MAX_STACK
from rollem.rules.game_help import choose_game_help, explain_decision
from rollem.settle import settle
from rollem.stats import SessionStats
from rollem.text import terminal_safe

if TYPE_CHECKING:
    from rollem.narration import Line, Narrator

__all__ = ["default_history_dir", "play_command"]

GAMES = ("sdr", "rollyourown", "rollem521", "holdem", "omaha", "omaha8", "stud", "stud8",
         "razz", "draw5", "deuces-wild", "dealers-choice")
BOT_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jay")
"""The computer players' names, in seat order from seat 1; one the player's own
``--name`` reads or looks like is skipped (hence ten for at most nine players)."""


def default_history_dir() -> Path:
    """Where hand histories go by default: ``$XDG_DATA_HOME/rollem/histories``
    (``~/.local/share/rollem/histories`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rollem" / "histories"



def _count(n: int, word: str, words: str = "") -> str:
    """``n`` and ``word`` agreeing in number: ``1 hand``, ``0 hands``, ``2 hands``
    (``words``: the plural where it is not ``word`` + s)."""
    return f"{n} {word if n == 1 else words or word + 's'}"

class _Quit(Exception):
    """The player asked to quit (``q``, end of input, Ctrl-C)."""

    def __init__(self, interrupted: bool = False, status: int = 0) -> None:
        super().__init__()
        self.interrupted = interrupted
        self.status = status


MAX_ANSWER = 1000
"""The longest answer read from scripted (non-terminal) input, in characters: a
longer line is read in pieces of this size and refused once, as one answer, the
rest of it read and dropped (memory stays bounded whatever comes in)."""

LONG_LINE_SKIP = 1_000_000
"""The most characters of one over-long scripted line dropped for its one
refusal: past this many, each as many more is refused again, so that ``<
/dev/zero`` (no line end, ever) still stops after :data:`MAX_REFUSED` refusals
(stop 69: a pasted line of 50,000 characters, refused piece by piece, ended the
session)."""

LONG_LINE_MARK = "\u2026"
"""Put before the first piece of a scripted line longer than :data:`MAX_ANSWER`:
no prompt takes an answer with it, so the line is refused (even when a piece
reads as an answer: ``x`` * 1001 + ``f`` must not fold)."""

AFTER_HAND_HELP = (
    "The hand is over. Enter deals the next hand; s shows all your cards to the "
    "table (s Qh Th, or s 1 3, shows some; only a hand that was not shown can be), "
    "last tells this hand again, t shows the table as it ended, q stops and prints "
    "the session ledger.")
"""The help (``?``) at the prompt after a hand."""

REBUY_HELP = (
    "You have no chips left. y buys {stack} chips again{brought}; n says no ({stop}); "
    "last tells the last hand again, t shows the table as it ended, q is n.")
"""The help (``?``) at the rebuy offer (its ``{stack}``, ``{brought}`` and ``{stop}``
filled in by :meth:`TerminalGame.offer_rebuy`)."""

FOLD_ANYWAY_HELP = (
    "Checking costs nothing here: c checks and you stay in the hand. y folds anyway, "
    "giving up the hand; n (or anything else) goes back to your move; q quits.")
"""The help (``?``) where a fold is asked to be confirmed."""

MAX_REFUSED = 50
"""Answers refused in a row on scripted input before the game stops (exit 2):
``yes c | rollem play`` ends instead of being refused forever."""


INTERRUPTED_EXIT = 130
"""Exit status after Ctrl-C (128 + SIGINT), once the ledger is printed."""


WIDTH = 78
"""Prompts and choice lines are wrapped to fit an 80-column terminal."""


_GLUE = re.compile(r"(?<![^\s(])(?:[a-z?]+(?: [0-9]+)?|[0-9]+) = [^,();]{1,24}?(?=[,);]|$)")
"""A choice and its meaning, ``f = fold``, ``r 4 = raise to 4``, ``p = stand pat``,
``3 = sdr``: kept on one line when a prompt is wrapped (s61-term: "f =" ended one
line, "fold" began the next; s62-term: "3" one line, "= sdr" the next)."""
_KEEP = "\ue000"  # (a private-use character: a space a line may not break at)


def _wrap(text: str, indent: str = "", *, break_words: bool = False,
          width: int = WIDTH) -> list[str]:
    """``text`` wrapped to ``width`` columns (default :data:`WIDTH`; a narrower
    terminal's: :meth:`TerminalGame.table_width`), later lines after ``indent``;
    a choice and its meaning (:data:`_GLUE`) stay on one line."""
    kept = _GLUE.sub(lambda m: m.group(0).replace(" ", _KEEP), text)
    lines = textwrap.wrap(kept, width, subsequent_indent=indent, break_long_words=break_words,
                          break_on_hyphens=False) or [""]
    return [line.replace(_KEEP, " ") for line in lines]


class TerminalGame:
    """One ``rollem play`` session: the loop of hands, prompts and output.

    ``options``: the table options (stakes, structure, house options; default
    the table defaults). ``colour``: print colour on a terminal (off with
    ``--no-color`` or ``NO_COLOR``). Going broke offers a rebuy of ``stack``
    chips, counted in the ledger as chips brought.
    """

    def __init__(
        self,
        *,
        game: str,
        players: int,
        level: str,
        stack: int,
        seed: int | None,
        show_odds: bool,
        history_dir: Path,
        rich: bool,
        read_line: Callable[[str], str],
        out: IO[str],
        options: Any = None,
        colour: bool = True,
        games: list[str] | None = None,
        tournament: Any = None,
        tournament_flags: TournamentFlags | None = None,
        bomb_pot_every: int = 0,
        bomb_pot_ante: int | None = None,
        player_name: str | None = None,
    ) -> None:
        from rollem.bots import make_bot
        from rollem.table import Table
        from rollem.tournament.session import Tournament

        self.rich = rich
        self._asked = 0  # answers asked for so far
        self._refused = 0  # answers refused in a row
        self._refused_at = -1  # the ask whose answer was last refused
        # No colour (--no-color, NO_COLOR) prints no style codes at all, as
        # `rollem rules` does: bold and dim go too (issue 33).
        self.console = Console(file=out, force_terminal=rich,
                               color_system="auto" if rich and colour else None,
                               highlight=False, soft_wrap=not rich,
                               width=None if rich else 200)
        self.read_line = read_line
        bot_names = _bot_names(player_name, players - 1)
        self.names = ["You", *bot_names]
        """The names told in the terminal: the player is "You" there."""
        self.copy_names = [player_name or "You", *bot_names]
        """The names the saved copies carry (``--name``: a replay of a copy, also one
        shared, says "As Mia saw it" and then "You are dealt")."""
        self.player_name = player_name
        self.style = Style(rich, self.names)
        self.show_odds = show_odds
        if show_odds:  # the compiled odds loops load while the player reads the deal,
            from rollem.odds import compiled  # not in the first wait for odds (s66-try)

            compiled.use()
        self.stack = stack
        master = random.Random(seed) if seed is not None else random.Random()
        self.odds_rng = random.Random(master.getrandbits(64))
        self.bots = [make_bot(level, random.Random(master.getrandbits(64)))
                     for _ in range(players - 1)]
        self.level = level
        table_rng = random.Random(master.getrandbits(64)) if seed is not None else None
        # You may rebuy when broke (offer_rebuy); the computer players never do.
        # A tournament (issue 28, ``tournament``: its schedule, with the flags'
        # buy-in, payouts, rebuy levels and rotation): the stakes rise by level,
        # the busted sit out unless they rebuy in the first levels (the computer
        # players always do then); the stack is the schedule's.
        self.hand_level: dict[str, Any] | None = None  # a tournament hand's level
        self.tournament = (Tournament(tournament, players,
                                      **(tournament_flags or TournamentFlags()).keywords())
                           if tournament is not None else None)
        if tournament is not None:
            stack = self.stack = tournament.stack
        self.seed = seed
        self.prev_hash = ZERO_HASH
        self._picked: DealProof | None = None  # a random pick's hand, made before its deal
        self.table = Table([stack] * players, game=game, rng=table_rng, button=0,
                           choose_game=self._choose_game, options=options, games=games,
                           rebuy=stack, auto_rebuy=lambda seat: False,
                           tournament=self.tournament,
                           sources=self._committed_source,
                           straddlers=options.straddlers if options is not None else (),
                           bomb_pot_every=bomb_pot_every, bomb_pot_ante=bomb_pot_ante)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = f"{stamp}-seed{seed}" if seed is not None else stamp
        self.session_dir = history_dir / name
        k = 1
        while self.session_dir.exists():  # another session started in the same second
            k += 1
            self.session_dir = history_dir / f"{name}-{k}"
        self.saved = 0
        self.save_errors: list[str] = []
        self.interrupted = False
        self.hand_no = 0
        self.stats = SessionStats()  # the players' statistics, hand by hand (issue 27)
        self.rebuys = 0
        self.last: Any = None
        """The last finished hand (``last`` tells it again)."""
        self.narrator: Narrator | None = None

    def _committed_source(self, hand_no: int) -> CommittedSource:
        """The shuffles of hand ``hand_no`` from a committed deck (issue 32): the
        dealer's secret deal key (``--seed``: derived from it, so deals repeat)
        and the terminal's client seed (:func:`new_client_seed`), chained to
        the previous hand dealt; the copy saved after the hand opens the cards
        you saw (``rollem verify``).  A hand whose game a computer player picked
        has its proof already (:meth:`_choose_game`)."""
        proof = self._picked
        self._picked = None
        if proof is None or proof.hand_no != hand_no:
            proof = self._proof(hand_no)
        self.prev_hash = proof.hand_hash()
        return CommittedSource(proof)

    def _proof(self, hand_no: int, pick_games: Sequence[str] = ()) -> DealProof:
        """Hand ``hand_no``'s secret deal key and the terminal's client seed
        (``--seed``: derived from it), chained to the previous hand;
        ``pick_games``: the games offered to a computer player's random pick."""
        if self.seed is not None:
            return seeded_proof(self.seed, hand_no, self.prev_hash, pick_games=pick_games)
        return DealProof.new(hand_no, self.prev_hash, pick_games).with_client_seeds(
            {0: new_client_seed()})

    # ------------------------------------------------------------ output

    def say(self, line: Text | str = "") -> None:
        text = line if isinstance(line, Text) else Text(line)
        if self.rich:
            self.console.print(text)
        else:
            self.console.file.write(text.plain + "\n")
            self.console.file.flush()

    def table_width(self) -> int:
        """The columns the table's rows fit: :data:`WIDTH`, less on a narrower terminal."""
        return min(WIDTH, self.console.width) if self.rich else WIDTH

    def say_fitted(self, line: Text | str | Sequence[Part] = "") -> None:
        """:meth:`say`, but a line longer than :data:`WIDTH` (or than a narrower
        terminal) is wrapped between words, its later parts indented four spaces
        more than it, so that it fits 80 columns (s59-tidy, piped: the session's
        closing lines after ``q`` and a seat row of the table, a 5-2-1 one with its
        up cards and draws; s61-term: on a terminal too, which cut them at its
        last column without the indent); a word longer than the width (a folder)
        stays whole; colour is kept. ``line`` may be given as pieces
        (:data:`~rollem.cli.screen.Part`) a line breaks only between ("You pay
        Eve 20;")."""
        if isinstance(line, (Text, str)):
            text = line if isinstance(line, Text) else Text(line)
            parts: Sequence[Part] = [("", text)]
        else:
            parts = line
        plain = "".join(sep + text.plain for sep, text in parts)
        lead = len(plain) - len(plain.lstrip(" "))
        for piece in fit_parts(parts, self.table_width(), lead + 4):
            self.say(piece)

    def say_help(self, text: str) -> None:
        """A help paragraph (``?``), wrapped between words to the terminal's width
        (:meth:`table_width`), as the decisions' help is (s69-newcomer: the help after
        a hand, at the rebuy and add-on offers and where a fold is confirmed was one
        line of up to 169 columns, piped)."""
        for part in _wrap(text, width=self.table_width()):
            self.say(part)

    def tell(self, lines: list[Line]) -> None:
        """Print narrated lines (cards drawn as cards); in plain text (no terminal) a
        line longer than :data:`WIDTH` is wrapped between words, its later parts
        indented two spaces, as the prompts are (a show line with a wild card's note,
        "You muck ...: it loses to Cat's four fives, jack kicker (wild 2d plays as
        5h)."); on a terminal the same, between words, colour kept."""
        for line in lines:
            text = self.style.line(line)
            if self.rich:  # (the terminal wrapped it at its last column, not indented)
                for piece in fit_parts([("", text)], self.table_width(), 2):
                    self.say(piece)
                continue
            if len(text.plain) <= WIDTH:
                self.say(text)
                continue
            for part in _wrap(text.plain, "  ", break_words=True):
                self.say(part)

    def ask(self, prompt: str) -> str:
        """Read one answer after ``prompt``. A prompt wider than :meth:`table_width`
        is wrapped between words: its first lines are said, indented two spaces
        after the first, and the last is the prompt (s73-newcomer: after a hand,
        "Enter = next hand, ..., q = quit > " was broken by a terminal narrower than
        76 columns wherever its last column fell; the add-on offer ran to 102
        columns, piped too)."""
        width = self.table_width()
        if len(prompt) > width:
            *lines, last = _wrap(prompt.rstrip(), "  ", width=max(1, width - 1))
            for line in lines:
                self.say(line)
            prompt = last + " "
        if self._refused_at != self._asked:
            self._refused = 0  # the last answer was taken
        self._asked += 1
        if not self.rich and self._refused >= MAX_REFUSED:
            self.say_fitted(Text(f"{MAX_REFUSED} answers in a row were refused; stopping "
                                 "(the answers come from a script, not a terminal).",
                                 style="red"))
            raise _Quit(status=2)
        try:
            answer = self.read_line(prompt)
        except (EOFError, KeyboardInterrupt) as err:
            if self.rich:  # (the terminal left the cursor after the prompt or ^C)
                self.say()
            raise _Quit(interrupted=isinstance(err, KeyboardInterrupt)) from None
        if not self.rich:
            # echo scripted answers, their control characters in caret form (as a
            # refusal quotes them: piped bytes cannot drive the terminal)
            self.console.file.write(cut(terminal_safe(answer), 60) + "\n")
        return answer

    def error(self, message: str) -> None:
        """A refused answer, cut to a few lines (a 2 MB line is not echoed whole)."""
        self._refused += 1
        self._refused_at = self._asked
        for part in _wrap(self.style.message(cut(message)), "  ", break_words=True,
                          width=self.table_width()):
            self.say(Text(part, style="red"))

    # ------------------------------------------------------------ game choice

    def prompt_until(
        self,
        prompt: str,
        parse: Callable[[str], object],
        help_text: Callable[[], str],
        redraw: Callable[[], None] | None = None,
    ) -> object:
        """Ask until ``parse`` accepts the answer: a wrong answer is explained and asked
        again, ``?`` prints the decision's help (``help_text()``), ``t`` redraws,
        ``last`` tells the last hand again, ``q`` quits."""
        while True:
            answer = self.ask(prompt)
            try:
                value = parse(answer)
            except AnswerError as err:
                self.error(str(err))
                continue
            if not isinstance(value, Command):
                return value
            if value.name == "quit":
                raise _Quit
            if value.name == "help":
                for i, paragraph in enumerate(help_text().split("\n\n")):
                    if i:
                        self.say()
                    for part in _wrap(paragraph, width=self.table_width()):
                        self.say(part)
            elif value.name == "last":
                self.show_last()
            elif redraw is not None:
                redraw()

    def _choose_game(self, table: Any, fits: list[Any]) -> Any:
        if len(fits) == 1:  # nothing to choose (as at the web table)
            who = "You have" if table.button == 0 else f"{self.names[table.button]} has"
            rotate = table.tournament.rotate if table.tournament is not None else ""
            why = ("the only one that fits" if not rotate else  # issue 28: the rotation's
                   "in the rotation's turn (a game " + ("a level" if rotate == "level"
                                                         else "an orbit of the button") + ")")
            self.say_fitted(f"{who} the button; the game is {fits[0].name} ({fits[0].id}), {why}.")
            return fits[0]
        if table.button != 0:
            # a computer player's pick (R-C-12) comes from the hand's committed deal
            # and seeds (issue 32): the games offered are in the commitment, the
            # pick is the hand's hash's, and ``rollem verify`` checks it
            proof = self._picked = self._proof(table.hands + 1, [g.id for g in fits])
            chosen = fits[[g.id for g in fits].index(proof.picked_game())]
            self.say_fitted(f"{self.names[table.button]} has the button and deals "
                            f"{chosen.name} ({chosen.id}).")
            return chosen
        ids = [g.id for g in fits]
        self.say("You have the button: choose the game.")

        def offer() -> None:  # (``t`` shows it again: no table is dealt yet)
            width = self.table_width()
            for i, g in enumerate(fits, 1):
                for line in _wrap(f"  {i} = {g.id} ({g.name})", "      ", width=width):
                    self.say(line)
            for line in _wrap("  (a number or a name; ? help, t the games again, last = the "
                              "last hand, q quit)", "   ", width=width):
                self.say(line)

        offer()
        players = len(table.dealt_in())
        unfit = [(g.id, f"does not fit {players} players (it takes {g.min_players} to "
                  f"{g.max_players})") for g in table.choices if g not in fits]
        choice = self.prompt_until(
            f"Game (1-{len(fits)}) > ",
            lambda answer: parse_game_choice(answer, ids, unfit),
            lambda: choose_game_help(fits, table.choices, players), offer)
        return fits[ids.index(str(choice))]

    # ------------------------------------------------------------ the loop

    def level_line(self, hand: Any) -> str:
        """The tournament's level for this hand, and what comes next (issue 28)."""
        t = self.tournament
        assert t is not None
        levels = t.schedule.levels
        level = t.schedule.level_at_hand(t.hands_played)  # (this hand counts at its end)
        from dataclasses import replace

        from rollem.games.describe import forced_bet_words, stakes_words

        def stakes(lv: Any) -> str:  # the forced bets this game posts: blinds, not an ante
            options = replace(hand.options, ante=lv.ante, small_bet=lv.small_bet,
                              big_bet=lv.big_bet)
            return stakes_words(options.structure, forced_bet_words(hand.game, options),
                                lv.small_bet, lv.big_bet)

        line = (f"Level {level + 1} of {len(levels)} ({t.schedule.name} tournament): "
                f"{stakes(levels[level])}")
        left = t.schedule.hands_to_next(t.hands_played)
        if left is not None:
            line += (f"; {left} hand(s) to go, this one included, then level {level + 2} "
                     f"({stakes(levels[level + 1])})")
        return line

    def finish_tournament(self) -> None:
        """You busted (and did not rebuy) or won: the computer players play the
        rest out unseen (rebuying as they do while rebuys are open), then the
        finishing places and the prize pool paid by place (issue 28)."""
        t, table = self.tournament, self.table
        assert t is not None
        if table.stacks[0] == 0:
            if not t.over(table.stacks):
                place = t.places(table.stacks)[0]
                self.say_fitted(Text(f"You are out of the tournament in place {place}. The "
                                     "computer players play it out.", style="bold"))
            else:
                self.say(Text("You are out of the tournament.", style="bold"))
            while not t.over(table.stacks) and t.hands_played < 100_000:
                self.bots_rebuy(quiet=True)
                self.bots_addon(quiet=True)
                if t.over(table.stacks):
                    break
                hand = table.new_hand()
                while not hand.is_over:
                    seat = hand.pending.seats[0]  # type: ignore[union-attr]
                    hand.apply(seat, self.bots[seat - 1].act(hand.view(seat)))
                self.tell_bots(hand)
                table.end_hand()
        elif t.over(table.stacks) and t.deal is None:
            self.say(Text("You win the tournament: every chip is yours!", style="bold"))
        places = t.places(table.stacks)
        pay = t.payouts(table.stacks)
        self.say_fitted(f"Finishing places ({t.entrants} entrants, buy-in {t.buy_in}, prize pool "
                        f"{t.prize_pool}):")
        counts = Counter(places.values())  # (busted in one hand: a place shared)
        for seat, place in sorted(places.items(), key=lambda kv: (kv[1], kv[0])):
            won = f", wins {pay[seat]}" if pay[seat] else ""
            # as the web table says them (s60-table): "1st: You, wins 52", a shared
            # place "=3rd: Ann", as results tables write a tie
            nth = f"{place}" + ("th" if place % 100 in (11, 12, 13)
                                else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th"))
            shared = "=" if counts[place] > 1 else ""
            self.say(f"  {shared}{nth}: {self.names[seat]}{won}")

    def bots_rebuy(self, quiet: bool = False) -> None:
        """A tournament's busted computer players buy in again while rebuys are
        open (issue 28), heads-up too; ``quiet``: without saying so (the
        play-out after you are out)."""
        t = self.tournament
        assert t is not None
        for seat in range(1, len(self.names)):
            if self.table.stacks[seat] == 0 and t.may_rebuy(seat):
                chips = self.table.rebuy_seat(seat)
                if not quiet:
                    self.say_fitted(f"{self.names[seat]} rebuys {chips} chips (a buy-in of "
                                    f"{t.buy_in} more in the prize pool).")

    def bots_addon(self, quiet: bool = False) -> None:
        """While the add-on window is open (stop 60), each computer player still in
        answers it (:func:`rollem.tournament.session.bot_takes_addon`), saying so
        unless ``quiet``."""
        from rollem.tournament.session import bot_takes_addon

        t = self.tournament
        assert t is not None
        for seat in t.addon_waiting(self.table.stacks):
            if seat == 0:
                continue
            if bot_takes_addon(self.table.stacks[seat], t.addon_chips):
                chips = self.table.addon_seat(seat)
                if not quiet:
                    self.say_fitted(f"{self.names[seat]} takes the add-on: +{chips} chips "
                                    f"(a price of {t.addon_price} more in the prize pool).")
            else:
                t.decline_addon(seat, self.table.stacks)
                if not quiet:
                    self.say(f"{self.names[seat]} declines the add-on.")

    def offer_addon(self) -> None:
        """The add-on window is open and you are still in (stop 60): take the add-on
        (``y``: ``addon_chips`` chips for ``addon_price``) or not (``n``), once."""
        t = self.tournament
        assert t is not None
        while True:
            answer = self.ask(f"The rebuys are closed. Add-on: +{t.addon_chips} chips for "
                              f"{t.addon_price} (you have {self.table.stacks[0]}). Take it? "
                              "(y = take, n = no thanks) > ").strip().lower()
            if answer in ("y", "yes"):
                chips = self.table.addon_seat(0)
                self.say_fitted(f"You take the add-on: +{chips} chips, {self.table.stacks[0]} "
                                f"now ({t.addon_price} more in the prize pool, {t.prize_pool}).")
                return
            if answer in ("n", "no"):
                t.decline_addon(0, self.table.stacks)
                self.say("No add-on for you.")
                return
            if answer in ("q", "quit"):
                raise _Quit()
            if answer in ("?", "help"):
                self.say_help(f"Once, when the rebuys close, every player still in may buy "
                         f"{t.addon_chips} chips for {t.addon_price} (into the prize pool), "
                         "whatever their stack. y takes it, n says no thanks; the offer "
                         "ends when the next hand is dealt. q quits.")
                continue
            self.error(f"{cut(answer)!r}: answer y (take the add-on) or n (no thanks)")

    def offer_rebuy(self) -> bool:
        """You are broke: offer to buy ``stack`` chips again (counted as chips brought)."""
        t = self.table
        while True:
            sng = self.tournament
            price = f" for a buy-in of {sng.buy_in}" if sng is not None else ""
            stop = "out of the tournament" if sng is not None else "stop here"
            answer = self.ask(f"You are out of chips. Rebuy {self.stack} chips{price}? "
                              f"(y = yes, n = no, {stop}) > ").strip().lower()
            if answer in ("y", "yes"):
                t.rebuy_seat(0)
                self.rebuys += 1
                self.say(f"You rebuy {self.stack} chips (rebuys so far: {self.rebuys}).")
                return True
            if answer in ("n", "no", "q", "quit"):
                return False
            if answer == "last":
                self.show_last()
                continue
            if answer in ("?", "help"):
                self.say_help(REBUY_HELP.format(stack=self.stack, brought=(
                    f"; a buy-in of {sng.buy_in} more in the prize pool" if sng is not None
                    else ", counted in what you brought"), stop=stop))
                continue
            if answer == "t" and self.last is not None:  # the table as the last hand ended
                self.show_end_table(*self.last)
                continue
            self.error(f"{cut(answer)!r}: answer y (rebuy) or n ({stop})")

    def run(self) -> int:
        """Play hands until the player quits or cannot go on; then the ledger.
        Returns the exit status: 0, or :data:`INTERRUPTED_EXIT` after Ctrl-C."""
        from rollem.table import TableError

        status = 0
        named = f" as {self.player_name}" if self.player_name else ""
        for part in _wrap(f"rollem: you are in seat 0{named} with {len(self.bots)} computer "
                          f"player(s) ({self.level}). Answer each prompt; ? explains the "
                          "decision, last tells the last hand again, q quits.",
                          width=self.table_width()):
            self.say(Text(part, style="bold"))
        try:
            while True:
                if self.tournament is not None:
                    if self.table.stacks[0] == 0 and self.tournament.may_rebuy(0):
                        if self.offer_rebuy():
                            continue  # (issue 28: a rebuy in the first levels)
                        self.tournament.decline_rebuy(0)  # (heads-up too: then it ends)
                    if self.table.stacks[0] == 0 or self.tournament.over(self.table.stacks):
                        self.finish_tournament()
                        break
                    self.bots_rebuy()
                    if self.tournament.may_addon(0, self.table.stacks):
                        self.offer_addon()  # (stop 60: when the rebuys close)
                    self.bots_addon()
                if self.table.stacks[0] == 0 and not self.offer_rebuy():
                    break
                refusal = self.table.why_no_deal()
                if refusal is not None and refusal.code == "no_fit":
                    self.no_fit()
                    break
                try:
                    hand = self.table.new_hand()
                except TableError:
                    self.say("Nobody else has chips left: you have won every chip at the table!")
                    break
                self.hand_no += 1
                self.play_hand(hand)
                self.table.end_hand()
                self.stats.add_hand(hand.game.id, hand.events,
                                    {s: self.names[s] for s in range(hand.n)
                                     if hand.dealt[s]},
                                    level=(self.hand_level or {}).get("level"))
                self.last = (self.hand_no, hand)
                try:
                    go_on = self.between_hands(hand)
                finally:
                    self.save(hand)  # with any cards shown by choice after the hand
                if not go_on:
                    break
        except (_Quit, KeyboardInterrupt) as err:
            self.interrupted = isinstance(err, KeyboardInterrupt) or err.interrupted
            status = 0 if isinstance(err, KeyboardInterrupt) else err.status
            if isinstance(err, KeyboardInterrupt) and self.rich:
                # Ctrl-C away from a prompt (the odds, the computer players): the
                # terminal's "^C" echo is not followed by a newline (at a prompt
                # ``ask`` gives it; issue 33, s69-newcomer)
                self.say()
            current = self.table.hand
            if current is not None and not current.is_over:
                self.say_fitted("The hand in progress is abandoned; it does not count.")
        self.ledger()
        return INTERRUPTED_EXIT if self.interrupted else status

    def no_fit(self) -> None:
        """Say that no game of the table deals the players still dealt in (R-C-12):
        the session cannot go on (computer players who went broke do not rebuy)."""
        t = self.table
        players = len(t.dealt_in())
        games = [t.fixed] if t.fixed is not None else t.choices
        self.say_fitted(Text(f"No hand can be dealt: {players} players are still dealt in, and "
                             f"no game of this table fits {players} players "
                             f"({fit_words(games)}). The session ends here.", style="bold"))

    def between_hands(self, hand: Any) -> bool:
        """After a hand: Enter for the next, ``s`` to show your cards by choice
        (R-C-11; ``s Qh`` or ``s 1`` for some), ``last`` to tell it again, ``q`` to stop."""
        while True:
            legal = hand.legal_actions(0)
            show = "s = show your cards, " if "show" in legal.actions else ""
            choices = f"Enter = next hand, {show}last = this hand again, q = quit"
            answer = self.ask(choices + " > ")
            word, _, rest = answer.strip().lower().partition(" ")
            if not word:
                return True
            if word in ("q", "quit", "exit") and not rest:
                return False
            if word == "last" and not rest:
                self.show_last()
                continue
            if word in ("?", "help") and not rest:
                self.say_help(AFTER_HAND_HELP)
                continue
            if word == "t" and not rest:  # the table as the hand ended
                self.show_end_table(self.hand_no, hand)
                continue
            if word in ("s", "show"):
                self.show_cards(hand, legal, rest)
                continue
            # Anything else is asked again, not taken for Enter (a bet typed late
            # must not deal the next hand).
            self.error(f"{answer.strip()!r} is not an answer here: {choices}")

    def show_cards(self, hand: Any, legal: Any, which: str) -> None:
        """Show your cards (all, or those named) after the hand (R-C-11)."""
        from rollem.engine import actions
        from rollem.engine.errors import IllegalAction

        show = getattr(actions, "Show", None)
        if show is None or "show" not in legal.actions:
            self.error("you have no cards left to show")
            return
        try:
            # (positions count every card held, shown or not: s 1 then s 2 shows both)
            held = [parse_card(c) for c in hand.view(0).seats[0].cards if c is not None]
            cards = (parse_show_answer(which, legal, held) if which.strip()
                     else list(legal.cards))
            before = len(hand.view(0).events)
            hand.apply(0, show(tuple(cards)))
        except (AnswerError, IllegalAction) as err:
            self.error(str(err))
            return
        if self.narrator is not None:
            for e in hand.view(0).events[before:]:
                self.tell(self.narrator.feed(e))

    def tell_bots(self, hand: Any) -> None:
        """Tell the computer players (seats 1 on) the end of ``hand``, each its own
        seat's view (:func:`rollem.hand_ends.tell_hand_end`: the cards shown down)."""
        from rollem.hand_ends import tell_hand_end

        tell_hand_end(hand, {seat: bot for seat, bot in enumerate(self.bots, start=1)})

    def show_end_table(self, number: int, hand: Any) -> None:
        """The table as hand ``number`` ended (``t`` between hands)."""
        for line in render_table(hand.view(0), self.style, title=f"Hand {number}",
                                 game_name=hand.game.name, narrator=self.narrator,
                                 width=self.table_width()):
            self.say_fitted(line)

    def show_last(self) -> None:
        """Tell the last finished hand again, step by step, as you saw it."""
        from rollem.games import get
        from rollem.narration import narrate_view

        if self.last is None:
            self.say("No hand has finished yet.")
            return
        number, hand = self.last
        self.say()
        self.say_fitted(Text(f"=== Hand {number} again: {get(hand.game.id).name} ===",
                             style="bold"))
        self.tell(narrate_view(hand.view(0), self.names))
        self.say(Text("=== end of hand " + str(number) + " ===", style="bold"))

    def play_hand(self, hand: Any) -> None:
        from rollem.games import get
        from rollem.narration import Narrator

        name = get(hand.game.id).name
        self.say()
        self.say_fitted(Text(f"=== Hand {self.hand_no}: {name}, {self.names[hand.button]} "
                             f"{'have' if hand.button == 0 else 'has'} the button ===",
                             style="bold"))
        if self.tournament is not None:
            self.say_fitted(self.level_line(hand))
            t = self.tournament  # (the hand's level, for its history)
            self.hand_level = t.hand_record()
        nar = Narrator(self.names, 0, options=hand.options.to_dict(), carry_in=hand.carry_in,
                       game=hand.game.id)
        self.narrator = nar
        shown = 0
        while True:
            view = hand.view(0)
            for e in view.events[shown:]:
                self.tell(nar.feed(e))
            shown = len(view.events)
            if hand.is_over:
                break
            p = hand.pending
            others = [s for s in p.seats if s != 0]
            if others:
                seat = others[0]
                hand.apply(seat, self.bots[seat - 1].act(hand.view(seat)))
                continue
            self.tell(nar.finish())
            self.decide(hand, view, name)
        if hand.is_over:
            self.tell_bots(hand)
        self.tell(nar.finish())
        self.say()
        view = hand.view(0)
        self.tell(nar.result(view.result or {}, my_cards=view.seats[0].cards))

    def decide(self, hand: Any, view: Any, game_name: str) -> None:
        """Prompt until the player's answer is a legal action and apply it (or quit)."""
        from rollem.engine.actions import Fold
        from rollem.engine.errors import IllegalAction

        odds = self.odds_line(view) if self.show_odds else None

        def draw() -> None:
            for line in render_table(view, self.style, title=f"Hand {self.hand_no}",
                                     game_name=game_name, narrator=self.narrator,
                                     width=self.table_width()):
                self.say_fitted(line)
            if odds is not None:  # the same line again on a redraw (t)
                self.say(odds)

        self.say()
        draw()
        legal = view.legal
        shown_cards = self.style.card_words([str(c) for c in legal.cards])
        me = view.seats[0]
        up = [parse_card(c) for c, u in zip(me.cards, me.up, strict=True) if u and c]
        # (a card to turn up is numbered by its place in the row the table shows)
        held = [parse_card(c) for c in me.cards if c]
        for part in _wrap(f"Choices ({decision_title(view)}): "
                          + choices_text(legal, shown_cards, held), "  ",
                          width=self.table_width()):
            self.say(part)
        for part in _wrap("  (? help, t table, last = the last hand, q quit)", "   ",
                          width=self.table_width()):
            self.say(part)
        while True:
            action = self.prompt_until(
                "Your move > ", lambda answer: parse_answer(answer, legal, up, held),
                lambda: explain_decision(hand.game, decision_kind(legal), legal,
                                         view.options.get("structure")), draw)
            if isinstance(action, Fold) and "check" in legal.actions \
                    and not self._fold_anyway():
                continue
            try:
                hand.apply(0, action)  # the engine has the last word; refused = unchanged
            except IllegalAction as err:
                self.error(str(err))
                continue
            return

    def _fold_anyway(self) -> bool:
        """Ask whether to fold where checking is free: ``y`` folds; ``?`` explains and
        ``q`` quits, as at every prompt (issue 33's try-out: both went back to the
        move without a word); anything else goes back to the move."""
        while True:
            sure = self.ask("You can check for free. Fold anyway? (y = fold, n = back) > ")
            word = sure.strip().lower()
            if word in ("?", "help"):
                self.say_help(FOLD_ANYWAY_HELP)
                continue
            if word in ("q", "quit"):
                raise _Quit
            return word in ("y", "yes")

    def odds_line(self, view: Any) -> Text:
        """Your chances now and, at a card choice, every option's equity
        (:func:`rollem.odds.display.show_odds_text`; ``--show-odds``). Every
        other player is a computer player of ``--bots``: with ``random`` ones
        the odds read their card choices as random (:func:`rollem.odds.
        straying.for_bots`; issue 33, branch s67-rough). Its cards are drawn as
        the table draws them (:meth:`rollem.cli.screen.Style.text`)."""
        from rollem.odds.display import WIDTH as ODDS_WIDTH
        from rollem.odds.display import show_odds_text
        from rollem.odds.straying import for_bots

        text, ok = show_odds_text(view, rng=self.odds_rng, straying=for_bots([self.level]),
                                  width=min(ODDS_WIDTH, self.console.width) if self.rich
                                  else ODDS_WIDTH)
        # its cards drawn as the table draws them (suit symbols; plain Qh without a
        # terminal, and no colour with NO_COLOR, as everywhere on the screen)
        return self.style.text(text, "cyan" if ok else "dim")

    # ------------------------------------------------------------ after

    def save(self, hand: Any) -> None:
        """Save your own copy of the finished hand (seat 0's, as the web table's
        download): your cards, the cards dealt face up and the cards shown, never
        a computer player's face-down cards (folded, mucked or never shown).
        The copy is also appended to the session's ``session.phhs`` (issue 29:
        standard PHH where the game has a PHH variant, else rollem's own
        table; :func:`rollem.phh.session_table`)."""
        from rollem.history import HistoryError, write_own_copy
        from rollem.phh import PHHError, phhs_entry, session_table

        try:
            self.session_dir.mkdir(parents=True, exist_ok=True)
            path = self.session_dir / f"hand-{self.hand_no:04d}-{hand.game.id}.toml"
            text = write_own_copy(hand, 0, players=self.copy_names, tournament=self.hand_level)
            path.write_text(text, encoding="utf-8")
            self.saved += 1
            try:
                table = session_table(text)
            except (HistoryError, PHHError) as err:  # (the .toml copy is saved)
                self.save_errors.append(f"session.phhs: {err}")
                return
            assert table is not None
            with (self.session_dir / "session.phhs").open("a", encoding="utf-8") as f:
                f.write(phhs_entry(self.saved, table))
        except OSError as err:
            self.save_errors.append(str(err))
            self.say_fitted(Text(f"could not save the hand history: {err}", style="red"))

    def tournament_ledger(self, done: int) -> None:
        """A tournament's ledger (issue 28): what each player paid (buy-in and
        rebuys), the place and prize, the net, in the buy-in's units (chips
        are only the score)."""
        t = self.tournament
        assert t is not None
        # (after you were out the computer players played on: ``done`` counts only
        # the hands you were at the table for, the tournament's own count them all)
        hands = (f"{_count(t.hands_played, 'hand')}, {done} with you" if t.hands_played > done
                 else _count(done, "hand"))
        self.say_fitted(Text(f"Tournament ledger after {hands} (buy-in {t.buy_in}, prize "
                      f"pool {t.prize_pool}; in the buy-in's units):", style="bold"))
        for row in t.ledger(self.table.stacks):
            name = self.names[row["seat"]]
            bought = ([_count(row["rebuys"], "rebuy")] if row["rebuys"] else []) + (
                ["add-on"] if row["addon"] else [])
            paid = f"paid {row['paid']}" + (f" ({', '.join(bought)})" if bought else "")
            if row["net"] is not None:
                self.say_fitted(f"  {name:<4} {row['net']:+d}  ({paid}, place {row['place']}, "
                         f"won {row['payout']})")
            elif row["place"] is not None:
                self.say_fitted(f"  {name:<4} {paid}, out in place {row['place']}; prizes are paid "
                         "at the end")
            else:
                self.say_fitted(f"  {name:<4} {paid}, still playing with "
                         f"{self.table.stacks[row['seat']]} chips")

    def ledger(self) -> None:
        t = self.table
        self.say_fitted()
        done = self.hand_no - (1 if t.hand is not None and not t.hand.is_over else 0)
        if self.tournament is not None:
            self.tournament_ledger(done)
        else:
            self.say_fitted(Text(f"Session ledger after {_count(done, 'hand')}:", style="bold"))
        shown = list(enumerate(self.names if self.tournament is None else ()))
        # (the nets aligned: "  Bob    -6" under "  Ann   -20")
        net_width = max((len(f"{t.stacks[s] - t.brought[s]:+d}") for s, _ in shown), default=0)
        for s, name in shown:
            net = t.stacks[s] - t.brought[s]
            self.say_fitted(f"  {name:<4} {net:>+{net_width}d}  (stack {t.stacks[s]}, "
                            f"brought {t.brought[s]})")
        # A hand abandoned by q does not count (its chips are back in t.stacks); only
        # chips carried into a pot (R-521-9), between hands or into the abandoned
        # hand, leave nets that do not add up to 0 and so nothing to settle.
        abandoned = t.hand is not None and not t.hand.is_over
        carried = t.carry + (t.hand.carry_in if abandoned and t.hand is not None else 0)
        if self.tournament is None and not carried:
            nets = [(name, t.stacks[s] - t.brought[s]) for s, name in enumerate(self.names)]
            try:
                transfers = settle(nets)
            except ValueError:  # (a ledger that does not balance: nothing to settle)
                transfers = []
            if transfers:
                you = self.names[0]
                said = [("You pay" if x.payer == you else f"{x.payer} pays")
                        + (" you" if x.payee == you else f" {x.payee}") + f" {x.chips}"
                        for x in transfers]
                said = [f"{x};" for x in said[:-1]] + said[-1:]  # (a line breaks between)
                self.say_fitted([("", Text("  To settle up: " + said[0]))]
                                + [(" ", Text(x)) for x in said[1:]])
        mine = self.stats.players.get(self.names[0])
        if mine is not None and mine.hands:
            line = mine.to_dict()

            def pct(value: float | None) -> str:
                return "-" if value is None else f"{value:.0f}%"

            self.say_fitted(f"  Your play: {_count(mine.hands, 'hand')}; put chips in "
                     "voluntarily in the "
                     f"first round {pct(line['vpip'])}, raised first {pct(line['pfr'])}, "
                     f"to the showdown {pct(line['wtsd'])}, won there {pct(line['wsd'])}")
            for level, per in sorted(self.stats.by_level.items()):  # (a tournament)
                at = per.get(self.names[0])
                if at is None or not at.hands:
                    continue
                figures = at.to_dict()
                self.say_fitted(f"    at level {level}: {_count(at.hands, 'hand')}, voluntarily "
                         f"{pct(figures['vpip'])}, raised first {pct(figures['pfr'])}, "
                         f"to the showdown {pct(figures['wtsd'])}, won there "
                         f"{pct(figures['wsd'])}, chips {at.net:+d}")
        if self.rebuys and self.tournament is None:  # (a tournament's ledger says it)
            self.say_fitted(f"  You rebought {_count(self.rebuys, 'time')}: "
                            f"{self.rebuys * self.stack} chips, counted in what you brought")
        if t.carry:
            self.say_fitted(f"  {_count(t.carry, 'chip')} {'was' if t.carry == 1 else 'were'} "
                            "carried to a next hand that was not played")
        if self.saved:
            saved = _count(self.saved, "hand history", "hand histories")
            self.say_fitted(f"{saved} saved in {self.session_dir} "
                     f"(your own copies, with only the cards you saw; read one with: "
                     "rollem replay FILE; each hand's net and stacks: rollem replay session.phhs)")
        if self.save_errors:
            self.say_fitted(Text(f"{_count(len(self.save_errors), 'finished hand')} could not be "
                                 "saved in "
                          f"{self.session_dir}: {self.save_errors[-1]}", style="red"))
        elif not self.saved:
            self.say_fitted("No hand was finished, so no history was saved.")


@click.command("play",
               short_help="Play poker in the terminal against computer players.")
@click.argument("game", required=False, default="dealers-choice", metavar="[GAME]")
@click.option("--players", type=Whole("2 to 10"), default=5, show_default=True, metavar="N",
              help="Players at the table, you included (you are seat 0); 2 to 10 "
                   "(Five Card Roll Your Own: at most 8).")
@click.option("--bots", "level", default="basic", show_default=True, metavar="LEVEL",
              help="Level of every computer player: basic (friendly, plays by its own "
                   "chances; the default here), strong (reads your bets, draws and up "
                   "cards, bluffs now and then; hard to beat; built for the three home "
                   "games) or random (any legal move; the default of rollem "
                   "simulate, which tests the engine).")
@click.option("--stack", type=Whole(f"1 to {MAX_STACK:,}"), default=200, show_default=True,
              metavar="CHIPS",
              help="Starting chips of every player; also what a rebuy buys when you go "
                   f"broke (counted in the ledger); from 1 to {MAX_STACK:,}.")
@seed_option("Seed the shuffles and the computer players, to replay the same session "
             "(default: secure shuffles).")
@click.option("--show-odds", is_flag=True,
              help="Show your chances (equity, whole pot, a share, nothing; the halves in "
                   "5-2-1) and the advice at each decision: exact, or with their 95% interval "
                   "(within about a second; the interval is the sampling error only: the "
                   "figures take the others to play much like the odds' policy, see "
                   "docs/odds.md).")
@click.option("--history-dir", type=PathOf(file_okay=False, path_type=Path), default=None,
              metavar="DIR",
              help="Folder for your copies of the hand histories, one file per hand in a "
                   "folder per session: your own copy, with only the cards you saw (the "
                   "computer players' hidden cards are ??), as the web table's download "
                   "(default: $XDG_DATA_HOME/rollem/histories, i.e. "
                   "~/.local/share/rollem/histories).")
@click.option("--game-file", default=None, metavar="FILE",
              help="Play the game in this game file (TOML, see rollem check-game).")
@click.option("--games", "choice", default=None, metavar="LIST",
              help="Dealer's choice: the games offered, comma-separated ids (default: "
                   "sdr,rollyourown,rollem521; a --game-file game may be named too).")
@click.option("--tournament", "schedule_name", default=None, metavar="SCHEDULE",
              help="Play a sit-and-go tournament instead of a cash game: turbo, regular or "
                   "slow (the shipped level schedules) or a schedule file (TOML). Everyone "
                   "starts with the schedule's stack, the stakes rise by hands, no rebuys "
                   "unless --rebuy-levels; it ends when you are out or hold every chip.")
@tournament_flags
@table_option_flags
@staple_flags
@click.option("--name", "player_name", default=None, metavar="NAME",
              help="Your name in your copies of the hand histories (a replay of one, also "
                   "shared, says whose it is); 1 to 24 characters, the web table's rules for "
                   "names (not a computer player's name, not You). The terminal still "
                   "calls you You; a computer player of the same name takes another.")
@click.option("--no-color", is_flag=True,
              help="No colour on a terminal (also when the NO_COLOR environment variable is "
                   "set); suit symbols stay.")
def play_command(game: str, players: int, level: str, stack: int, seed: int | None,
                 show_odds: bool, history_dir: Path | None, no_color: bool,
                 game_file: str | None, choice: str | None, schedule_name: str | None,
                 player_name: str | None = None, **flags: Any) -> None:
    """Play poker in the terminal against computer players, hand after hand.

    GAME is sdr (Stop, Drop and Roll), rollyourown (Five Card Roll Your Own),
    rollem521 (5-2-1 Roll 'Em), a standard game (holdem, omaha, omaha8, stud,
    stud8, razz, draw5, deuces-wild) or dealers-choice (the default: the
    player on the button names each hand's game; you choose when the button
    is yours); or give --game-file FILE.

    Answer each prompt with a short answer: c (check or call), r 8 (raise to
    8), b 2 (bet 2), f (fold); cards as text such as Qh 7c or by their
    positions in the list shown (1 3); p to stand pat; h, l or b to declare
    high, low or both. ? explains the decision in front of you, t shows the
    table again, last tells the last hand again, q (or the end of input)
    quits and prints the session ledger and where the hand histories were
    saved. Going broke offers a rebuy.

    Stakes, structure and house options take the same flags as rollem
    simulate and the web table's form, but for --run-twice (computer players
    agree to it in rollem simulate; at the web table the players still in are
    asked).

    Without a terminal (stdin not a TTY) it reads one answer per line and
    prints plain text, so a game can be scripted.
    """
    from rollem.bots import LEVELS, make_bot
    from rollem.games import get

    if player_name is not None:
        player_name = _checked_name(player_name)
    game = game.strip().lower()
    offered: list[str] | None = None
    if game_file is not None:
        from rollem.cli.gamefile_opt import register_game_file

        file_id = register_game_file(game_file)
        if game not in ("dealers-choice", file_id):
            fail(f"give GAME or --game-file, not both: GAME is {game!r}, the file's game "
                 f"is {file_id!r}")
        if game != "dealers-choice" or choice is None:
            game = file_id
    if choice is not None:
        from rollem.cli.gamefile_opt import games_list

        if game != "dealers-choice":
            fail("--games is for dealers-choice: give GAME or --games, not both")
        offered = games_list(choice)
        if game_file is not None and file_id not in offered:  # (the file was not played,
            # without a word: issue 33's try-out)
            fail(f"--game-file: its game {file_id!r} is not among --games "
                 f"{','.join(offered)}; add it (--games {','.join(offered)},{file_id}) or "
                 "leave out --games")
    if game not in GAMES and (game_file is None or game != file_id):
        from rollem.cli.gamefile_opt import game_ids_words

        fail(f"unknown game {game!r}: expected one of {game_ids_words()} (or --game-file "
             "FILE)")
    if game != "dealers-choice":
        try:
            g = get(game)
        except KeyError:
            fail(f"the game {game!r} is not available in this version yet")
        if not g.min_players <= players <= g.max_players:
            fail(f"--players {players}: {g.name} takes {g.min_players} to {g.max_players}")
    if not 2 <= players <= 10:
        fail(f"--players {players}: expected 2 to 10 (you included)")
    if game == "dealers-choice":
        from rollem.games import DEFAULT_CHOICE
        from rollem.table import games_that_fit

        choices = [get(gid) for gid in (offered if offered is not None else DEFAULT_CHOICE)]
        if not games_that_fit(choices, players):
            fail(f"--players {players}: none of the games offered fits {players} players: "
                 + fit_words(choices))
    sit_and_go = tournament_from_flags(flags, tournament=schedule_name is not None,
                                       game=game, players=players)
    options, typed_house = options_from_flags(flags)
    check_stack(stack, options)
    options, bomb_pot_every, bomb_pot_ante = staples_from_flags(flags, options, players, stack)
    if game == "dealers-choice":
        check_house(options, choices, typed_house)
    else:
        check_house(options, [g], typed_house)
    check_staples(options, bomb_pot_every, bomb_pot_ante,
                  choices if game == "dealers-choice" else [g])
    try:
        make_bot(level)
    except KeyError:
        fail(f"unknown bot level {level!r}: expected one of {', '.join(sorted(LEVELS))}")
    folder = history_dir if history_dir is not None else default_history_dir()
    problem = _unwritable(folder)
    if problem:
        fail(f"--history-dir {folder}: {problem}; give a folder you can write to")
    rich = sys.stdin.isatty() and sys.stdout.isatty()
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:  # bytes that are not UTF-8 are refused as answers, as
        reconfigure(errors="replace")  # any other; strict decoding crashed (issue 33 try-out)
    if rich:
        def read_line(prompt: str) -> str:
            return input(prompt)
    else:
        in_long_line = False  # the last piece read was cut from a longer line

        def read_piece() -> str:
            line = sys.stdin.readline(MAX_ANSWER + 1)  # (a longer line: in pieces)
            # bytes that are not UTF-8 (read as lone surrogates) as U+FFFD, not
            # echoed back as '\udcff' (issue 33's try-out)
            return line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")

        def read_line(prompt: str) -> str:
            nonlocal in_long_line
            sys.stdout.write(prompt)
            sys.stdout.flush()
            line = read_piece()
            dropped = 0
            while in_long_line and line and dropped < LONG_LINE_SKIP:
                # the rest of a line already refused: dropped, not answers
                in_long_line = not line.endswith("\n")
                dropped += len(line)
                line = read_piece()  # (the next piece of it, or the next line)
            if not line:
                sys.stdout.write("\n")
                raise EOFError
            continued = in_long_line  # (LONG_LINE_SKIP dropped: refused again)
            in_long_line = len(line) > MAX_ANSWER and not line.endswith("\n")
            if continued or in_long_line:
                # a line longer than MAX_ANSWER: marked so that no prompt takes it
                # (a pasted text ending in "f" must not fold)
                return LONG_LINE_MARK + line.rstrip("\r\n")
            return line.rstrip("\r\n")
    schedule = _schedule(schedule_name) if schedule_name is not None else None
    if schedule is not None and not 2 <= players <= 10:
        fail(f"--players {players}: a tournament takes 2 to 10")
    session = TerminalGame(
        tournament=schedule, tournament_flags=sit_and_go,
        game=game, players=players, level=level, stack=stack, seed=seed, show_odds=show_odds,
        history_dir=folder, rich=rich, read_line=read_line, out=sys.stdout, options=options,
        colour=colour_allowed(no_color_flag=no_color, terminal=rich), games=offered,
        bomb_pot_every=bomb_pot_every, bomb_pot_ante=bomb_pot_ante, player_name=player_name,
    )
    status = session.run()
    if status:
        raise SystemExit(status)


def _checked_name(name: str) -> str:
    """``--name``, checked and tidied as the web table checks a name to sit down
    with (:func:`rollem.server.live_table.player_names.clean_name`: 1 to 24
    characters, no invisible or control characters, not a computer player's name
    or ``You``); a refusal exits 2 with the table's own words."""
    from rollem.server.live_table.errors import TableError
    from rollem.server.live_table.player_names import MAX_NAME, clean_name

    if not name.strip():  # (the table's words are "a name is needed to sit down")
        fail(f"--name {name!r}: give a name of 1 to {MAX_NAME} characters, or leave out "
             "--name (your copies then call you You)")
    try:
        return clean_name(name)
    except TableError as err:
        shown = name if len(name) <= 40 else name[:40] + "..."
        fail(f"--name {shown!r}: {err.message}")


def _bot_names(player_name: str | None, count: int) -> list[str]:
    """The ``count`` computer players' names: :data:`BOT_NAMES` in order, less one
    that reads or looks like ``player_name`` (``--name Ann``: Bob, Cat, ...)."""
    if player_name is None:
        return list(BOT_NAMES[:count])
    from rollem.server.live_table.player_names import same_name

    return [n for n in BOT_NAMES if not same_name(n, player_name)][:count]


def _schedule(name: str) -> Any:
    """The schedule ``--tournament`` names: shipped, or a TOML file (exit 2 if neither)."""
    from rollem.tournament import SCHEDULES, load_schedule
    from rollem.tournament.schedule import ScheduleError

    if name in SCHEDULES:
        return SCHEDULES[name]
    path = Path(name)
    if not path.is_file():
        fail(f"--tournament {name!r}: not a shipped schedule ({', '.join(SCHEDULES)}) nor a "
             "schedule file")
    try:
        return load_schedule(path.read_text(encoding="utf-8")[:70_000], path.stem)
    except (ScheduleError, UnicodeDecodeError) as err:
        fail(f"--tournament {name}: {err}")


def fit_words(games: list[Any]) -> str:
    """How many players each game takes: ``"stud takes 2 to 7, razz takes 2 to 7"``."""
    return ", ".join(f"{g.id} takes {g.min_players} to {g.max_players}" for g in games)


def _unwritable(folder: Path) -> str | None:
    """Why hand histories cannot be saved under ``folder`` (created if
    missing), or ``None`` when they can."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return f"cannot create the folder ({err.strerror or err})"
    if not folder.is_dir():
        return "not a folder"
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        return f"cannot write in the folder ({err.strerror or err})"
    return None
