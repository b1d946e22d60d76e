"""Saving a quiz written in Telegram: a free name, the per-author limit, the catalog updated.

Both ways in (``/done`` on a draft, an uploaded file) end here with an already validated bank
text, so what is stored is exactly what the bank validator accepted.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from bot.banks.authored import AuthoredCatalog
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import Quiz
from bot.core.images import Picture
from bot.features.authoring.drafts import MAX_QUIZZES_PER_AUTHOR, candidate_names, name_key, slug
from bot.features.authoring.queries import NameTaken, NewAuthored
from bot.features.authoring.store import AuthoringStore
from bot.storage import AuthoredQuiz, NewVersion


@dataclass(frozen=True, slots=True)
class Saved:
    """The outcome of a save: the stored row, or ``full`` when the author is at the limit."""

    row: AuthoredQuiz | None
    full: bool = False


class Authoring:
    """Stores new quizzes and keeps the in-memory catalog in step with the database."""

    def __init__(
        self,
        store: AuthoringStore,
        catalog: AuthoredCatalog,
        folder: Callable[[], Collection[str]],
        clock: Callable[[], float],
    ) -> None:
        self._store, self._catalog, self._folder, self._clock = store, catalog, folder, clock

    def full(self, author_id: int) -> bool:
        """Whether ``author_id`` keeps as many quizzes as one author may: asked before a file
        is downloaded or a draft begun; ``save`` asks again, and the store holds the limit in
        the transaction that adds the quiz."""
        return len(self._catalog.of_author(author_id)) >= MAX_QUIZZES_PER_AUTHOR

    async def save(
        self,
        author_id: int,
        quiz: Quiz,
        bank_yaml: str,
        origin: str,
        name_hint: str,
        pictures: Iterable[Picture] = (),
        delivery: int | None = None,
    ) -> Saved:
        """Store a validated quiz under the first free name made from ``name_hint``, with the
        pictures it names (kept by their content, before the quiz that names them);
        ``delivery``: the update id of the upload that brought it."""
        if self.full(author_id):
            return Saved(None, full=True)
        pictures = list(pictures)
        await self._store.store_images((p.sha256, p.mime, p.data) for p in pictures)
        taken = {name_key(n) for n in (*self._folder(), *self._catalog.names())}
        for name in candidate_names(slug(name_hint)):
            if name_key(name) in taken:
                continue
            try:
                row = await self._store.add_authored(
                    NewAuthored(
                        author_id=author_id,
                        name=name,
                        title=quiz.title(quiz.language),
                        language=quiz.language,
                        bank_yaml=bank_yaml,
                        question_count=len(quiz.questions),
                        origin=origin,
                        created_at=self._clock(),
                        bank_json=quiz.to_json(),
                        pictures=tuple(p.sha256 for p in pictures),
                        stored_bytes=stored_size(bank_yaml, pictures),
                        delivery=delivery,
                    ),
                    limit=MAX_QUIZZES_PER_AUTHOR,
                )
            except NameTaken:  # taken meanwhile by another author's save
                continue
            if row is None:
                return Saved(None, full=True)
            self._catalog.put(row, quiz)
            return Saved(row)
        raise AssertionError("unreachable: candidate_names never ends")

    async def replace(
        self, row: AuthoredQuiz, quiz: Quiz, pictures: Iterable[Picture] = ()
    ) -> tuple[AuthoredQuiz, int] | None:
        """A stored quiz's new version (an edit, or a file replacing it): same number, name and
        links; the old version kept for the runs planned with it. (row, version); None if the
        quiz is gone."""
        await self._store.store_images((p.sha256, p.mime, p.data) for p in pictures)
        new = NewVersion(
            row.quiz_no,
            write_yaml(quiz),
            quiz.to_json(),
            quiz.title(quiz.language),
            len(quiz.questions),
        )
        version = await self._store.replace_authored(new, self._clock())
        fresh = await self._store.authored(row.quiz_no)
        if fresh is None or fresh.deleted_at is not None:
            return None
        self._catalog.put(fresh, quiz)
        return fresh, version

    async def refresh(self, quiz_no: int) -> AuthoredQuiz | None:
        """Re-read one stored quiz after a change (deleted, published, shared)."""
        row = await self._store.authored(quiz_no)
        if row is not None:  # only its metadata changed: cached questions stay
            self._catalog.put(row)
        return row


def stored_size(bank_yaml: str, pictures: Iterable[Picture]) -> int:
    """What a stored quiz keeps, in bytes: its bank text and its pictures, decoded."""
    return len(bank_yaml.encode()) + sum(len(p.data) for p in pictures)
