"""Storage of homework, reports and re-grading: schema version 5 on an upgraded file."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from clockkit import ManualClock
from totalskit import PLAN, T0, ans, new_run, totals_and_aggregate, version_3_file

from bot.app.store import Store
from bot.features.homework.queries import AttemptRefused
from bot.storage import NewHomework, NewRun, Rescored
from bot.storage.schema import migrate


def counts(path: Path) -> tuple[int, int, int]:
    conn = sqlite3.connect(path)
    try:
        return tuple(
            conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("runs", "answers", "group_totals")
        )
    finally:
        conn.close()


async def test_version_4_file_upgrades_and_homework_counts_in_the_totals(tmp_path: Path) -> None:
    path = tmp_path / "v4.db"
    version_3_file(path, random.Random(5))
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, target=4) == 4
    conn.close()
    before = counts(path)
    async with await Store.open(path, clock=ManualClock()) as store:
        assert counts(path) == before  # the runs table was rebuilt, nothing lost
        table, aggregate = totals_and_aggregate(path)
        assert table == aggregate
        hw = await store.create_homework(NewHomework(-7, 0, "physics", "en", 30, 1, T0, T0 + 3600))
        attempt = NewRun(-7, 0, "homework", "physics", "en", 30, PLAN, 42, T0 + 10)
        run = await store.start_attempt(hw.homework_id, 42, attempt)
        assert (run.chat_id, run.mode, run.season) == (-7, "homework", 1)
        with pytest.raises(AttemptRefused, match="taken"):
            await store.start_attempt(hw.homework_id, 42, attempt)
        assert await store.record_answer(ans(run.run_id, 0, 42, True, 900, T0 + 20))
        assert await store.record_answer(ans(run.run_id, 1, 42, False, 0, T0 + 30))
        board = await store.leaderboard(-7)
        assert [(s.user_id, s.points, s.correct, s.answered) for s in board.rows] == [
            (42, 900, 1, 2)
        ]
        # a re-grading updates answers; the totals follow, and the same again changes nothing
        change = [Rescored(run.run_id, 1, 42, True, 1100), Rescored(run.run_id, 0, 42, True, 900)]
        assert await store.apply_regrade(change) == 1
        assert await store.apply_regrade(change) == 0
        table, aggregate = totals_and_aggregate(path)
        assert table == aggregate
        assert (await store.leaderboard(-7)).rows[0].points == 2000
        # the deadline: running attempts stop, no new one starts
        assert await store.end_homework(hw.homework_id, T0 + 3600)
        assert not await store.end_homework(hw.homework_id, T0 + 3601)
        assert (await store.get_run(run.run_id)).status == "stopped"  # type: ignore[union-attr]
        with pytest.raises(AttemptRefused, match="closed"):
            await store.start_attempt(hw.homework_id, 43, attempt)
        # practice never reaches a group's totals; group runs keep working as before
        practice = await store.create_run(new_run(43, mode="practice"))
        assert await store.record_answer(ans(practice.run_id, 0, 43, True, 0, T0))
        table, aggregate = totals_and_aggregate(path)
        assert table == aggregate


async def test_reports_only_from_someone_who_took_part(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "r.db", clock=ManualClock()) as store:
        run = await store.create_run(new_run(-9))
        assert await store.record_answer(ans(run.run_id, 0, 5, False, 0, T0))
        assert await store.add_report(run.run_id, 1, 5, "key", T0) is True
        assert await store.add_report(run.run_id, 1, 5, "key", T0) is False  # once per reason
        assert await store.add_report(run.run_id, 1, 5, "typo", T0) is True
        assert await store.add_report(run.run_id, 1, 6, "key", T0) is None  # not in the run
        assert await store.add_report(run.run_id, 99, 5, "key", T0) is None  # no such question
        assert await store.add_report(run.run_id + 1, 0, 5, "key", T0) is None
        assert await store.report_counts(-9, "physics") == {"q2": {"key": 1, "typo": 1}}
        await store.migrate_chat(-9, -109)  # reports follow a group that became a supergroup
        assert await store.report_counts(-109, "physics") == {"q2": {"key": 1, "typo": 1}}
