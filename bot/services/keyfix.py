"""A key a re-grade fixed becomes the quiz's key from then on.

The group's answers re-scored, the fix kept (who, where, when, the key it replaced), a stored
quiz's own text rewritten, the question's "wrong answer key" reports resolved, all in one
transaction (bot/storage/keyfixes.py); then the catalog serves the fixed quiz (a folder bank:
the fix laid over its file, at every reload too), and the homework attempts of the group still
in progress judge the questions still to come by it. Every later run, homework and practice
starts with the fixed quiz.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from bot.banks.authored import AUTHORED_ID, AuthoredCatalog
from bot.banks.catalog import Catalog
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import Quiz
from bot.core.regrade import NewKey, current_key, key_from_json, key_to_json, with_fixes
from bot.storage import AuthoredQuiz, Homework, KeyFix, NewVersion, Rescored

log = logging.getLogger(__name__)


class KeyFixStore(Protocol):
    """What keeping a fixed key reads and writes: the fixes, and the homework still open."""

    async def fix_key(
        self,
        changes: Sequence[Rescored],
        fix: KeyFix,
        body: NewVersion | None = None,
    ) -> tuple[int, int]: ...
    async def key_fixes(self, quiz_id: str | None = None) -> list[KeyFix]: ...
    async def open_homework(self, chat_id: int | None = None) -> list[Homework]: ...


async def restore_fixes(store: KeyFixStore, catalog: Catalog) -> None:
    """Lay the kept fixes of folder banks over them (at start-up; stored quizzes hold theirs)."""
    fixes: dict[str, list[tuple[str, NewKey]]] = {}
    for fix in await store.key_fixes():
        key = key_from_json(fix.key)
        if key is not None and not AUTHORED_ID.match(fix.quiz_id):
            fixes.setdefault(fix.quiz_id, []).append((fix.question_id, key))
    catalog.set_fixes(fixes)


def last_fix(fixes: Sequence[KeyFix], question_id: str) -> KeyFix | None:
    """The latest fix of a question, if any."""
    return next((f for f in reversed(fixes) if f.question_id == question_id), None)


def undoes(fix: KeyFix | None, key: NewKey) -> bool:
    """Whether ``key`` puts back the key ``fix`` replaced."""
    return fix is not None and key_from_json(fix.old_key) == key


class Rekeyed(Protocol):
    """Homework attempts in progress that can take a quiz's fixed keys (``Attempts``)."""

    def rekey(self, quiz: Quiz, homework_ids: set[int]) -> int: ...


async def keep_fix(
    store: KeyFixStore,
    catalog: Catalog,
    authored: AuthoredCatalog,
    attempts: Rekeyed,
    changes: Sequence[Rescored],
    quiz: Quiz,
    question_id: str,
    key: NewKey,
    *,
    chat_id: int,
    user_id: int,
    now: float,
) -> Quiz:
    """Re-score ``changes`` and make ``key`` question ``question_id``'s key from now on; the
    quiz as now served."""
    question = next(q for q in quiz.questions if q.id == question_id)
    fixed = with_fixes(quiz, [(question_id, key)])
    row: AuthoredQuiz | None = authored.row(quiz.id)
    body = None
    if row is not None:
        title = fixed.title(fixed.language)
        body = NewVersion(
            row.quiz_no, write_yaml(fixed), fixed.to_json(), title, len(fixed.questions)
        )
    fix = KeyFix(
        0,
        quiz.id,
        question_id,
        key_to_json(key),
        key_to_json(current_key(question)),
        chat_id,
        user_id,
        now,
    )
    await store.fix_key(changes, fix, body)
    if row is not None:
        served = authored.put(row, fixed) or fixed
    else:
        served = catalog.fix(quiz.id, question_id, key) or fixed
    open_ids = {hw.homework_id for hw in await store.open_homework(chat_id)}
    rekeyed = attempts.rekey(served, open_ids)
    log.info(
        "quiz %s: key of %s fixed in chat %s (%s attempts in progress follow)",
        quiz.id,
        question_id,
        chat_id,
        rekeyed,
    )
    return served
