"""The buttons of group quizzes and practice: answers, start buttons, "which quiz?" lists."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

from bot.tg.callbackdata import MAX_ID, Belongs, CallbackData

SUBMIT = -1  # the ``shown`` of a Submit button (several right answers)
QUIZ_ID = r"(?:[a-z0-9][a-z0-9_-]{0,31}|u\.[1-9][0-9]{0,15})"  # a folder bank's or ``u.N``
_LONGEST_BANK_ID = "q" * 32


def shown_text(shown: int) -> str:
    """An option's place on the wire: its digit, or ``s`` for Submit."""
    return "s" if shown == SUBMIT else str(shown)


def shown_value(text: str) -> int:
    """The place ``shown_text`` wrote."""
    return SUBMIT if text == "s" else int(text)


@dataclass(frozen=True)
class OptionData(CallbackData, shared=True):
    """``RUN:Q:OPT`` after its prefix: an option tapped in a run, question Q, the option shown
    at OPT (on a several-answers question: tick or untick it); ``RUN:Q:s`` submits the ticks."""

    pattern: ClassVar[re.Pattern[str]] = re.compile(
        r"([1-9][0-9]{0,15}):(0|[1-9][0-9]{0,2}):([0-9s])"
    )
    run_id: int
    q_index: int
    shown: int

    def body(self) -> str:
        return f"{self.run_id}:{self.q_index}:{shown_text(self.shown)}"

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        run_id = int(match[1])
        return cls(run_id, int(match[2]), shown_value(match[3])) if run_id < MAX_ID else None

    @classmethod
    def largest(cls) -> Self:
        return cls(MAX_ID - 1, 999, SUBMIT)


@dataclass(frozen=True)
class AnswerData(OptionData):
    """``a:RUN:Q:OPT``: an answer in a group run or in practice."""

    prefix: ClassVar[str] = "a"
    belongs_to: ClassVar[Belongs] = "run"


@dataclass(frozen=True)
class StartData(CallbackData):
    """``s:QUIZ``: start (group) or practise (private) a quiz of the ``/quiz`` list;
    ``s:QUIZ:TOKEN``: practise again a stored quiz shared by link, with the link's token (the
    quiz's number alone grants nothing)."""

    prefix: ClassVar[str] = "s"
    pattern: ClassVar[re.Pattern[str]] = re.compile(f"({QUIZ_ID})(?::([A-Za-z0-9_-]{{16}}))?")
    quiz_id: str
    token: str = ""

    def body(self) -> str:
        return f"{self.quiz_id}:{self.token}" if self.token else self.quiz_id

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        return cls(match[1], match[2] or "")

    @classmethod
    def largest(cls) -> Self:
        return cls(_LONGEST_BANK_ID, "T" * 16)


@dataclass(frozen=True)
class PickData(CallbackData):
    """``k:COMMAND:QUIZ``: a quiz picked from a "which quiz?" list: run ``/COMMAND QUIZ``."""

    prefix: ClassVar[str] = "k"
    pattern: ClassVar[re.Pattern[str]] = re.compile(f"([a-z]{{1,16}}):({QUIZ_ID})")
    command: str
    quiz_id: str

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        return cls(match[1], match[2])

    @classmethod
    def largest(cls) -> Self:
        return cls("c" * 16, _LONGEST_BANK_ID)
