"""Hand-written scanners for what the importers recognise in a line or a file: each one reads
its input once, left to right, so its cost grows linearly with the input whatever it holds.

They replace regular expressions whose backtracking was quadratic on hostile input:
``\\{[^}]*[=~]`` over ``x`` and 100,000 ``{``, a MULTILINE ``^\\s*ANSWER`` over a run of blank
lines, Aiken's ``\\s+(.*\\S)\\s*$`` over ``A.`` and a million spaces, a CSV header's
``\\s*\\(`` over a cell of spaces.
"""

from __future__ import annotations

_TRUE_FALSE = ("t", "f", "true", "false")
_BENGALI_ANSWER = "উত্তর"


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
    """What follows ``ANSWER:`` (or Bengali ``উত্তর:``) on an Aiken answer line (any case,
    spaces around), stripped;
    None if the line is not one."""
    stripped = line.lstrip()
    if stripped[:6].casefold() == "answer":
        rest = stripped[6:].lstrip()
    elif stripped.startswith(_BENGALI_ANSWER):
        rest = stripped[len(_BENGALI_ANSWER) :].lstrip()
    else:
        return None
    if not rest.startswith(":"):
        return None
    return rest[1:].strip()


#: option letters: Latin capitals, and the Bengali consonants Bengali teachers letter options
#: with (ক খ গ ঘ ...), in their order
LATIN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BENGALI_LETTERS = "কখগঘঙচছজঝঞ"


def letter_index(letter: str) -> int | None:
    """0 for ``A``/``a``/``ক``, 1 for ``B``/``খ``...; None for anything else (one character)."""
    if len(letter) != 1:
        return None
    upper = letter.upper() if len(letter.upper()) == 1 else letter
    for letters in (LATIN_LETTERS, BENGALI_LETTERS):
        if upper in letters:
            return letters.index(upper)
    return None


def letters_like(letter: str, count: int) -> str:
    """The first ``count`` option letters of ``letter``'s script (Bengali or Latin)."""
    return (BENGALI_LETTERS if letter in BENGALI_LETTERS else LATIN_LETTERS)[:count]


def aiken_option(line: str) -> tuple[str, str] | None:
    """(letter, text) of an Aiken option line ``A. text``, ``B) text`` or ``খ) text`` (a
    capital or Bengali letter, ``.`` or ``)``, some text; the space after it may be missing, as
    in Moodle's own ``A)Text``, unless the text goes on like an abbreviation: ``A.I.``);
    None if the line is not one."""
    stripped = line.lstrip()
    letter = stripped[:1]
    if not ("A" <= letter <= "Z" or letter in BENGALI_LETTERS):
        return None
    rest = stripped[1:].lstrip()
    mark = rest[:1]
    if mark not in (".", ")"):
        return None
    glued = not rest[1:2].isspace()
    if glued and mark == "." and rest[2:3] in (".", ")"):  # "A.I. is...": a sentence
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
    return answer_value(line) if line.lstrip().startswith(("ANSWER", _BENGALI_ANSWER)) else None


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


def csv_records(text: str, delimiter: str) -> tuple[list[list[str]], set[int]]:
    """The records of a CSV text, read as Excel writes them: a cell that starts with ``"``
    runs to the next lone ``"`` (``""`` is one quote; commas and line breaks inside stay), a
    record ends at a line break outside quotes (``\\r\\n``, ``\\n`` or ``\\r``). Also the
    (0-based) records holding a stray quote: one inside an unquoted cell, text after a closing
    quote, or a quote never closed; the quote is then kept as text. Once a quote runs to the
    end unclosed, every later quote is read as text, so the scan stays linear."""
    records: list[list[str]] = []
    stray: set[int] = set()
    record: list[str] = []
    cell: list[str] = []
    i, size = 0, len(text)
    quoting = True  # false after a quote ran to the end of the text unclosed
    at_start = True  # at the start of a cell

    def end_record() -> None:
        record.append("".join(cell))
        records.append(record.copy())
        record.clear()
        cell.clear()

    while i < size:
        ch = text[i]
        if at_start and ch in " \t" and ch != delimiter:  # spaces before a quoted cell
            cell.append(ch)
            i += 1
            continue
        if at_start and ch == '"' and quoting:
            cell.clear()  # only spaces so far
            close = _closing_quote(text, i + 1)
            if close < 0:  # never closed: the quote is text, and so is every later one
                quoting = False
                stray.add(len(records))
                cell.append(ch)
                i += 1
                at_start = False
                continue
            cell.append(text[i + 1 : close].replace('""', '"'))
            i = close + 1
            at_start = False
            while i < size and text[i] in " \t" and text[i] != delimiter:
                i += 1
            if i < size and text[i] not in (delimiter, "\n", "\r"):
                stray.add(len(records))  # "text"more: kept as text, as Excel shows it
            continue
        if ch == delimiter:
            record.append("".join(cell))
            cell.clear()
            at_start = True
        elif ch in "\r\n":
            end_record()
            at_start = True
            if ch == "\r" and text[i + 1 : i + 2] == "\n":
                i += 1
        else:
            if ch == '"':
                stray.add(len(records))
            cell.append(ch)
            at_start = False
        i += 1
    if cell or record:
        end_record()
    return records, stray


def _closing_quote(text: str, start: int) -> int:
    """The index of the quote closing a quoted cell whose text starts at ``start`` (``""`` is
    an escaped quote), or -1 if none."""
    i = start
    while True:
        found = text.find('"', i)
        if found < 0:
            return -1
        if text[found + 1 : found + 2] == '"':
            i = found + 2
            continue
        return found
