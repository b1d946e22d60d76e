"""Scale scenarios of issue 24: many groups under Telegram's overall limit, and many stored
quizzes (start-up, RSS, ``/quiz``, ``/myquizzes``, stop).

    python -m bench.scale overall [GROUPS]          # default 120 groups x 4 students
    python -m bench.scale stored [N ...]            # default 0 1000 10000 50000

Figures go to standard output and bench/results/scale-*.json; bench/README.md quotes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

from bench.procs import Bot, Server
from bot.banks.yaml_reader import load_quiz
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import Quiz
from bot.storage.schema import AUTHORED_BODIES_STATEMENTS, MIGRATIONS, SCHEMA_VERSION, migrate

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results"
STEP = next(  # the schema version before stored quizzes had their JSON form
    i
    for i, step in enumerate(MIGRATIONS)
    if step.__closure__
    and AUTHORED_BODIES_STATEMENTS in [c.cell_contents for c in step.__closure__]
)


# --- many groups under the overall limit ----------------------------------------------------


async def overall(groups: int = 120, students: int = 4, seconds: int = 10) -> dict[str, Any]:
    """``groups`` groups start ``/quiz zero SECONDS`` at the same moment, students tapping,
    under an enforced 30 sends+edits in any sliding second."""
    server = await Server.start(overall=30)
    work = Path(tempfile.mkdtemp(prefix="quizbot-scale-"))
    chats = [-1_000_000 - g for g in range(groups)]
    try:
        await server.call(
            "setup",
            {
                "groups": [
                    {
                        "chat_id": c,
                        "creator": 10_000_000 + g,
                        "students": [20_000_000 + g * 100 + s for s in range(students)],
                    }
                    for g, c in enumerate(chats)
                ]
            },
        )
        bot = await Bot.start(server, "bot", db=work / "bot.sqlite3")
        await server.call("autopilot", {"answer_window": [0.5, seconds - 1.5]})
        began = time.monotonic()
        await server.call(
            "say",
            {
                "messages": [
                    [c, 10_000_000 + g, f"/quiz zero {seconds}"] for g, c in enumerate(chats)
                ]
            },
        )
        await server.wait(lambda p: p["finished"] >= groups, 900, "every group to finish", 0.5)
        elapsed = time.monotonic() - began
        report = await server.call("overall_report", {"chats": chats})
        await bot.stop()
    finally:
        await server.stop()
    finish = sorted(report.pop("finish").values())
    durations = [f - began for f in finish]  # CLOCK_MONOTONIC is the machine's, both processes
    opened = report.pop("open_times")
    return {
        "groups": groups,
        "students": students,
        **report,
        "refused_share": report["refused"] / max(report["sends_edits"], 1),
        "shortest_open_s": min(opened),
        "questions": len(opened),
        "slowest_over_median": max(durations) / statistics.median(durations)
        if statistics.median(durations) > 0
        else 1.0,
        "finish_spread_s": max(durations),
        "elapsed_s": elapsed,
    }


# --- many stored quizzes ---------------------------------------------------------------------


def _bank_20() -> Quiz:
    """A 20-question quiz: the zero bank's questions repeated under new ids; bilingual, so
    ~30 % Bengali."""
    zero = load_quiz(ROOT / "questions" / "zero.yaml")
    base = zero.questions
    questions = tuple(dataclasses.replace(base[i % len(base)], id=f"q{i}") for i in range(20))
    return dataclasses.replace(zero, questions=questions)


def write_db(path: Path, quizzes: int, *, old: bool = True) -> None:
    """A database with ``quizzes`` stored quizzes (5 per author, a fifth deleted, 10
    published), as the version before the JSON form wrote it (``old``: bank text only, the
    bot upgrades it at start-up) or as this version writes it (bank text and model JSON)."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=STEP if old else SCHEMA_VERSION)
    quiz = _bank_20()
    text, body = write_yaml(quiz), quiz.to_json()  # as bot/services/authoring.py saves them
    step = max(quizzes // 10, 1)
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO authored_quizzes (author_id, name, title, language, bank_yaml,"
        " question_count, origin, published, created_at, deleted_at)"
        " VALUES (?, ?, ?, 'bn', ?, 20, 'yaml', ?, 1.0, ?)",
        (
            (
                100 + n // 5,
                f"quiz-{n}",
                f"Quiz {n}",
                text,
                int(n % step == 0 and n // step < 10),
                2.0 if n % 5 == 4 else None,
            )
            for n in range(quizzes)
        ),
    )
    if not old:
        conn.execute(
            "INSERT INTO authored_bodies (quiz_no, bank_json) SELECT quiz_no, ?"
            " FROM authored_quizzes",
            (body,),
        )
    conn.execute("COMMIT")
    conn.close()


def pending(path: Path) -> int:
    """Stored quizzes of the file at ``path`` still without their model JSON."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM authored_quizzes q LEFT JOIN authored_bodies b"
            " ON b.quiz_no = q.quiz_no WHERE b.quiz_no IS NULL"
        ).fetchone()
    return int(row[0])


async def stored(quizzes: int, *, old: bool = True, asks: int = 40) -> dict[str, Any]:
    """Start the bot on a file of ``quizzes`` stored quizzes (``old``: written by the version
    before, so converted while measured); time start-up, ``/quiz`` in a group, ``/myquizzes``
    (private, an author with 4 live quizzes), RSS and stop."""
    work = Path(tempfile.mkdtemp(prefix="quizbot-scale-"))
    db = work / "bot.sqlite3"
    write_db(db, quizzes, old=old)
    server = await Server.start()
    author = 100  # has 4 live quizzes (the fifth is deleted)
    groups = [-42 - g for g in range(asks)]  # a group takes 20 sends a minute: one ask each
    bot: Bot | None = None
    try:
        await server.call(
            "setup",
            {"groups": [{"chat_id": c, "creator": author, "students": []} for c in groups]},
        )
        began = time.monotonic()
        bot = await Bot.start(server, "bot", db=db)
        startup = time.monotonic() - began
        await asyncio.sleep(0.5)
        rss = psutil.Process(bot.pid).memory_info().rss
        # warm-up, untimed: each group's first command looks its administrators up
        for chat in groups:
            await server.call("say", {"messages": [[chat, author, "/start"]]})
        await asyncio.sleep(1.0)
        timings: dict[str, list[float]] = {}
        for label, messages in (
            ("quiz_group", [[c, author, "/quiz"] for c in groups]),
            ("myquizzes", [[author, author, "/myquizzes"]] * asks),
        ):
            for message in messages:  # one at a time: each reply before the next command
                await server.call("timed_say", {"message": message})
                await asyncio.sleep(0.06)  # no control calls while the bot works on it
                await server.wait(lambda p: p["awaiting_replies"] == 0, 10, "a reply", 0.02)
            timings[label] = (await server.call("latencies"))["latencies"]
        left = pending(db) if old else 0
        began = time.monotonic()
        await bot.stop()
        stop = time.monotonic() - began
        bot = None
    finally:
        if bot is not None:
            await bot.stop()
        await server.stop()
        size = db.stat().st_size / 1e6
        shutil.rmtree(work)  # 10,000 quizzes take 0.6-1.3 GB
    return {
        "quizzes": quizzes,
        "file": "old (converted while measured)" if old else "new",
        "startup_s": startup,
        "rss_mb": rss / 1e6,
        "quiz_group_ms": 1000 * statistics.median(timings["quiz_group"]),
        "quiz_group_max_ms": 1000 * max(timings["quiz_group"]),
        "myquizzes_ms": 1000 * statistics.median(timings["myquizzes"]),
        "myquizzes_max_ms": 1000 * max(timings["myquizzes"]),
        "pending_at_stop": left,
        "stop_s": stop,
        "db_mb": size,
        "load": os.getloadavg(),
    }


def main(argv: list[str]) -> int:
    RESULTS.mkdir(exist_ok=True)
    what = argv[0] if argv else "stored"
    if what == "overall":
        result: Any = asyncio.run(overall(int(argv[1]) if len(argv) > 1 else 120))
        print(json.dumps(result, indent=2))
    else:
        sizes = [int(a) for a in argv[1:]] or [0, 1000, 10000, 50000]
        result = [asyncio.run(stored(n, old=old)) for n in sizes for old in (True, False)]
        for row in result:
            print(json.dumps(row))
    (RESULTS / f"scale-{what}.json").write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
