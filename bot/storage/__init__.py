"""Persistent storage of quizbot: one SQLite file, and the kernel's part of the store.

This package owns the storage engine and the queries the kernel or several features call; a
query only one feature calls lives in that feature's ``queries.py``; ``bot/app/store.py`` composes
:class:`StoreBase` and those into the whole ``Store``.
"""

from bot.core.engine import Plan

from .analysis import Rescored
from .authored import AuthoredQuiz, Draft
from .homework import Homework, NewHomework
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
    Mode,
    NewRun,
    RunConflict,
    Standing,
    StorageError,
    StoreClosed,
    StoredRun,
    plan_from_json,
    plan_to_json,
)
from .review import Card, OpenReview, Student
from .schema import SCHEMA_VERSION, create_schema
from .store import StoreBase
from .versions import NewVersion

__all__ = [
    "END_STATUSES",
    "GROUP",
    "HOMEWORK",
    "MODES",
    "PHASES",
    "PRACTICE",
    "RUNNING",
    "SCHEMA_VERSION",
    "Answer",
    "AuthoredQuiz",
    "Card",
    "Draft",
    "EndStatus",
    "Export",
    "ExportAnswer",
    "ExportRun",
    "Homework",
    "KeyFix",
    "Mode",
    "NewHomework",
    "NewRun",
    "NewVersion",
    "OpenReview",
    "Plan",
    "Rescored",
    "RunConflict",
    "Standing",
    "StorageError",
    "StoreBase",
    "StoreClosed",
    "StoredRun",
    "Student",
    "create_schema",
    "key_fixes_in_file",
    "plan_from_json",
    "plan_to_json",
]
