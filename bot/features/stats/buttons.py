"""The buttons of the statistics: confirming a leaderboard reset."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

from bot.tg.callbackdata import CallbackData


@dataclass(frozen=True)
class ResetData(CallbackData):
    """``r:SEASON:y`` / ``r:SEASON:n``: confirm or cancel a leaderboard reset."""

    prefix: ClassVar[str] = "r"
    pattern: ClassVar[re.Pattern[str]] = re.compile(r"([1-9][0-9]{0,5}):([yn])")
    season: int
    confirm: bool

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        return cls(int(match[1]), match[2] == "y")

    @classmethod
    def largest(cls) -> Self:
        return cls(999_999, True)
