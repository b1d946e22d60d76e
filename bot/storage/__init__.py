"""Persistent storage of quizbot: one SQLite file, reached only through :class:`Store`.

This package owns every SQL statement of the project; nothing outside it imports aiosqlite.
"""

from bot.core.engine import Plan

from .analysis import REASONS, Rescored
from .authored import AuthoredQuiz, Draft, NameTaken, NewAuthored
from .homework import AttemptRefused, Homework, NewHomework, QuestionTally
from .keyfixes import KeyFix, key_fixes_in_file
from .models import (
    END_STATUSES,
    GROUP,
    HOMEWORK,
    MODES,
    PHASES,
    PRACTICE,
    RUNNING,
    Answer,
    EndStatus,
    Export,
    ExportAnswer,
    ExportRun,
    GroupLine,
    Leaderboard,
    Mode,
    NewRun,
    Overview,
    RunConflict,
    Standing,
    StorageError,
    StoreClosed,
    StoredRun,
    Weak,
    plan_from_json,
    plan_to_json,
)
from .review import Card, OpenReview, Student
from .schema import SCHEMA_VERSION, create_schema
from .store import Store
from .versions import NewVersion, PendingEdit

__all__ = [
    "END_STATUSES",
    "GROUP",
    "HOMEWORK",
    "MODES",
    "PHASES",
    "PRACTICE",
    "REASONS",
    "RUNNING",
    "SCHEMA_VERSION",
    "Answer",
    "AttemptRefused",
    "AuthoredQuiz",
    "Card",
    "Draft",
    "EndStatus",
    "Export",
    "ExportAnswer",
    "ExportRun",
    "GroupLine",
    "Homework",
    "KeyFix",
    "Leaderboard",
    "Mode",
    "NameTaken",
    "NewAuthored",
    "NewHomework",
    "NewRun",
    "NewVersion",
    "OpenReview",
    "Overview",
    "PendingEdit",
    "Plan",
    "QuestionTally",
    "Rescored",
    "RunConflict",
    "Standing",
    "StorageError",
    "Store",
    "StoreClosed",
    "StoredRun",
    "Student",
    "Weak",
    "create_schema",
    "key_fixes_in_file",
    "plan_from_json",
    "plan_to_json",
]
