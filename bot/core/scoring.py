"""How much credit an answer earns, for every kind of question (pure).

A fraction from 0 (nothing) to 1 (full marks):

- options tapped (``single``, ``truefalse``, ``multiple``): Moodle's rule, the sum of the
  chosen options' fractions, at least 0 and at most 1. Without fractions of its own, a right
  option is worth ``1/R`` and a wrong one ``-1/R`` (R right options), so ticking every box
  earns nothing; with the bank's ``all_or_nothing`` setting only exactly the right set counts;
- a typed number: the best credit among the accepted values whose tolerance holds it (units
  among the question's may follow it);
- a typed short answer: the best credit among the accepted texts it equals once both are
  normalised (spaces collapsed, Bengali digits read as Latin ones, letter case ignored unless
  the question says it matters).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable

from bot.core.bank import MAX_ANSWER_CHARS, Accepted, Question

_BENGALI_DIGITS = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")
EPSILON = 1e-9


def earned(credit: float | None, correct: bool) -> float:
    """The credit an answer earned, 0..1, from what is stored: ``credit`` None means full marks
    when ``correct``, else nothing."""
    return credit if credit is not None else float(correct)


def option_credit(question: Question) -> tuple[float, ...]:
    """Each option's credit (bank order)."""
    if question.fractions:
        return question.fractions
    rights = question.right_options
    if question.kind == "multiple":
        share = 1 / len(rights)
        return tuple(share if i in rights else -share for i in range(len(question.options)))
    return tuple(1.0 if i in rights else 0.0 for i in range(len(question.options)))


def grade_choice(question: Question, picked: Iterable[int], all_or_nothing: bool = False) -> float:
    """The credit of the options ``picked`` (bank indices)."""
    chosen = set(picked)
    if question.kind == "multiple" and all_or_nothing:
        return 1.0 if chosen == set(question.right_options) else 0.0
    credit = option_credit(question)
    total = sum(credit[i] for i in chosen if 0 <= i < len(credit))
    return clamp(total)


def stored_choice(option: int, given: str | None) -> tuple[int, ...]:
    """The options a stored answer chose (bank indices): the letters of ``given`` in the
    bank's order ("AC") when it chose several, else its one ``option``; none for a typed
    answer (``option`` -1)."""
    if option < 0:
        return ()
    if given:
        return tuple(sorted(ord(c) - ord("A") for c in given if "A" <= c <= "Z"))
    return (option,)


def clamp(value: float) -> float:
    """A credit kept within 0..1, with float noise (0.9999999) rounded away."""
    return min(max(round(value, 6), 0.0), 1.0)


def normalise(text: str, *, case_sensitive: bool = False, numerals: bool = False) -> str:
    """A typed answer as it is compared: Unicode NFKC, Bengali digits as Latin, runs of spaces
    as one, trimmed, letter case folded unless it matters; at most MAX_ANSWER_CHARS. With
    ``numerals``, numerals that are not digits (``²``, ``₃``, ``½``) are kept as written, not
    folded into digits: a number read from it never takes ``1²`` for 12."""
    head = text[: MAX_ANSWER_CHARS * 2]
    nfkc = _nfkc_keeping_numerals(head) if numerals else unicodedata.normalize("NFKC", head)
    folded = nfkc.translate(_BENGALI_DIGITS)
    joined = " ".join(folded.split())[:MAX_ANSWER_CHARS]
    return joined if case_sensitive else joined.casefold()


def _nfkc_keeping_numerals(text: str) -> str:
    """NFKC, except numerals that are not digits (superscripts, subscripts, fractions,
    circled numbers), which stay as they are."""
    out: list[str] = []
    start = 0
    for i, char in enumerate(text):
        if char.isnumeric() and not char.isdecimal():
            out += (unicodedata.normalize("NFKC", text[start:i]), char)
            start = i + 1
    out.append(unicodedata.normalize("NFKC", text[start:]))
    return "".join(out)


def read_number(text: str, units: Iterable[str] = ()) -> float | None:
    """A typed number (Bengali or Latin digits, ``.`` or a lone ``,`` as the decimal point),
    followed by one of ``units`` if the question has any; None if it is not one."""
    value = normalise(text, numerals=True)  # "1²" stays "1²": not a number (NFKC reads 12)
    written = {normalise(u, numerals=numerals) for u in units for numerals in (True, False)}
    for unit in sorted(written, key=len, reverse=True):  # "m/s²" typed as written or "m/s2"
        if unit and value.endswith(unit):
            value = value[: -len(unit)].strip()
            break
    value = value.replace(" ", "")
    if "," in value and "." not in value and value.count(",") == 1:
        value = value.replace(",", ".")
    if not value or len(value) > 40 or not all(c in "0123456789.-+e" for c in value):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def grade_typed(question: Question, text: str) -> tuple[float, int | None]:
    """The credit of a typed answer and the accepted answer it matched (its index; None if
    none did: the wrong answer's feedback applies)."""
    best: tuple[float, int | None] = (0.0, None)
    if question.kind == "numeric":
        number = read_number(text, question.units)
        if number is None:
            return best
        for index, accepted in enumerate(question.accepted):
            if _within(number, accepted) and (best[1] is None or accepted.fraction > best[0]):
                best = (accepted.fraction, index)
    else:
        given = normalise(text, case_sensitive=question.case_sensitive)
        for index, accepted in enumerate(question.accepted):
            want = normalise(accepted.text, case_sensitive=question.case_sensitive)
            if given == want and (best[1] is None or accepted.fraction > best[0]):
                best = (accepted.fraction, index)
    return clamp(best[0]), best[1]


def _within(number: float, accepted: Accepted) -> bool:
    return abs(number - accepted.value) <= abs(accepted.tolerance) + EPSILON * max(
        1.0, abs(accepted.value)
    )


def letters(options: Iterable[int]) -> str:
    """Options (bank indices) as an answer stores them, their letters in the bank's order:
    ``(0, 2)`` -> ``"AC"``."""
    return "".join(chr(ord("A") + i) for i in sorted(set(options)))


def from_letters(given: str) -> tuple[int, ...]:
    """The bank indices ``letters`` gave."""
    return tuple(sorted(ord(c) - ord("A") for c in given if "A" <= c <= "J"))


def read_spec(text: str) -> tuple[float, float] | None:
    """A numeric answer as the bank and GIFT write it: ``3.14`` (exact), ``3.14:0.01`` (a
    tolerance) or ``1..5`` (an interval), Bengali digits too, as (value, tolerance); None if
    it is not one."""
    spec = text.translate(_BENGALI_DIGITS).strip()
    try:
        if ".." in spec:
            low, _, high = spec.partition("..")
            a, b = float(low), float(high)
            value, margin = (a + b) / 2, abs(b - a) / 2
        else:
            number, _, tolerance = spec.partition(":")
            value, margin = float(number), abs(float(tolerance or 0))
    except ValueError:
        return None
    return (value, margin) if math.isfinite(value) and math.isfinite(margin) else None


def typed_readable(question: Question, text: str) -> bool:
    """Whether ``text`` can be judged as an answer to ``question``: not blank, and a number
    when the question asks for one (otherwise the student is asked again, nothing counted)."""
    if not text.strip():
        return False
    return question.kind != "numeric" or read_number(text, question.units) is not None
