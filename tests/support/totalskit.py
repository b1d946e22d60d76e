"""Shared steps of the storage_totals tests."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

from bot.storage import Answer, Mode, NewRun, Plan
from bot.storage.schema import GROUP_TOTALS_AGGREGATE, migrate

T0 = 1_700_000_000.0


PLAN = Plan(("q1", "q2", "q3", "q4"), tuple((0, 1, 2, 3) for _ in range(4)))


TOTALS = (
    "SELECT chat_id, season, user_id, points, correct, answered, runs, last_at FROM group_totals"
)


def new_run(chat_id: int, *, mode: Mode = "group", thread_id: int = 0) -> NewRun:
    return NewRun(chat_id, thread_id, mode, "physics", "en", 30, PLAN, 1, T0)


def ans(run_id: int, q: int, user: int, correct: bool, points: int, at: float) -> Answer:
    return Answer(run_id, q, f"q{q + 1}", user, q % 4, correct, points, at)


def totals_and_aggregate(path: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    conn = sqlite3.connect(path)
    try:
        table = conn.execute(TOTALS + " ORDER BY 1, 2, 3").fetchall()
        aggregate = conn.execute(GROUP_TOTALS_AGGREGATE + " ORDER BY 1, 2, 3").fetchall()
    finally:
        conn.close()
    return table, aggregate


def version_3_file(path: Path, rng: random.Random) -> None:
    """A file as version 3 of the code left it, with a history of group and practice answers."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert migrate(conn, target=3) == 3
        conn.execute("BEGIN")
        for chat_id, season in ((-1, 2), (-2, 1), (-3, 1)):
            conn.execute(
                "INSERT INTO chats (chat_id, title, kind, season) VALUES (?, ?, 'group', ?)",
                (chat_id, f"Group {-chat_id}", season),
            )
        for user in range(1, 16):
            conn.execute("INSERT INTO users (user_id, name) VALUES (?, ?)", (user, f"U{user}"))
        for run_id in range(1, 41):
            mode = "practice" if rng.random() < 0.25 else "group"
            chat_id = rng.choice([-1, -2, -3]) if mode == "group" else rng.randint(1, 15)
            season = rng.choice([1, 2]) if chat_id == -1 else 1
            conn.execute(
                "INSERT INTO runs (run_id, chat_id, mode, quiz_id, language, seconds, season,"
                " plan, question_count, status, started_at) VALUES (?, ?, ?, 'physics', 'en', 30,"
                " ?, '{}', 4, ?, ?)",
                (run_id, chat_id, mode, season, rng.choice(["finished", "stopped"]), T0),
            )
            for q in range(4):
                for user in rng.sample(range(1, 16), rng.randint(1, 8)):
                    correct = rng.random() < 0.5
                    conn.execute(
                        "INSERT INTO answers VALUES (?, ?, ?, ?, 0, ?, ?, ?)",
                        (run_id, q, f"q{q + 1}", user, int(correct),
                         rng.choice([0, 5, 10]) if correct else 0, T0 + rng.randint(0, 9)),
                    )  # fmt: skip
        conn.execute("COMMIT")
    finally:
        conn.close()
