"""What every importer produces: draft questions in plain text, and located problems."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.core.bank import Kind
from bot.core.problems import Location, Place
from bot.core.problems import Problem as BankProblem
from bot.i18n import MESSAGES, t_plain
from bot.i18n.lang import Lang, language_name

__all__ = [
    "FALSE",
    "TRUE",
    "Answer",
    "Draft",
    "LanguageName",
    "Location",
    "Parsed",
    "Place",
    "Problem",
    "clean",
]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing that could not be imported, located in the source file.

    ``where`` names the place ("quiz.gift:12", "quiz.csv row 5", "moodle.xml question #3");
    ``key`` is an i18n key (the catalogs' ``import`` context) and ``values`` fill its
    placeholders (a value that is the bank validator's own problem is worded in the same language).
    """

    where: Location
    key: str
    values: Mapping[str, object] = field(default_factory=dict)

    def text(self, lang: Lang) -> str:
        """The localized one-line message, ``where`` included. Plain text (``t()`` escapes it
        as a value of an HTML message)."""
        values = {
            name: value.detail(lang) if isinstance(value, BankProblem | LanguageName) else value
            for name, value in self.values.items()
        }
        kind = f"kind_{values.get('kind')}"
        if kind in MESSAGES:  # a question kind the importers name: in the reader's language
            values["kind"] = t_plain(lang, kind)
        where = self.where if isinstance(self.where, str) else self.where.text(lang)
        return t_plain(lang, self.key, where=where, **values)


@dataclass(frozen=True, slots=True)
class LanguageName:
    """A language named in a problem: worded in the reader's language ("French", "ফরাসি")."""

    code: str

    def detail(self, lang: Lang) -> str:
        """The language's name in ``lang``."""
        return language_name(self.code, lang)


TRUE, FALSE = "true", "false"  # true/false options as read (a truefalse question when built)


@dataclass(frozen=True, slots=True)
class Answer:
    """One accepted typed answer as read: a short answer's text, or a number's value and
    tolerance; its credit (1: full marks) and its own feedback."""

    text: str = ""
    value: float = 0.0
    tolerance: float = 0.0
    fraction: float = 1.0
    feedback: str | None = None


@dataclass(frozen=True, slots=True)
class Draft:
    """A question read from a source file, not yet checked against the bank's limits: options
    tapped (``single``, ``multiple``, ``truefalse``) or an answer typed (``numeric``,
    ``short``: no options, its ``answers``)."""

    where: Location
    text: str
    options: tuple[str, ...]
    correct: int  # 0-based
    explanation: str | None = None
    note: str | None = None
    tag: str | None = None
    seconds: int | None = None
    true_false: bool = False  # options are (TRUE, FALSE) in some order: a truefalse question
    image: str | None = None  # the picture the question names (a file beside it, or embedded)
    feedback: tuple[str | None, ...] = ()  # each option's own feedback, by index (or none)
    kind: Kind = "single"  # "truefalse" is said by ``true_false``
    rights: tuple[int, ...] = ()  # ``multiple``: every right option (``correct`` first)
    fractions: tuple[float, ...] = ()  # per option, its credit (-1..1); empty: the default
    answers: tuple[Answer, ...] = ()  # ``numeric``/``short``
    units: tuple[str, ...] = ()  # ``numeric``
    case_sensitive: bool = False  # ``short``
    wrong_feedback: str | None = None  # what a wrong answer is told


@dataclass(slots=True)
class Parsed:
    """A whole source file read by one importer."""

    drafts: list[Draft] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)  # imported, but not quite as written
    title: str | None = None
    fatal: Problem | None = None
    files: dict[str, bytes] = field(default_factory=dict)  # pictures embedded in the source
    embedded: int = 0  # ``data:`` URIs met so far (each named ``embedded-N``)

    def skip(self, where: Location, key: str, **values: object) -> None:
        self.problems.append(Problem(where, key, values))


def from_markdown(text: str) -> str:
    """A Markdown text (Moodle's ``[markdown]`` format) as plain text: ``**yes**`` -> yes."""
    return clean(re.sub(r"(\*\*|__|\*|`)", "", text))


def wildcard(answer: str) -> str:
    """How Moodle reads a short answer's ``*`` (qtype_shortanswer): "any" for ``*`` alone
    (any other answer), "pattern" for a wildcard among other text (``colo*r``), else "plain"
    (``\\*`` is a literal star)."""
    answer = answer.strip()
    if answer and set(answer) == {"*"}:
        return "any"
    if any(ch == "*" and (i == 0 or answer[i - 1] != "\\") for i, ch in enumerate(answer)):
        return "pattern"
    return "plain"


def literal(answer: str) -> str:
    """A short answer's text as typed: Moodle's ``\\*`` is a star."""
    return answer.replace("\\*", "*")


def percent_text(percent: float) -> str:
    """A percentage as the teacher wrote it (50, 33.33333), without float noise."""
    rounded = round(percent, 7)
    return str(int(rounded)) if rounded.is_integer() else repr(rounded)


def clean(text: str) -> str:
    """Trimmed lines, at most one empty line in a row, no trailing spaces."""
    lines = [" ".join(line.split()) for line in text.replace("\r\n", "\n").split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


@dataclass(frozen=True, slots=True)
class Weighed:
    """Options' credit as a question's key: its kind, the first right option, every right
    one (``multiple``; a ``single`` one's when several are worth full marks) and the
    fractions (empty: the kind's default gives the same credit)."""

    kind: Kind
    correct: int
    rights: tuple[int, ...]
    fractions: tuple[float, ...]


def fraction_of(percent: float) -> float:
    """A Moodle percentage as a fraction, without float noise: 33.33333 -> 0.3333333."""
    return round(percent / 100, 9) + 0.0


def weigh(percents: list[float], *, several: bool) -> Weighed | None:
    """The key of options worth ``percents`` (Moodle's percentages, -100..100) each, as Moodle
    grades them: a one-answer question (``several`` False: GIFT with any ``=``, Moodle XML's
    ``<single>true</single>``) gives the chosen option's credit, so every option worth full
    marks is right; a several-answers one gives the sum of the ticked options' credit, capped
    at full marks, each fraction as written (100/0/100/0: the wrong ones cost nothing). None
    when no option is worth anything."""
    fractions = tuple(fraction_of(p) for p in percents)
    positive = [i for i, f in enumerate(fractions) if f > 0]
    if not positive:
        return None
    plain = all(f in (0, 1) for f in fractions)
    if not several:
        best = max(fractions)
        correct = fractions.index(best)
        full = tuple(i for i, f in enumerate(fractions) if f == best)
        return Weighed("single", correct, full if len(full) > 1 else (), () if plain else fractions)
    share = 1 / len(positive)  # the default: a right option 1/R, a wrong one -1/R
    if all(abs(abs(f) - share) < 1e-9 and f != 0 for f in fractions):
        fractions = ()
    return Weighed("multiple", positive[0], tuple(positive), fractions)
