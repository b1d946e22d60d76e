"""The buttons of re-grading: ``/regrade``'s preview, a re-grade under a student's report.

The "report a problem" buttons (``p:``, ``pc:``) stay in the kernel (``bot/render/buttondata/
teacher.py``): recaps, practice, homework and ``/review`` build them; this feature answers them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

from bot.render.buttondata.quiz import QUIZ_ID
from bot.tg.callbackdata import MAX_ID, Belongs, CallbackData

#: a new key on a re-grade button: bank options as digits, ``#VALUE:TOLERANCE`` or ``+DIGEST``
_NUMBER_KEY = r"#-?[0-9][0-9.e+-]{0,15}:[0-9][0-9.e+-]{0,15}|\+[0-9a-f]{10}"


_LONGEST_NUMBER_KEY = "#-1.234567891e-100:1.234567891e-100"


@dataclass(frozen=True)
class RegradeData(CallbackData):
    """``rg:QUIZ:N:KEY:y`` / ``…:n``: apply or drop the re-grading ``/regrade`` previewed:
    question N's new KEY (N = 0: every question's current key, KEY ``0``). KEY is the right
    bank options as digits in increasing order (``2``; ``02`` for several), ``#VALUE:TOLERANCE``
    a numeric question's answer, or ``+DIGEST`` one more short answer (10 hex digits of the
    SHA-256 of the answer as the judge normalises it: the answer itself is one a student typed,
    found again in the stored answers). A long number may not fit: ``pack`` refuses it and
    ``/regrade`` says so."""

    prefix: ClassVar[str] = "rg"
    pattern: ClassVar[re.Pattern[str]] = re.compile(
        f"({QUIZ_ID}):(0|[1-9][0-9]{{0,2}}):([0-9]{{1,10}}|{_NUMBER_KEY}):([yn])"
    )
    quiz_id: str
    number: int
    key: str
    confirm: bool

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        key = match[3]
        if key.isdecimal() and list(key) != sorted(set(key)):
            return None  # options: each once, in increasing order (one spelling each)
        return cls(match[1], int(match[2]), key, match[4] == "y")

    @classmethod
    def largest(cls) -> Self:
        return cls("q" * 32, 999, "0123456789", True)


@dataclass(frozen=True)
class RunRegradeData(CallbackData):
    """``rr:RUN:N:KEY:S``: under a student's report sent to the teacher privately: re-grade
    the run's group's answers, question N's key becoming bank option KEY (one digit), a numeric
    key (``#VALUE:TOLERANCE``, as ``rg:``: widened to hold the number the reporting student
    typed), or (``+DIGEST``, as ``rg:``) also accepting the short answer that student typed;
    S = ``p`` preview, ``y`` apply, ``n`` drop."""

    prefix: ClassVar[str] = "rr"
    belongs_to: ClassVar[Belongs] = "run_group"
    pattern: ClassVar[re.Pattern[str]] = re.compile(
        f"([1-9][0-9]{{0,15}}):([1-9][0-9]{{0,2}}):([0-9]|{_NUMBER_KEY}):([pyn])"
    )
    run_id: int
    number: int
    key: str
    step: str

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        run_id = int(match[1])
        return cls(run_id, int(match[2]), match[3], match[4]) if run_id < MAX_ID else None

    @classmethod
    def largest(cls) -> Self:
        return cls(MAX_ID - 1, 999, _LONGEST_NUMBER_KEY, "p")
