"""Callback data of inline buttons: compact to encode, strict to parse.

Telegram gives a button at most 64 bytes of data and hands back whatever a client sends, so
parsing treats every callback as untrusted: anything that is not exactly one of these forms is
``None``, and numbers are bounded.

- ``a:RUN:Q:OPT`` — an answer: run id, question index, shown option position.
- ``s:QUIZ`` — start (or practise) a quiz from the ``/quiz`` list.
- ``r:SEASON:y`` / ``r:SEASON:n`` — confirm or cancel a leaderboard reset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64
_MAX_ID = 2**53

_ANSWER = re.compile(r"a:([1-9][0-9]{0,15}):(0|[1-9][0-9]{0,2}):([0-9])")  # one spelling each
_START = re.compile(r"s:([a-z0-9][a-z0-9_-]{0,31})")
_RESET = re.compile(r"r:([1-9][0-9]{0,5}):([yn])")


@dataclass(frozen=True, slots=True)
class AnswerData:
    run_id: int
    q_index: int
    shown: int


@dataclass(frozen=True, slots=True)
class StartData:
    quiz_id: str


@dataclass(frozen=True, slots=True)
class ResetData:
    season: int
    confirm: bool


CallbackData = AnswerData | StartData | ResetData


def encode(data: CallbackData) -> str:
    """The button string for ``data``; always at most 64 bytes."""
    if isinstance(data, AnswerData):
        text = f"a:{data.run_id}:{data.q_index}:{data.shown}"
    elif isinstance(data, StartData):
        text = f"s:{data.quiz_id}"
    else:
        text = f"r:{data.season}:{'y' if data.confirm else 'n'}"
    if len(text.encode()) > MAX_BYTES or parse(text) != data:
        raise ValueError(f"cannot encode {data!r}")
    return text


def parse(raw: str | None) -> CallbackData | None:
    """The typed meaning of a button's data, or None for anything malformed or out of range."""
    if not raw or len(raw) > MAX_BYTES:
        return None
    if m := _ANSWER.fullmatch(raw):
        run_id = int(m[1])
        return AnswerData(run_id, int(m[2]), int(m[3])) if run_id < _MAX_ID else None
    if m := _START.fullmatch(raw):
        return StartData(m[1])
    if m := _RESET.fullmatch(raw):
        return ResetData(int(m[1]), m[2] == "y")
    return None
