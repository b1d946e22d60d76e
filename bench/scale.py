"""Scale scenarios of issue 24: many groups under Telegram's overall limit, and many stored
quizzes (start-up, RSS, ``/quiz``, ``/myquizzes``, stop).

    python -m bench.scale overall [GROUPS]          # default 120 groups x 4 students
    python -m bench.scale stored [N ...]            # default 0 1000 10000 50000

Figures go to standard output and bench/results/scale-*.json; bench/README.md quotes them.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil
import yaml

from bench.procs import Bot, Server
from bot.storage.schema import AUTHORED_BODIES_STATEMENTS, MIGRATIONS, migrate

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


def _bank_20() -> str:
    """A 20-question bank (the zero bank's questions repeated; bilingual, so ~30 % Bengali)."""
    bank = yaml.safe_load((ROOT / "questions" / "zero.yaml").read_text(encoding="utf-8"))
    base = bank["questions"]
    bank["questions"] = [dict(base[i % len(base)], id=f"q{i}") for i in range(20)]
    return str(yaml.safe_dump(bank, allow_unicode=True, sort_keys=False))


def write_old_db(path: Path, quizzes: int) -> None:
    """A database as the version before this change wrote it: ``quizzes`` stored quizzes
    (5 per author, a fifth deleted, 10 published), bank text only."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=STEP)
    text = _bank_20()
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
                int(n % max(quizzes // 10, 1) == 0 and n // max(quizzes // 10, 1) < 10),
                2.0 if n % 5 == 4 else None,
            )
            for n in range(quizzes)
        ),
    )
    conn.execute("COMMIT")
    conn.close()


async def stored(quizzes: int, asks: int = 30) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="quizbot-scale-"))
    db = work / "bot.sqlite3"
    write_old_db(db, quizzes)
    server = await Server.start()
    author = 100  # has 4 live quizzes (the fifth is deleted)
    try:
        await server.call(
            "setup", {"groups": [{"chat_id": -42, "creator": author, "students": []}]}
        )
        await server.call("setup", {"groups": [{"chat_id": -43, "creator": 99, "students": []}]})
        began = time.monotonic()
        bot = await Bot.start(server, "bot", db=db)
        startup = time.monotonic() - began
        await asyncio.sleep(0.5)
        rss = psutil.Process(bot.pid).memory_info().rss
        timings: dict[str, list[float]] = {}
        for label, message in (
            ("quiz_group", [-42, author, "/quiz"]),
            ("myquizzes", [author, author, "/myquizzes"]),
        ):
            for _ in range(asks):
                await server.call("timed_say", {"message": message})
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)
            timings[label] = (await server.call("latencies"))["latencies"]
        began = time.monotonic()
        await bot.stop()
        stop = time.monotonic() - began
    finally:
        await server.stop()
    return {
        "quizzes": quizzes,
        "startup_s": startup,
        "rss_mb": rss / 1e6,
        "quiz_group_ms": 1000 * statistics.median(timings["quiz_group"]),
        "myquizzes_ms": 1000 * statistics.median(timings["myquizzes"]),
        "stop_s": stop,
        "db_mb": db.stat().st_size / 1e6,
    }


def main(argv: list[str]) -> int:
    RESULTS.mkdir(exist_ok=True)
    what = argv[0] if argv else "stored"
    if what == "overall":
        result: Any = asyncio.run(overall(int(argv[1]) if len(argv) > 1 else 120))
        print(json.dumps(result, indent=2))
    else:
        sizes = [int(a) for a in argv[1:]] or [0, 1000, 10000, 50000]
        result = [asyncio.run(stored(n)) for n in sizes]
        for row in result:
            print(json.dumps(row))
    (RESULTS / f"scale-{what}.json").write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
