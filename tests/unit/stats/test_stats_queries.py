"""Storage rankings: leaderboards, seasons, chat migration, overviews, run results, CSV export."""

from __future__ import annotations

import asyncio
import csv
import io
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app.store import Store
from bot.features.stats.queries import _CHAT_SEASON
from bot.render.export import results_csv, safe_cell
from bot.storage import Answer, Mode, NewRun, Plan, Standing
from bot.storage.runs import RUN_COLUMNS
from bot.storage.stats import _RANKED_SQL

RUNNING_SQL: list[tuple[str, tuple[object, ...]]] = [
    (f"SELECT {RUN_COLUMNS} FROM runs WHERE status = 'running' ORDER BY +run_id", ()),
    (
        f"SELECT {RUN_COLUMNS} FROM runs WHERE status = 'running' AND mode = ? ORDER BY run_id",
        ("x",),
    ),
]  # as in runs.running_runs

T0 = 1_700_000_000.0
CHAT = -1001


def plan(n: int = 3) -> Plan:
    return Plan(tuple(f"q{i + 1}" for i in range(n)), tuple((0, 1, 2, 3) for _ in range(n)))


def new_run(
    chat_id: int = CHAT,
    *,
    mode: Mode = "group",
    quiz_id: str = "physics",
    questions: int = 3,
    thread_id: int = 0,
    started_at: float = T0,
) -> NewRun:
    return NewRun(
        chat_id, thread_id, mode, quiz_id, "en", 30, plan(questions), 1, started_at
    )  # fmt: skip


def ans(run_id: int, q: int, user: int, *, option: int = 0, correct: bool = True,
        points: int = 10, at: float = T0 + 10) -> Answer:  # fmt: skip
    return Answer(run_id, q, f"q{q + 1}", user, option, correct, points, at)


async def play(store: Store, run_id: int, *answers: Answer) -> None:
    results = await asyncio.gather(*(store.record_answer(a) for a in answers))
    assert all(results)


async def finished_run(store: Store, *answers_of: tuple[int, int, bool, int, float], **kw: object
                       ) -> int:  # fmt: skip
    """A finished run; each answer given as (q_index, user, correct, points, answered_at)."""
    run = await store.create_run(new_run(**kw))  # type: ignore[arg-type]
    await play(
        store,
        run.run_id,
        *(ans(run.run_id, q, u, correct=c, points=p, at=t) for q, u, c, p, t in answers_of),
    )
    await store.finish_run(run.run_id, "finished")
    return run.run_id


# -- leaderboard ---------------------------------------------------------------------------------


async def test_ranking_ties(store: Store) -> None:
    for uid, name in [(1, "Ana"), (2, "Bo"), (3, "Cy"), (4, "Di"), (5, "Ed")]:
        await store.remember_user(uid, name, name.lower())
    run_id = await finished_run(
        store,
        # user 1: 20 points, 1 correct (one big answer)
        (0, 1, True, 20, T0 + 5),
        (1, 1, False, 0, T0 + 6),
        # user 2: 20 points, 2 correct -> beats user 1 on correct
        (0, 2, True, 10, T0 + 5),
        (1, 2, True, 10, T0 + 9),
        # users 3 and 4: 20 points, 2 correct, both; 4 got there first (last answer earlier)
        (0, 3, True, 10, T0 + 1),
        (1, 3, True, 10, T0 + 8),
        (0, 4, True, 10, T0 + 4),
        (1, 4, True, 10, T0 + 7),
        # user 5: fewer points
        (0, 5, True, 5, T0 + 1),
    )
    board = await store.leaderboard(CHAT)
    assert [(r.rank, r.user_id) for r in board.rows] == [(1, 4), (2, 3), (3, 2), (4, 1), (5, 5)]
    assert board.rows[0] == Standing(1, 4, "Di", "di", 20, 2, 2, 1)
    assert board.rows[3] == Standing(4, 1, "Ana", "ana", 20, 1, 2, 1)
    assert (board.season, board.total_players, board.caller) == (1, 5, None)
    # same order for the run itself, and a single player's line
    results = await store.run_results(run_id)
    assert [s.user_id for s in results] == [4, 3, 2, 1, 5]
    assert await store.group_stats(CHAT, 2) == board.rows[2]
    assert await store.group_stats(CHAT, 99) is None


async def test_points_add_up_across_runs(store: Store) -> None:
    await finished_run(store, (0, 1, True, 10, T0), (0, 2, True, 30, T0))
    await finished_run(store, (0, 1, True, 25, T0), (1, 1, False, 0, T0), quiz_id="chem")
    board = await store.leaderboard(CHAT)
    assert [(r.user_id, r.points, r.correct, r.answered, r.runs) for r in board.rows] == [
        (1, 35, 2, 3, 2),
        (2, 30, 1, 1, 1),
    ]
    only_chem = await store.leaderboard(CHAT, quiz_id="chem")
    assert [(r.user_id, r.points) for r in only_chem.rows] == [(1, 25)]
    assert (await store.leaderboard(CHAT, quiz_id="none")).rows == ()


async def test_caller_line_below_the_top(store: Store) -> None:
    await finished_run(store, *((0, u, True, 100 - u, T0) for u in range(1, 13)))
    board = await store.leaderboard(CHAT, user_id=12)
    assert [r.user_id for r in board.rows] == list(range(1, 11))
    assert board.caller is not None
    assert (board.caller.rank, board.caller.user_id) == (12, 12)
    assert board.total_players == 12
    top = await store.leaderboard(CHAT, user_id=3)
    assert (top.caller, len(top.rows)) == (None, 10)
    absent = await store.leaderboard(CHAT, user_id=999)
    assert absent.caller is None
    short = await store.leaderboard(CHAT, limit=3, user_id=11)
    assert [r.rank for r in short.rows] == [1, 2, 3]
    assert short.caller is not None
    assert short.caller.rank == 11


async def test_practice_never_counts(store: Store) -> None:
    await finished_run(store, (0, 1, True, 10, T0))
    await finished_run(store, (0, 1, True, 50, T0), (0, 2, True, 50, T0), mode="practice")
    # a private chat's practice doesn't create a board either
    await finished_run(
        store, (0, 3, True, 50, T0), (1, 3, False, 0, T0), chat_id=3, mode="practice"
    )
    board = await store.leaderboard(CHAT)
    assert [(r.user_id, r.points) for r in board.rows] == [(1, 10)]
    assert (await store.leaderboard(3)).total_players == 0
    overview = await store.user_overview(3)
    assert (overview.groups, overview.practice_answered, overview.practice_correct) == ((), 2, 1)


async def test_unfinished_and_stopped_runs_count(store: Store) -> None:
    run = await store.create_run(new_run())
    await play(store, run.run_id, ans(run.run_id, 0, 1))
    assert (await store.leaderboard(CHAT)).total_players == 1
    await store.finish_run(run.run_id, "stopped")
    assert (await store.leaderboard(CHAT)).total_players == 1


async def test_seasons(store: Store) -> None:
    await finished_run(store, (0, 1, True, 10, T0))
    assert await store.current_season(CHAT) == 1
    assert await store.new_season(CHAT) == 2
    assert await store.current_season(CHAT) == 2
    empty = await store.leaderboard(CHAT)
    assert (empty.season, empty.rows, empty.total_players) == (2, (), 0)
    old = await store.leaderboard(CHAT, season=1)
    assert [(r.user_id, r.points) for r in old.rows] == [(1, 10)]
    assert await store.group_stats(CHAT, 1) is None
    assert await store.group_stats(CHAT, 1, season=1) is not None
    run_id = await finished_run(store, (0, 2, True, 7, T0))
    run = await store.get_run(run_id)
    assert run is not None
    assert run.season == 2
    assert [r.user_id for r in (await store.leaderboard(CHAT)).rows] == [2]
    assert await store.new_season(-5) == 2  # a chat never seen before starts from season 1
    assert await store.current_season(-6) == 1


# -- chat migration ------------------------------------------------------------------------------


async def test_migrate_chat_moves_history_and_running_runs(store: Store) -> None:
    old, new = -42, -100_42
    await store.remember_chat(old, "Class 9", "group")
    await store.set_chat_language(old, "bn")
    await finished_run(store, (0, 1, True, 10, T0), chat_id=old)
    await store.new_season(old)
    await finished_run(store, (0, 2, True, 20, T0), chat_id=old)
    running = await store.create_run(new_run(old))
    await play(store, running.run_id, ans(running.run_id, 0, 3, points=5))

    await store.migrate_chat(old, new)
    await store.migrate_chat(old, new)  # idempotent

    assert await store.chat_language(new) == "bn"
    assert await store.chat_language(old) is None
    assert await store.current_season(new) == 2
    board = await store.leaderboard(new)
    assert [(r.user_id, r.points) for r in board.rows] == [(2, 20), (3, 5)]
    assert [r.user_id for r in (await store.leaderboard(new, season=1)).rows] == [1]
    assert (await store.leaderboard(old)).total_players == 0
    moved = await store.running_run(new, 0, "group")
    assert moved is not None
    assert (moved.run_id, moved.status) == (running.run_id, "running")
    assert await store.running_run(old, 0, "group") is None
    overview = await store.user_overview(3)
    assert [(g.chat_id, g.title, g.rank) for g in overview.groups] == [(new, "Class 9", 2)]


async def test_migrate_chat_merges_into_existing_row(store: Store) -> None:
    old, new = -7, -100_7
    await store.remember_chat(old, "Old title", "group")
    await store.set_chat_language(old, "en")
    await store.new_season(old)  # old is in season 2
    old_run = await store.create_run(new_run(old))
    await store.remember_chat(new, "New title", "supergroup")  # a message arrived first
    new_run_ = await store.create_run(new_run(new))  # and someone started a quiz there
    await store.migrate_chat(old, new)
    assert await store.chat_language(new) == "en"
    assert await store.current_season(new) == 2
    kept = await store.running_run(new, 0, "group")
    assert kept is not None
    assert kept.run_id == new_run_.run_id
    aborted = await store.get_run(old_run.run_id)
    assert aborted is not None
    assert (aborted.status, aborted.chat_id) == ("aborted", new)
    overview_board = await store.leaderboard(new)
    assert overview_board.season == 2


# -- per-user and per-run views ------------------------------------------------------------------


async def test_user_overview(store: Store) -> None:
    await store.remember_chat(-1, "Alpha", "supergroup")
    await store.remember_chat(-2, "Beta", "group")
    await finished_run(store, (0, 9, True, 10, T0), (1, 9, False, 0, T0), (0, 8, True, 30, T0),
                       chat_id=-1)  # fmt: skip
    await finished_run(store, (0, 9, False, 0, T0), (1, 9, False, 0, T0), chat_id=-2)
    await finished_run(store, (1, 9, False, 0, T0), (2, 9, True, 5, T0), chat_id=9,
                       mode="practice", quiz_id="chem")  # fmt: skip
    ov = await store.user_overview(9)
    lines = [
        (g.chat_id, g.title, g.points, g.correct, g.answered, g.runs, g.rank) for g in ov.groups
    ]
    assert lines == [(-1, "Alpha", 10, 1, 2, 1, 2), (-2, "Beta", 0, 0, 2, 1, 1)]
    assert (ov.practice_answered, ov.practice_correct) == (2, 1)
    # physics q2 wrong twice in two tries; physics q1 and chem q2 once each
    assert [(w.quiz_id, w.question_id, w.wrong, w.tries) for w in ov.weakest] == [
        ("physics", "q2", 2, 2),
        ("chem", "q2", 1, 1),
        ("physics", "q1", 1, 2),
    ]
    nobody = await store.user_overview(12345)
    assert (nobody.groups, nobody.practice_answered, nobody.weakest) == ((), 0, ())


async def test_weakest_is_capped_at_five(store: Store) -> None:
    await finished_run(store, *((q, 1, False, 0, T0) for q in range(8)), questions=8)
    assert len((await store.user_overview(1)).weakest) == 5


async def test_run_results(store: Store) -> None:
    run_id = await finished_run(
        store, (0, 1, True, 10, T0 + 3), (0, 2, True, 10, T0 + 2), (1, 3, True, 15, T0 + 1)
    )
    other = await finished_run(store, (0, 1, True, 99, T0))
    results = await store.run_results(run_id)
    assert [(s.rank, s.user_id, s.points, s.runs) for s in results] == [
        (1, 3, 15, 1),
        (2, 2, 10, 1),
        (3, 1, 10, 1),
    ]
    assert [s.points for s in await store.run_results(other)] == [99]
    assert await store.run_results(424242) == []


# -- CSV export ----------------------------------------------------------------------------------

HOSTILE = '=cmd|" /C calc"!A0, "Boss"\nline2 \u200f'


async def test_export_csv(store: Store) -> None:
    await store.remember_user(1, HOSTILE, "evil")
    await store.remember_user(2, "\u202b@SUM(A1)", None)
    await store.remember_user(3, 'রহিম, "ছাত্র"', "rahim")
    first = (await store.create_run(new_run(started_at=T0))).run_id
    # options are stored in the bank's order: user 1 chose bank option 2 on q2, shown as "C"
    await play(
        store,
        first,
        ans(first, 0, 1, at=T0 + 1),
        ans(first, 1, 1, option=2, correct=False, points=0, at=T0 + 3),
        ans(first, 2, 1, correct=False, points=0, at=T0 + 2),
        ans(first, 1, 2, at=T0 + 1),
    )
    await store.finish_run(first, "finished")
    run = await store.create_run(new_run(quiz_id="-chem", questions=5, started_at=T0 + 86_400))
    await play(store, run.run_id, ans(run.run_id, 4, 3, option=3, points=12))
    await play(store, run.run_id, ans(run.run_id, 0, 3, option=1, points=12))
    await finished_run(store, (0, 1, True, 99, T0), mode="practice")  # never exported
    await finished_run(store, (0, 1, True, 99, T0), chat_id=-5)  # another chat

    text = results_csv(await store.export_answers(CHAT), lambda _: None, str, "en")
    rows = list(csv.reader(io.StringIO(text)))
    per_question = [f"q{k}{s}" for k in range(1, 6) for s in ("", "_options", "_credit")]
    assert rows[0] == [
        "season", "run", "quiz", "date", "user_id", "name", "username", "correct", "credit",
        "answered", "points", *per_question,
    ]  # fmt: skip
    assert len(rows) == 4
    r1, r2, r3 = rows[1:]
    # within a run, ranking order: user 2 ties user 1 on points and correct but finished first
    assert r1[:11] == ["1", "1", "physics", "2023-11-14T22:13:20+00:00", "2",
                       "'\u202b@SUM(A1)", "", "1", "1", "1", "10"]  # fmt: skip
    # without its quiz (deleted since) a cell still has the letters the student saw
    assert r1[11:] == ["", "", "", "A", "", "1", *[""] * 9]
    assert r2[:11] == ["1", "1", "physics", "2023-11-14T22:13:20+00:00", "1",
                       "'" + HOSTILE, "evil", "1", "1", "3", "10"]  # fmt: skip
    assert r2[11:20] == ["A", "", "1", "C", "", "0", "A", "", "0"]
    assert r3[:11] == ["1", "2", "'-chem", "2023-11-15T22:13:20+00:00", "3",
                       "রহিম, \"ছাত্র\"", "rahim", "2", "2", "2", "24"]  # fmt: skip
    assert r3[11:14] == ["B", "", "1"] and r3[-3:] == ["D", "", "1"]
    assert results_csv(await store.export_answers(-999), lambda _: None, str, "en") == (
        "season,run,quiz,date,user_id,name,username,correct,credit,answered,points\r\n"
    )


def test_safe_cell() -> None:
    for bad in ["=1+1", "+1", "-1", "@x", "\tx", " =x", "\u200f=x"]:
        assert safe_cell(bad) == "'" + bad
    for ok in ["Rahim", "", "1-1", "a=b", "'quoted"]:
        assert safe_cell(ok) == ok


# -- performance shape ---------------------------------------------------------------------------


async def test_hot_queries_use_indexes(store: Store) -> None:
    for chat in (CHAT, -2, -3):
        await finished_run(store, *((q, u, True, 10, T0) for q in range(3) for u in range(9)),
                           chat_id=chat)  # fmt: skip
    conn = sqlite3.connect(store.path)

    def plan_of(sql: str, params: tuple[object, ...]) -> str:
        rows = conn.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()
        return "\n".join(r[3] for r in rows)

    try:
        for analyzed in (False, True):  # close() runs PRAGMA optimize, which may ANALYZE
            if analyzed:
                conn.execute("ANALYZE")
            board = plan_of(_RANKED_SQL.format(where=_CHAT_SEASON), (CHAT, 1, 10, None))
            assert "SEARCH r USING" in board
            assert "SEARCH a USING PRIMARY KEY (run_id=?)" in board
            assert "SCAN a" not in board
            assert "SCAN r" not in board
            mine = plan_of(
                "SELECT COUNT(*) FROM answers AS a CROSS JOIN runs AS r ON r.run_id = a.run_id"
                " WHERE a.user_id = ? AND r.mode = 'practice'",
                (1,),
            )
            assert "SEARCH a USING COVERING INDEX answers_user (user_id=?)" in mine
            for sql, params in RUNNING_SQL:
                assert "runs_running" in plan_of(sql, params)
    finally:
        conn.close()


# -- the ranking rule against a reference model --------------------------------------------------

answer_st = st.tuples(
    st.integers(0, 3),  # q_index
    st.integers(1, 6),  # user
    st.booleans(),
    st.integers(0, 3).map(lambda p: p * 5),  # points: many ties
    st.integers(0, 5).map(float),  # answered_at: many ties
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs=st.lists(st.lists(answer_st, max_size=12), min_size=1, max_size=3))
def test_leaderboard_matches_reference(runs: list[list[tuple[int, int, bool, int, float]]]) -> None:
    async def scenario(path: Path) -> None:
        async with await Store.open(path) as store:
            kept: dict[tuple[int, int, int], tuple[bool, int, float]] = {}
            for answers in runs:
                run = await store.create_run(new_run(questions=4))
                for q, u, ok, pts, at in answers:
                    stored = await store.record_answer(ans(run.run_id, q, u, correct=ok,
                                                           points=pts, at=at))  # fmt: skip
                    key = (run.run_id, q, u)
                    assert stored == (key not in kept)
                    kept.setdefault(key, (ok, pts, at))
                await store.finish_run(run.run_id, "finished")
            totals: dict[int, list[float]] = {}
            for (_, _, u), (ok, pts, at) in kept.items():
                t = totals.setdefault(u, [0, 0, 0, float("-inf"), 0])
                t[0] += pts
                t[1] += ok
                t[2] += 1
                t[3] = max(t[3], at)
            expected = sorted(totals, key=lambda u: (-totals[u][0], -totals[u][1], totals[u][3], u))
            board = await store.leaderboard(CHAT, limit=3, user_id=expected[-1] if expected else 1)
            assert [r.user_id for r in board.rows] == expected[:3]
            assert [r.rank for r in board.rows] == list(range(1, len(board.rows) + 1))
            assert board.total_players == len(expected)
            if len(expected) > 3:
                assert board.caller is not None
                assert board.caller.rank == len(expected)
            for r in board.rows:
                want = tuple(int(x) for x in totals[r.user_id][:3])
                assert (r.points, r.correct, r.answered) == want

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(scenario(Path(tmp) / "h.db"))
