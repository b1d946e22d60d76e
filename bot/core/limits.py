"""Telegram's size limits as the question banks must respect them (pure: no telegram import).

The validator and the importers check texts against what the renderer will really send: the
longest verdict line of an alert and the frame around a question message, in each language.
"""

from __future__ import annotations

from bot.core.bank import Limits
from bot.core.engine import MAX_POINTS, STREAK_CAP
from bot.i18n import t
from bot.i18n.lang import LANGS

ALERT_LIMIT = 200
MESSAGE_LIMIT = 4096


def utf16_len(text: str) -> int:
    """The length of ``text`` as Telegram counts it: UTF-16 code units (an emoji outside the
    Basic Multilingual Plane counts two)."""
    return len(text.encode("utf-16-le")) // 2


def bank_limits() -> Limits:
    """The longest verdict prefix and message frame, so the validator checks real sizes."""
    most = MAX_POINTS + STREAK_CAP
    prefix = {
        lang: max(
            len(
                t(lang, "alert_right", points=most)
                + t(lang, "alert_streak", streak=999, bonus=STREAK_CAP)
            ),
            len(t(lang, "alert_wrong")),
            len(t(lang, "alert_wrong_practice", label="J")),
        )
        + 2
        for lang in LANGS
    }
    overhead = {
        lang: len(t(lang, "question_head", n=200, total=200))
        + len(t(lang, "question_timer", seconds=600, answered=99999))
        + 6
        + 10 * len("J) \n")
        for lang in LANGS
    }
    return Limits(
        question_message=MESSAGE_LIMIT,
        alert=ALERT_LIMIT,
        alert_prefix=prefix,
        question_overhead=overhead,
    )
