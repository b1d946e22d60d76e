"""What every importer produces: draft questions in plain text, and located problems."""

from __future__ import annotations

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
    ``key`` is an i18n key (bot/i18n/strings_import.py) and ``values`` fill its placeholders (a
    value that is the bank validator's own problem is worded in the same language).
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


def clean(text: str) -> str:
    """Trimmed lines, at most one empty line in a row, no trailing spaces."""
    lines = [" ".join(line.split()) for line in text.replace("\r\n", "\n").split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


def literal(pattern: str) -> str | None:
    """The text a Moodle short answer matches exactly, its escaped ``\\*`` a literal ``*``;
    None when it holds Moodle's wildcard (a ``*`` not escaped)."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern.startswith("\\*", i):
            out.append("*")
            i += 2
            continue
        if pattern[i] == "*":
            return None
        out.append(pattern[i])
        i += 1
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Weighed:
    """Options' credit as a question's key: its kind, the first right option, every right
    one (``multiple``) and the fractions (empty: the kind's default)."""

    kind: Kind
    correct: int
    rights: tuple[int, ...]
    fractions: tuple[float, ...]


def weigh(percents: list[float], *, several: bool | None = None) -> Weighed | None:
    """The key of options worth ``percents`` (Moodle's percentages, -100..100) each; None when
    no option is worth anything. One option worth 100 makes a ``single`` question (others may
    give partial or negative credit), several (or only partial ones) a ``multiple`` one, unless
    ``several`` says which (Moodle's ``<single>``). The positive credit of a ``multiple``
    question that sums to more than full marks (``{=A =B ~C}``) is shared out."""
    full = [i for i, p in enumerate(percents) if p >= 100]
    positive = [i for i, p in enumerate(percents) if p > 0]
    if not positive:
        return None
    plain = all(p in (0, 100) for p in percents)
    if several is False or (several is None and len(full) == 1):
        correct = max(range(len(percents)), key=lambda i: percents[i])
        fractions = () if plain and len(full) == 1 else tuple(p / 100 for p in percents)
        return Weighed("single", correct, (), fractions)
    fractions = tuple(p / 100 for p in percents)
    total = sum(f for f in fractions if f > 0)
    if total > 1.01:
        fractions = tuple(f / total if f > 0 else f for f in fractions)
    share = 1 / len(positive)  # the default: a right option 1/R, a wrong one -1/R
    if plain or all(abs(abs(f) - share) < 1e-4 and f != 0 for f in fractions):
        fractions = ()
    return Weighed("multiple", positive[0], tuple(positive), fractions)
