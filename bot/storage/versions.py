"""Stored quizzes changed in place, and the one pending change of each user (schema step 15).

A change (an edit made in Telegram, a file of the same title replacing the quiz, a key fix)
keeps the quiz's number, name and links and gives it a new version; the model of the version
it replaced is kept in ``authored_versions``, and every run of a stored quiz notes the version it
was planned with (``run_versions``, filled by a trigger), so its recap and review show the
questions as they were judged. A user's pending change (``quiz_edits``) is one row: what is
being edited, or an uploaded quiz waiting for "replace or keep both".

A quiz's replacement and the pending edits are the authoring feature's queries
(``bot/features/authoring/queries.py``); what the banks read of versions stays here.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from .authored import _LISTING_FROM_JSON
from .core import StoreCore


@dataclass(frozen=True, slots=True)
class NewVersion:
    """A stored quiz's next version: its bank text, model, title and size."""

    quiz_no: int
    bank_yaml: str
    bank_json: str
    title: str
    question_count: int


async def write_version(
    conn: aiosqlite.Connection, new: NewVersion, at: float, *, keep: bool = True
) -> int:
    """In an open transaction: the current model kept as an old version, ``new`` in its place;
    the new version's number. ``keep`` False: ``new`` replaces the current version itself (a
    key fix, which holds for the answers already given too)."""
    async with conn.execute(
        "SELECT q.version, b.bank_json FROM authored_quizzes q"
        " LEFT JOIN authored_bodies b ON b.quiz_no = q.quiz_no WHERE q.quiz_no = ?",
        (new.quiz_no,),
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        raise LookupError(f"no stored quiz {new.quiz_no}")
    version = int(row[0])
    if keep and row[1] is not None:
        await conn.execute(
            "INSERT OR REPLACE INTO authored_versions (quiz_no, version, bank_json, replaced_at)"
            " VALUES (?, ?, ?, ?)",
            (new.quiz_no, version, row[1], at),
        )
    await conn.execute(
        "UPDATE authored_quizzes SET bank_yaml = ?, title = ?, question_count = ?, version = ?"
        " WHERE quiz_no = ?",
        (new.bank_yaml, new.title, new.question_count, version + keep, new.quiz_no),
    )
    await conn.execute(
        "INSERT INTO authored_bodies (quiz_no, bank_json) VALUES (?, ?)"
        " ON CONFLICT (quiz_no) DO UPDATE SET bank_json = excluded.bank_json",
        (new.quiz_no, new.bank_json),
    )
    await conn.execute(_LISTING_FROM_JSON, (new.quiz_no,))
    return version + keep


class VersionsMixin(StoreCore):
    def authored_versions_now(self, quiz_no: int) -> list[str]:
        """The model JSON of a stored quiz's earlier versions, newest first, read at once (a
        run planned with one of them, found by a lookup that cannot wait)."""
        rows = (
            self._now_reader()
            .execute(
                "SELECT bank_json FROM authored_versions WHERE quiz_no = ? ORDER BY version DESC",
                (quiz_no,),
            )
            .fetchall()
        )
        return [str(r[0]) for r in rows]

    def authored_version_now(self, quiz_no: int, version: int) -> str | None:
        """The model JSON of one earlier version of a stored quiz (None: not an earlier one),
        read at once."""
        row = (
            self._now_reader()
            .execute(
                "SELECT bank_json FROM authored_versions WHERE quiz_no = ? AND version = ?",
                (quiz_no, version),
            )
            .fetchone()
        )
        return None if row is None else str(row[0])

    async def run_version(self, run_id: int) -> int | None:
        """The version of a stored quiz a run was planned with (None: a folder bank's run)."""
        row = await self._fetchone("SELECT version FROM run_versions WHERE run_id = ?", (run_id,))
        return None if row is None else int(row[0])

    # -- the pending change of each user ----------------------------------------------------
