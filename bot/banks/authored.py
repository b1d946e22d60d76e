"""Quizzes written in Telegram, in memory: who may see and start which, found by name or id.

Names and ids (documented in docs/teachers.md, "Write a quiz in Telegram"):

- Every stored quiz has an internal id ``u.<number>`` (runs, review cards and buttons use it). A
  folder bank's id never has a dot, so the two kinds never clash, and a number is never reused,
  so a deleted quiz's history never points at another quiz.
- Its name (``/quiz NAME``) is unique among all live stored quizzes and, when given, differs from
  every folder bank. Should a folder bank with the same name appear later, the folder bank wins
  the name and the stored quiz is listed (and can be started) by its internal id.
- Who sees a stored quiz: its author (in private, and in groups they moderate), everyone when it
  is published (every group), and whoever opens its share link (private practice only).

Loaded on demand: at start-up only what listing and lookups need is read (id, name,
title, author, flags, share token: :class:`~bot.storage.AuthoredQuiz`, from a covering index),
for live quizzes only, into dictionaries by id, name, title, author and token, so ``/quiz``,
``/myquizzes``, ``/share`` and deep links never scan. A quiz's questions are read and decoded
(the validated model as JSON, ``Quiz.to_json``) the first time something asks for the
quiz, and kept in a bounded LRU cache; deleted quizzes are read only when their history is
shown. A running quiz holds its own Quiz object, so an eviction never touches it. Rows saved
before the JSON existed are converted after start-up, in batches, by a worker process
(bot/banks/authored_convert.py).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable, Iterator

from bot.banks.authored_convert import START_DELAY, Converter
from bot.banks.catalog import Catalog
from bot.banks.images import StoredImages
from bot.banks.yaml_reader import parse_quiz
from bot.core.bank import Limits, Quiz
from bot.core.problems import BankError
from bot.storage import AuthoredQuiz, StoreBase

log = logging.getLogger(__name__)

AUTHORED_ID = re.compile(r"^u\.[1-9][0-9]{0,15}$")
_PLACEHOLDER_ID = "stored"  # parse_quiz wants a folder-style id; the real one is set after
CACHE_SIZE = 256  # parsed stored quizzes kept in memory (a running quiz keeps its own)


def lookup_key(text: str) -> str:
    """Names and titles compared without case and runs of spaces."""
    return " ".join(text.casefold().split())


class AuthoredCatalog:
    """The live stored quizzes' metadata, indexed; their questions on demand (see above).

    The bot's :class:`~bot.banks.catalog.Catalog` asks it for any ``u.N`` id it does not hold
    (practice, recaps, reviews, restarts find a run's quiz there like any other); who may start
    or list a stored quiz is decided here.
    """

    def __init__(self, catalog: Catalog, limits: Limits, cache_size: int = CACHE_SIZE) -> None:
        self._catalog, self._limits, self._cache_size = catalog, limits, cache_size
        self._store: StoreBase | None = None
        self._rows: dict[str, AuthoredQuiz] = {}  # live ones, by internal id
        self._by_name: dict[str, str] = {}
        self._by_key: dict[str, str] = {}  # lookup_key(name) -> id
        self._by_title: dict[str, set[str]] = {}  # lookup_key(title) -> ids
        self._by_token: dict[str, str] = {}
        self._by_author: dict[int, dict[str, None]] = {}  # in saving order
        self._published: dict[str, None] = {}
        self._cache: OrderedDict[str, Quiz] = OrderedDict()
        self.loads = 0  # quizzes read and decoded (tests, benchmarks)
        self._converter: Converter | None = None
        catalog.attach_stored(self.quiz, self.older, self.version)

    async def load(self, store: StoreBase) -> None:
        """Read every live quiz's metadata (never a bank text)."""
        self._store = store
        for row in await store.authored_quizzes(include_deleted=False):
            self._index(row)

    # --- metadata ----------------------------------------------------------------------------

    def _index(self, row: AuthoredQuiz) -> None:
        self._unindex(row.quiz_id)
        if row.deleted_at is not None:
            self._cache.pop(row.quiz_id, None)
            return
        quiz_id = row.quiz_id
        self._rows[quiz_id] = row
        self._by_name[row.name] = quiz_id
        self._by_key[lookup_key(row.name)] = quiz_id
        self._by_title.setdefault(lookup_key(row.title), set()).add(quiz_id)
        if row.share_token:
            self._by_token[row.share_token] = quiz_id
        self._by_author.setdefault(row.author_id, {})[quiz_id] = None
        if row.published:
            self._published[quiz_id] = None

    def _unindex(self, quiz_id: str) -> None:
        old = self._rows.pop(quiz_id, None)
        if old is None:
            return
        self._by_name.pop(old.name, None)
        self._by_key.pop(lookup_key(old.name), None)
        titled = self._by_title.get(lookup_key(old.title))
        if titled is not None:
            titled.discard(quiz_id)
            if not titled:
                del self._by_title[lookup_key(old.title)]
        if old.share_token:
            self._by_token.pop(old.share_token, None)
        mine = self._by_author.get(old.author_id)
        if mine is not None:
            mine.pop(quiz_id, None)
            if not mine:
                del self._by_author[old.author_id]
        self._published.pop(quiz_id, None)

    def put(self, row: AuthoredQuiz, quiz: Quiz | None = None) -> Quiz | None:
        """Add or refresh one stored quiz's metadata (a deleted one leaves memory);
        ``quiz``: its questions, just saved, cached. Returns the quiz under its id, if given."""
        self._index(row)
        self._cache.pop(row.quiz_id, None)  # its name or title may have changed (/rename)
        if quiz is None or row.deleted_at is not None:
            return None
        quiz = dataclasses.replace(quiz, id=row.quiz_id, name=row.name)
        self._remember(quiz)
        return quiz

    def row(self, quiz_id: str) -> AuthoredQuiz | None:
        """A live stored quiz's metadata."""
        return self._rows.get(quiz_id)

    def ids(self) -> Iterator[str]:
        return iter(self._rows)

    def live(self) -> list[AuthoredQuiz]:
        return list(self._rows.values())

    def by_name(self, name: str) -> AuthoredQuiz | None:
        """The live quiz called ``name`` (case and spaces aside), or with internal id ``name``."""
        quiz_id = self._by_name.get(name) or self._by_key.get(lookup_key(name)) or name
        return self._rows.get(quiz_id)

    def by_title(self, title: str) -> list[AuthoredQuiz]:
        """The live quizzes titled ``title`` (case and spaces aside), oldest first."""
        ids = self._by_title.get(lookup_key(title), set())
        return sorted((self._rows[i] for i in ids), key=lambda r: r.quiz_no)

    def by_token(self, token: str) -> AuthoredQuiz | None:
        quiz_id = self._by_token.get(token)
        return None if quiz_id is None else self._rows.get(quiz_id)

    def of_author(self, author_id: int) -> list[AuthoredQuiz]:
        return [self._rows[i] for i in self._by_author.get(author_id, {})]

    def published(self) -> list[AuthoredQuiz]:
        return [self._rows[i] for i in self._published]

    def names(self) -> set[str]:
        return set(self._by_name)

    def startable_rows(self, user_id: int, *, own: bool) -> list[AuthoredQuiz]:
        """The live quizzes this user may start: published ones, and with ``own`` their own."""
        rows = {r.quiz_no: r for r in self.published()}
        if own:
            rows.update((r.quiz_no, r) for r in self.of_author(user_id))
        return [rows[k] for k in sorted(rows)]

    def may_start(self, quiz_id: str, user_id: int, *, token: str = "") -> Quiz | None:
        """The stored quiz ``quiz_id`` if this user may start it (their own, or published); with
        ``token`` (practice in a private chat) also one shared by link when it is that link's
        token: the end of a practice that began with the link offers it again. The quiz's id
        alone (numbers count up from 1) grants nothing."""
        row = self._rows.get(quiz_id)
        if row is None:
            return None
        allowed = row.author_id == user_id or row.published or _same_token(token, row.share_token)
        return self.quiz(quiz_id) if allowed else None

    def again_token(self, quiz_id: str, user_id: int) -> str:
        """The share token a "practise again" button carries: the link's, for a quiz this user
        practised by its link (neither theirs nor published); "" otherwise."""
        row = self._rows.get(quiz_id)
        if row is None or row.author_id == user_id or row.published:
            return ""
        return row.share_token or ""

    # --- questions, on demand -----------------------------------------------------------------

    def quiz(self, quiz_id: str) -> Quiz | None:
        """The stored quiz ``quiz_id`` with its questions (deleted ones too: their history)."""
        found = self._cache.get(quiz_id)
        if found is not None:
            self._cache.move_to_end(quiz_id)
            return found
        if self._store is None or not AUTHORED_ID.match(quiz_id):
            return None
        body = self._store.authored_body_now(int(quiz_id[2:]))
        if body is None:
            return None
        try:
            quiz = self._decode(quiz_id, *body)
        except (BankError, ValueError) as exc:
            log.error("stored quiz %s is not served: %s", quiz_id, exc)
            return None
        row = self._rows.get(quiz_id)
        if row is not None:
            quiz = dataclasses.replace(quiz, name=row.name)
        self.loads += 1
        self._remember(quiz)
        return quiz

    def older(self, quiz_id: str) -> list[Quiz]:
        """A stored quiz's earlier versions (edited or replaced since), newest first."""
        if self._store is None or not AUTHORED_ID.match(quiz_id):
            return []
        out = []
        for body in self._store.authored_versions_now(int(quiz_id[2:])):
            try:
                out.append(Quiz.from_json(body, quiz_id, _source(quiz_id)))
            except ValueError as exc:
                log.error("an earlier version of stored quiz %s is not read: %s", quiz_id, exc)
        return out

    def version(self, quiz_id: str, version: int) -> Quiz | None:
        """One earlier version of a stored quiz (None: not an earlier one)."""
        if self._store is None or not AUTHORED_ID.match(quiz_id):
            return None
        body = self._store.authored_version_now(int(quiz_id[2:]), version)
        try:
            return None if body is None else Quiz.from_json(body, quiz_id, _source(quiz_id))
        except ValueError as exc:
            log.error("version %s of stored quiz %s is not read: %s", version, quiz_id, exc)
            return None

    def _decode(self, quiz_id: str, bank_json: str | None, bank_yaml: str) -> Quiz:
        if bank_json is not None:
            return Quiz.from_json(bank_json, quiz_id, _source(quiz_id))
        return parse(bank_yaml, _source(quiz_id), self._limits, quiz_id)

    def _remember(self, quiz: Quiz) -> None:
        self._cache[quiz.id] = quiz
        self._cache.move_to_end(quiz.id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def cached(self) -> int:
        return len(self._cache)

    def start_converting(
        self, quiet_for: Callable[[], float] | None = None, delay: float = START_DELAY
    ) -> None:
        """Convert the rows saved before the JSON form, in a worker process, from ``delay``
        seconds after start-up, in the bot's quiet moments (``quiet_for``: seconds since the
        last update; bot/banks/authored_convert.py)."""
        assert self._store is not None
        self._converter = Converter(self._store, self._limits, quiet_for=quiet_for)
        self._converter.start(delay)

    def converting(self) -> bool:
        """Whether old rows are still being converted (tests, benchmarks)."""
        return self._converter is not None and self._converter.running()

    async def stop_converting(self) -> None:
        """Stop converting at once (before the store closes)."""
        converter, self._converter = self._converter, None
        if converter is not None:
            await converter.stop()

    async def convert_old(self) -> int:
        """Convert every row saved before the JSON form now; returns how many were."""
        assert self._store is not None
        return await Converter(self._store, self._limits).run()


def _same_token(given: str, token: str | None) -> bool:
    """Whether ``given`` is this quiz's share token (compared in constant time)."""
    return bool(given) and token is not None and secrets.compare_digest(given, token)


def _source(quiz_id: str) -> str:
    """How a stored quiz is named in logs and problems."""
    return f"stored quiz {quiz_id}"


def parse(bank_yaml: str, file: str, limits: Limits, quiz_id: str) -> Quiz:
    """Validate a stored (or new) quiz's bank text and give it its internal id; BankError."""
    quiz = parse_quiz(bank_yaml, file, _PLACEHOLDER_ID, limits, StoredImages())
    return dataclasses.replace(quiz, id=quiz_id)
