"""Row types of the storage layer: plain frozen dataclasses, no SQL and no I/O here."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from bot.core.engine import Phase, Plan
from bot.core.scoring import from_letters
from bot.i18n.lang import LANGS, Lang

Mode = Literal["group", "practice", "homework"]
RunStatus = Literal["running", "finished", "stopped", "aborted"]
EndStatus = Literal["finished", "stopped", "aborted"]

GROUP: Final[Mode] = "group"
PRACTICE: Final[Mode] = "practice"
HOMEWORK: Final[Mode] = "homework"  # one student's private attempt at a group's homework
RUNNING: Final[RunStatus] = "running"
# each stored spelling -> the domain's literal (reading a row checks its value)
MODES: Final[Mapping[str, Mode]] = {
    "group": "group",
    "practice": "practice",
    "homework": "homework",
}
PHASES: Final[Mapping[str, Phase]] = {"posting": "posting", "open": "open", "closed": "closed"}
END_STATUSES: Final[Mapping[str, EndStatus]] = {
    "finished": "finished",
    "stopped": "stopped",
    "aborted": "aborted",
}
STATUSES: Final[Mapping[str, RunStatus]] = {"running": "running", **END_STATUSES}
LANGUAGES: Final[Mapping[str, Lang]] = {lang: lang for lang in LANGS}


class StorageError(Exception):
    """Base class of the errors this package raises on purpose."""


class RunConflict(StorageError):
    """A group run is already running in this chat and thread."""

    def __init__(self, chat_id: int, thread_id: int, run_id: int) -> None:
        super().__init__(f"run {run_id} is already running in chat {chat_id} thread {thread_id}")
        self.chat_id = chat_id
        self.thread_id = thread_id
        self.run_id = run_id


class StoreClosed(StorageError):
    """The store was closed; nothing more can be written."""


def plan_to_json(plan: Plan) -> str:
    """A run's plan as stored in ``runs.plan``."""
    return json.dumps(
        {"q": list(plan.question_ids), "p": [list(p) for p in plan.permutations]},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def plan_from_json(text: str) -> Plan:
    data = json.loads(text)
    return Plan(
        question_ids=tuple(str(q) for q in data["q"]),
        permutations=tuple(tuple(int(i) for i in p) for p in data["p"]),
    )


@dataclass(frozen=True, slots=True)
class NewRun:
    chat_id: int
    thread_id: int
    mode: Mode
    quiz_id: str
    language: Lang
    seconds: int
    plan: Plan
    started_by: int | None
    started_at: float


@dataclass(frozen=True, slots=True)
class StoredRun:
    run_id: int
    chat_id: int
    thread_id: int
    mode: Mode
    quiz_id: str
    language: Lang
    seconds: int
    season: int
    plan: Plan
    current: int
    phase: Phase
    message_id: int | None
    posted_at: float | None
    deadline: float | None
    status: RunStatus
    started_by: int | None
    started_at: float
    finished_at: float | None

    @property
    def question_count(self) -> int:
        return len(self.plan.question_ids)


@dataclass(frozen=True, slots=True)
class Answer:
    run_id: int
    q_index: int
    question_id: str
    user_id: int
    option: int  # index in the bank's option order (-1: typed)
    correct: bool  # full marks
    points: int
    answered_at: float
    given: str | None = None  # several options: their letters in bank order ("AC"); or typed
    credit: float | None = None  # 0..1; None: 1 if correct, else 0

    @property
    def options(self) -> tuple[int, ...]:
        """Every option picked (bank indices); none for a typed answer."""
        if self.option < 0:
            return ()
        return from_letters(self.given or "") or (self.option,)


@dataclass(frozen=True, slots=True)
class ExportRun:
    """A group run (live, or one homework attempt) as ``/export`` tells about it."""

    season: int
    run_id: int
    quiz_id: str
    started_at: float
    question_count: int
    permutations: tuple[tuple[int, ...], ...]  # per question, how it showed the options


@dataclass(frozen=True, slots=True)
class ExportAnswer:
    """One answer of a group run, with its student's name (see :class:`Answer`)."""

    run_id: int
    user_id: int
    name: str
    username: str | None
    q_index: int
    question_id: str
    option: int  # bank index (-1: typed)
    correct: bool
    points: int
    answered_at: float
    given: str | None
    credit: float | None


@dataclass(frozen=True, slots=True)
class Export:
    """A chat's group runs (in the order they started) and their answers."""

    runs: tuple[ExportRun, ...]
    answers: tuple[ExportAnswer, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    user_id: int
    name: str
    username: str | None
    points: int
    correct: int
    answered: int
    runs: int
