"""Callback data of inline buttons and deep-link payloads: compact to encode, strict to parse.

Telegram gives a button at most 64 bytes of data and hands back whatever a client sends, so
parsing treats every callback as untrusted: anything that is not exactly one of these forms is
``None``, and numbers are bounded.

- ``a:RUN:Q:OPT`` — an answer: run id, question index, shown option position (on a question
  with several right answers: tick or untick it); ``a:RUN:Q:s`` — Submit the options ticked.
- ``s:QUIZ`` — start (or practise) a quiz from the ``/quiz`` list.
- ``r:SEASON:y`` / ``r:SEASON:n`` — confirm or cancel a leaderboard reset.
- ``v:CARD:ORDER:OPT:STEP:RIGHT`` — a ``/review`` answer: the card, the shown option order (one
  digit per option), the shown option tapped, and the session's question count and right answers
  so far (a review session keeps no state in memory); on a several-answers question OPT ticks or
  unticks (the selection is stored, not carried) and ``s`` submits.
- ``tz:MINUTES`` — the time zone chosen for ``/remind``, in minutes east of UTC.
- ``nu:N:STAMP`` — undo question N of one's own ``/newquiz`` draft, only while it is the last
  and still the question the button was made for (STAMP: a checksum of its text).
- ``dq:NUMBER:y`` / ``dq:NUMBER:n`` — confirm or keep: ``/deletequiz`` of stored quiz NUMBER.

A quiz id in ``s:`` is a folder bank's id or a stored quiz's ``u.NUMBER``.
- ``h:RUN:Q:OPT`` — an answer to a homework question in a private chat (as ``a:``: on a
  several-answers question OPT ticks or unticks, ``h:RUN:Q:s`` submits).
- ``hs:HOMEWORK`` — which homework ``/homework stop`` ends, when several are open.
- ``p:RUN:Q`` / ``p:RUN:Q:R`` — "report a problem" with question Q of a run, then the reason
  R: ``k`` (wrong answer key), ``u`` (unclear), ``t`` (typo).
- ``pc:CARD`` — "report a problem" under a ``/review`` question.
- ``k:COMMAND:QUIZ`` — the quiz picked from a "which quiz?" list: run ``/COMMAND QUIZ``.
- ``g:QUIZ:ACTION`` — a button of the card ending ``/done`` and uploads: ``s`` share link,
  ``h`` how to set it as homework.
- ``rg:QUIZ:N:KEY:y`` / ``…:n`` — apply or drop the re-grading ``/regrade`` previewed: question
  N's new KEY (N = 0: every question's current key, KEY ``0``). KEY is the right bank options
  as digits in increasing order (``2``; ``02`` for several), ``#VALUE:TOLERANCE`` a numeric
  question's answer, or ``+DIGEST`` one more short answer (10 hex digits of the SHA-256 of the
  answer as the judge normalises it: the answer itself is one a student typed, found again in
  the stored answers).
- ``hd:QUIZ:D:USER`` — how long a homework set from a saved quiz's link (``/start qh-N`` in a
  group) runs: D indexes ``HOMEWORK_DURATIONS``; only USER, the moderator who followed the link,
  may pick. ``hd:QUIZ:D:USER:S``, the step after: S seconds for each question.
- ``rr:RUN:N:KEY:S`` — under a student's report sent to the teacher privately: re-grade the
  run's group's answers, question N's key becoming bank option KEY (one digit), a numeric key
  (``#VALUE:TOLERANCE``, as ``rg:``: widened to hold the number the reporting student typed), or
  (``+DIGEST``, as ``rg:``) also accepting the short answer that student typed; S = ``p``
  preview, ``y`` apply, ``n`` drop.

Deep links (``https://t.me/BOT?start=PAYLOAD``) arrive as ``/start PAYLOAD`` and are routed by
a filter on the message text to their own handler (``[A-Za-z0-9_-]{1,64}``):

- ``recap_RUN`` — a student's private recap of group run ``RUN``.
- ``hw-…`` — start a homework (``bot.handlers.teacher``); ``an-…`` — a question analysis
  (``bot.handlers.teacher``); ``sq-…`` — practise a shared stored quiz (``bot.handlers.myquizzes``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from telegram.constants import InlineKeyboardButtonLimit

from bot.core.bank import MAX_SECONDS, MIN_SECONDS

MAX_BYTES: int = InlineKeyboardButtonLimit.MAX_CALLBACK_DATA  # 64 bytes
_MAX_ID = 2**53

_ANSWER = re.compile(r"a:([1-9][0-9]{0,15}):(0|[1-9][0-9]{0,2}):([0-9s])")  # one spelling each
_START = re.compile(r"s:([a-z0-9][a-z0-9_-]{0,31}|u\.[1-9][0-9]{0,15})(?::([A-Za-z0-9_-]{16}))?")
_RESET = re.compile(r"r:([1-9][0-9]{0,5}):([yn])")
_REVIEW = re.compile(r"v:([1-9][0-9]{0,15}):([0-9]{2,10}):([0-9s]):([1-9][0-9]?):(0|[1-9][0-9]?)")
_TIMEZONE = re.compile(r"tz:(0|-?[1-9][0-9]{0,3})")
_UNDO = re.compile(r"nu:([1-9][0-9]{0,2}):(0|[1-9][0-9]{0,9})")
_DELETE = re.compile(r"dq:([1-9][0-9]{0,15}):([yn])")
_EDIT = re.compile(r"qe:([1-9][0-9]{0,15}):(0|[1-9][0-9]{0,2}):([mqtswokfecrn])")
_HOMEWORK = re.compile(r"h:([1-9][0-9]{0,15}):(0|[1-9][0-9]{0,2}):([0-9s])")
_HW_STOP = re.compile(r"hs:([1-9][0-9]{0,15})")
_REPORT = re.compile(r"p:([1-9][0-9]{0,15}):(0|[1-9][0-9]{0,2})(?::([kut]))?")
_CARD_REPORT = re.compile(r"pc:([1-9][0-9]{0,15})")
_QUIZ_ID = r"([a-z0-9][a-z0-9_-]{0,31}|u\.[1-9][0-9]{0,15})"
_PICK = re.compile(rf"k:([a-z]{{1,16}}):{_QUIZ_ID}")
_CARD = re.compile(rf"g:{_QUIZ_ID}:([sh])")
_REGRADE_KEY = r"([0-9]{1,10}|#-?[0-9][0-9.e+-]{0,15}:[0-9][0-9.e+-]{0,15}|\+[0-9a-f]{10})"
_REGRADE = re.compile(rf"rg:{_QUIZ_ID}:(0|[1-9][0-9]{{0,2}}):{_REGRADE_KEY}:([yn])")
_HW_DURATION = re.compile(
    r"hd:(u\.[1-9][0-9]{0,15}):([0-9]):([1-9][0-9]{0,15})(?::([1-9][0-9]{0,2}))?"
)
_RUN_KEY = r"([0-9]|#-?[0-9][0-9.e+-]{0,15}:[0-9][0-9.e+-]{0,15}|\+[0-9a-f]{10})"
_RUN_REGRADE = re.compile(rf"rr:([1-9][0-9]{{0,15}}):([1-9][0-9]{{0,2}}):{_RUN_KEY}:([pyn])")
TZ_RANGE = (-720, 840)  # UTC-12:00 .. UTC+14:00
REASON_CODES = {"k": "key", "u": "unclear", "t": "typo"}  # report reasons, as stored
SUBMIT = -1  # the ``shown`` of a Submit button (several right answers)
#: a homework set from a saved quiz's link runs for one of these (seconds): 1 h, 1, 3, 7 days
HOMEWORK_DURATIONS = (3600, 86_400, 3 * 86_400, 7 * 86_400)
#: then each question's time (seconds) among these and the quiz's own
HOMEWORK_SECONDS = (30, 60, 120, 300)


@dataclass(frozen=True, slots=True)
class AnswerData:
    run_id: int
    q_index: int
    shown: int


@dataclass(frozen=True, slots=True)
class StartData:
    quiz_id: str
    token: str = ""  # a stored quiz's share token: practise again a quiz shared by link


@dataclass(frozen=True, slots=True)
class ResetData:
    season: int
    confirm: bool


@dataclass(frozen=True, slots=True)
class ReviewData:
    card_id: int
    order: tuple[int, ...]  # order[shown] = the bank index of the option shown there
    shown: int  # SUBMIT: submit the options ticked (several right answers)
    step: int
    right: int


@dataclass(frozen=True, slots=True)
class TimezoneData:
    minutes: int


@dataclass(frozen=True, slots=True)
class UndoData:
    number: int
    stamp: int  # zlib.crc32 of the question's text


@dataclass(frozen=True, slots=True)
class DeleteData:
    quiz_no: int
    confirm: bool


@dataclass(frozen=True, slots=True)
class QuizEditData:
    """A step of editing stored quiz ``quiz_no`` (its author's, privately): ``field`` of
    question ``number`` (0: of the quiz). ``m`` the menu, ``q`` a question's menu, ``t`` the
    title, ``s`` the time per question, ``w`` a question's text, ``o`` its options, ``k`` its
    key, ``f`` its options' feedback, ``e`` its explanation, ``c`` cancel; after a file of the
    same title: ``r`` replace the quiz with it, ``n`` keep both."""

    quiz_no: int
    number: int
    field: str


@dataclass(frozen=True, slots=True)
class HomeworkAnswerData:
    run_id: int
    q_index: int
    shown: int


@dataclass(frozen=True, slots=True)
class HomeworkStopData:
    homework_id: int


@dataclass(frozen=True, slots=True)
class ReportData:
    run_id: int
    q_index: int
    reason: str | None = None  # None: ask for the reason; else one of REASON_CODES' values


@dataclass(frozen=True, slots=True)
class CardReportData:
    card_id: int


@dataclass(frozen=True, slots=True)
class PickData:
    """A quiz picked from a "which quiz?" list: the command to run with it."""

    command: str
    quiz_id: str


@dataclass(frozen=True, slots=True)
class QuizCardData:
    """A button of a saved quiz's card: ``s`` its share link, ``h`` how to set it as homework."""

    quiz_id: str
    action: str


@dataclass(frozen=True, slots=True)
class RegradeData:
    """Apply (or drop) a previewed re-grading: question ``number``'s new ``key`` (``number`` 0:
    every question's current key), as the module's docstring spells it."""

    quiz_id: str
    number: int
    key: str
    confirm: bool


@dataclass(frozen=True, slots=True)
class RunRegradeData:
    """Re-grade from a student's report (the teacher's private chat): question ``number`` (of
    the bank, 1-based) of run ``run_id``'s quiz gets ``key`` (one bank option's digit, a number
    ``#VALUE:TOLERANCE``, or ``+DIGEST`` one more short answer, as ``rg:`` spells them), in the
    run's group; ``step`` ``p`` previews, ``y`` applies, ``n`` drops."""

    run_id: int
    number: int
    key: str
    step: str


@dataclass(frozen=True, slots=True)
class HomeworkDurationData:
    """How long the homework set from a saved quiz's link runs: ``HOMEWORK_DURATIONS[index]``;
    ``user_id``: the moderator who followed the link, the only one who may pick."""

    quiz_id: str
    index: int
    user_id: int
    seconds: int | None = None  # each question's time, picked next (None: not yet)


CallbackData = (
    AnswerData
    | StartData
    | ResetData
    | ReviewData
    | TimezoneData
    | UndoData
    | DeleteData
    | QuizEditData
    | HomeworkAnswerData
    | HomeworkStopData
    | ReportData
    | CardReportData
    | PickData
    | QuizCardData
    | RegradeData
    | RunRegradeData
    | HomeworkDurationData
)
_REASON_LETTER = {v: k for k, v in REASON_CODES.items()}


def encode(data: CallbackData) -> str:
    """The button string for ``data``; always at most 64 bytes."""
    if isinstance(data, AnswerData):
        shown = "s" if data.shown == SUBMIT else data.shown
        text = f"a:{data.run_id}:{data.q_index}:{shown}"
    elif isinstance(data, StartData):
        text = f"s:{data.quiz_id}:{data.token}" if data.token else f"s:{data.quiz_id}"
    elif isinstance(data, ResetData):
        text = f"r:{data.season}:{'y' if data.confirm else 'n'}"
    elif isinstance(data, ReviewData):
        order = "".join(map(str, data.order))
        shown = "s" if data.shown == SUBMIT else data.shown
        text = f"v:{data.card_id}:{order}:{shown}:{data.step}:{data.right}"
    elif isinstance(data, UndoData):
        text = f"nu:{data.number}:{data.stamp}"
    elif isinstance(data, DeleteData):
        text = f"dq:{data.quiz_no}:{'y' if data.confirm else 'n'}"
    elif isinstance(data, QuizEditData):
        text = f"qe:{data.quiz_no}:{data.number}:{data.field}"
    elif isinstance(data, TimezoneData):
        text = f"tz:{data.minutes}"
    elif isinstance(data, HomeworkAnswerData):
        shown = "s" if data.shown == SUBMIT else data.shown
        text = f"h:{data.run_id}:{data.q_index}:{shown}"
    elif isinstance(data, HomeworkStopData):
        text = f"hs:{data.homework_id}"
    elif isinstance(data, ReportData):
        tail = f":{_REASON_LETTER.get(data.reason, '?')}" if data.reason is not None else ""
        text = f"p:{data.run_id}:{data.q_index}{tail}"
    elif isinstance(data, PickData):
        text = f"k:{data.command}:{data.quiz_id}"
    elif isinstance(data, QuizCardData):
        text = f"g:{data.quiz_id}:{data.action}"
    elif isinstance(data, RunRegradeData):
        text = f"rr:{data.run_id}:{data.number}:{data.key}:{data.step}"
    elif isinstance(data, HomeworkDurationData):
        text = f"hd:{data.quiz_id}:{data.index}:{data.user_id}"
        if data.seconds is not None:
            text += f":{data.seconds}"
    elif isinstance(data, RegradeData):
        text = f"rg:{data.quiz_id}:{data.number}:{data.key}:{'y' if data.confirm else 'n'}"
    else:
        text = f"pc:{data.card_id}"
    if len(text.encode()) > MAX_BYTES or parse(text) != data:
        raise ValueError(f"cannot encode {data!r}")
    return text


def parse(raw: str | None) -> CallbackData | None:
    """The typed meaning of a button's data, or None for anything malformed or out of range."""
    if not raw or len(raw) > MAX_BYTES:
        return None
    if m := _ANSWER.fullmatch(raw):
        run_id = int(m[1])
        shown = SUBMIT if m[3] == "s" else int(m[3])
        return AnswerData(run_id, int(m[2]), shown) if run_id < _MAX_ID else None
    if m := _START.fullmatch(raw):
        return StartData(m[1], m[2] or "")
    if m := _RESET.fullmatch(raw):
        return ResetData(int(m[1]), m[2] == "y")
    if m := _REVIEW.fullmatch(raw):
        order = tuple(int(ch) for ch in m[2])
        card, step, right = int(m[1]), int(m[4]), int(m[5])
        shown = SUBMIT if m[3] == "s" else int(m[3])
        if (
            sorted(order) != list(range(len(order)))
            or shown >= len(order)
            or right > step
            or card >= _MAX_ID
        ):
            return None
        return ReviewData(card, order, shown, step, right)
    if m := _UNDO.fullmatch(raw):
        return UndoData(int(m[1]), int(m[2]))
    if m := _DELETE.fullmatch(raw):
        quiz_no = int(m[1])
        return DeleteData(quiz_no, m[2] == "y") if quiz_no < _MAX_ID else None
    if m := _EDIT.fullmatch(raw):
        quiz_no = int(m[1])
        return QuizEditData(quiz_no, int(m[2]), m[3]) if quiz_no < _MAX_ID else None
    if m := _TIMEZONE.fullmatch(raw):
        minutes = int(m[1])
        return TimezoneData(minutes) if TZ_RANGE[0] <= minutes <= TZ_RANGE[1] else None
    return _parse_teacher(raw)


def _parse_teacher(raw: str) -> CallbackData | None:
    """The homework and report buttons (issue 15)."""
    if m := _HOMEWORK.fullmatch(raw):
        run_id = int(m[1])
        shown = SUBMIT if m[3] == "s" else int(m[3])
        return HomeworkAnswerData(run_id, int(m[2]), shown) if run_id < _MAX_ID else None
    if m := _HW_STOP.fullmatch(raw):
        return HomeworkStopData(int(m[1])) if int(m[1]) < _MAX_ID else None
    if m := _REPORT.fullmatch(raw):
        run_id = int(m[1])
        reason = REASON_CODES[m[3]] if m[3] else None
        return ReportData(run_id, int(m[2]), reason) if run_id < _MAX_ID else None
    if m := _CARD_REPORT.fullmatch(raw):
        return CardReportData(int(m[1])) if int(m[1]) < _MAX_ID else None
    if m := _PICK.fullmatch(raw):
        return PickData(m[1], m[2])
    if m := _CARD.fullmatch(raw):
        return QuizCardData(m[1], m[2])
    if m := _REGRADE.fullmatch(raw):
        key = m[3]
        if key.isdecimal() and list(key) != sorted(set(key)):
            return None  # options: each once, in increasing order (one spelling each)
        return RegradeData(m[1], int(m[2]), key, m[4] == "y")
    if m := _RUN_REGRADE.fullmatch(raw):
        run_id = int(m[1])
        return RunRegradeData(run_id, int(m[2]), m[3], m[4]) if run_id < _MAX_ID else None
    if m := _HW_DURATION.fullmatch(raw):
        index, user_id = int(m[2]), int(m[3])
        seconds = int(m[4]) if m[4] else None
        if index >= len(HOMEWORK_DURATIONS) or user_id >= _MAX_ID:
            return None
        if seconds is not None and not MIN_SECONDS <= seconds <= MAX_SECONDS:
            return None
        return HomeworkDurationData(m[1], index, user_id, seconds)
    return None


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
