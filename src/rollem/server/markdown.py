"""The packaged rules texts as safe HTML, rendered by markdown-it-py (CommonMark).

markdown-it-py comes with Rich (pinned in ``pyproject.toml``).  Raw HTML in
the input is never passed through (``html`` is off: ``<b>`` becomes
``&lt;b&gt;``), links are limited to markdown-it-py's safe schemes, images are not
rendered (a game file's rules text must not make browsers fetch anything), and the
output is cached: the rules texts are packaged and never change while the
server runs.
"""

from __future__ import annotations

import re
from functools import lru_cache

from markdown_it import MarkdownIt

__all__ = ["render_markdown"]

# No images: a host's game file carries its own rules text, and an image would make
# every player's browser fetch an address the host chose.
_MD = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}
                 ).disable("image")
_HEADING = re.compile(r"<(/?)h([1-6])>")


@lru_cache(maxsize=128)
def render_markdown(text: str, heading_offset: int = 0) -> str:
    """``text`` (Markdown) as HTML, headings shifted down ``heading_offset`` levels (at
    most ``h6``); nested lists stay nested.  Raw HTML in ``text`` is escaped, never
    kept.  Cached per ``(text, heading_offset)``."""
    out: str = _MD.render(text)
    if heading_offset:
        out = _HEADING.sub(
            lambda m: f"<{m.group(1)}h{min(6, int(m.group(2)) + heading_offset)}>", out
        )
    return out.strip()
