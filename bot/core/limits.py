"""Telegram's size limits as the question banks must respect them (pure: no telegram import).

The validator and the importers check texts against what the renderer will really send: the
longest verdict line of an alert and the frame around a question message, in each language.
The frames of the languages a bank's texts are written in count (Bengali, English); a UI language
added later does not, so that adding one never turns a valid bank away: its chats read the
English texts, and an alert longer than Telegram allows is cut to fit (``bot.render.quiz``).
"""

from __future__ import annotations

from bot.core.bank import Limits, utf16_len
from bot.core.engine import MAX_POINTS, STREAK_CAP
from bot.i18n import t
from bot.i18n.lang import TEXT_LANGS

ALERT_LIMIT = 200
MESSAGE_LIMIT = 4096


def trim_utf16(text: str, units: int) -> str:
    """``text`` cut to at most ``units`` UTF-16 code units, ending in "…" when cut."""
    if utf16_len(text) <= units:
        return text
    out, used = [], 1
    for ch in text:
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > units:
            break
        out.append(ch)
    return "".join(out) + "…"


def cut_words(text: str, units: int) -> str:
    """``text`` cut to at most ``units`` UTF-16 code units at a word boundary, ending in "…"
    when cut (at a character when no word ends in its second half)."""
    if utf16_len(text) <= units:
        return text
    cut = trim_utf16(text, units)[:-1]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    if space > len(cut) // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:—-\n") + "…"


def bank_limits() -> Limits:
    """The longest verdict prefix and message frame, so the validator checks real sizes."""
    most = MAX_POINTS + STREAK_CAP
    prefix = {
        lang: max(
            utf16_len(
                t(lang, "alert_right", points=most)
                + t(lang, "alert_streak", streak=999, bonus=STREAK_CAP)
            ),
            utf16_len(t(lang, "alert_wrong")),
            utf16_len(t(lang, "alert_wrong_practice", label="J")),
        )
        + 2
        for lang in TEXT_LANGS
    }
    overhead = {
        lang: utf16_len(t(lang, "question_head", n=200, total=200))
        + utf16_len(t(lang, "question_timer", seconds=600, answered=99999))
        + 6
        + 10 * len("J) \n")
        for lang in TEXT_LANGS
    }
    # a closed question (group reveal or practice, whichever is longer): its head, options
    # with counts and marks, the right-answer and stats lines, explanation and note marks, the
    # practice verdict, and the blank lines between them
    reveal = {
        lang: utf16_len(t(lang, "reveal_head", n=200, total=200))
        + 10 * utf16_len("<b>J) </b> — 99999 ✅\n")
        + utf16_len(t(lang, "reveal_answer", label="J"))
        + utf16_len(t(lang, "reveal_stats", answered=99999, right=99999))
        + utf16_len("💡 📖 <b></b>")
        + prefix[lang]
        + 16
        for lang in TEXT_LANGS
    }
    return Limits(
        question_message=MESSAGE_LIMIT,
        alert=ALERT_LIMIT,
        alert_prefix=prefix,
        question_overhead=overhead,
        reveal_overhead=reveal,
    )
