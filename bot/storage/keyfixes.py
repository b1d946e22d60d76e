"""Key fixes: a key a re-grade changed stays the quiz's key (table ``key_fixes``, schema 14).

A fix is written in the one transaction that re-scores the group's answers, with who made it,
where and when, and the key it replaced; a stored quiz's current version takes it in the same
transaction (not a new version: the fix holds for the answers given with it too), and the
students' "wrong answer key" reports of that question are marked resolved by it. A folder
bank's file is never written: its fixes are read back at start-up and laid over it
(``key_fixes``), and ``quizbot validate`` lists them (``key_fixes_in_file``).

The reports a fix resolved are the teacher feature's query (``bot/features/teacher/queries.py``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from .analysis import Rescored, write_rescored
from .core import StoreCore
from .versions import NewVersion, write_version

_COLUMNS = "fix_id, quiz_id, question_id, key, old_key, chat_id, user_id, fixed_at"


@dataclass(frozen=True, slots=True)
class KeyFix:
    """One kept fix: question ``question_id`` of ``quiz_id`` judged by ``key`` (JSON,
    ``bot.core.regrade.key_to_json``) instead of ``old_key`` since ``fixed_at``."""

    fix_id: int
    quiz_id: str
    question_id: str
    key: str
    old_key: str
    chat_id: int | None
    user_id: int
    fixed_at: float


def _fix(row: sqlite3.Row | tuple[object, ...]) -> KeyFix:
    return KeyFix(
        int(str(row[0])),
        str(row[1]),
        str(row[2]),
        str(row[3]),
        str(row[4]),
        None if row[5] is None else int(str(row[5])),
        int(str(row[6])),
        float(str(row[7])),
    )


class KeyFixesMixin(StoreCore):
    async def fix_key(
        self,
        changes: Sequence[Rescored],
        fix: KeyFix,
        body: NewVersion | None = None,
    ) -> tuple[int, int]:
        """Re-scored answers, the fix kept (its ``fix_id`` is assigned here), a stored quiz's
        new body, and the question's open key reports resolved, in one transaction:
        (answers changed, the new fix's id)."""

        async def tx(conn: aiosqlite.Connection) -> tuple[int, int]:
            changed = await write_rescored(conn, changes)
            async with conn.execute(
                "INSERT INTO key_fixes (quiz_id, question_id, key, old_key, chat_id, user_id,"
                " fixed_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING fix_id",
                (
                    fix.quiz_id,
                    fix.question_id,
                    fix.key,
                    fix.old_key,
                    fix.chat_id,
                    fix.user_id,
                    fix.fixed_at,
                ),
            ) as cur:
                row = await cur.fetchone()
            assert row is not None
            fix_id = int(row[0])
            await conn.execute(
                "UPDATE reports SET resolved_by = ? WHERE quiz_id = ? AND question_id = ?"
                " AND reason = 'key' AND resolved_by IS NULL",
                (fix_id, fix.quiz_id, fix.question_id),
            )
            if body is not None:
                await write_version(conn, body, fix.fixed_at, keep=False)
            return changed, fix_id

        return await self._write(tx)

    async def key_fixes(self, quiz_id: str | None = None) -> list[KeyFix]:
        """The fixes kept, oldest first: of one quiz, or of every quiz."""
        if quiz_id is None:
            rows = await self._fetchall(f"SELECT {_COLUMNS} FROM key_fixes ORDER BY fix_id")
        else:
            rows = await self._fetchall(
                f"SELECT {_COLUMNS} FROM key_fixes WHERE quiz_id = ? ORDER BY fix_id", (quiz_id,)
            )
        return [_fix(r) for r in rows]


def key_fixes_in_file(path: Path) -> list[KeyFix]:
    """The fixes kept in the database at ``path``, read only (``quizbot validate``); none if
    there is no such file or it predates them."""
    if not path.exists():
        return []
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = conn.execute(f"SELECT {_COLUMNS} FROM key_fixes ORDER BY fix_id").fetchall()
    except sqlite3.DatabaseError:  # an older file, or not a database
        return []
    finally:
        conn.close()
    return [_fix(r) for r in rows]
