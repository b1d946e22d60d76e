"""Storage of quizzes written in Telegram: the migration step on a real old file, names, limits,
deletion that keeps history, drafts."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.app.store import Store
from bot.features.authoring.queries import NameTaken, NewAuthored
from bot.storage.schema import AUTHORED_STATEMENTS, MIGRATIONS, migrate

STEP = next(
    i
    for i, step in enumerate(MIGRATIONS)
    if step.__closure__ and AUTHORED_STATEMENTS in [c.cell_contents for c in step.__closure__]
)


def new(author: int, name: str) -> NewAuthored:
    return NewAuthored(author, name, "T", "en", "title: T\n", 1, "polls", 1.0)


async def test_upgrade_keeps_history_and_adds_the_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=STEP)  # the file as the version before this step left it
    conn.execute(
        "INSERT INTO runs (chat_id, mode, quiz_id, language, seconds, season, plan,"
        " question_count, started_at) VALUES (-1, 'group', 'zero', 'en', 30, 1, '{}',"
        " 8, 0)"
    )
    conn.close()
    async with await Store.open(path) as store:
        assert await store.run_counts(["zero", "u.1"]) == {"zero": 1}
        first = await store.add_authored(new(7, "net"), limit=2)
        assert first is not None and first.quiz_id == "u.1"
        with pytest.raises(NameTaken):  # live names are unique across authors
            await store.add_authored(new(8, "net"), limit=2)
        assert await store.add_authored(new(7, "two"), limit=2) is not None
        assert await store.add_authored(new(7, "three"), limit=2) is None  # at the limit
        assert await store.delete_authored(first.quiz_no, 5.0)
        assert not await store.delete_authored(first.quiz_no, 6.0)
        again = await store.add_authored(new(8, "net"), limit=2)  # a deleted name is free
        assert again is not None and again.quiz_no == 3  # numbers are never reused
        gone = await store.authored(first.quiz_no)
        assert gone is not None and gone.deleted_at == 5.0
        assert await store.authored_text(first.quiz_no) == "title: T\n"
        assert [r.name for r in await store.authored_by(7)] == ["two"]
        assert await store.drop_draft(7) is False
