"""Strings added by the wording review (issue 12, point 8)."""

from __future__ import annotations

from bot.i18n.lang import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    "recap_stopped": {
        "bn": "⏹ মডারেটর কুইজটি মাঝপথে শেষ করেছেন: {total}টির মধ্যে {asked}টি প্রশ্ন করা হয়েছিল।",
        "en": "⏹ A moderator ended the quiz early: {asked} of {total:question was|questions "
        "were} asked.",
    },
}
