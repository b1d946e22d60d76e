"""The buttons of "report a problem" (``p:``, ``pc:``): the kernel's shared views put them
under recaps, practice, homework and ``/review`` questions; the teacher feature answers them.
Re-grading's own buttons are the teacher feature's (``bot/features/teacher/buttons.py``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

from bot.tg.callbackdata import MAX_ID, Belongs, CallbackData, IdData

REASON_CODES = {"k": "key", "u": "unclear", "t": "typo"}  # report reasons, as stored
_REASON_LETTER = {v: k for k, v in REASON_CODES.items()}


@dataclass(frozen=True)
class ReportData(CallbackData):
    """``p:RUN:Q`` / ``p:RUN:Q:R``: "report a problem" with question Q of a run, then the
    reason R: ``k`` (wrong answer key), ``u`` (unclear), ``t`` (typo)."""

    prefix: ClassVar[str] = "p"
    belongs_to: ClassVar[Belongs] = "answers"
    pattern: ClassVar[re.Pattern[str]] = re.compile(
        r"([1-9][0-9]{0,15}):(0|[1-9][0-9]{0,2})(?::([kut]))?"
    )
    run_id: int
    q_index: int
    reason: str | None = None  # None: ask for the reason; else one of REASON_CODES' values

    def body(self) -> str:
        tail = f":{_REASON_LETTER.get(self.reason, '?')}" if self.reason is not None else ""
        return f"{self.run_id}:{self.q_index}{tail}"

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        run_id = int(match[1])
        reason = REASON_CODES[match[3]] if match[3] else None
        return cls(run_id, int(match[2]), reason) if run_id < MAX_ID else None

    @classmethod
    def largest(cls) -> Self:
        return cls(MAX_ID - 1, 999, "unclear")


@dataclass(frozen=True)
class CardReportData(IdData):
    """``pc:CARD``: "report a problem" under a ``/review`` question."""

    prefix: ClassVar[str] = "pc"
    belongs_to: ClassVar[Belongs] = "card"
    card_id: int
