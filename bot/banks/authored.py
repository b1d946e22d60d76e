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

import dataclasses
import logging
import re
from collections.abc import Collection

from bot.banks.catalog import Catalog
from bot.core.bank import BankError, Limits, Quiz, parse_quiz
from bot.storage import AuthoredQuiz, Store

log = logging.getLogger(__name__)

AUTHORED_ID = re.compile(r"^u\.[1-9][0-9]{0,15}$")
_PLACEHOLDER_ID = "stored"  # parse_quiz wants a folder-style id; the real one is set after


class AuthoredCatalog:
    """Every stored quiz (deleted ones kept for the history of their runs), parsed once.

    Each is also added to the bot's :class:`~bot.banks.catalog.Catalog` under its internal id,
    listed in no chat: practice, recaps, reviews and restarts find a run's quiz there like any
    other; who may start or list it is decided here.
    """

    def __init__(self, catalog: Catalog, limits: Limits) -> None:
        self._catalog, self._limits = catalog, limits
        self._rows: dict[str, AuthoredQuiz] = {}

    async def load(self, store: Store) -> None:
        for row in await store.authored_quizzes():
            self.put(row)

    def put(self, row: AuthoredQuiz, quiz: Quiz | None = None) -> Quiz | None:
        """Add or refresh one stored quiz; ``quiz``: its text already parsed (a new save, or a
        change of metadata only). None (logged) if its text no longer validates."""
        if quiz is None:
            try:
                quiz = parse(row.bank_yaml, f"stored quiz {row.quiz_id}", self._limits, row.quiz_id)
            except BankError as exc:
                log.error("stored quiz %s (%s) is not served: %s", row.quiz_id, row.name, exc)
                return None
        quiz = dataclasses.replace(quiz, id=row.quiz_id, name=row.name)
        self._rows[row.quiz_id] = row
        self._catalog.add(quiz, chats=(), origin="authored")
        return quiz

    def startable(self, user_id: int, folder: Collection[str], *, own: bool) -> dict[str, Quiz]:
        """Stored quizzes a user may start (or practise) here, by every name they answer to.

        The published ones, and with ``own`` the user's own. A name a folder bank uses (in
        ``folder``) stays the folder bank's: such a stored quiz answers only to its internal id.
        """
        out: dict[str, Quiz] = {}
        for row in self.live():
            quiz = self.quiz(row.quiz_id)
            if quiz is None or not (row.published or (own and row.author_id == user_id)):
                continue
            if row.name not in folder:
                out[row.name] = quiz
            out[row.quiz_id] = quiz
        return out

    def quiz(self, quiz_id: str) -> Quiz | None:
        """The stored quiz ``quiz_id`` (deleted ones too)."""
        return self._catalog.get(quiz_id) if quiz_id in self._rows else None

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

    def may_start(self, quiz_id: str, user_id: int, *, shared: bool = False) -> Quiz | None:
        """The stored quiz ``quiz_id`` if this user may start it (their own, or published); with
        ``shared`` (practice in a private chat) also one shared by link: the end of a practice
        that began with the link offers it again."""
        row = self._rows.get(quiz_id)
        if row is None or row.deleted_at is not None:
            return None
        allowed = row.author_id == user_id or row.published or (shared and bool(row.share_token))
        return self.quiz(quiz_id) if allowed else None


def parse(bank_yaml: str, file: str, limits: Limits, quiz_id: str) -> Quiz:
    """Validate a stored (or new) quiz's bank text and give it its internal id; BankError."""
    quiz = parse_quiz(bank_yaml, file, _PLACEHOLDER_ID, limits)
    return dataclasses.replace(quiz, id=quiz_id)
