"""The buttons of homework: answers, which homework to stop, the link's duration and time."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

from bot.core.bank import MAX_SECONDS, MIN_SECONDS
from bot.render.buttondata.quiz import OptionData
from bot.tg.callbackdata import MAX_ID, Belongs, CallbackData, IdData

#: a homework set from a saved quiz's link runs for one of these (seconds): 1 h, 1, 3, 7 days
HOMEWORK_DURATIONS = (3600, 86_400, 3 * 86_400, 7 * 86_400)
#: then each question's time (seconds) among these and the quiz's own
HOMEWORK_SECONDS = (30, 60, 120, 300)


@dataclass(frozen=True)
class HomeworkAnswerData(OptionData):
    """``h:RUN:Q:OPT``: an answer to a homework question in a private chat (as ``a:``)."""

    prefix: ClassVar[str] = "h"
    belongs_to: ClassVar[Belongs] = "attempt"


@dataclass(frozen=True)
class HomeworkStopData(IdData):
    """``hs:HOMEWORK``: which homework ``/homework stop`` ends, when several are open."""

    prefix: ClassVar[str] = "hs"
    homework_id: int


@dataclass(frozen=True)
class HomeworkDurationData(CallbackData):
    """``hd:QUIZ:D:USER``: how long the homework set from a saved quiz's link (``/start qh-N``
    in a group) runs, ``HOMEWORK_DURATIONS[D]``; only USER, the moderator who followed the
    link, may pick. ``hd:QUIZ:D:USER:S``, the step after: S seconds for each question."""

    prefix: ClassVar[str] = "hd"
    belongs_to: ClassVar[Belongs] = "link"
    pattern: ClassVar[re.Pattern[str]] = re.compile(
        r"(u\.[1-9][0-9]{0,15}):([0-9]):([1-9][0-9]{0,15})(?::([1-9][0-9]{0,2}))?"
    )
    quiz_id: str
    index: int
    user_id: int
    seconds: int | None = None  # each question's time, picked next (None: not yet)

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        index, user_id = int(match[2]), int(match[3])
        seconds = int(match[4]) if match[4] else None
        if index >= len(HOMEWORK_DURATIONS) or user_id >= MAX_ID:
            return None
        if seconds is not None and not MIN_SECONDS <= seconds <= MAX_SECONDS:
            return None
        return cls(match[1], index, user_id, seconds)

    @classmethod
    def largest(cls) -> Self:
        return cls(f"u.{10**16 - 1}", len(HOMEWORK_DURATIONS) - 1, MAX_ID - 1, MAX_SECONDS)
