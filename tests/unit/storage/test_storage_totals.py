"""Per-(chat, season, user) group totals (schema version 4): migration backfill, the trigger that
keeps them current, chat migration, and rankings read from them against the answers themselves."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from clockkit import ManualClock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from totalskit import T0, TOTALS, ans, new_run, totals_and_aggregate, version_3_file

from bot.app.store import Store
from bot.features.stats.queries import (
    _CHAT_SEASON,
    _TOTALS_GROUPS_SQL,
    _TOTALS_ONE_SQL,
    _TOTALS_RANKED_SQL,
    Leaderboard,
)
from bot.storage import SCHEMA_VERSION, create_schema
from bot.storage.schema import GROUP_TOTALS_AGGREGATE
from bot.storage.stats import standing_from_row

# the rankings as they were computed before version 4: straight from the answers

_OLD_GROUPS_SQL = """
    SELECT r.chat_id, c.title, SUM(a.points), SUM(a.correct), COUNT(*), COUNT(DISTINCT a.run_id)
    FROM answers AS a
    CROSS JOIN runs AS r ON r.run_id = a.run_id
    JOIN chats AS c ON c.chat_id = r.chat_id
    WHERE a.user_id = ? AND r.mode = 'group' AND r.season = c.season
    GROUP BY r.chat_id
"""


async def reference_board(store: Store, chat_id: int, season: int, limit: int,
                          user_id: int | None) -> Leaderboard:  # fmt: skip
    rows = await store._ranked(_CHAT_SEASON, (chat_id, season), limit=limit, user_id=user_id)
    top = tuple(standing_from_row(r) for r in rows if r[0] <= limit)
    caller = next((standing_from_row(r) for r in rows if r[0] > limit), None)
    total = int(rows[0][8]) if rows else 0
    return Leaderboard(season=season, rows=top, caller=caller, total_players=total)


async def reference_groups(store: Store, user_id: int) -> list[tuple[Any, ...]]:
    lines = []
    for chat_id, title, points, correct, answered, runs in await store._fetchall(
        _OLD_GROUPS_SQL, (user_id,)
    ):
        season = await store.current_season(chat_id)
        board = await reference_board(store, chat_id, season, 0, user_id)
        assert board.caller is not None
        lines.append((chat_id, title, points, correct, answered, runs, board.caller.rank))
    lines.sort(key=lambda g: (-g[2], g[6], g[0]))
    return lines


async def check_against_answers(store: Store) -> None:
    """The totals table equals the aggregate of the answers, and every ranking read from it equals
    the same ranking computed from the answers (order, ranks, caller line, player count)."""
    table, aggregate = totals_and_aggregate(store.path)
    assert table == aggregate
    keys = await store._fetchall(
        "SELECT DISTINCT chat_id, season FROM runs WHERE mode = 'group'"
        " UNION SELECT chat_id, season FROM chats"
    )
    users = [int(r[0]) for r in await store._fetchall("SELECT DISTINCT user_id FROM answers")]
    for chat_id, season in keys:
        for limit in (0, 2, 10):
            for user_id in [None, 999_999, *users]:
                got = await store.leaderboard(chat_id, season=season, limit=limit,
                                              user_id=user_id)  # fmt: skip
                assert got == await reference_board(store, chat_id, season, limit, user_id)
        for user_id in users:
            want = await reference_board(store, chat_id, season, 0, user_id)
            assert await store.group_stats(chat_id, user_id, season=season) == want.caller
    for user_id in users:
        overview = await store.user_overview(user_id)
        lines = [(g.chat_id, g.title, g.points, g.correct, g.answered, g.runs, g.rank)
                 for g in overview.groups]  # fmt: skip
        assert lines == await reference_groups(store, user_id)


# -- migration -----------------------------------------------------------------------------------


async def test_upgrade_version_3_file_backfills_totals(tmp_path: Path) -> None:
    path = tmp_path / "v3.db"
    version_3_file(path, random.Random(3))
    conn = sqlite3.connect(path)
    before = conn.execute(GROUP_TOTALS_AGGREGATE + " ORDER BY 1, 2, 3").fetchall()
    conn.close()
    assert len(before) > 20
    inode = os.stat(path).st_ino
    async with await Store.open(path, clock=ManualClock()) as store:
        table, aggregate = totals_and_aggregate(path)
        assert table == aggregate == before
        await check_against_answers(store)
        # and kept current from here on
        run = await store.create_run(new_run(-2, thread_id=5))
        assert await store.record_answer(ans(run.run_id, 0, 1, True, 7, T0 + 100))
        await check_against_answers(store)
    assert os.stat(path).st_ino == inode  # upgraded in place, not recreated
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 5
    finally:
        conn.close()


def test_trigger_counts_only_rows_really_inserted(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    try:
        create_schema(conn)
        conn.execute(
            "INSERT INTO runs (run_id, chat_id, mode, quiz_id, language, seconds, season, plan,"
            " question_count, started_at) VALUES (1, -1, 'group', 'x', 'en', 10, 1, '{}', 4, 0)"
        )
        insert = "INSERT INTO answers VALUES (1, ?, 'q', 5, 0, 1, ?, ?, NULL, NULL)"
        conn.execute(insert + " ON CONFLICT DO NOTHING", (0, 10, 1.0))
        # the same key again: in one statement, in a later one, and with OR IGNORE
        conn.execute(insert + ", (1, ?, 'q', 5, 0, 1, ?, ?, NULL, NULL) ON CONFLICT DO NOTHING",
                     (1, 20, 2.0, 1, 99, 9.0))  # fmt: skip
        conn.execute(insert + " ON CONFLICT DO NOTHING", (0, 99, 9.0))
        conn.execute(insert.replace("INSERT", "INSERT OR IGNORE"), (1, 99, 9.0))
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(insert, (0, 99, 9.0))
        assert conn.execute(TOTALS).fetchall() == [(-1, 1, 5, 30, 2, 2, 1, 2.0)]
        assert conn.execute(TOTALS).fetchall() == conn.execute(GROUP_TOTALS_AGGREGATE).fetchall()
    finally:
        conn.close()


# -- the totals against the answers, after any mix of operations ---------------------------------

CHATS = (-11, -12, -13)
THREADS = itertools.count(1)

answer_st = st.tuples(
    st.integers(0, 3),  # q_index
    st.integers(1, 6),  # user
    st.booleans(),
    st.sampled_from([0, 5, 10]),  # points: many ties
    st.integers(0, 4).map(lambda s: T0 + s),  # answered_at: many ties
)
op_st = st.one_of(
    # a run in a chat: its answers sent at once (one batch) and then a few of them again
    st.tuples(
        st.just("run"),
        st.integers(0, 2),
        st.sampled_from(["group", "group", "practice"]),
        st.lists(answer_st, max_size=10),
        st.booleans(),
    ),
    # late answers to the latest run still running (possibly of an earlier season)
    st.tuples(st.just("late"), st.lists(answer_st, min_size=1, max_size=4)),
    st.tuples(st.just("season"), st.integers(0, 2)),
    st.tuples(st.just("migrate"), st.integers(0, 2), st.integers(0, 2)),
)


async def apply_ops(store: Store, ops: list[tuple[Any, ...]]) -> None:
    running: list[int] = []
    for op in ops:
        if op[0] == "run":
            _, chat, mode, answers, keep_running = op
            thread = next(THREADS)  # distinct threads: group runs never conflict
            chat_id = CHATS[chat] if mode == "group" else 7  # practice: a private chat
            run = await store.create_run(new_run(chat_id, mode=mode, thread_id=thread))
            batch = [ans(run.run_id, q, u, ok, p if ok else 0, at) for q, u, ok, p, at in answers]
            first = await asyncio.gather(*(store.record_answer(a) for a in batch))
            seen: set[tuple[int, int]] = set()
            for a, stored in zip(batch, first, strict=True):
                assert stored == ((a.q_index, a.user_id) not in seen)
                seen.add((a.q_index, a.user_id))
            for a in batch[::2]:
                assert not await store.record_answer(a)  # a duplicate never counts twice
            if keep_running:
                running.append(run.run_id)
            else:
                await store.finish_run(run.run_id, "finished")
        elif op[0] == "late" and running:
            run_id = running[-1]
            for q, u, ok, p, at in op[1]:
                await store.record_answer(ans(run_id, q, u, ok, p if ok else 0, at + 50))
        elif op[0] == "season":
            await store.new_season(CHATS[op[1]])
        elif op[0] == "migrate":
            await store.migrate_chat(CHATS[op[1]], CHATS[op[2]])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(op_st, min_size=1, max_size=12))
def test_totals_equal_the_answers_after_any_operations(ops: list[tuple[Any, ...]]) -> None:
    async def scenario(path: Path) -> None:
        async with await Store.open(path, clock=ManualClock()) as store:
            for chat_id in CHATS:
                await store.remember_chat(chat_id, f"Chat {chat_id}", "group")
            for user in range(1, 7):
                await store.remember_user(user, f"User {user}", None)
            await apply_ops(store, ops)
            await check_against_answers(store)

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(scenario(Path(tmp) / "h.db"))


def random_ops(rng: random.Random, n: int) -> list[tuple[Any, ...]]:
    def answers(k: int) -> list[tuple[int, int, bool, int, float]]:
        return [(rng.randrange(4), rng.randint(1, 6), rng.random() < 0.6,
                 rng.choice([0, 5, 10]), T0 + rng.randrange(5)) for _ in range(k)]  # fmt: skip

    ops: list[tuple[Any, ...]] = []
    for _ in range(n):
        x = rng.random()
        if x < 0.6:
            mode = "practice" if rng.random() < 0.25 else "group"
            ops.append(("run", rng.randrange(3), mode, answers(rng.randint(0, 14)),
                        rng.random() < 0.3))  # fmt: skip
        elif x < 0.75:
            ops.append(("late", answers(rng.randint(1, 4))))
        elif x < 0.87:
            ops.append(("season", rng.randrange(3)))
        else:
            ops.append(("migrate", rng.randrange(3), rng.randrange(3)))
    return ops


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_totals_equal_the_answers_seeded(store: Store, seed: int) -> None:
    rng = random.Random(seed)
    for chat_id in CHATS:
        await store.remember_chat(chat_id, f"Chat {chat_id}", "group")
    for _ in range(4):  # checked along the way, not only at the end
        await apply_ops(store, random_ops(rng, 15))
        await check_against_answers(store)


async def test_migrate_chat_merges_totals(store: Store) -> None:
    old, new = -21, -100_21
    run = await store.create_run(new_run(old))
    for a in (ans(run.run_id, 0, 1, True, 10, T0 + 5), ans(run.run_id, 1, 1, True, 5, T0 + 9),
              ans(run.run_id, 0, 2, True, 10, T0 + 1)):  # fmt: skip
        assert await store.record_answer(a)
    await store.finish_run(run.run_id, "finished")
    other = await store.create_run(new_run(new))
    for a in (ans(other.run_id, 0, 1, False, 0, T0 + 3),
              ans(other.run_id, 0, 2, True, 10, T0 + 20)):  # fmt: skip
        assert await store.record_answer(a)
    await store.migrate_chat(old, new)
    await store.migrate_chat(old, new)
    conn = sqlite3.connect(store.path)
    try:
        assert conn.execute(TOTALS + " ORDER BY user_id").fetchall() == [
            (new, 1, 1, 15, 2, 3, 2, T0 + 9),
            (new, 1, 2, 20, 2, 2, 2, T0 + 20),
        ]
    finally:
        conn.close()
    board = await store.leaderboard(new)
    assert [(r.user_id, r.points, r.runs) for r in board.rows] == [(2, 20, 2), (1, 15, 2)]
    await check_against_answers(store)


# -- performance shape ---------------------------------------------------------------------------


async def test_totals_queries_use_indexes(store: Store) -> None:
    for chat_id in CHATS:
        run = await store.create_run(new_run(chat_id))
        for q in range(3):
            for u in range(9):
                await store.record_answer(ans(run.run_id, q, u, True, 10, T0))
    conn = sqlite3.connect(store.path)

    def plan_of(sql: str, params: tuple[object, ...]) -> str:
        rows = conn.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()
        return "\n".join(r[3] for r in rows)

    try:
        for analyzed in (False, True):
            if analyzed:
                conn.execute("ANALYZE")
            board = plan_of(_TOTALS_RANKED_SQL, (CHATS[0], 1, 10, None))
            assert "SEARCH group_totals USING PRIMARY KEY (chat_id=? AND season=?)" in board
            assert "answers" not in board
            one = plan_of(_TOTALS_ONE_SQL, (CHATS[0], 1, 3))
            assert "SEARCH t USING PRIMARY KEY (chat_id=? AND season=? AND user_id=?)" in one
            assert "SEARCH o USING PRIMARY KEY (chat_id=? AND season=?)" in one
            mine = plan_of(_TOTALS_GROUPS_SQL, (3,))
            assert "SEARCH t USING INDEX group_totals_user (user_id=?)" in mine
            assert "SEARCH c USING INTEGER PRIMARY KEY (rowid=?)" in mine
            assert "SCAN" not in mine
            # the trigger's "first answer of this player in this run?" lookup
            first = plan_of(
                "SELECT 1 FROM answers AS o WHERE o.user_id = ? AND o.run_id = ?"
                " AND o.q_index <> ?",
                (1, 1, 0),
            )
            assert "answers_user (user_id=? AND run_id=?)" in first
    finally:
        conn.close()
