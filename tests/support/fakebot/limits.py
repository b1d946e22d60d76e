"""Telegram's overall flood limit: ~30 sends+edits per second per bot, across all chats.

Off unless a limit is set (``FakeTelegram(overall_limit=30)`` or ``server.limit_overall()``).
A send or edit is counted when its request ARRIVES (before any scripted fault or delay, and
whether or not it then succeeds); one that would be the (N+1)-th in the sliding window is
refused with 429 and ``retry_after`` and is not counted. Callback answers, reactions, reads
and the rest are never counted (they are not messages).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .models import JSON, ApiError

__all__ = ["COUNTED_METHODS", "OverallLimit", "max_in_window"]

#: the methods that send or edit a message (the group limit counts the same ones, ephemeral
#: messages excepted: they are not part of the group's visible traffic)
COUNTED_METHODS = frozenset(
    {
        "sendMessage",
        "sendDocument",
        "sendPhoto",
        "sendRichMessage",
        "editMessageText",
        "editMessageReplyMarkup",
        "editMessageCaption",
        "editMessageMedia",
        "editEphemeralMessageText",
        "editEphemeralMessageCaption",
        "editEphemeralMessageMedia",
        "editEphemeralMessageReplyMarkup",
    }
)


@dataclass
class OverallLimit:
    """The sliding-window counter and what it refused."""

    limit: int | None = None  # None: not enforced
    window: float = 1.0
    arrivals: list[float] = field(default_factory=list)  # admitted sends+edits, arrival times
    refused: int = 0  # 429 answers given by this limit
    refused_by_chat: dict[int, int] = field(default_factory=dict)

    def admit(self, method: str, params: JSON, now: float) -> None:
        """Count an arriving request, or raise the 429 Telegram gives when over the limit."""
        if self.limit is None or method not in COUNTED_METHODS:
            return
        recent = [t for t in self.arrivals if now - t < self.window]
        if len(recent) >= self.limit:
            self.refused += 1
            chat = _chat_id(params)
            if chat is not None:
                self.refused_by_chat[chat] = self.refused_by_chat.get(chat, 0) + 1
            wait = max(1, math.ceil(recent[0] + self.window - now))
            raise ApiError(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})
        self.arrivals.append(now)

    def max_in_window(self, window: float | None = None) -> int:
        """Most admitted sends+edits in any sliding window (default: the limit's window)."""
        return max_in_window(self.arrivals, self.window if window is None else window)


def max_in_window(times: list[float], width: float) -> int:
    """Most of ``times`` in any sliding window of ``width`` seconds."""
    ordered = sorted(times)
    best = lo = 0
    for hi, t in enumerate(ordered):
        while t - ordered[lo] >= width:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def _chat_id(params: JSON) -> int | None:
    raw = params.get("chat_id")
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        return None
    try:
        return int(raw)
    except ValueError:
        return None
