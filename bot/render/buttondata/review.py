"""The buttons of ``/review`` and ``/remind``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

from bot.core.deadlines import TZ_RANGE as TZ_RANGE
from bot.tg.callbackdata import CallbackData


@dataclass(frozen=True)
class TimezoneData(CallbackData):
    """``tz:MINUTES``: the time zone chosen for ``/remind``, in minutes east of UTC."""

    prefix: ClassVar[str] = "tz"
    pattern: ClassVar[re.Pattern[str]] = re.compile(r"(0|-?[1-9][0-9]{0,3})")
    minutes: int

    def body(self) -> str:
        return str(self.minutes)

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        minutes = int(match[1])
        return cls(minutes) if TZ_RANGE[0] <= minutes <= TZ_RANGE[1] else None

    @classmethod
    def largest(cls) -> Self:
        return cls(TZ_RANGE[0])
