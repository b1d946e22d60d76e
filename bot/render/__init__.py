"""What users read: HTML messages, alerts and keyboards, built from engine and storage results.

Every user-supplied string (names, group titles) and every bank text is escaped here or in a
feature's ``views.py``, nowhere else: by ``bot.i18n.t`` (which escapes the values it fills in)
and ``bot.i18n.markup``. Each function returns :class:`bot.i18n.markup.Safe` HTML (or plain
text, for alerts and buttons), the only kind of text ``bot.tg.outbox`` sends. The views
several features share live here, one module per concern (a feature's own are its
``views.py``):

- ``text``: labels, names, cutting to fit, Telegram's limits;
- ``quiz``: announcement, questions, reveals, results, tap alerts, practice;
- ``rich``: a message whose question holds math, as a rich message's HTML (Bot API 10.1);
- ``keyboards``: every shared inline keyboard;
- ``teacher``: homework deadlines, question analysis and the "report a problem" keyboards
  (imported as ``bot.render.teacher``; re-grading's keyboards are the teacher feature's);
- ``explain``: the whole explanation after a tap, when an alert cannot say it;
- ``export``: ``/export``'s CSV, its cells safe in a spreadsheet;
- ``buttondata`` and ``callbacks``: the button data these views build, and deep links.
"""

from __future__ import annotations

from bot.render.keyboards import (
    again_keyboard,
    answer_keyboard,
    open_private_keyboard,
    own_keyboard,
    pick_keyboard,
    question_keyboard,
    recap_keyboard,
    start_keyboard,
    tf_names,
)
from bot.render.quiz import (
    alert_note,
    announcement,
    bank_limits,
    caption_fits,
    choice_alert,
    group_reveal,
    labels,
    list_fit,
    note_left_out,
    option_text,
    practice_answered,
    practice_done,
    practice_parts,
    question_message,
    quiz_choices,
    quiz_list,
    results_message,
    reveal_message,
    shown_picks,
    tap_alert,
    typed_answers,
    typed_closed,
    typed_feedback,
    typed_parts,
    typed_superseded,
    typed_verdict,
    verdict_prefix,
)
from bot.render.rich import rich_html
from bot.render.text import (
    ALERT_LIMIT,
    MEDALS,
    MESSAGE_LIMIT,
    NAME_LIMIT,
    fit,
    html_name,
    label,
    plain_text,
    short_name,
    when,
)

__all__ = [
    "ALERT_LIMIT",
    "MEDALS",
    "MESSAGE_LIMIT",
    "NAME_LIMIT",
    "again_keyboard",
    "alert_note",
    "announcement",
    "answer_keyboard",
    "bank_limits",
    "caption_fits",
    "choice_alert",
    "fit",
    "group_reveal",
    "html_name",
    "label",
    "labels",
    "list_fit",
    "note_left_out",
    "open_private_keyboard",
    "option_text",
    "own_keyboard",
    "pick_keyboard",
    "plain_text",
    "practice_answered",
    "practice_done",
    "practice_parts",
    "question_keyboard",
    "question_message",
    "quiz_choices",
    "quiz_list",
    "recap_keyboard",
    "results_message",
    "reveal_message",
    "rich_html",
    "short_name",
    "shown_picks",
    "start_keyboard",
    "tap_alert",
    "tf_names",
    "typed_answers",
    "typed_closed",
    "typed_feedback",
    "typed_parts",
    "typed_superseded",
    "typed_verdict",
    "verdict_prefix",
    "when",
]
