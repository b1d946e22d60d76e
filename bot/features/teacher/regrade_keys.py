"""A new key as ``/regrade`` reads it, shows it and carries it on its Apply button, for every
kind of question: option letters (``B``; ``A,C`` for several right answers; ``ক``–``ঞ`` too, in
the bank's order), a number (``3.14``, ``3.14:0.01``, ``1..5``, as the bank and GIFT write it) or
one more short answer (``+answer``)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from bot.banks.importers.scan import letter_index
from bot.core.bank import Question, Quiz
from bot.core.regrade import NewKey, NumberKey, OptionsKey, TextKey, key_fits, rekey
from bot.core.scoring import grade_typed, normalise, read_number, read_spec
from bot.i18n import ascii_digits, t
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, html, join
from bot.render import fit, label
from bot.render.quiz import typed_answers

_SEPARATORS = frozenset(", ،")
DIGEST_HEX = 10


def split_args(args: Sequence[str]) -> tuple[list[str], str, str] | None:
    """``QUIZ N KEY`` as (quiz words, N, KEY); None when no key follows the quiz. A ``+answer``
    may hold spaces: it runs to the end (its words joined by one space); so may letters after a
    comma (``A, C``)."""
    for i in range(2, len(args)):
        if args[i].startswith("+") and ascii_digits(args[i - 1]).isdecimal():
            return list(args[: i - 1]), args[i - 1], " ".join(args[i:])
    rest = list(args)
    while len(rest) >= 2 and rest[-2][-1:] in _SEPARATORS - {" "}:  # "A, C" is "A,C"
        rest[-2:] = [rest[-2] + rest[-1]]
    if len(rest) >= 3 and ascii_digits(rest[-2]).isdecimal():
        return rest[:-2], rest[-2], rest[-1]
    return None


def read_key(lang: Lang, question: Question, number: int, raw: str) -> NewKey | Safe:
    """The key ``raw`` gives question ``number``, or the short reply saying why it cannot."""
    raw = raw.strip()
    if question.kind == "short":
        text = raw[1:].strip() if raw.startswith("+") else ""
        if not raw.startswith("+"):
            return t(lang, "regrade_wants_text", n=number)
        return TextKey(text) if text else t(lang, "regrade_empty_answer")
    if question.kind == "numeric":
        spec = read_spec(raw)
        if spec is None:
            return t(lang, "regrade_wants_number", n=number)
        return number_key(*spec)
    letters = ", ".join(label(i) for i in range(len(question.options)))
    found = [letter_index(c) for c in raw if c not in _SEPARATORS]
    options = tuple(sorted({i for i in found if i is not None}))
    key = OptionsKey(options)
    if not found or None in found or not all(0 <= i < len(question.options) for i in options):
        return t(lang, "regrade_bad_letter", n=number, letters=letters)
    if not key_fits(question, key):
        return t(lang, "regrade_one_letter", n=number, letters=letters)
    return key


def number_key(value: float, tolerance: float) -> NumberKey:
    """A numeric key as its button carries it (10 significant digits), so the preview and
    the re-grading applied judge with the very same numbers."""
    spec = read_spec(_spelled(value, tolerance))
    assert spec is not None
    return NumberKey(*spec)


def _spelled(value: float, tolerance: float) -> str:
    return f"{value:.10g}:{tolerance:.10g}"


def _digest(question: Question, text: str) -> str:
    normal = normalise(text, case_sensitive=question.case_sensitive)
    return hashlib.sha256(normal.encode()).hexdigest()[:DIGEST_HEX]


def accepting(question: Question, typed: str) -> NewKey | None:
    """The key that gives full marks to ``typed`` too: a short answer accepted as well, or a
    numeric question's best answer with its tolerance widened to hold the number (None if it
    is not one)."""
    if question.kind == "short":
        return TextKey(typed)
    value = read_number(typed, question.units)
    if question.kind != "numeric" or value is None or not question.accepted:
        return None
    best = max(question.accepted, key=lambda a: a.fraction)
    key = number_key(best.value, abs(value - best.value))
    return key if grade_typed(rekey(question, key), typed)[0] >= 1 else None


def key_code(question: Question, key: NewKey) -> str:
    """``key`` as the Apply button carries it (bot/render/callbacks.py, ``rg:``)."""
    if isinstance(key, OptionsKey):
        return "".join(str(i) for i in sorted(set(key.options)))
    if isinstance(key, NumberKey):
        return "#" + _spelled(key.value, key.tolerance)
    return "+" + _digest(question, key.text)


def key_of_code(question: Question, code: str, typed: Iterable[str]) -> NewKey | None:
    """The key an Apply button carries (``typed``: the answers stored for the question, among
    which a short answer's is found again); None if it does not fit the question."""
    key: NewKey | None = None
    if code.isdecimal():
        key = OptionsKey(tuple(int(c) for c in code))
    elif code.startswith("#"):
        spec = read_spec(code[1:])
        key = number_key(*spec) if spec is not None else None
    else:
        found = {
            normalise(given, case_sensitive=question.case_sensitive)
            for given in typed
            if _digest(question, given) == code[1:]
        }
        key = TextKey(found.pop()) if len(found) == 1 else None
    return key if key is not None and key_fits(question, key) else None


def option_label(lang: Lang, question: Question, option: int) -> Safe:
    """An option as the teacher reads it: the bank letter and the option's text."""
    text = question.options[option](lang)
    return html("{} (“{}”)", label(option), fit(text, 60))


def current_key_label(lang: Lang, question: Question) -> Safe:
    """A question's key now as the teacher reads it: its right options by letter and text, or
    the typed answers worth full marks."""
    if question.typed:
        return html("{}", typed_answers(question, lang))
    return join(", ", [option_label(lang, question, o) for o in question.right_options])


def report_how(lang: Lang, question: Question, quiz: str, number: int, accept: bool) -> Safe:
    """Under a student's report: how the teacher re-grades question ``number`` of the quiz
    named ``quiz`` (the buttons below, or the ``/regrade`` to type in the group); ``accept``:
    a button accepts the short answer the student typed."""
    if question.kind == "multiple":
        letters = ",".join(label(i) for i in question.right_options)
        return t(lang, "report_how_several", quiz=quiz, n=str(number), letters=letters)
    if question.kind == "numeric":
        best = max(question.accepted, key=lambda a: a.fraction)
        example = _spelled(best.value, best.tolerance)
        typed = t(lang, "report_how_number", quiz=quiz, n=str(number), example=example)
    elif question.kind == "short":
        typed = t(lang, "report_how_short", quiz=quiz, n=str(number))
    else:
        return t(lang, "report_how_options")
    return join("\n", [typed, t(lang, "report_how_accept")]) if accept else typed


def key_label(lang: Lang, quiz: Quiz, number: int, key: NewKey) -> Safe:
    """A new key of question ``number`` as the teacher reads it: its options by letter and
    text, its number (``3.14 ± 0.01``), or the short answer accepted."""
    question = quiz.questions[number - 1]
    if isinstance(key, OptionsKey):
        return join(", ", [option_label(lang, question, o) for o in key.options])
    if isinstance(key, NumberKey):
        return html("{}", typed_answers(rekey(question, key), lang))
    return html("“{}”", fit(key.text, 60))
