"""The buttons of writing and keeping quizzes: undo, delete, a saved quiz's card, editing."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

from bot.render.buttondata.quiz import QUIZ_ID
from bot.tg.callbackdata import MAX_ID, Belongs, CallbackData


@dataclass(frozen=True)
class UndoData(CallbackData):
    """``nu:N:STAMP``: undo question N of one's own ``/newquiz`` draft, only while it is the
    last and still the question the button was made for (STAMP: a checksum of its text)."""

    prefix: ClassVar[str] = "nu"
    pattern: ClassVar[re.Pattern[str]] = re.compile(r"([1-9][0-9]{0,2}):(0|[1-9][0-9]{0,9})")
    number: int
    stamp: int  # zlib.crc32 of the question's text

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        return cls(int(match[1]), int(match[2]))

    @classmethod
    def largest(cls) -> Self:
        return cls(999, 2**32 - 1)


@dataclass(frozen=True)
class StoredQuizData(CallbackData, shared=True):
    """A button of stored quiz ``quiz_no`` (its first field), which only its author may tap."""

    belongs_to: ClassVar[Belongs] = "quiz"
    quiz_no: int

    @property
    def quiz_id(self) -> str:
        """The stored quiz's id, for the author's rule."""
        return f"u.{self.quiz_no}"


@dataclass(frozen=True)
class DeleteData(StoredQuizData):
    """``dq:NUMBER:y`` / ``dq:NUMBER:n``: confirm or keep: ``/deletequiz`` of stored quiz
    NUMBER."""

    prefix: ClassVar[str] = "dq"
    pattern: ClassVar[re.Pattern[str]] = re.compile(r"([1-9][0-9]{0,15}):([yn])")
    confirm: bool

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        quiz_no = int(match[1])
        return cls(quiz_no, match[2] == "y") if quiz_no < MAX_ID else None

    @classmethod
    def largest(cls) -> Self:
        return cls(MAX_ID - 1, True)


@dataclass(frozen=True)
class QuizCardData(CallbackData):
    """``g:QUIZ:ACTION``: a button of a saved quiz's card (after ``/done`` and uploads): ``s``
    its share link, ``h`` how to set it as homework."""

    prefix: ClassVar[str] = "g"
    belongs_to: ClassVar[Belongs] = "quiz"
    pattern: ClassVar[re.Pattern[str]] = re.compile(f"({QUIZ_ID}):([sh])")
    quiz_id: str
    action: str

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        return cls(match[1], match[2])

    @classmethod
    def largest(cls) -> Self:
        return cls("q" * 32, "s")


@dataclass(frozen=True)
class QuizEditData(StoredQuizData):
    """``qe:NUMBER:N:FIELD``: a step of editing stored quiz NUMBER (its author's, privately):
    FIELD of question N (0: of the quiz). ``m`` the menu, ``q`` a question's menu, ``t`` the
    title, ``s`` the time per question, ``w`` a question's text, ``o`` its options, ``k`` its
    key, ``f`` its options' feedback, ``e`` its explanation, ``c`` cancel; after a file of the
    same title: ``r`` replace the quiz with it, ``n`` keep both."""

    prefix: ClassVar[str] = "qe"
    pattern: ClassVar[re.Pattern[str]] = re.compile(
        r"([1-9][0-9]{0,15}):(0|[1-9][0-9]{0,2}):([mqtswokfecrn])"
    )
    number: int
    field: str

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        quiz_no = int(match[1])
        return cls(quiz_no, int(match[2]), match[3]) if quiz_no < MAX_ID else None

    @classmethod
    def largest(cls) -> Self:
        return cls(MAX_ID - 1, 999, "n")
