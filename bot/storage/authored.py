"""Quizzes written in Telegram and their unfinished drafts (tables of schema steps 5 and 7).

A stored quiz is its validated bank YAML text plus who wrote it, its name and how it is shared;
since step 7 also the validated model as JSON (``authored_bodies``, ``Quiz.to_json``), which
loads without parsing YAML again. Deleting one only sets ``deleted_at``: its runs, answers and
review cards keep pointing at its internal id ``u.<quiz_no>``, never given to another quiz.

What listing and lookups need (:class:`AuthoredQuiz`, no questions) is read through indexes;
a quiz's questions are read one quiz at a time, when it is played (:meth:`authored_body_now`).

Saving, renaming, sharing and deleting a quiz and its draft are the authoring feature's queries
(``bot/features/authoring/queries.py``); the lookups the banks and several features make stay here.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

import aiosqlite

from .core import StoreCore
from .schema import LISTING_FROM_JSON

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
class Draft:
    """An unfinished /newquiz: ``questions`` is the JSON list the authoring module keeps."""

    user_id: int
    stage: str  # "title" or "questions"
    title: str | None
    language: str
    questions: str
    updated_at: float


# every column but the bank text; for live rows all in the index authored_live_meta
_COLUMNS = (
    "quiz_no, author_id, name, title, language, question_count, origin, "
    "share_token, published, created_at, deleted_at, title_bn, title_en, run_length"
)

# the listing columns of one quiz (?: its number) from its model JSON
_LISTING_FROM_JSON = LISTING_FROM_JSON.rstrip() + " AND b.quiz_no = ?"


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

    async def authored(self, quiz_no: int) -> AuthoredQuiz | None:
        row = await self._fetchone(
            f"SELECT {_COLUMNS} FROM authored_quizzes WHERE quiz_no = ?", (quiz_no,)
        )
        return None if row is None else _authored(row)

    async def stored_by(self, author_id: int) -> int:
        """The bytes a user's live stored quizzes keep (bank texts and pictures)."""
        row = await self._fetchone(
            "SELECT COALESCE(SUM(stored_bytes), 0) FROM authored_quizzes"
            " WHERE author_id = ? AND deleted_at IS NULL",
            (author_id,),
        )
        return 0 if row is None else int(row[0])

    # -- drafts ------------------------------------------------------------------------------

    async def draft(self, user_id: int) -> Draft | None:
        row = await self._fetchone(
            "SELECT user_id, stage, title, language, questions, updated_at FROM quiz_drafts"
            " WHERE user_id = ?",
            (user_id,),
        )
        return None if row is None else Draft(row[0], row[1], row[2], row[3], row[4], row[5])
