"""Text pieces every message uses: labels, names, cutting to fit, and Telegram's limits."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence

from telegram.constants import CallbackQueryLimit, MessageLimit

from bot.core.bank import utf16_len
from bot.core.mathtext import readable
from bot.i18n import markup, t
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, join

ALERT_LIMIT: int = CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH  # 200 characters
MESSAGE_LIMIT: int = MessageLimit.MAX_TEXT_LENGTH  # 4096 characters
CAPTION_LIMIT: int = MessageLimit.CAPTION_LENGTH  # 1024 characters
NAME_LIMIT = 32
MEDALS = ("🥇", "🥈", "🥉")
_ISOLATE = "\u2068{}\u2069"  # first-strong isolate: an RTL name cannot flip the line around it
_TAG = re.compile(r"</?[a-z][^>]*>")


def label(shown: int) -> str:
    """The button label of shown position ``shown``: A, B, C ..."""
    return chr(ord("A") + shown)


def short_name(first: str | None, last: str | None = None, username: str | None = None) -> str:
    """A display name for a user: their name, cleaned of control characters, shortened."""
    name = " ".join(p for p in (first, last) if p) or (f"@{username}" if username else "?")
    name = "".join(ch for ch in name if unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp"))
    name = " ".join(name.split()) or "?"
    if len(name) > NAME_LIMIT:
        name = name[: NAME_LIMIT - 1].rstrip() + "…"
    return name


def isolated(text: str) -> str:
    """A user-supplied name or title as a list shows it, in a first-strong isolate: its own
    direction (an RTL mark, a right-to-left title) stays inside it, whatever it holds."""
    return _ISOLATE.format(text)


def html_name(name: str) -> Safe:
    """A stored display name, escaped and isolated for an HTML message."""
    return markup.html(_ISOLATE, name)


def fit(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters as Telegram counts them (UTF-16 code units) at a
    word boundary, with an ellipsis if cut."""
    if utf16_len(text) <= limit:
        return text
    cut = text[: limit - 1]
    excess = utf16_len(cut) - (limit - 1)
    while excess > 0:  # each character beyond the BMP counts two
        excess -= 2 if ord(cut[-1]) > 0xFFFF else 1
        cut = cut[:-1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:—-") + "…"


def with_medal(rank: int, line: Safe, points: float) -> Safe:
    """A ranking line, with its medal on the podium (none at 0 points: nothing was won)."""
    return Safe(f"{MEDALS[rank - 1]} {line}") if rank <= len(MEDALS) and points > 0 else line


def when(lang: Lang, seconds: float) -> Safe:
    """How long until something, roughly: "within an hour", "in about 5 hours", "in 3 days"."""
    if seconds < 3600:
        return t(lang, "when_soon")
    if seconds < 86_400 - 1800:
        return t(lang, "when_hours", n=max(1, round(seconds / 3600)))
    days = max(1, round(seconds / 86_400))
    return t(lang, "when_day") if days == 1 else t(lang, "when_days", n=days)


def plain_text(text: str, *, math: bool = False) -> str:
    """An HTML message as plain text (for the terminal); with ``math``, its formulas in
    readable Unicode."""
    plain = html.unescape(_TAG.sub("", text))
    return readable(plain) if math else plain


def shown_length(text: Safe) -> int:
    """An HTML message's length as Telegram counts it: its text as shown, in UTF-16 units."""
    return utf16_len(plain_text(text))


def pack(blocks: Sequence[Safe], limit: int = MESSAGE_LIMIT) -> list[Safe]:
    """Blocks joined by blank lines into as few messages as fit ``limit`` each."""
    messages: list[Safe] = []
    current = Safe("")
    for block in blocks:
        if current and len(current) + 2 + len(block) > limit:
            messages.append(current)
            current = block
        else:
            current = join("\n\n", [current, block]) if current else block
    messages.append(current)
    return messages
