"""The buttons of homework: answers in an attempt, ``/homework stop``, a link's duration."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

from bot.render.buttondata.quiz import OptionData
from bot.tg.callbackdata import MAX_ID, Belongs, CallbackData

#: a homework set from a saved quiz's link runs for one of these (seconds): 1 h, 1, 3, 7 days
HOMEWORK_DURATIONS = (3600, 86_400, 3 * 86_400, 7 * 86_400)


@dataclass(frozen=True)
class HomeworkAnswerData(OptionData):
    """``h:RUN:Q:OPT``: an answer to a homework question in a private chat (as ``a:``)."""

    prefix: ClassVar[str] = "h"
    belongs_to: ClassVar[Belongs] = "attempt"


@dataclass(frozen=True)
class HomeworkStopData(CallbackData):
    """``hs:HOMEWORK``: which homework ``/homework stop`` ends, when several are open."""

    prefix: ClassVar[str] = "hs"
    pattern: ClassVar[re.Pattern[str]] = re.compile(r"([1-9][0-9]{0,15})")
    homework_id: int

    def body(self) -> str:
        return str(self.homework_id)

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        return cls(int(match[1])) if int(match[1]) < MAX_ID else None

    @classmethod
    def largest(cls) -> Self:
        return cls(MAX_ID - 1)


@dataclass(frozen=True)
class HomeworkDurationData(CallbackData):
    """``hd:QUIZ:D:USER``: how long the homework set from a saved quiz's link (``/start qh-N``
    in a group) runs, ``HOMEWORK_DURATIONS[D]``; only USER, the moderator who followed the
    link, may pick."""

    prefix: ClassVar[str] = "hd"
    belongs_to: ClassVar[Belongs] = "link"
    pattern: ClassVar[re.Pattern[str]] = re.compile(
        r"(u\.[1-9][0-9]{0,15}):([0-9]):([1-9][0-9]{0,15})"
    )
    quiz_id: str
    index: int
    user_id: int

    def body(self) -> str:
        return f"{self.quiz_id}:{self.index}:{self.user_id}"

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        index, user_id = int(match[2]), int(match[3])
        if index >= len(HOMEWORK_DURATIONS) or user_id >= MAX_ID:
            return None
        return cls(match[1], index, user_id)

    @classmethod
    def largest(cls) -> Self:
        return cls(f"u.{10**16 - 1}", len(HOMEWORK_DURATIONS) - 1, MAX_ID - 1)
