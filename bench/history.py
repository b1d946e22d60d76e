"""Scenario 3: a year of history (a million answers) and the commands that read it.

The database is built directly with sqlite3 on the production schema
(:func:`bot.storage.create_schema`) and cached in ``bench/.cache`` keyed by its parameters. The
timings call the :class:`~bot.app.store.Store` methods behind each command in this process (the
command handlers add only a message render on top).
"""

from __future__ import annotations

import json
import math
import random
import shutil
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from bot.app.store import Store
from bot.render.export import results_csv
from bot.storage import SCHEMA_VERSION, create_schema

CACHE = Path(__file__).absolute().parent / ".cache"
GENERATOR_VERSION = 1
YEAR = 365 * 86400.0
START = 1_700_000_000.0  # the year begins here (Nov 2023)


@dataclass(frozen=True)
class HistorySizes:
    answers: int = 1_000_000
    groups: int = 500
    students: int = 20_000
    quizzes: int = 12
    calls: int = 40  # timed calls per command (over varied groups and users)
    seed: int = 2024

    @property
    def key(self) -> str:
        return (
            f"history-a{self.answers}-g{self.groups}-s{self.students}-q{self.quizzes}"
            f"-r{self.seed}-v{SCHEMA_VERSION}.{GENERATOR_VERSION}"
        )


@dataclass
class _Group:
    chat_id: int
    members: list[int]
    weight: float
    reset_at: float | None  # when its leaderboard was reset (season 2 from then on)


def _quizzes(rng: random.Random, count: int) -> list[tuple[str, list[str]]]:
    out = []
    for i in range(count):
        n = rng.randint(8, 20)
        out.append((f"quiz{i:02d}", [f"quiz{i:02d}-q{j:02d}" for j in range(n)]))
    return out


def _plan(qids: list[str], rng: random.Random) -> str:
    perms = []
    for _ in qids:
        p = [0, 1, 2, 3]
        rng.shuffle(p)
        perms.append(p)
    return json.dumps({"q": qids, "p": perms}, separators=(",", ":"))


def build(path: Path, sizes: HistorySizes) -> None:
    """Write a database of ``sizes.answers`` answers spread like a year of real use.

    Group sizes are log-normal (median ~25, a few of several hundred); how often a group plays
    follows a Pareto law (a few groups quiz daily, most now and then); 15% of the answers are
    private practice; a fifth of the groups reset their leaderboard once during the year.
    """
    rng = random.Random(sizes.seed)
    tmp = path.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        create_schema(conn)
        conn.execute("BEGIN")
        _fill(conn, sizes, rng)
        conn.execute("COMMIT")
        conn.execute("PRAGMA journal_mode = WAL")
    finally:
        conn.close()
    tmp.replace(path)


def _fill(conn: sqlite3.Connection, sizes: HistorySizes, rng: random.Random) -> None:
    students = list(range(10_000_000, 10_000_000 + sizes.students))
    conn.executemany(
        "INSERT INTO users (user_id, name, username, updated_at) VALUES (?, ?, ?, ?)",
        [(u, f"Student {u - 10_000_000}", f"s{u}" if u % 3 else None, START) for u in students],
    )
    quizzes = _quizzes(rng, sizes.quizzes)
    groups: list[_Group] = []
    for i in range(sizes.groups):
        size = min(len(students), max(5, round(rng.lognormvariate(math.log(25), 0.8))))
        reset = START + rng.uniform(0.2, 0.9) * YEAR if rng.random() < 0.2 else None
        groups.append(
            _Group(-1004000000000 - i, rng.sample(students, size), rng.paretovariate(1.2), reset)
        )
    for g in groups:
        season = 2 if g.reset_at is not None else 1
        conn.execute(
            "INSERT INTO chats (chat_id, title, kind, language, season,"
            " season_started_at) VALUES (?, ?, 'supergroup', ?, ?, ?)",
            (
                g.chat_id,
                f"Study group {-g.chat_id % 10_000}",
                rng.choice(["bn", "en"]),
                season,
                g.reset_at or START,
            ),
        )
        conn.execute("INSERT INTO seasons VALUES (?, 1, ?)", (g.chat_id, START))
        if g.reset_at is not None:
            conn.execute("INSERT INTO seasons VALUES (?, 2, ?)", (g.chat_id, g.reset_at))

    # the runs of the year, in time order; each with how many answers it is expected to bring
    avg_questions = sum(len(q) for _, q in quizzes) / len(quizzes)
    total_weight = sum(g.weight for g in groups)
    drafts: list[tuple[float, _Group | None, int]] = []
    expected = practice = 0.0
    while expected < sizes.answers * 1.5:  # spare runs: the history stops at the target
        if practice < 0.15 * expected:  # practice runs are solo
            drafts.append((rng.random(), None, rng.choice(students)))
            expected += avg_questions
            practice += avg_questions
            continue
        pick = rng.random() * total_weight
        chosen = groups[-1]
        for g in groups:
            pick -= g.weight
            if pick <= 0:
                chosen = g
                break
        drafts.append((rng.random(), chosen, 0))
        expected += len(chosen.members) * 0.65 * avg_questions * 0.9
    # spread over 1.5 years, so the target is reached about a year in
    stretch = YEAR * expected / sizes.answers
    plans = [(START + u * stretch, g, solo) for u, g, solo in drafts]
    plans.sort(key=lambda p: p[0])

    written = 0
    run_rows: list[tuple[Any, ...]] = []
    answer_rows: list[tuple[Any, ...]] = []
    for run_id, (started, group, solo) in enumerate(plans, start=1):
        if written >= sizes.answers:
            break
        quiz_id, qids = rng.choice(quizzes)
        seconds = rng.choice([15, 20, 30, 30, 45, 60])
        if group is None:
            chat_id, mode, season, players = solo, "practice", 1, [solo]
        else:
            chat_id, mode = group.chat_id, "group"
            season = 2 if group.reset_at is not None and started >= group.reset_at else 1
            share = rng.uniform(0.4, 0.9)
            players = [m for m in group.members if rng.random() < share] or group.members[:1]
        status = "stopped" if rng.random() < 0.05 else "finished"
        asked = len(qids) if status == "finished" else rng.randint(1, len(qids))
        run_rows.append(
            (
                run_id,
                chat_id,
                0,
                mode,
                quiz_id,
                rng.choice(["bn", "en"]),
                seconds,
                season,
                _plan(qids, rng),
                len(qids),
                asked - 1,
                "closed",
                None,
                None,
                None,
                status,
                None if group is None else 1,
                started,
                started + asked * (seconds + 3),
            )
        )
        for q in range(asked):
            posted = started + q * (seconds + 3)
            for user in players:
                if written >= sizes.answers:
                    break
                if mode == "group" and rng.random() > 0.9:
                    continue
                option = rng.randrange(4)
                correct = option == 0 if rng.random() < 0.6 else rng.random() < 0.25
                took = rng.uniform(0.5, seconds)
                points = round(1000 - 500 * took / seconds) if correct and mode == "group" else 0
                answer_rows.append(
                    (run_id, q, qids[q], user, option, int(correct), points, posted + took)
                )
                written += 1
        if len(answer_rows) > 50_000:
            _flush(conn, run_rows, answer_rows)
    _flush(conn, run_rows, answer_rows)


def _flush(
    conn: sqlite3.Connection, runs: list[tuple[Any, ...]], answers: list[tuple[Any, ...]]
) -> None:
    conn.executemany(
        "INSERT INTO runs (run_id, chat_id, thread_id, mode, quiz_id, language, seconds, season,"
        " plan, question_count, current, phase, message_id, posted_at, deadline, status,"
        " started_by, started_at, finished_at) VALUES"
        " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        runs,
    )
    conn.executemany(
        "INSERT INTO answers (run_id, q_index, question_id, user_id, option,"
        " correct, points, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        answers,
    )
    runs.clear()
    answers.clear()


def cached_db(sizes: HistorySizes) -> tuple[Path, float]:
    """The cached database for ``sizes`` (built if missing) and how long building took."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{sizes.key}.sqlite3"
    if path.exists():
        return path, 0.0
    began = time.perf_counter()
    build(path, sizes)
    return path, time.perf_counter() - began


def _size_on_disk(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


async def _time(fn: Callable[[], Awaitable[Any]], repeats: int = 1) -> list[float]:
    out = []
    for _ in range(repeats):
        began = time.perf_counter()
        await fn()
        out.append((time.perf_counter() - began) * 1000)
    return out


async def _export(store: Store, chat_id: int) -> str:
    """What ``/export`` computes: the chat's answers, then its CSV (its quizzes unknown here)."""
    return results_csv(await store.export_answers(chat_id), lambda _: None, str, "en")


def _cycle(items: list[Any], n: int) -> Iterator[Any]:
    for i in range(n):
        yield items[i % len(items)]


async def measure(sizes: HistorySizes, workdir: Path) -> dict[str, Any]:
    """Time every reading command over varied groups and users of the cached database."""
    from bench.stats import percentile

    source, build_s = cached_db(sizes)
    db = workdir / "history.sqlite3"
    shutil.copyfile(source, db)  # the timed store may write (PRAGMA optimize at close)
    conn = sqlite3.connect(db)
    try:
        group_rows = conn.execute(
            "SELECT r.chat_id, COUNT(*) FROM runs AS r JOIN answers AS a ON a.run_id = r.run_id"
            " WHERE r.mode = 'group' GROUP BY r.chat_id ORDER BY 2 DESC"
        ).fetchall()
        total = conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        runs = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        quiz_ids = [r[0] for r in conn.execute("SELECT DISTINCT quiz_id FROM runs ORDER BY 1")]
        members: dict[int, list[int]] = {}
        for chat_id, user_id in conn.execute(
            "SELECT DISTINCT r.chat_id, a.user_id FROM runs AS r JOIN answers AS a"
            " ON a.run_id = r.run_id WHERE r.mode = 'group'"
        ):
            members.setdefault(chat_id, []).append(user_id)
        busiest_user = conn.execute(
            "SELECT user_id FROM answers GROUP BY user_id ORDER BY COUNT(*) DESC LIMIT 1"
        ).fetchone()[0]
    finally:
        conn.close()
    rng = random.Random(sizes.seed)
    largest = group_rows[0][0]
    sample = [c for c, _ in group_rows]
    rng.shuffle(sample)
    chats = [largest, *sample[: max(1, sizes.calls - 1)]]
    users = [rng.choice(members[c]) for c in chats]

    figures: dict[str, Any] = {
        "answers": total,
        "runs": runs,
        "groups": len(group_rows),
        "largest_group_answers": group_rows[0][1],
        "build_s": build_s,
        "db_mb": _size_on_disk(source) / 2**20,
    }
    store = await Store.open(db)
    try:
        n = sizes.calls
        pairs = list(zip(chats, users, strict=True))
        cases: dict[str, list[Callable[[], Awaitable[Any]]]] = {
            "/leaderboard": [
                partial(store.leaderboard, c, limit=10, user_id=u) for c, u in _cycle(pairs, n)
            ],
            "/leaderboard QUIZ": [
                partial(store.leaderboard, c, quiz_id=q, limit=10, user_id=u)
                for (c, u), q in zip(_cycle(pairs, n), _cycle(quiz_ids, n), strict=True)
            ],
            "/me (group)": [partial(store.group_stats, c, u) for c, u in _cycle(pairs, n)],
            "/me (private)": [
                partial(store.user_overview, u) for u in _cycle([busiest_user, *users], n)
            ],
            "/export": [partial(_export, store, c) for c in _cycle(chats, max(5, n // 4))],
        }
        commands: dict[str, Any] = {}
        for name, calls in cases.items():
            await calls[0]()  # warm: the bot's page cache is warm too
            times = [t for call in calls for t in await _time(call)]
            worst = await _time(calls[0], 5)  # calls[0] is the largest group / busiest user
            commands[name] = {
                "calls": len(times),
                "p50_ms": percentile(times, 50),
                "p95_ms": percentile(times, 95),
                "max_ms": max(times),
                "largest_p50_ms": percentile(worst, 50),
            }
        csv_text = await _export(store, largest)
        figures["largest_export_kb"] = len(csv_text.encode()) / 1024
    finally:
        await store.close()
    figures["commands"] = commands
    return figures
