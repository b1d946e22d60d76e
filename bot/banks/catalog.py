"""The quizzes the bot serves, looked up when they are needed (pure: no telegram, no SQL).

Every consumer (group quizzes, practice, recaps, reviews, stats) holds the one Catalog and asks
it at lookup time, so a reload of the questions folder takes effect at once. A run keeps the
Quiz object it started with; ``matching`` finds the version a run used after a reload changed
it, for recaps and reviews of that run.

Two kinds of entries: the folder's banks (replaced together by ``replace_folder``) and quizzes
added one by one (``add``/``remove``), each visible in every chat or only in some. Ids are
unique across both; a folder bank wins over an added quiz. Quizzes stored in the database are
not held here: ``attach_stored`` gives the lookup that loads them on demand (their ids ``u.N``
never clash with a folder bank's), listed in no chat.

A folder bank's file is never written by the bot: the keys re-grades fixed (``set_fixes``,
``fix``) are laid over it whenever it is (re)loaded, so they stay its keys.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar, overload

from bot.core.bank import Quiz
from bot.core.regrade import NewKey, with_fixes

T = TypeVar("T")

_HISTORY = 4  # earlier versions kept per quiz id, for runs started before a reload


@dataclass(frozen=True, slots=True)
class Entry:
    """An added quiz and where it is listed: every chat (None) or only ``chats``."""

    quiz: Quiz
    chats: frozenset[int] | None = None
    origin: str = "added"


class Catalog(Mapping[str, Quiz]):
    """Quiz id → Quiz, read-only as a Mapping; changed only through its methods."""

    def __init__(self, folder: Mapping[str, Quiz] | None = None) -> None:
        self._folder: dict[str, Quiz] = dict(folder or {})
        self._added: dict[str, Entry] = {}
        self._history: dict[str, list[Quiz]] = {}
        self._stored: Callable[[str], Quiz | None] = lambda quiz_id: None
        self._older: Callable[[str], list[Quiz]] = lambda quiz_id: []
        self._version: Callable[[str, int], Quiz | None] = lambda quiz_id, version: None
        self._fixes: dict[str, list[tuple[str, NewKey]]] = {}

    def attach_stored(
        self,
        lookup: Callable[[str], Quiz | None],
        older: Callable[[str], list[Quiz]] | None = None,
        version: Callable[[str, int], Quiz | None] | None = None,
    ) -> None:
        """Serve stored quizzes: ``lookup(id)`` gives any stored quiz, loaded on demand, and
        ``older(id)`` its earlier versions, newest first. They are found by id only: iterating
        the catalog gives the folder's and added quizzes."""
        self._stored = lookup
        if older is not None:
            self._older = older
        if version is not None:
            self._version = version

    # --- lookups -------------------------------------------------------------------------------

    @overload
    def get(self, quiz_id: str, /) -> Quiz | None: ...
    @overload
    def get(self, quiz_id: str, default: Quiz, /) -> Quiz: ...
    @overload
    def get(self, quiz_id: str, default: T, /) -> Quiz | T: ...
    def get(self, quiz_id: str, default: object = None, /) -> object:
        """The current version of quiz ``quiz_id``, else ``default``."""
        found = self._folder.get(quiz_id)
        if found is None:
            entry = self._added.get(quiz_id)
            found = entry.quiz if entry is not None else self._stored(quiz_id)
        return found if found is not None else default

    def __getitem__(self, quiz_id: str) -> Quiz:
        found = self.get(quiz_id)
        if found is None:
            raise KeyError(quiz_id)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._folder.keys() | self._added.keys()))

    def __len__(self) -> int:
        return len(self._folder.keys() | self._added.keys())

    def __contains__(self, quiz_id: object) -> bool:
        return isinstance(quiz_id, str) and self.get(quiz_id) is not None

    def for_chat(self, chat_id: int) -> list[Quiz]:
        """The quizzes listed in chat ``chat_id`` (``/quiz``), by id."""
        out = dict(self._folder)
        for quiz_id, entry in self._added.items():
            if quiz_id not in out and (entry.chats is None or chat_id in entry.chats):
                out[quiz_id] = entry.quiz
        return [out[k] for k in sorted(out)]

    def folder(self) -> Mapping[str, Quiz]:
        """The folder's banks as last loaded."""
        return dict(self._folder)

    def matching(
        self, quiz_id: str, question_ids: Sequence[str], version: int | None = None
    ) -> Quiz | None:
        """The version of ``quiz_id`` that has all of ``question_ids``: ``version`` of a stored
        quiz if it was edited since (the one a run was planned with), else the current one if it
        still has them, else the latest earlier one (a run that began before a reload); None if
        none does."""
        planned = self._version(quiz_id, version) if version is not None else None
        if planned is not None and _has_all(planned, question_ids):
            return planned
        current = self.get(quiz_id)
        for quiz in ([current] if current is not None else []) + self._history.get(quiz_id, []):
            if _has_all(quiz, question_ids):
                return quiz
        return next((q for q in self._older(quiz_id) if _has_all(q, question_ids)), None)

    # --- changes -------------------------------------------------------------------------------

    def replace_folder(self, quizzes: Mapping[str, Quiz]) -> None:
        """The folder's banks are now ``quizzes`` (with the fixed keys laid over them); replaced
        versions go to the history."""
        quizzes = {k: with_fixes(q, self._fixes.get(k, ())) for k, q in quizzes.items()}
        for quiz_id, old in self._folder.items():
            if quizzes.get(quiz_id) != old:
                self._remember(old)
        self._folder = dict(quizzes)

    def set_fixes(self, fixes: Mapping[str, Sequence[tuple[str, NewKey]]]) -> None:
        """The keys re-grades fixed (quiz id → (question id, key) in order), laid over the
        folder's banks now and at every reload."""
        self._fixes = {k: list(v) for k, v in fixes.items()}
        self.replace_folder(self._folder)

    def fix(self, quiz_id: str, question_id: str, key: NewKey) -> Quiz | None:
        """One more fixed key of a folder bank, in force at once; the bank as now served (None:
        not a folder bank)."""
        if quiz_id not in self._folder:
            return None
        self._fixes.setdefault(quiz_id, []).append((question_id, key))
        self.replace_folder(self._folder)
        return self._folder[quiz_id]

    def add(
        self, quiz: Quiz, *, chats: Collection[int] | None = None, origin: str = "added"
    ) -> None:
        """Serve ``quiz`` (replacing an added quiz of the same id), listed in every chat or
        only in ``chats``."""
        old = self._added.get(quiz.id)
        if old is not None and old.quiz != quiz:
            self._remember(old.quiz)
        self._added[quiz.id] = Entry(quiz, frozenset(chats) if chats is not None else None, origin)

    def remove(self, quiz_id: str) -> None:
        """Stop serving the added quiz ``quiz_id`` (a folder bank is not affected)."""
        old = self._added.pop(quiz_id, None)
        if old is not None:
            self._remember(old.quiz)

    def _remember(self, quiz: Quiz) -> None:
        versions = self._history.setdefault(quiz.id, [])
        versions.insert(0, quiz)
        del versions[_HISTORY:]


def _has_all(quiz: Quiz, question_ids: Sequence[str]) -> bool:
    by_id = {q.id: q for q in quiz.questions}
    return all(qid in by_id for qid in question_ids)
