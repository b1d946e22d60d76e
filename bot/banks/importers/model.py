"""What every importer produces: draft questions in plain text, and located problems."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from bot.core.bank import Problem as BankProblem
from bot.core.bank import Where
from bot.i18n import MESSAGES, t_plain
from bot.i18n.lang import Lang


@dataclass(frozen=True, slots=True)
class Place:
    """A place in a source file with no line to name: a spreadsheet's row, an XML file's n-th
    question, a JSON file's n-th result; worded in the reader's language ("kahoot.csv row 5",
    "kahoot.csv, সারি ৫")."""

    file: str
    kind: Literal["row", "question", "result"]
    n: int

    def text(self, lang: Lang) -> str:
        return t_plain(lang, f"imp_place_{self.kind}", file=self.file, n=self.n)

    def __str__(self) -> str:
        return self.text("en")


#: where a problem is: "quiz.gift:12", a Place, or a question of a draft written in the chat
Location = str | Where | Place


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
            name: value.detail(lang) if isinstance(value, BankProblem) else value
            for name, value in self.values.items()
        }
        kind = f"kind_{values.get('kind')}"
        if kind in MESSAGES:  # a question kind the importers name: in the reader's language
            values["kind"] = t_plain(lang, kind)
        where = self.where if isinstance(self.where, str) else self.where.text(lang)
        return t_plain(lang, self.key, where=where, **values)


TRUE, FALSE = "true", "false"  # true/false options, worded in the bank's language when built
TRUE_FALSE: dict[Lang, tuple[str, str]] = {"en": ("True", "False"), "bn": ("সত্য", "মিথ্যা")}


@dataclass(frozen=True, slots=True)
class Draft:
    """A single-answer multiple-choice question read from a source file, not yet checked
    against the bank's limits."""

    where: Location
    text: str
    options: tuple[str, ...]
    correct: int  # 0-based
    explanation: str | None = None
    note: str | None = None
    tag: str | None = None
    seconds: int | None = None
    true_false: bool = False  # options are (TRUE, FALSE) in some order: worded when built


@dataclass(slots=True)
class Parsed:
    """A whole source file read by one importer."""

    drafts: list[Draft] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    title: str | None = None
    fatal: Problem | None = None

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
