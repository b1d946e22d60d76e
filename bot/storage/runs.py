"""Quiz runs (one quiz played once in one chat) and the answers given in them."""

from __future__ import annotations

import sqlite3
from typing import Any

import aiosqlite

from bot.core.engine import Phase

from .core import StoreCore, _AnswerJob, _SelectionJob
from .models import (
    END_STATUSES,
    GROUP,
    LANGUAGES,
    MODES,
    PHASES,
    STATUSES,
    Answer,
    EndStatus,
    Mode,
    NewRun,
    RunConflict,
    StoredRun,
    plan_from_json,
    plan_to_json,
)

RUN_COLUMNS = (
    "run_id, chat_id, thread_id, mode, quiz_id, language, seconds, season, plan, current, phase,"
    " message_id, posted_at, deadline, status, started_by, started_at, finished_at"
)
ANSWER_COLUMNS = (
    "run_id, q_index, question_id, user_id, option, correct, points, answered_at, given, credit"
)


def run_from_row(row: sqlite3.Row | tuple[Any, ...]) -> StoredRun:
    return StoredRun(
        run_id=row[0],
        chat_id=row[1],
        thread_id=row[2],
        mode=MODES[row[3]],
        quiz_id=row[4],
        language=LANGUAGES[row[5]],
        seconds=row[6],
        season=row[7],
        plan=plan_from_json(row[8]),
        current=row[9],
        phase=PHASES[row[10]],
        message_id=row[11],
        posted_at=row[12],
        deadline=row[13],
        status=STATUSES[row[14]],
        started_by=row[15],
        started_at=row[16],
        finished_at=row[17],
    )


def answer_from_row(row: sqlite3.Row) -> Answer:
    return Answer(
        run_id=row[0],
        q_index=row[1],
        question_id=row[2],
        user_id=row[3],
        option=row[4],
        correct=bool(row[5]),
        points=row[6],
        answered_at=row[7],
        given=row[8],
        credit=row[9],
    )


async def ensure_chat(conn: aiosqlite.Connection, chat_id: int, now: float) -> int:
    """Make sure ``chat_id`` has a chats row (and its season 1); return its current season.

    Must run inside a write transaction.
    """
    await conn.execute(
        "INSERT INTO chats (chat_id, season, season_started_at) VALUES (?, 1, ?)"
        " ON CONFLICT (chat_id) DO NOTHING",
        (chat_id, now),
    )
    await conn.execute(
        "INSERT INTO seasons (chat_id, season, started_at) VALUES (?, 1, ?) ON CONFLICT DO NOTHING",
        (chat_id, now),
    )
    rows = list(
        await conn.execute_fetchall("SELECT season FROM chats WHERE chat_id = ?", (chat_id,))
    )
    return int(rows[0][0])


class RunsMixin(StoreCore):
    async def create_run(self, run: NewRun) -> StoredRun:
        """Store a new running run stamped with the chat's current season.

        Raises :class:`RunConflict` if it is a group run and one is already running in the same
        chat and thread. Practice runs never conflict.
        """
        if run.mode not in MODES:
            raise ValueError(f"unknown mode {run.mode!r}")
        plan_json = plan_to_json(run.plan)

        async def tx(conn: aiosqlite.Connection) -> StoredRun:
            if run.mode == GROUP:
                rows = list(
                    await conn.execute_fetchall(
                        "SELECT run_id FROM runs WHERE chat_id = ? AND thread_id = ?"
                        " AND mode = 'group' AND status = 'running'",
                        (run.chat_id, run.thread_id),
                    )
                )
                if rows:
                    raise RunConflict(run.chat_id, run.thread_id, int(rows[0][0]))
            season = await ensure_chat(conn, run.chat_id, self._clock())
            rows = list(
                await conn.execute_fetchall(
                    "INSERT INTO runs (chat_id, thread_id, mode, quiz_id, language, seconds,"
                    " season, plan, question_count, started_by, started_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    f" RETURNING {RUN_COLUMNS}",
                    (
                        run.chat_id,
                        run.thread_id,
                        run.mode,
                        run.quiz_id,
                        run.language,
                        run.seconds,
                        season,
                        plan_json,
                        len(run.plan.question_ids),
                        run.started_by,
                        run.started_at,
                    ),
                )
            )
            return run_from_row(rows[0])

        return await self._write(tx)

    async def save_progress(
        self,
        run_id: int,
        *,
        current: int,
        phase: Phase,
        message_id: int | None,
        posted_at: float | None,
        deadline: float | None,
    ) -> None:
        """Persist where a running run is; a run that already ended is left untouched.

        A question's opening (``phase`` open with ``posted_at``) is also kept in run_questions,
        for answer times.
        """
        if phase not in PHASES:
            raise ValueError(f"unknown phase {phase!r}")

        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE runs SET current = ?, phase = ?, message_id = ?, posted_at = ?,"
                " deadline = ? WHERE run_id = ? AND status = 'running'",
                (current, phase, message_id, posted_at, deadline, run_id),
            )
            if phase == "open" and posted_at is not None:  # when this question was put
                await conn.execute(
                    "INSERT INTO run_questions (run_id, q_index, posted_at)"
                    " SELECT run_id, ?, ? FROM runs WHERE run_id = ? AND status = 'running'"
                    " ON CONFLICT DO NOTHING",
                    (current, posted_at, run_id),
                )

        await self._write(tx)

    async def finish_run(self, run_id: int, status: EndStatus) -> None:
        """End a running run (``finished``, ``stopped`` or ``aborted``); idempotent.

        Sets ``finished_at`` to the clock and ``phase`` to ``closed``. An already ended run keeps
        its first status and time.
        """
        if status not in END_STATUSES:
            raise ValueError(f"unknown end status {status!r}")
        now = self._clock()

        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE runs SET status = ?, finished_at = ?, phase = 'closed'"
                " WHERE run_id = ? AND status = 'running'",
                (status, now, run_id),
            )

        await self._write(tx)

    async def get_run(self, run_id: int) -> StoredRun | None:
        row = await self._fetchone(f"SELECT {RUN_COLUMNS} FROM runs WHERE run_id = ?", (run_id,))
        return None if row is None else run_from_row(row)

    async def running_runs(self, mode: Mode | None = None) -> list[StoredRun]:
        """All runs still running (to resume them after a restart), oldest first."""
        if mode is None:
            # "+run_id": sort the few running rows found through the partial index runs_running,
            # rather than walking the whole table in run_id order
            rows = await self._fetchall(
                f"SELECT {RUN_COLUMNS} FROM runs WHERE status = 'running' ORDER BY +run_id"
            )
        else:
            rows = await self._fetchall(
                f"SELECT {RUN_COLUMNS} FROM runs WHERE status = 'running' AND mode = ?"
                " ORDER BY run_id",
                (mode,),
            )
        return [run_from_row(r) for r in rows]

    async def running_run(self, chat_id: int, thread_id: int, mode: Mode) -> StoredRun | None:
        """The newest running run of ``mode`` in this chat and thread, if any."""
        row = await self._fetchone(
            f"SELECT {RUN_COLUMNS} FROM runs WHERE status = 'running' AND mode = ?"
            " AND chat_id = ? AND thread_id = ? ORDER BY run_id DESC LIMIT 1",
            (mode, chat_id, thread_id),
        )
        return None if row is None else run_from_row(row)

    async def record_answer(self, answer: Answer) -> bool:
        """Store one answer durably; True if stored now, False if that user had answered already.

        Answers are group-committed: concurrent calls share one transaction, and each call returns
        only after the transaction holding its row has committed. The first answer of a user to a
        question wins; a later one (even with another option) is ignored. Raises
        ``sqlite3.IntegrityError`` if the run does not exist.
        """
        return await self._enqueue(_AnswerJob(answer, self._new_future()))

    async def took_part(self, run_id: int, user_id: int) -> bool:
        """Whether the user answered at least once in that run (the report flow's check)."""
        row = await self._fetchone(
            "SELECT 1 FROM answers WHERE run_id = ? AND user_id = ? LIMIT 1", (run_id, user_id)
        )
        return row is not None

    async def save_selection(self, run_id: int, q_index: int, user_id: int, picked: str) -> None:
        """Keep the options a group student has ticked so far (group-committed, the latest
        wins): a several-answers question's selection survives a restart."""
        await self._enqueue(_SelectionJob((run_id, q_index, user_id, picked), self._new_future()))

    async def selections(self, run_id: int, q_index: int) -> dict[int, str]:
        """The options each student had ticked on a question of a run, by user."""
        rows = await self._fetchall(
            "SELECT user_id, picked FROM selections WHERE run_id = ? AND q_index = ?",
            (run_id, q_index),
        )
        return {int(r[0]): str(r[1]) for r in rows}

    async def answers(self, run_id: int) -> list[Answer]:
        """Every answer of a run, by question, then in the order they came."""
        rows = await self._fetchall(
            f"SELECT {ANSWER_COLUMNS} FROM answers WHERE run_id = ?"
            " ORDER BY q_index, answered_at, user_id",
            (run_id,),
        )
        return [answer_from_row(r) for r in rows]
