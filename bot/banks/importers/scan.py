"""Hand-written scanners for what the importers recognise in a line or a file: each one reads
its input once, left to right, so its cost grows linearly with the input whatever it holds.

They replace regular expressions whose backtracking was quadratic on hostile input (issue 23):
``\\{[^}]*[=~]`` over ``x`` and 100,000 ``{``, a MULTILINE ``^\\s*ANSWER`` over a run of blank
lines, Aiken's ``\\s+(.*\\S)\\s*$`` over ``A.`` and a million spaces, a CSV header's
``\\s*\\(`` over a cell of spaces.
"""

from __future__ import annotations

_TRUE_FALSE = ("t", "f", "true", "false")


def gift_braces(text: str) -> bool:
    """Whether ``text`` holds a GIFT answer block: a ``{`` followed by ``=`` or ``~`` before any
    ``}``, or ``{T}``/``{FALSE#...`` (what ``\\{[^}]*[=~]|\\{\\s*(T|F|TRUE|FALSE)\\s*[#}]``
    found)."""
    opened = False
    for i, ch in enumerate(text):
        if ch == "{":
            opened = True
            if _true_false_after(text, i + 1):
                return True
        elif ch == "}":
            opened = False
        elif opened and ch in "=~":
            return True
    return False


def _true_false_after(text: str, start: int) -> bool:
    """``\\s*(T|F|TRUE|FALSE)\\s*[#}]`` at ``start``, looking at most 40 characters ahead (the
    spaces a real ``{ T }`` holds): a bounded look per brace, linear in all."""
    window = text[start : start + 40]
    stripped = window.lstrip()
    word = stripped[:5]
    for candidate in ("false", "true", "f", "t"):
        if word[: len(candidate)].casefold() == candidate:
            rest = stripped[len(candidate) :].lstrip()
            if rest[:1] in ("#", "}"):
                return True
    return False


def answer_value(line: str) -> str | None:
    """What follows ``ANSWER:`` on an Aiken answer line (any case, spaces around), stripped;
    None if the line is not one."""
    stripped = line.lstrip()
    if stripped[:6].casefold() != "answer":
        return None
    rest = stripped[6:].lstrip()
    if not rest.startswith(":"):
        return None
    return rest[1:].strip()


def aiken_option(line: str) -> tuple[str, str] | None:
    """(letter, text) of an Aiken option line ``A. text`` or ``B) text`` (a capital letter,
    ``.`` or ``)``, at least one space, some text); None if the line is not one."""
    stripped = line.lstrip()
    letter = stripped[:1]
    if not ("A" <= letter <= "Z"):
        return None
    rest = stripped[1:].lstrip()
    if rest[:1] not in (".", ")") or not rest[1:2].isspace():
        return None
    text = rest[1:].strip()
    return (letter, text) if text else None


def text_format(sample: str) -> str | None:
    """The format of a text file with no telling extension, from its first characters."""
    start = sample.lstrip()
    if start.startswith(("::", "$CATEGORY", "//")) or gift_braces(sample):
        return "gift"
    if any(value for value in map(_upper_answer, sample.split("\n"))):
        return "aiken"
    if start.startswith(("title:", "language:", "questions:")):
        return "yaml"
    first = sample.split("\n", 1)[0]
    if first.count(",") >= 2 or first.count(";") >= 2 or first.count("\t") >= 2:
        return "csv"
    return None


def _upper_answer(line: str) -> str | None:
    """``ANSWER: x`` written in capitals, as Aiken files are recognised by."""
    return answer_value(line) if line.lstrip().startswith("ANSWER") else None


def header_key(cell: str) -> str:
    """A CSV header cell cut before its first `` -``/`` –``/`` —``/``(`` tail (what
    ``re.split(r"\\s[-–—(]|\\s*\\(", cell, maxsplit=1)[0]`` kept)."""
    cut = cell.find("(")
    end = len(cell) if cut < 0 else cut
    for i in range(end - 1):
        if cell[i].isspace() and cell[i + 1] in "-–—":
            end = i
            break
    return cell[:end]


def small_number(text: str, digits: int = 6) -> int | None:
    """A whole number written with at most ``digits`` decimal digits (any script's, as
    ``int()`` reads them), else None: ``²`` or a 5,000-digit number never reach ``int()``."""
    if not text.isdecimal() or len(text) > digits:
        return None
    return int(text)
