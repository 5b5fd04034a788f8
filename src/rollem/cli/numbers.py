"""Option types that say what is allowed when a value is wrong: the one place
every command's numbers, words and paths are read from the command line.

Click's own types answer ``--players abc`` with "'abc' is not a valid
integer", ``--port abc`` (``IntRange``) with "'abc' is not a valid integer
range", ``--retention x`` with "'x' is not a valid float range", ``--to xx``
with "'xx' is not one of 'phh', 'rollem'." and ``replay /tmp`` with "File
'/tmp' is a directory.": their type's name, not what to type. These say
"'abc' is not a whole number: expected 2 to 10", "70000 is out of range:
expected 0 to 65535", "'x' is not a number: expected more than 0", "'xx' is
not a choice: expected phh or rollem", "'/tmp' is a folder: expected a
file". Every error ends as one line ``rollem: error: Invalid value for
'--players': ...`` with exit status 2 (:func:`rollem.cli.app.main`).

- :class:`Whole`: a whole number whose range the command checks itself (its
  message can name the game: "--players 9: Five Card Roll Your Own takes 2 to
  8"); ``allowed`` is what the refusal of text that is not a number says.
- :class:`WholeRange`: a whole number in a closed range checked here (its help
  shows click's ``[0<=x<=65535]``).
- :class:`NumberRange`: a decimal number in a range (``nan`` and ``inf`` refused).
- :class:`OneOf`: one word of a list.
- :class:`PathOf`: a file or folder path (click's, with these words).
"""

from __future__ import annotations

import math
import re
from typing import Any

import click

__all__ = ["NumberRange", "OneOf", "PathOf", "Whole", "WholeRange", "or_list"]

_WHOLE = re.compile(r"[+-]?[0-9]+")


def or_list(words: list[str] | tuple[str, ...]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b or c"``."""
    items = [str(w) for w in words]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def _whole(type_: Any, value: Any, allowed: str, param: click.Parameter | None,
           ctx: click.Context | None) -> int:
    """``value`` as an int: ASCII digits with an optional sign (not ``1_000``, not
    other scripts' digits); else ``type_.fail`` (a ``click.ParamType``'s) saying
    ``allowed``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip()
    if not _WHOLE.fullmatch(text):
        type_.fail(f"{text!r} is not a whole number: expected {allowed}", param, ctx)
    if len(text.lstrip("+-0")) > 100:  # (int() takes at most 4,300 digits)
        type_.fail(f"a number of {len(text.lstrip('+-0'))} digits is too large: expected "
                   f"{allowed}", param, ctx)
    return int(text)


class Whole(click.ParamType):  # type: ignore[type-arg]
    """A whole number; the command checks its range (with words of its own).

    >>> Whole("2 to 10").convert(" 7 ", None, None)
    7

    Raises (from :meth:`convert`): ``click.BadParameter`` "'abc' is not a whole
    number: expected ALLOWED" (also for ``1.5``, ``1_000`` and ``½``).
    """

    name = "integer"

    def __init__(self, allowed: str) -> None:
        self.allowed = allowed

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        return _whole(self, value, self.allowed, param, ctx)


class WholeRange(click.IntRange):
    """A closed range of whole numbers (``min``/``max``: ``None`` for no bound).

    >>> WholeRange(0, 65535).allowed()
    '0 to 65535'
    >>> WholeRange(1).allowed()
    '1 or more'

    Raises (from :meth:`convert`): ``click.BadParameter`` naming the value and
    :meth:`allowed`, for text that is not a whole number or a number out of range.
    """

    def allowed(self) -> str:
        """The range in words: ``"0 to 65535"``, ``"1 or more"``, ``"at most 9"``."""
        if self.min is not None and self.max is not None:
            return f"{self.min} to {self.max}"
        if self.min is not None:
            return f"{self.min} or more"
        if self.max is not None:
            return f"at most {self.max}"
        return "any whole number"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        value = _whole(self, value, self.allowed(), param, ctx)
        if (self.min is not None and value < self.min) or \
                (self.max is not None and value > self.max):
            self.fail(f"{value} is out of range: expected {self.allowed()}", param, ctx)
        return value


class NumberRange(click.FloatRange):
    """A range of decimal numbers (click's ``FloatRange``: ``min_open`` for more
    than ``min``); ``nan`` and the infinities are refused.

    >>> NumberRange(0, min_open=True).allowed()
    'more than 0'
    >>> NumberRange(0, 600).allowed()
    '0 to 600'

    Raises (from :meth:`convert`): ``click.BadParameter`` "'x' is not a number:
    expected ALLOWED" or "0 is out of range: expected ALLOWED".
    """

    def allowed(self) -> str:
        """The range in words: ``"0 to 600"``, ``"more than 0"``, ``"more than 0, at most 300"``."""

        def show(x: float) -> str:
            return f"{x:g}"

        low = None if self.min is None else \
            (f"more than {show(self.min)}" if self.min_open else show(self.min))
        high = None if self.max is None else \
            (f"less than {show(self.max)}" if self.max_open else show(self.max))
        if low is not None and high is not None:
            if not self.min_open and not self.max_open:
                return f"{low} to {high}"
            return f"{low}, {'at most ' + high if not self.max_open else high}"
        if low is not None:
            return low if self.min_open else f"{low} or more"
        if high is not None:
            return high if self.max_open else f"at most {high}"
        return "any number"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            text = str(value).strip()
            try:
                number = float(text)
            except ValueError:
                number = math.nan
            if not math.isfinite(number) or "_" in text:
                self.fail(f"{text!r} is not a number: expected {self.allowed()}", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number: expected {self.allowed()}", param, ctx)
        low = self.min is not None and (number <= self.min if self.min_open
                                        else number < self.min)
        high = self.max is not None and (number >= self.max if self.max_open
                                         else number > self.max)
        if low or high:
            self.fail(f"{number:g} is out of range: expected {self.allowed()}", param, ctx)
        return number


class OneOf(click.Choice):  # type: ignore[type-arg]
    """One of a list of words (click's ``Choice``; its help shows ``[a|b]``).

    Raises (from :meth:`convert`): ``click.BadParameter`` "'xx' is not a choice:
    expected phh or rollem".
    """

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        return f"{str(value)!r} is not a choice: expected {or_list(list(map(str, self.choices)))}"


_KINDS = ("toml", "phhs", "phh")
"""The files a folder given for a file is searched for (histories, game files, PHH)."""


def _in_folder(folder: str, writes: bool, many: bool) -> str:
    """What to give instead of ``folder`` where a file is expected, as shell
    words: for files read (``many``: several taken), the files of the
    commonest kind in it, " (to give the 12 .toml files in it: DIR/*.toml)";
    for one file read, one of them, a session's ``.phhs`` first, " (give a
    file in it, such as DIR/session.phhs)"; " (give a file in it)" where it
    holds none of those kinds; for a file written, " (give a file name in
    it: DIR/NAME)"."""
    import os
    import shlex

    base = folder.rstrip("/\\") or folder
    if writes:
        return f" (give a file name in it: {shlex.quote(os.path.join(base, 'NAME'))})"
    try:
        names = sorted(e.name for e in os.scandir(folder) if e.is_file())
    except OSError:
        names = []
    counts = {k: sum(n.lower().endswith("." + k) for n in names) for k in _KINDS}
    kind = max(_KINDS, key=lambda k: counts[k])
    if not counts[kind]:
        return " (give a file in it)"
    if many:
        files = f"the {counts[kind]} .{kind} file{'s' if counts[kind] != 1 else ''}"
        return f" (to give {files} in it: {shlex.quote(base)}{os.sep}*.{kind})"
    kind = "phhs" if counts["phhs"] else kind
    one = next(n for n in names if n.lower().endswith("." + kind))
    return f" (give a file in it, such as {shlex.quote(os.path.join(base, one))})"


class PathOf(click.Path):
    """A path (click's ``Path``), refused in words: "'/tmp' is a folder:
    expected a file (to give the 3 .toml files in it: /tmp/*.toml)" (one
    file: "(give a file in it, such as /tmp/session.phhs)", else "(give a
    file in it)"; a file to write: "(give a file name in it: /tmp/NAME)"),
    "'/etc/passwd' is a file: expected a folder"; with
    ``exists=True``, "'x' does not exist: expected an existing file".
    """

    def __init__(self, *args: Any, writes: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.writes = writes
        """A file written (``-o FILE``): a folder given is told to name a file in it."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        import os

        text = os.fsdecode(value) if isinstance(value, (str, bytes, os.PathLike)) else str(value)
        want = "a file" if not self.dir_okay else ("a folder" if not self.file_okay
                                                   else "a file or folder")
        many = param is not None and param.nargs == -1
        if text and text != "-":
            if not self.dir_okay and os.path.isdir(text):
                hint = _in_folder(text, self.writes, many)
                self.fail(f"{text!r} is a folder: expected {want}{hint}", param, ctx)
            if not self.file_okay and os.path.exists(text) and not os.path.isdir(text):
                self.fail(f"{text!r} is a file: expected {want}", param, ctx)
            if self.exists and not os.path.exists(text):
                self.fail(f"{text!r} does not exist: expected an existing {want[2:]}",
                          param, ctx)
        return super().convert(value, param, ctx)
