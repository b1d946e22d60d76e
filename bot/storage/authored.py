"""Quizzes written in Telegram and their unfinished drafts (tables of schema steps 5 and 7).

A stored quiz is its validated bank YAML text plus who wrote it, its name and how it is shared;
since step 7 also the validated model as JSON (``authored_bodies``, ``Quiz.to_json``), which
loads without parsing YAML again. Deleting one only sets ``deleted_at``: its runs, answers and
review cards keep pointing at its internal id ``u.<quiz_no>``, never given to another quiz.

What listing and lookups need (:class:`AuthoredQuiz`, no questions) is read through indexes;
a quiz's questions are read one quiz at a time, when it is played (:meth:`authored_body_now`).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

import aiosqlite

from .core import StoreCore
from .images import drop_unused, named_pictures

AUTHORED_PREFIX = "u."


@dataclass(frozen=True, slots=True)
class AuthoredQuiz:
    """One row of ``authored_quizzes``, its bank text left out (:meth:`authored_text`)."""

    quiz_no: int
    author_id: int
    name: str
    title: str
    language: str
    question_count: int
    origin: str  # "polls" or the import format ("gift", "yaml", ...)
    share_token: str | None
    published: bool
    created_at: float
    deleted_at: float | None
    # what /quiz lists without reading the questions (None until the model JSON exists)
    title_bn: str | None = None
    title_en: str | None = None
    run_length: int | None = None

    @property
    def quiz_id(self) -> str:
        """The internal id runs and buttons use; never a folder bank's id (it has a dot)."""
        return f"{AUTHORED_PREFIX}{self.quiz_no}"


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


@dataclass(frozen=True, slots=True)
class Draft:
    """An unfinished /newquiz: ``questions`` is the JSON list the authoring module keeps."""

    user_id: int
    stage: str  # "title" or "questions"
    title: str | None
    language: str
    questions: str
    updated_at: float


class NameTaken(Exception):
    """Another live quiz already has this name."""


# every column but the bank text; for live rows all in the index authored_live_meta
_COLUMNS = (
    "quiz_no, author_id, name, title, language, question_count, origin, "
    "share_token, published, created_at, deleted_at, title_bn, title_en, run_length"
)

# the listing columns of one quiz (?: its number) from its model JSON (``Quiz.to_dict``: a title
# is text, or {bn, en} when the quiz is bilingual; ``settings.pick`` questions a run, else all)
_LISTING_FROM_JSON = """
    UPDATE authored_quizzes SET
        title_bn = CASE json_type(b.bank_json, '$.title') WHEN 'object'
            THEN json_extract(b.bank_json, '$.title.bn') ELSE json_extract(b.bank_json, '$.title')
            END,
        title_en = CASE json_type(b.bank_json, '$.title') WHEN 'object'
            THEN json_extract(b.bank_json, '$.title.en') ELSE json_extract(b.bank_json, '$.title')
            END,
        run_length = COALESCE(json_extract(b.bank_json, '$.settings.pick'),
            json_array_length(b.bank_json, '$.questions'))
    FROM authored_bodies b WHERE b.quiz_no = authored_quizzes.quiz_no AND b.quiz_no = ?
"""


def _authored(row: sqlite3.Row | tuple[Any, ...]) -> AuthoredQuiz:
    return AuthoredQuiz(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        row[6],
        row[7],
        bool(row[8]),
        row[9],
        row[10],
        row[11],
        row[12],
        row[13],
    )


class AuthoredMixin(StoreCore):
    # -- stored quizzes ----------------------------------------------------------------------

    async def authored_quizzes(self, *, include_deleted: bool = True) -> list[AuthoredQuiz]:
        """Every stored quiz (deleted ones too, unless asked not to), oldest first. The live
        ones alone are read from the index ``authored_live_meta`` (no bank text is touched)."""
        if include_deleted:
            sql = f"SELECT {_COLUMNS} FROM authored_quizzes ORDER BY quiz_no"
        else:
            sql = (
                f"SELECT {_COLUMNS} FROM authored_quizzes INDEXED BY authored_live_meta"
                " WHERE deleted_at IS NULL ORDER BY quiz_no"
            )
        return [_authored(r) for r in await self._fetchall(sql)]

    async def authored_named(self, name: str) -> AuthoredQuiz | None:
        """The live quiz called ``name`` (the unique index authored_live_name)."""
        row = await self._fetchone(
            f"SELECT {_COLUMNS} FROM authored_quizzes WHERE name = ? AND deleted_at IS NULL",
            (name,),
        )
        return None if row is None else _authored(row)

    async def authored_text(self, quiz_no: int) -> str | None:
        """A stored quiz's bank text, as validated when it was saved (for export)."""
        row = await self._fetchone(
            "SELECT bank_yaml FROM authored_quizzes WHERE quiz_no = ?", (quiz_no,)
        )
        return None if row is None else str(row[0])

    def authored_body_now(self, quiz_no: int) -> tuple[str | None, str] | None:
        """(model JSON or None if not converted yet, bank text if it is not) of one stored quiz,
        read at once: two primary-key lookups on a read-only connection of the event loop's
        thread, for a lookup that cannot wait (a catalog miss). None if there is no such quiz."""
        conn = self._now_reader()
        found = conn.execute(
            "SELECT bank_json FROM authored_bodies WHERE quiz_no = ?", (quiz_no,)
        ).fetchone()
        if found is not None:
            return str(found[0]), ""
        row = conn.execute(
            "SELECT bank_yaml FROM authored_quizzes WHERE quiz_no = ?", (quiz_no,)
        ).fetchone()
        return None if row is None else (None, str(row[0]))

    async def authored_unconverted(
        self, after: int, limit: int, *, published_only: bool = False
    ) -> list[tuple[int, str]]:
        """Up to ``limit`` stored quizzes past ``after`` with no model JSON yet: (no, text);
        with ``published_only`` the live published ones only. Walks the primary key."""
        # ``published`` is stored after the bank text: read from the index, not the rows
        published = (
            " AND q.quiz_no IN (SELECT quiz_no FROM authored_quizzes INDEXED BY"
            " authored_live_meta WHERE deleted_at IS NULL AND published = 1)"
            if published_only
            else ""
        )
        rows = await self._fetchall(
            "SELECT q.quiz_no, q.bank_yaml FROM authored_quizzes q"
            " LEFT JOIN authored_bodies b ON b.quiz_no = q.quiz_no"
            f" WHERE q.quiz_no > ? AND b.quiz_no IS NULL{published} ORDER BY q.quiz_no LIMIT ?",
            (after, limit),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def authored_all_converted(self) -> bool:
        """Whether every stored quiz has its model JSON (two counts: the steady state after an
        upgrade costs no walk over the rows)."""
        row = await self._fetchone(
            "SELECT (SELECT COUNT(*) FROM authored_quizzes)"
            " <= (SELECT COUNT(*) FROM authored_bodies)"
        )
        return row is not None and bool(row[0])

    async def save_authored_json(self, bodies: list[tuple[int, str]]) -> None:
        """Store the model JSON of stored quizzes (converted from their bank text), and what
        listing them needs."""

        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.executemany(
                "INSERT OR IGNORE INTO authored_bodies (quiz_no, bank_json) VALUES (?, ?)", bodies
            )
            await conn.executemany(_LISTING_FROM_JSON, [(no,) for no, _ in bodies])

        if bodies:
            await self._write(tx)

    async def authored_by(self, author_id: int) -> list[AuthoredQuiz]:
        """The live quizzes of one author, oldest first."""
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM authored_quizzes WHERE author_id = ? AND deleted_at IS NULL"
            " ORDER BY quiz_no",
            (author_id,),
        )
        return [_authored(r) for r in rows]

    async def authored(self, quiz_no: int) -> AuthoredQuiz | None:
        row = await self._fetchone(
            f"SELECT {_COLUMNS} FROM authored_quizzes WHERE quiz_no = ?", (quiz_no,)
        )
        return None if row is None else _authored(row)

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

    async def stored_by(self, author_id: int) -> int:
        """The bytes a user's live stored quizzes keep (bank texts and pictures)."""
        row = await self._fetchone(
            "SELECT COALESCE(SUM(stored_bytes), 0) FROM authored_quizzes"
            " WHERE author_id = ? AND deleted_at IS NULL",
            (author_id,),
        )
        return 0 if row is None else int(row[0])

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

    # -- drafts ------------------------------------------------------------------------------

    async def draft(self, user_id: int) -> Draft | None:
        row = await self._fetchone(
            "SELECT user_id, stage, title, language, questions, updated_at FROM quiz_drafts"
            " WHERE user_id = ?",
            (user_id,),
        )
        return None if row is None else Draft(row[0], row[1], row[2], row[3], row[4], row[5])

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


async def _draft_pictures(conn: aiosqlite.Connection, user_id: int) -> set[str]:
    async with conn.execute(
        "SELECT questions FROM quiz_drafts WHERE user_id = ?", (user_id,)
    ) as cur:
        row = await cur.fetchone()
    return set() if row is None else named_pictures(str(row[0]))
