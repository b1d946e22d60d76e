"""Callback data of inline buttons and deep-link payloads: compact to encode, strict to parse.

Each kind of button data is a small frozen class that packs and parses itself
(``bot.tg.callbackdata``). A button only one feature uses is declared in that feature's
``buttons.py`` (authoring: ``nu:``, ``dq:``, ``g:``, ``qe:``; homework: ``h:``, ``hs:``,
``hd:``; review: ``v:``, ``tz:``; stats: ``r:``; teacher: ``rg:``, ``rr:``); the data the
kernel's shared views build, or several features share, is declared in
``bot/render/buttondata/``: ``quiz`` (``a:`` answers, also in practice; ``s:`` start buttons;
``k:`` a "which quiz?" list) and ``teacher`` (``p:``, ``pc:``: "report a problem", put under
recaps, practice, homework and ``/review`` questions, answered by the teacher feature). Each
class's docstring spells its data; this module re-exports the kernel's and holds the deep-link
payloads.

Deep links (``https://t.me/BOT?start=PAYLOAD``) arrive as ``/start PAYLOAD`` and are routed by
a filter on the message text to their own handler (``[A-Za-z0-9_-]{1,64}``):

- ``recap_RUN`` — a student's private recap of group run ``RUN``.
- ``hw-…`` — start a homework (``bot.features.homework.routes``); ``an-…`` — a question
  analysis (``bot.features.teacher.routes``); ``sq-…`` — practise a shared stored quiz
  (``bot.features.authoring.myquizzes``).
"""

from __future__ import annotations

import re

from bot.render.buttondata.quiz import SUBMIT, AnswerData, PickData, StartData
from bot.render.buttondata.teacher import REASON_CODES, CardReportData, ReportData
from bot.tg.callbackdata import MAX_BYTES, CallbackData, unpack

__all__ = [
    "MAX_BYTES",
    "REASON_CODES",
    "SUBMIT",
    "AnswerData",
    "CallbackData",
    "CardReportData",
    "PickData",
    "ReportData",
    "StartData",
    "encode",
    "parse",
]


def encode(data: CallbackData) -> str:
    """The button string for ``data``; always at most 64 bytes (``ValueError`` otherwise)."""
    return data.pack()


def parse(raw: str | None) -> CallbackData | None:
    """The typed meaning of a button's data, or None for anything malformed or out of range."""
    return unpack(raw)


# --- deep-link payloads ---------------------------------------------------------------------

RECAP_PREFIX = "recap_"
#: ``?startgroup=qs-N``: the bot added to a group offers stored quiz N there
GROUP_START_PREFIX = "qs-"
#: ``?startgroup=qh-N``: stored quiz N set as homework in the group chosen (for how long: asked)
GROUP_HOMEWORK_PREFIX = "qh-"


def recap_payload(run_id: int) -> str:
    """The ``/start`` payload of the results' recap button."""
    return f"{RECAP_PREFIX}{run_id}"


def start_filter_pattern(prefix: str, rest: str) -> str:
    """A regex for ``filters.Regex`` matching ``/start PREFIX REST`` (and ``/start@bot ...``)
    exactly: the text of a deep link's message."""
    return rf"^/start(@\w+)? {re.escape(prefix)}{rest}$"


RECAP_START = start_filter_pattern(RECAP_PREFIX, "[1-9][0-9]{0,15}")
