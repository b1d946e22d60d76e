"""Quizzes written in Telegram, in memory: who may see and start which, found by name or id.

Names and ids (documented in the README, "Write a quiz in Telegram"):

- Every stored quiz has an internal id ``u.<number>`` (runs, review cards and buttons use it). A
  folder bank's id never has a dot, so the two kinds never clash, and a number is never reused,
  so a deleted quiz's history never points at another quiz.
- Its name (``/quiz NAME``) is unique among all live stored quizzes and, when given, differs from
  every folder bank. Should a folder bank with the same name appear later, the folder bank wins
  the name and the stored quiz is listed (and can be started) by its internal id.
- Who sees a stored quiz: its author (in private, and in groups they moderate), everyone when it
  is published (every group), and whoever opens its share link (private practice only).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Mapping

from bot.bank import BankError, Limits, Quiz, load_quiz_text
from bot.storage import AuthoredQuiz, Store
from bot.storage.authored import AUTHORED_PREFIX

log = logging.getLogger(__name__)

AUTHORED_ID = re.compile(r"^u\.[1-9][0-9]{0,15}$")


class AuthoredCatalog:
    """Every stored quiz (deleted ones kept for the history of their runs), parsed once."""

    def __init__(self, limits: Limits) -> None:
        self._limits = limits
        self._rows: dict[str, AuthoredQuiz] = {}
        self.quizzes: dict[str, Quiz] = {}

    async def load(self, store: Store) -> None:
        for row in await store.authored_quizzes():
            self.put(row)

    def put(self, row: AuthoredQuiz) -> Quiz | None:
        """Add or refresh one stored quiz; None (logged) if its text no longer validates."""
        try:
            quiz = load_quiz_text(row.bank_yaml, row.quiz_id, f"stored quiz {row.quiz_id}",
                                  self._limits)
        except BankError as exc:
            log.error("stored quiz %s (%s) is not served: %s", row.quiz_id, row.name, exc)
            return None
        self._rows[row.quiz_id] = row
        self.quizzes[row.quiz_id] = quiz
        return quiz

    def row(self, quiz_id: str) -> AuthoredQuiz | None:
        return self._rows.get(quiz_id)

    def live(self) -> list[AuthoredQuiz]:
        return [r for r in self._rows.values() if r.deleted_at is None]

    def by_name(self, name: str) -> AuthoredQuiz | None:
        """The live quiz called ``name``, or with internal id ``name``."""
        found = self._rows.get(name)
        if found is not None:
            return found if found.deleted_at is None else None
        return next((r for r in self.live() if r.name == name), None)

    def by_token(self, token: str) -> AuthoredQuiz | None:
        return next((r for r in self.live() if r.share_token == token), None)

    def of_author(self, author_id: int) -> list[AuthoredQuiz]:
        return [r for r in self.live() if r.author_id == author_id]

    def names(self) -> set[str]:
        return {r.name for r in self.live()}

    @staticmethod
    def is_authored(quiz_id: str) -> bool:
        return quiz_id.startswith(AUTHORED_PREFIX)

    def may_start(self, quiz_id: str, user_id: int) -> Quiz | None:
        """The stored quiz ``quiz_id`` if this user may start it (their own, or published)."""
        row = self._rows.get(quiz_id)
        if row is None or row.deleted_at is not None:
            return None
        return self.quizzes.get(quiz_id) if row.author_id == user_id or row.published else None


class QuizLookup(Mapping[str, Quiz]):
    """Folder banks and stored quizzes as one read-only mapping, for the services that find a
    run's quiz by its id (practice, recaps, review, restoring runs after a restart)."""

    def __init__(self, folder: Callable[[], Mapping[str, Quiz]], authored: AuthoredCatalog
                 ) -> None:
        self._folder, self._authored = folder, authored

    def __getitem__(self, quiz_id: str) -> Quiz:
        found = self._folder().get(quiz_id)
        return found if found is not None else self._authored.quizzes[quiz_id]

    def __iter__(self) -> Iterator[str]:
        yield from self._folder()
        yield from self._authored.quizzes

    def __len__(self) -> int:
        return len(self._folder()) + len(self._authored.quizzes)
