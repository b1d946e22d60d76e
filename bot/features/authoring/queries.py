"""The authoring feature's queries: teachers' quizzes saved, renamed, shared; drafts and edits.

A mixin of the composed ``Store`` (``bot/app/store.py``); only this feature calls these.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

import aiosqlite

from bot.storage.authored import (
    _COLUMNS,
    _LISTING_FROM_JSON,
    AuthoredMixin,
    AuthoredQuiz,
    Draft,
    _authored,
)
from bot.storage.images import drop_unused, named_pictures
from bot.storage.versions import NewVersion, write_version


@dataclass(frozen=True, slots=True)
class NewAuthored:
    author_id: int
    name: str
    title: str
    language: str
    bank_yaml: str
    question_count: int
    origin: str
    created_at: float
    bank_json: str | None = None  # the validated model (``Quiz.to_json``)
    pictures: tuple[str, ...] = ()  # the SHA-256 of each picture it names (kept in ``images``)
    stored_bytes: int = 0  # what it keeps: its bank text and its pictures' bytes
    delivery: int | None = None  # the update id of the upload that brought it


class NameTaken(Exception):
    """Another live quiz already has this name."""


async def _draft_pictures(conn: aiosqlite.Connection, user_id: int) -> set[str]:
    async with conn.execute(
        "SELECT questions FROM quiz_drafts WHERE user_id = ?", (user_id,)
    ) as cur:
        row = await cur.fetchone()
    return set() if row is None else named_pictures(str(row[0]))


@dataclass(frozen=True, slots=True)
class PendingEdit:
    """What ``user_id`` is changing in stored quiz ``quiz_no``: ``field`` of question
    ``number`` (0: of the quiz), or ``replace`` with the uploaded quiz in ``payload``."""

    user_id: int
    quiz_no: int
    number: int
    field: str
    payload: str | None
    updated_at: float


class AuthoringQueries(AuthoredMixin):
    """The queries only the authoring feature calls."""

    async def authored_by(self, author_id: int) -> list[AuthoredQuiz]:
        """The live quizzes of one author, oldest first."""
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM authored_quizzes WHERE author_id = ? AND deleted_at IS NULL"
            " ORDER BY quiz_no",
            (author_id,),
        )
        return [_authored(r) for r in rows]

    async def add_authored(self, new: NewAuthored, *, limit: int) -> AuthoredQuiz | None:
        """Store a quiz; None when its author already has ``limit`` live quizzes.

        Raises NameTaken when the name is in use by a live quiz (of anyone).
        """

        async def tx(conn: aiosqlite.Connection) -> int | None:
            async with conn.execute(
                "SELECT COUNT(*) FROM authored_quizzes WHERE author_id = ? AND deleted_at IS NULL",
                (new.author_id,),
            ) as cur:
                row = await cur.fetchone()
            if row is not None and row[0] >= limit:
                return None
            try:
                async with conn.execute(
                    "INSERT INTO authored_quizzes (author_id, name, title, language,"
                    " bank_yaml, question_count, origin, created_at, stored_bytes)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING quiz_no",
                    (
                        new.author_id,
                        new.name,
                        new.title,
                        new.language,
                        new.bank_yaml,
                        new.question_count,
                        new.origin,
                        new.created_at,
                        new.stored_bytes,
                    ),
                ) as cur:
                    inserted = await cur.fetchone()
            except sqlite3.IntegrityError:
                raise NameTaken(new.name) from None
            assert inserted is not None
            await conn.executemany(
                "INSERT OR IGNORE INTO quiz_pictures (quiz_no, sha256) VALUES (?, ?)",
                [(inserted[0], sha) for sha in new.pictures],
            )
            if new.bank_json is not None:
                await conn.execute(
                    "INSERT INTO authored_bodies (quiz_no, bank_json) VALUES (?, ?)",
                    (inserted[0], new.bank_json),
                )
                await conn.execute(_LISTING_FROM_JSON, (inserted[0],))
            if new.delivery is not None:  # with the quiz: named after a crash before the reply
                await conn.execute(
                    "UPDATE deliveries SET quiz_no = ? WHERE update_id = ?",
                    (inserted[0], new.delivery),
                )
            return int(inserted[0])

        quiz_no = await self._write(tx)
        return None if quiz_no is None else await self.authored(quiz_no)

    async def delete_authored(self, quiz_no: int, at: float) -> bool:
        """Take a quiz out of use (its history stays); False if it was gone already."""

        async def tx(conn: aiosqlite.Connection) -> bool:
            cur = await conn.execute(
                "UPDATE authored_quizzes SET deleted_at = ?, published = 0, share_token = NULL"
                " WHERE quiz_no = ? AND deleted_at IS NULL",
                (at, quiz_no),
            )
            if cur.rowcount == 0:
                return False
            async with conn.execute(
                "SELECT sha256 FROM quiz_pictures WHERE quiz_no = ?", (quiz_no,)
            ) as rows:
                await drop_unused(conn, [str(r[0]) async for r in rows])
            return True

        return await self._write(tx)

    async def set_published(self, quiz_no: int, published: bool) -> None:
        await self._write(
            lambda conn: conn.execute(
                "UPDATE authored_quizzes SET published = ? WHERE quiz_no = ?",
                (int(published), quiz_no),
            )
        )

    async def rename_authored(self, quiz_no: int, name: str) -> None:
        """Give a live quiz a new name (runs keep pointing at its internal id, so its history
        follows it); raises NameTaken when another live quiz has that name."""

        async def tx(conn: aiosqlite.Connection) -> None:
            try:
                await conn.execute(
                    "UPDATE authored_quizzes SET name = ? WHERE quiz_no = ?", (name, quiz_no)
                )
            except sqlite3.IntegrityError:
                raise NameTaken(name) from None

        await self._write(tx)

    async def set_share_token(self, quiz_no: int, token: str) -> None:
        await self._write(
            lambda conn: conn.execute(
                "UPDATE authored_quizzes SET share_token = ? WHERE quiz_no = ?", (token, quiz_no)
            )
        )

    async def run_counts(self, quiz_ids: list[str]) -> dict[str, int]:
        """How many runs (group and practice) each quiz had."""
        if not quiz_ids:
            return {}
        marks = ", ".join("?" * len(quiz_ids))
        rows = await self._fetchall(
            f"SELECT quiz_id, COUNT(*) FROM runs WHERE quiz_id IN ({marks}) GROUP BY quiz_id",
            quiz_ids,
        )
        return {r[0]: int(r[1]) for r in rows}

    async def save_draft(self, draft: Draft) -> None:
        """Create or replace a user's draft; a picture it named and names no more is dropped
        unless something else names it."""

        async def tx(conn: aiosqlite.Connection) -> None:
            before = await _draft_pictures(conn, draft.user_id)
            await conn.execute(
                "INSERT INTO quiz_drafts (user_id, stage, title, language, questions, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " stage = excluded.stage, title = excluded.title, language = excluded.language,"
                " questions = excluded.questions, updated_at = excluded.updated_at",
                (
                    draft.user_id,
                    draft.stage,
                    draft.title,
                    draft.language,
                    draft.questions,
                    draft.updated_at,
                ),
            )
            await drop_unused(conn, before - named_pictures(draft.questions))

        await self._write(tx)

    async def drop_draft(self, user_id: int) -> bool:
        async def tx(conn: aiosqlite.Connection) -> bool:
            before = await _draft_pictures(conn, user_id)
            cur = await conn.execute("DELETE FROM quiz_drafts WHERE user_id = ?", (user_id,))
            await drop_unused(conn, before)
            return cur.rowcount > 0

        return await self._write(tx)

    async def replace_authored(self, new: NewVersion, at: float) -> int:
        """Give a stored quiz a new version (the old one kept); its number."""
        return await self._write(lambda conn: write_version(conn, new, at))

    async def pending_edit(self, user_id: int) -> PendingEdit | None:
        row = await self._fetchone(
            "SELECT user_id, quiz_no, number, field, payload, updated_at FROM quiz_edits"
            " WHERE user_id = ?",
            (user_id,),
        )
        return None if row is None else PendingEdit(*row)

    async def save_pending_edit(self, edit: PendingEdit) -> None:
        """Create or replace the user's pending change."""
        await self._write(
            lambda conn: conn.execute(
                "INSERT OR REPLACE INTO quiz_edits (user_id, quiz_no, number, field, payload,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    edit.user_id,
                    edit.quiz_no,
                    edit.number,
                    edit.field,
                    edit.payload,
                    edit.updated_at,
                ),
            )
        )

    async def drop_pending_edit(self, user_id: int) -> bool:
        async def tx(conn: aiosqlite.Connection) -> bool:
            cur = await conn.execute("DELETE FROM quiz_edits WHERE user_id = ?", (user_id,))
            return cur.rowcount > 0

        return await self._write(tx)

    async def store_images(self, pictures: Iterable[tuple[str, str, bytes]]) -> None:
        """Keep pictures (sha256, type, bytes) of a stored quiz; one already kept stays."""
        rows = list(pictures)
        if not rows:
            return

        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.executemany(
                "INSERT INTO images (sha256, mime, data) VALUES (?, ?, ?)"
                " ON CONFLICT (sha256) DO UPDATE SET data = excluded.data WHERE data IS NULL",
                rows,
            )

        await self._write(tx)
