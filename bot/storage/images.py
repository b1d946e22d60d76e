"""Pictures of questions (table of schema step 8): each kept once, by the SHA-256 of its content.

A stored quiz's pictures keep their bytes here (``data``); a folder bank's pictures are read
from their files, and have a row only once uploaded. ``file_id`` is Telegram's, returned by
the first ``sendPhoto`` that uploaded the picture, and sent instead of the bytes after that.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import aiosqlite

from .core import StoreCore

_NAMED = re.compile(r"pictures/([0-9a-f]{64})\.")


def named_pictures(text: str) -> set[str]:
    """The pictures (SHA-256) a draft's JSON or a bank text names (``pictures/<sha256>.<ext>``)."""
    return set(_NAMED.findall(text))


async def drop_unused(conn: aiosqlite.Connection, candidates: Iterable[str]) -> int:
    """In a write transaction: drop the bytes of those pictures (SHA-256) that no live stored
    quiz and no draft names any more (a quiz deleted, a draft's picture replaced or the draft
    given up); their ``file_id`` stays, for a run still going. How many were dropped."""
    dropped = 0
    for sha in sorted(set(candidates)):
        cur = await conn.execute(
            "UPDATE images SET data = NULL WHERE sha256 = ? AND data IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM quiz_pictures p JOIN authored_quizzes a"
            " ON a.quiz_no = p.quiz_no WHERE p.sha256 = ? AND a.deleted_at IS NULL)"
            " AND NOT EXISTS (SELECT 1 FROM quiz_drafts d WHERE instr(d.questions, ?) > 0)",
            (sha, sha, sha),
        )
        dropped += cur.rowcount
    return dropped


class ImagesMixin(StoreCore):
    async def image_file_id(self, sha256: str) -> str | None:
        """Telegram's id of the picture, once it was uploaded."""
        row = await self._fetchone("SELECT file_id FROM images WHERE sha256 = ?", (sha256,))
        return None if row is None or row[0] is None else str(row[0])

    async def image_data(self, sha256: str) -> tuple[bytes, str] | None:
        """A stored quiz's picture: its bytes and type."""
        row = await self._fetchone(
            "SELECT data, mime FROM images WHERE sha256 = ? AND data IS NOT NULL", (sha256,)
        )
        return None if row is None else (bytes(row[0]), str(row[1]))

    async def set_image_file_id(self, sha256: str, mime: str, file_id: str | None) -> None:
        """Remember (None: forget) Telegram's id of an uploaded picture."""
        await self._write(
            lambda conn: conn.execute(
                "INSERT INTO images (sha256, mime, file_id) VALUES (?, ?, ?)"
                " ON CONFLICT (sha256) DO UPDATE SET file_id = excluded.file_id",
                (sha256, mime, file_id),
            )
        )
