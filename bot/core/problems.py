"""Problems of a bank and where they are: what the readers and the validator report (pure).

A reader records where it found each part of a quiz in a ``SourceMap`` (a YAML file: the line
of every field; an imported file: each question's line, spreadsheet row or XML element); the
validator (bot/core/validator.py) names that place in each ``Problem`` it reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from bot.i18n import t_plain
from bot.i18n.lang import Lang


@dataclass(frozen=True, slots=True)
class Where:
    """The place in a bank a problem is about: a question (its number, and its id once known),
    a field named as in the YAML (``title.bn``, ``settings.seconds``, ``options[2].en``), or
    both; neither for the whole file."""

    path: str = ""
    question: int | None = None
    qid: str | None = None

    def at(self, name: str) -> Where:
        """A field of this question (``id``, ``options[2]``)."""
        return Where(name, self.question, self.qid)

    def dot(self, name: str) -> Where:
        """A part of this field (``title`` -> ``title.bn``)."""
        return Where(f"{self.path}.{name}", self.question, self.qid)

    def text(self, lang: Lang) -> str:
        """``question 3 (id q7): options[2].en`` in ``lang`` (the field as written)."""
        head = ""
        if self.question is not None and self.qid is not None:
            head = t_plain(lang, "bank_where_question_id", n=self.question, id=self.qid)
        elif self.question is not None:
            head = t_plain(lang, "bank_where_question", n=self.question)
        return ": ".join(part for part in (head, self.path) if part)

    def __str__(self) -> str:
        return self.text("en")


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


#: where an imported question was: "quiz.gift:12", a Place, or a question of a chat draft
Location = str | Where | Place


@dataclass(frozen=True, slots=True)
class Problem:
    """One validation problem, located as precisely as the reader allows: ``key`` names its
    text in the catalogs (``bank`` context), ``values`` fill it in. ``str()`` is the
    English line (logs); ``text(lang)`` the line a person reads. ``place`` is where an imported
    question was found (its source's own line, row or element), None for a bank file."""

    file: str
    line: int | None
    where: Where
    key: str
    values: Mapping[str, object] = field(default_factory=dict)
    place: Location | None = None

    def detail(self, lang: Lang) -> str:
        """The problem in ``lang`` with its place in the bank but not its file and line."""
        message = t_plain(lang, self.key, **self.values)
        where = self.where.text(lang)
        return f"{where}: {message}" if where else message

    def text(self, lang: Lang) -> str:
        """The whole line in ``lang``: ``file:line: place: problem`` (plain text)."""
        loc = f"{self.file}:{self.line}" if self.line else self.file
        return f"{loc}: {self.detail(lang)}"

    def __str__(self) -> str:
        return self.text("en")


def whole(file: str, key: str, line: int | None = None, /, **values: object) -> Problem:
    """A problem of the whole file (no place in the bank)."""
    return Problem(file, line, Where(), key, values)


class BankError(Exception):
    """A bank failed validation; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


#: a part of a quiz: (question number or None for the bank's own fields, field path as in
#: the YAML: "title", "settings.pick", "options[2].en")
Part = tuple[int | None, str]


@dataclass(frozen=True, slots=True)
class SourceMap:
    """Where a reader found the parts of the quiz it built, and which it could not read.

    ``lines``: the line of each part (a YAML file); ``places``: where each question came from
    (an imported file). ``unread``: parts the reader reported a problem for and filled with a
    stand-in; the validator does not check them again, and a question with one is not counted
    as usable. ``held``: the reader's problems with a part that is checked only when the parts
    it depends on are good (``correct``, on the options); the validator reports them there.
    """

    file: str
    lines: Mapping[Part, int] = field(default_factory=dict)
    places: Mapping[int, Location] = field(default_factory=dict)
    unread: frozenset[Part] = frozenset()
    held: Mapping[Part, tuple[Problem, ...]] = field(default_factory=dict)

    def line(self, question: int | None, path: str) -> int | None:
        """The line of ``path``, else of the nearest part holding it (``options[2].en`` ->
        ``options[2]`` -> ``options`` -> the question), else None."""
        while True:
            found = self.lines.get((question, path))
            if found is not None or not path:
                return found
            cut = max(path.rfind("."), path.rfind("["))
            path = path[:cut] if cut > 0 else ""
