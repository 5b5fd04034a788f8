"""A tiny, safe Markdown-to-HTML renderer for the packaged rules texts.

Handles what those texts use: ``#`` headings, paragraphs, ``-``/``*`` and
numbered lists (with indented continuation lines), ``**bold**``, ``*italic*``
and ```code```.  Everything else is text: all input is HTML-escaped first, so
the output never carries markup that was not produced here.
"""

from __future__ import annotations

import html
import re

__all__ = ["render_markdown"]

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_CODE = re.compile(r"`([^`]+)`")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_ITEM = re.compile(r"^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$")


def _inline(text: str) -> str:
    out = html.escape(text, quote=True)
    out = _CODE.sub(r"<code>\1</code>", out)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    return _ITALIC.sub(r"<em>\1</em>", out)


def render_markdown(text: str, heading_offset: int = 0) -> str:
    """``text`` (Markdown) as HTML; headings shifted down by ``heading_offset`` levels."""
    out: list[str] = []
    para: list[str] = []
    items: list[list[str]] = []
    list_tag = ""

    def flush_para() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()

    def flush_list() -> None:
        nonlocal list_tag
        if items:
            body = "".join(f"<li>{_inline(' '.join(i))}</li>" for i in items)
            out.append(f"<{list_tag}>{body}</{list_tag}>")
            items.clear()
        list_tag = ""

    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            flush_para()
            continue
        heading = _HEADING.match(line)
        item = _ITEM.match(line)
        if heading:
            flush_para()
            flush_list()
            level = min(6, len(heading.group(1)) + heading_offset)
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif item:
            flush_para()
            tag = "ul" if item.group(1) else "ol"
            if tag != list_tag:
                flush_list()
                list_tag = tag
            items.append([item.group(3)])
        elif items and raw[:1].isspace():
            items[-1].append(line.strip())  # continuation of the last list item
        else:
            flush_list()
            para.append(line.strip())
    flush_para()
    flush_list()
    return "\n".join(out)
