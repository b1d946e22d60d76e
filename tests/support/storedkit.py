"""Shared steps of the stored_on_demand tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from quizkit import ROOT

from bot.storage.schema import AUTHORED_BODIES_STATEMENTS, MIGRATIONS, migrate

ZERO_YAML = (ROOT / "questions" / "zero.yaml").read_text(encoding="utf-8")


STEP = next(
    i
    for i, step in enumerate(MIGRATIONS)
    if step.__closure__
    and AUTHORED_BODIES_STATEMENTS in [c.cell_contents for c in step.__closure__]
)


def old_file(path: Path, quizzes: int, *, author: int = 7) -> None:
    """A database as the version before the JSON form left it, with stored quizzes (every
    third deleted, the first published)."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=STEP)
    conn.executemany(
        "INSERT INTO authored_quizzes (author_id, name, title, language, bank_yaml,"
        " question_count, origin, published, created_at, deleted_at)"
        " VALUES (?, ?, ?, 'bn', ?, 8, 'yaml', ?, 1.0, ?)",
        [
            (
                author,
                f"quiz-{n}",
                f"Quiz  Number {n}",
                ZERO_YAML,
                int(n == 1),
                2.0 if n % 3 == 0 else None,
            )
            for n in range(1, quizzes + 1)
        ],
    )
    conn.close()
