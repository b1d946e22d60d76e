"""An import's report as a teacher reads it: each line at most ``LINE_CHARS`` characters, never a
data URI or a run of base64, a problem repeated many times said a few times and then counted
("… and 37 more like this"), at most ``MAX_LINES`` lines per file and then a count."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Sequence

from bot.banks.importers.model import Problem
from bot.i18n import t_plain
from bot.i18n.lang import Lang

LINE_CHARS = 600  # a report line at most
MAX_LINES = 40  # a file's report lines at most, then one line counts the rest
SHOWN_ALIKE = 2  # how many problems of one kind are shown before the rest are counted

# a data URI, or a long run of base64 (a picture's bytes written into a text): never printed;
# one character class each, so a scan is linear
_DATA_URI = re.compile(r"data:[^\s\"'<>)]*", re.IGNORECASE)
_BASE64 = re.compile(r"[A-Za-z0-9+/=]{80,}")


def digest(problems: Sequence[Problem], lang: Lang, *, limit: int = MAX_LINES) -> list[str]:
    """``problems`` (already in the file's order) as report lines in ``lang``: the first
    ``SHOWN_ALIKE`` of each kind, then one line counting the others of that kind where the
    next would have been; at most ``limit`` lines, the last one counting what is left out."""
    kinds = Counter(_kind(p) for p in problems)
    seen: Counter[Hashable] = Counter()
    lines: list[str] = []
    for problem in problems:
        kind = _kind(problem)
        seen[kind] += 1
        if seen[kind] <= SHOWN_ALIKE:
            lines.append(readable(problem.text(lang)))
        elif seen[kind] == SHOWN_ALIKE + 1:
            more = kinds[kind] - SHOWN_ALIKE
            lines.append(t_plain(lang, "imp_more_alike", count=more))
    if len(lines) > limit:
        rest = len(lines) - (limit - 1)
        lines = [*lines[: limit - 1], t_plain(lang, "imp_more_lines", count=rest)]
    return lines


def readable(text: str) -> str:
    """One report line: data URIs and base64 left out, at most ``LINE_CHARS`` characters (cut
    at a word, ending in "…")."""
    text = _BASE64.sub("…", _DATA_URI.sub("data:…", text))
    if len(text) <= LINE_CHARS:
        return text
    cut = text[: LINE_CHARS - 1]
    space = cut.rfind(" ")
    if space > LINE_CHARS // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"


def _kind(problem: Problem) -> Hashable:
    """What makes two problems alike: their message, and the bank problem each wraps."""
    inner = tuple(
        str(getattr(value, "key", "")) for value in problem.values.values() if hasattr(value, "key")
    )
    kind = problem.values.get("kind")  # a type of question not asked: each type its own
    return (problem.key, inner, kind if isinstance(kind, str) else None)
