"""Moodle's GIFT format: ``::title:: question {=right#feedback ~wrong ####general feedback}``.

Questions are separated by blank lines; ``//`` lines are comments; ``$CATEGORY:`` sets the tag
of the questions after it. ``<img src="pics/a.png">`` in a question's text names its picture, a
file given beside the GIFT file. Special characters are escaped with a backslash (``\\= \\~ \\#
\\{ \\} \\:`` and ``\\n`` for a line break). Multiple choice (one right answer, several ``=``
or ``~%50%`` weights: several right answers with partial and negative credit; the "missing
word" form too), true/false (``{T}``), short answers (``{=Skin =skin}``) and numbers
(``{#3.14:0.01}``, ``{#1..5}``, ``{#=%100%3.14:0.01 =%50%3:1}``) are imported; essays and
matching questions are reported.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import cast

from bot.banks.importers import pictures
from bot.banks.importers.htmltext import (
    carries_media,
    html_to_text,
    markdown_as_html,
    markdown_to_text,
)
from bot.banks.importers.model import (
    FALSE,
    TRUE,
    Answer,
    Draft,
    Parsed,
    Problem,
    clean,
    fraction_of,
    literal,
    percent_text,
    weigh,
    wildcard,
)
from bot.core.bank import MAX_ACCEPTED, MAX_OPTIONS, MIN_OPTIONS
from bot.core.scoring import read_spec

_SPECIAL = "=~#{}:\\"
_FORMAT = re.compile(r"^\s*\[(html|markdown|plain|moodle)\]", re.IGNORECASE)
_TRUE_FALSE = re.compile(r"^\s*(T|F|TRUE|FALSE)\s*$")  # as Moodle: upper case only
_WEIGHT = re.compile(r"^%(-?\d+(?:\.\d+)?)%")
_MOST = max(MAX_OPTIONS, MAX_ACCEPTED)  # answers read at most (more are refused at once)

Chars = list[tuple[str, bool]]  # each character, and whether it was escaped


class _Skip(Exception):
    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values


def parse(name: str, text: str) -> Parsed:
    """Every question of a GIFT file."""
    out = Parsed()
    category: str | None = None
    block: list[str] = []
    start = 0
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    def flush() -> None:
        if block and any(line.strip() for line in block):
            where = f"{name}:{start}"
            raw = "\n".join(block)
            opening = _opening(raw)
            question, rest = raw[:opening], raw[opening:]
            # a picture, beside the file or embedded; Moodle's export escapes its tag's ``=``
            markdown = _markdown(raw)
            image = pictures.take(out, where, _shown(unescaped(question), markdown))
            markdown = markdown or "[markdown]" in rest.casefold()  # an answer's own marker
            pictures.take(out, where, _shown(unescaped(rest), markdown), keep=False)
            try:
                notes: Notes = []
                draft = _question(where, raw, category, notes)
                out.drafts.append(replace(draft, image=image))
                out.notes += [Problem(where, key, values) for key, values in notes]
            except _Skip as skip:
                out.skip(where, skip.key, **skip.values)
        block.clear()

    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("//"):
            continue
        if stripped.startswith("$CATEGORY:"):
            flush()
            category = _category(stripped[len("$CATEGORY:") :])
            continue
        if not stripped:
            flush()
            continue
        if not block:
            start = number
        block.append(line)
    flush()
    return out


def _markdown(raw: str) -> bool:
    """Whether a question's text is ``[markdown]`` (after its ``::title::``)."""
    try:
        return _headed(_chars(raw.strip()))[0] == "markdown"
    except _Skip:
        return False


def _shown(text: str, markdown: bool) -> str:
    """A text as the HTML Moodle shows: Markdown's ``![alt](x.png)`` pictures as ``<img>``."""
    return markdown_as_html(text) if markdown else text


def _category(path: str) -> str | None:
    path = path.strip()
    path = re.sub(r"^\$(course|system|module|cat\d*)\$/?", "", path)
    path = re.sub(r"^top/?", "", path, flags=re.IGNORECASE)
    return path.strip("/ ") or None


def _chars(raw: str) -> Chars:
    """The block's characters with escapes resolved; a lone backslash at the end is refused."""
    out: Chars = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\":
            if i + 1 >= len(raw):
                raise _Skip("imp_gift_escape")
            nxt = raw[i + 1]
            if nxt in _SPECIAL:
                out.append((nxt, True))
            elif nxt == "n":
                out.append(("\n", True))
            else:  # not a GIFT escape (e.g. LaTeX \frac): kept as written, as Moodle does
                out.append(("\\", True))
                i += 1
                continue
            i += 2
            continue
        out.append((ch, False))
        i += 1
    return out


def _opening(raw: str) -> int:
    """Where the answers begin: the first ``{`` not escaped (the end when there is none)."""
    i, n = 0, len(raw)
    while i < n:
        if raw[i] == "\\":
            i += 2
            continue
        if raw[i] == "{":
            return i
        i += 1
    return n


def unescaped(raw: str) -> str:
    """``raw`` with GIFT's escapes resolved (``<img src\\="a.png">``, as Moodle's export writes
    a tag, read as ``<img src="a.png">``); one pass, a lone backslash kept."""
    out: list[str] = []
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch == "\\" and i + 1 < n and raw[i + 1] in _SPECIAL:
            out.append(raw[i + 1])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _find(chars: Chars, target: str, start: int = 0) -> int:
    for i in range(start, len(chars)):
        if chars[i] == (target, False):
            return i
    return -1


def _text(chars: Chars) -> str:
    return "".join(ch for ch, _ in chars)


def _split(chars: Chars, marks: str) -> list[tuple[str, Chars]]:
    """Split at each unescaped mark character: (mark, the characters up to the next one)."""
    parts: list[tuple[str, Chars]] = []
    mark, current = "", cast(Chars, [])
    for ch, esc in chars:
        if not esc and ch in marks:
            parts.append((mark, current))
            mark, current = ch, []
        else:
            current.append((ch, esc))
    parts.append((mark, current))
    return parts


Notes = list[tuple[str, dict[str, object]]]  # what a question was imported otherwise than written


def _headed(chars: Chars) -> tuple[str, Chars]:
    """A question's format (``[markdown]``..., else ``moodle``) and its characters after its
    ``::title::`` and that marker."""
    # ::title::
    if len(chars) >= 2 and chars[0] == (":", False) and chars[1] == (":", False):
        end = next(
            (
                i
                for i in range(2, len(chars) - 1)
                if chars[i] == (":", False) and chars[i + 1] == (":", False)
            ),
            -1,
        )
        if end < 0:
            raise _Skip("imp_gift_title")
        chars = chars[end + 2 :]
    fmt = "moodle"
    match = _FORMAT.match(_text(chars))
    if match:
        fmt = match.group(1).lower()
        chars = chars[match.end() :]
    return fmt, chars


def _question(where: str, raw: str, category: str | None, notes: Notes) -> Draft:
    fmt, chars = _headed(_chars(raw.strip()))
    opening = _find(chars, "{")
    if opening < 0:
        raise _Skip("imp_not_mcq", kind="description")
    closing = _find(chars, "}", opening + 1)
    if closing < 0 or 0 <= _find(chars, "{", opening + 1) < closing:
        if _tex_braces(chars):
            raise _tex_skip()
        raise _Skip("imp_gift_unterminated")
    if _find(chars, "{", closing + 1) >= 0:
        if _tex_braces(chars):
            raise _tex_skip()
        raise _Skip("imp_not_mcq", kind="several answer blocks")
    before, body, after = chars[:opening], chars[opening + 1 : closing], chars[closing + 1 :]
    question = _format(_text(before), fmt)
    tail = _format(_text(after), fmt)
    if tail:  # the "missing word" form: the answers fill the blank
        question = f"{question} _____ {tail}".strip()
    draft = _answers(where, body, question, fmt, notes)
    return replace(draft, tag=category)


def _tex_skip() -> _Skip:
    """TeX's braces unescaped: skipped, with how GIFT wants them written."""
    return _Skip("imp_gift_tex_braces", tex="\\frac{a}{b}", gift="\\frac\\{a\\}\\{b\\}")


def _tex_braces(chars: Chars) -> bool:
    """Whether an unescaped brace follows a TeX command (``\\frac{``) or a super- or subscript
    (``^{``, ``_{``): TeX written the usual way, whose braces GIFT reads as answer blocks."""
    letters = False  # inside a run of letters that follows a backslash
    for n, (ch, escaped) in enumerate(chars):
        if ch == "{" and not escaped and n > 0:
            prev = chars[n - 1][0]
            if letters or (prev in "^_" and not chars[n - 1][1]):
                return True
        if ch == "\\" and escaped:
            letters = True
        elif not (letters and ch.isascii() and ch.isalpha()):
            letters = False
    return False


def _piece(text: str, fmt: str) -> str:
    """An answer's or a feedback's text: its own leading format marker (``[plain]no``,
    ``#[html]<p>...``), which Moodle reads per piece, dropped and obeyed; else the
    question's format."""
    match = _FORMAT.match(text)
    if match:
        fmt, text = match.group(1).lower(), text[match.end() :]
    return _format(text, fmt)


def _format(text: str, fmt: str) -> str:
    if fmt == "html" or (fmt == "moodle" and carries_media(text)):
        return html_to_text(text)[0]
    if fmt == "markdown":
        return markdown_to_text(text)
    return clean(text)


def _answers(where: str, body: Chars, question: str, fmt: str, notes: Notes) -> Draft:
    """The answers' block read as Moodle reads it (question/format/gift/format.php): its last
    ``####`` starts the general feedback; then empty is an essay, ``#`` first a number, any
    ``~`` multiple choice (one answer when any ``=`` is there, else several may be ticked),
    ``=`` with ``->`` matching, ``T``/``TRUE``/``F``/``FALSE`` true/false, else a short answer."""
    general: str | None = None
    # #### general feedback: the last unescaped "####", as Moodle's strrpos finds it
    for i in range(len(body) - 4, -1, -1):
        if all(body[i + k] == ("#", False) for k in range(4)):
            general = _piece(_text(body[i + 4 :]), fmt) or None
            body = body[:i]
            break
    text = _text(body).strip()
    if not text:
        raise _Skip("imp_not_mcq", kind="essay")
    if text.startswith("#"):  # Moodle's rule: a numerical answer, feedback or not
        return _numeric(where, body[_find(body, "#") + 1 :], question, fmt, general, notes)
    if _find(body, "~") >= 0:
        several = _find(body, "=") < 0
        return _choices(where, body, question, fmt, general, notes, several=several)
    head = _split(body, "#")
    if _find(body, "=") >= 0 and "->" in text:
        raise _Skip("imp_not_mcq", kind="matching")
    if _TRUE_FALSE.match(_text(head[0][1])):  # {T}, {F#wrong#right}; feedback may hold =
        right = _text(head[0][1]).strip().startswith("T")
        # feedback for a wrong answer, then for a right one
        given = [_piece(_text(part), fmt) for _, part in head[1:]]
        explanation = given[1] if len(given) > 1 and given[1] else None
        wrong = given[0] if given and given[0] else None
        return Draft(
            where,
            question,
            (TRUE, FALSE),
            0 if right else 1,
            explanation,
            general,
            true_false=True,
            wrong_feedback=wrong,
        )
    return _short(where, body, question, fmt, general, notes)


def _choices(
    where: str,
    body: Chars,
    question: str,
    fmt: str,
    general: str | None,
    notes: Notes,
    *,
    several: bool,
) -> Draft:
    """Multiple choice: ``=`` full marks, ``~%n%`` a weight, ``~`` nothing; an option may hold
    ``->`` (it is no matching question once a ``~`` is there). As Moodle splits the block at
    each ``~`` (an ``=`` made ``~=``), text before the first mark is an option like one after
    ``~``, and ``=%50%x`` is worth full marks, its text ``%50%x``: both read so, and said."""
    parts = _right_marks(_split(body, "=~"))
    if len(parts) - 1 > _MOST:  # said before thousands of options are each formatted
        raise _Skip("imp_option_count", count=len(parts) - 1, low=MIN_OPTIONS, high=MAX_OPTIONS)
    options: list[str] = []
    percents: list[float] = []
    feedbacks: list[str | None] = []
    for mark, part in parts:
        if not mark:
            if not _text(part).strip():
                continue
            notes.append(("imp_gift_stray", {"text": _text(part).strip()[:40]}))
        pieces = _split(part, "#")
        written = _text(pieces[0][1]).strip()
        answer, value = (written, 100.0) if mark == "=" else _weight(written, 0.0)
        if mark == "=" and _WEIGHT.match(written):
            notes.append(("imp_gift_right_weight", {"text": written[:40]}))
        feedback = _piece(_text(pieces[1][1]), fmt) if len(pieces) > 1 else None
        percents.append(value)
        options.append(_piece(answer, fmt))
        feedbacks.append(feedback or None)
    key = weigh(percents, several=several)
    if key is None:
        raise _Skip("imp_right_count", count=0)
    return Draft(
        where,
        question,
        tuple(options),
        key.correct,
        None,
        general,
        feedback=tuple(feedbacks),
        kind=key.kind,
        rights=key.rights,
        fractions=key.fractions,
    )


def _short(
    where: str, body: Chars, question: str, fmt: str, general: str | None, notes: Notes
) -> Draft:
    """A short answer: ``=Frog#Good! =%50%Cat =%0%*#Completely wrong``; a lone ``*`` is any
    other answer, its feedback what a wrong answer is told."""
    answers: list[Answer] = []
    wrong: str | None = None
    for mark, part in _split(body, "="):
        if not mark and not _text(part).strip():
            continue
        pieces = _split(part, "#")
        answer, percent = _weight(_text(pieces[0][1]), 100.0)
        feedback = (_piece(_text(pieces[1][1]), fmt) or None) if len(pieces) > 1 else None
        match wildcard(answer):  # Moodle compares the text as written, no format applied
            case "any":
                wrong = wrong or feedback
                if percent:
                    notes.append(("imp_any_other_credit", {"percent": percent_text(percent)}))
            case "pattern":
                raise _Skip("imp_not_mcq", kind="shortanswer *")
            case _:
                answers.append(
                    Answer(
                        text=literal(_piece(answer, "plain")),
                        fraction=fraction_of(percent),
                        feedback=feedback,
                    )
                )
    if len(answers) > _MOST:
        raise _Skip("imp_option_count", count=len(answers), low=1, high=MAX_ACCEPTED)
    return Draft(
        where,
        question,
        (),
        0,
        None,
        general,
        kind="short",
        answers=tuple(answers),
        wrong_feedback=wrong,
    )


def _weight(answer: str, default: float) -> tuple[str, float]:
    """An answer's text without its ``%50%`` weight, and its weight (else ``default``)."""
    answer = answer.strip()
    weight = _WEIGHT.match(answer)
    if weight is None:
        return answer, default
    return answer[weight.end() :].strip(), float(weight.group(1))


def _numeric(
    where: str, body: Chars, question: str, fmt: str, general: str | None, notes: Notes
) -> Draft:
    """``{#3.14:0.01}``, ``{#1..5}``, ``{#=%100%3.14:0.01#feedback =%50%3:1 ~#wrong}``."""
    parts = _split(body, "=~")
    if len(parts) - 1 > _MOST:
        raise _Skip("imp_option_count", count=len(parts) - 1, low=1, high=MAX_ACCEPTED)
    answers: list[Answer] = []
    wrong: str | None = None
    for mark, part in parts:
        pieces = _split(part, "#")
        spec = _text(pieces[0][1]).strip()
        feedback = (_piece(_text(pieces[1][1]), fmt) or None) if len(pieces) > 1 else None
        if mark == "~":
            wrong = feedback
            continue
        if not mark and not spec:
            continue
        spec, percent = _weight(spec, 100.0)
        if wildcard(spec) == "any":  # "=%0%*#wrong": any other number
            wrong = wrong or feedback
            if percent:
                notes.append(("imp_any_other_credit", {"percent": percent_text(percent)}))
            continue
        value, tolerance = _number_spec(spec)
        answers.append(
            Answer(
                value=value, tolerance=tolerance, fraction=fraction_of(percent), feedback=feedback
            )
        )
    return Draft(
        where,
        question,
        (),
        0,
        None,
        general,
        kind="numeric",
        answers=tuple(answers),
        wrong_feedback=wrong,
    )


def _number_spec(spec: str) -> tuple[float, float]:
    """A GIFT number: ``3.14`` (exact), ``3.14:0.01`` (a tolerance) or ``1..5`` (an
    interval) as a value and a tolerance."""
    read = read_spec(spec)
    if read is None:
        raise _Skip("imp_bad_number", text=spec[:40])
    return read


def _right_marks(parts: list[tuple[str, Chars]]) -> list[tuple[str, Chars]]:
    """``~=answer`` (and ``~ =answer``), as real exports write a right answer, read as
    ``=answer``: Moodle turns every ``=`` into ``~=`` before it splits at ``~``, so the empty
    ``~`` before it is no option."""
    kept: list[tuple[str, Chars]] = []
    for index, (mark, part) in enumerate(parts):
        following = parts[index + 1][0] if index + 1 < len(parts) else ""
        if mark == "~" and following == "=" and not _text(part).strip():
            continue
        kept.append((mark, part))
    return kept
