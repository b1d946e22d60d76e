"""The documentation as the tests read it: README.md and the pages of docs/, their sections,
their links and the anchors their headings make (as GitHub makes them)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: the pages every reader starts from: the front page and one page per audience
PAGES = ("README.md", "docs/students.md", "docs/teachers.md", "docs/operators.md")

_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
_HEADING = re.compile(r"^(#{1,6}) (.+?)\s*$", re.MULTILINE)
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def read(path: str) -> str:
    """The text of a page, by its path from the repository's root."""
    return (ROOT / path).read_text(encoding="utf-8")


def prose(text: str) -> str:
    """``text`` without its fenced code blocks (a ``#`` there is no heading, a ``](`` no link)."""
    return _FENCE.sub("", text)


def section(text: str, title: str) -> str:
    """The section of ``text`` under the heading ``title`` (any level), down to the next heading
    of the same or a higher level; empty if there is no such heading."""
    body = prose(text)
    for head in _HEADING.finditer(body):
        if head[2] != title:
            continue
        level = len(head[1])
        for later in _HEADING.finditer(body, head.end()):
            if len(later[1]) <= level:
                return body[head.start() : later.start()]
        return body[head.start() :]
    return ""


def slug(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped (letters, marks such
    as Bengali vowel signs, digits, ``-`` and ``_`` kept), each space a ``-``."""
    kept = "".join(
        c for c in title.strip().lower() if c in " -_" or unicodedata.category(c)[0] in "LMN"
    )
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor the headings of ``text`` make (a repeated one gets ``-1``, ``-2``...)."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    for head in _HEADING.finditer(prose(text)):
        base = slug(re.sub(r"[`*]", "", head[2]))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(text: str) -> list[str]:
    """Every link target of ``text``'s prose, as written."""
    return _LINK.findall(prose(text))
