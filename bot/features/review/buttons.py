"""The buttons of /review: an answer to a review card."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

from bot.core.deadlines import TZ_RANGE
from bot.render.buttondata.quiz import SUBMIT, shown_text, shown_value
from bot.tg.callbackdata import MAX_ID, Belongs, CallbackData


@dataclass(frozen=True)
class ReviewData(CallbackData):
    """``v:CARD:ORDER:OPT:STEP:RIGHT``: a ``/review`` answer: the card, the shown option order
    (one digit per option), the shown option tapped, and the session's question count and
    right answers so far (a review session keeps no state in memory); on a several-answers
    question OPT ticks or unticks (the selection is stored, not carried) and ``s`` submits."""

    prefix: ClassVar[str] = "v"
    belongs_to: ClassVar[Belongs] = "card"
    pattern: ClassVar[re.Pattern[str]] = re.compile(
        r"([1-9][0-9]{0,15}):([0-9]{2,10}):([0-9s]):([1-9][0-9]?):(0|[1-9][0-9]?)"
    )
    card_id: int
    order: tuple[int, ...]  # order[shown] = the bank index of the option shown there
    shown: int  # SUBMIT: submit the options ticked (several right answers)
    step: int
    right: int

    def body(self) -> str:
        order = "".join(map(str, self.order))
        return f"{self.card_id}:{order}:{shown_text(self.shown)}:{self.step}:{self.right}"

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        order = tuple(int(ch) for ch in match[2])
        card, step, right = int(match[1]), int(match[4]), int(match[5])
        shown = shown_value(match[3])
        if (
            sorted(order) != list(range(len(order)))
            or shown >= len(order)
            or right > step
            or card >= MAX_ID
        ):
            return None
        return cls(card, order, shown, step, right)

    @classmethod
    def largest(cls) -> Self:
        return cls(MAX_ID - 1, tuple(range(9, -1, -1)), SUBMIT, 99, 99)


@dataclass(frozen=True)
class TimezoneData(CallbackData):
    """``tz:MINUTES``: the time zone chosen for ``/remind``, in minutes east of UTC."""

    prefix: ClassVar[str] = "tz"
    pattern: ClassVar[re.Pattern[str]] = re.compile(r"(0|-?[1-9][0-9]{0,3})")
    minutes: int

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        minutes = int(match[1])
        return cls(minutes) if TZ_RANGE[0] <= minutes <= TZ_RANGE[1] else None

    @classmethod
    def largest(cls) -> Self:
        return cls(TZ_RANGE[0])
