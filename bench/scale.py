"""Scale scenarios: many groups under Telegram's overall limit, and many stored
quizzes (start-up, RSS, ``/quiz``, ``/myquizzes``, stop).

    python -m bench --only overall --only stored    # with the other scenarios' table
    python -m bench --only stored --stored 50000    # other sizes
    python -m bench.scale overall [GROUPS]          # alone: default 120 groups x 4 students
    python -m bench.scale stored [N ...]            # alone: default 0 1000 10000 50000

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


async def overall(
    groups: int = 120,
    students: int = 4,
    seconds: int = 10,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """``groups`` groups start ``/quiz zero SECONDS`` at the same moment, students tapping,
    under an enforced 30 sends+edits in any sliding second. Each group's time runs from that
    moment to its results."""
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
        bot = await Bot.start(server, "bot", db=work / "bot.sqlite3", env=env)
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
        shutil.rmtree(work)
    durations = sorted(f - began for f in report.pop("finish").values())  # one clock: the machine's
    opened = report.pop("open_times")
    median = statistics.median(durations)
    return {
        "groups": groups,
        "students": students,
        "seconds": seconds,
        **report,
        "finished": len(durations),
        "refused_share": report["refused"] / max(report["sends_edits"], 1),
        "shortest_open_s": min(opened),
        "questions": len(opened),
        "fastest_s": durations[0],
        "median_s": median,
        "slowest_s": durations[-1],
        "slowest_over_median": durations[-1] / median,
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


def write_db(path: Path, quizzes: int, *, old: bool = True, published: int = 10) -> list[str]:
    """A database with ``quizzes`` stored quizzes (5 per author, a fifth deleted, ``published``
    of the live ones published, spread over the file), as the version before the JSON form
    wrote it (``old``: bank text only, the bot upgrades it at start-up) or as this version
    writes it (bank text, model JSON and what listing needs). Returns the published names."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=STEP if old else SCHEMA_VERSION)
    quiz = _bank_20()
    text, body = write_yaml(quiz), quiz.to_json()  # as bot/features/authoring/saving.py saves them
    live = [n for n in range(quizzes) if n % 5 != 4]
    shown = {live[i * len(live) // published] for i in range(min(published, len(live)))}
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
                int(n in shown),
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
        conn.execute(
            "UPDATE authored_quizzes SET title_bn = ?, title_en = ?, run_length = ?",
            (quiz.title.bn, quiz.title.en, quiz.run_length),
        )
    conn.execute("COMMIT")
    conn.close()
    return [f"quiz-{n}" for n in sorted(shown)]


def pending(path: Path) -> int:
    """Stored quizzes of the file at ``path`` still without their model JSON."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM authored_quizzes q LEFT JOIN authored_bodies b"
            " ON b.quiz_no = q.quiz_no WHERE b.quiz_no IS NULL"
        ).fetchone()
    return int(row[0])


async def stored(
    quizzes: int, *, old: bool = True, asks: int = 40, published: int = 10
) -> dict[str, Any]:
    """Start the bot on a file of ``quizzes`` stored quizzes, ``published`` of them published
    (``old``: written by the version before, so converted while measured); time start-up,
    ``/quiz`` in a group (it lists the published ones), ``/myquizzes`` (private, an author with
    4 live quizzes), ``/quiz NAME`` (private: a practice of a published quiz), RSS and stop."""
    work = Path(tempfile.mkdtemp(prefix="quizbot-scale-"))
    db = work / "bot.sqlite3"
    names = write_db(db, quizzes, old=old, published=published) or ["zero"]
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
        # warm-up, untimed: a group's first command looks its administrators up (Telegram's
        # round trip, cached after), the first /quiz reads the quizzes it lists (then cached)
        for chat in groups:
            await server.call("say", {"messages": [[chat, author, "/quiz"]]})
        await asyncio.sleep(1.0 + asks * 0.02)
        timings: dict[str, list[float]] = {}
        cpu_ms: dict[str, float] = {}  # the bot process's CPU time per command, conversion too
        for label, messages in (
            ("quiz_group", [[c, author, "/quiz"] for c in groups]),
            ("myquizzes", [[author, author, "/myquizzes"]] * asks),
            (
                "quiz_name",
                [[author, author, f"/quiz {names[-1 - n % len(names)]}"] for n in range(asks)],
            ),
        ):
            cpu = bot.cpu_seconds()
            for message in messages:  # one at a time: each reply before the next command
                await server.call("timed_say", {"message": message})
                await asyncio.sleep(0.06)  # no control calls while the bot works on it
                await server.wait(lambda p: p["awaiting_replies"] == 0, 10, "a reply", 0.02)
            timings[label] = (await server.call("latencies"))["latencies"]
            cpu_ms[label] = 1000 * (bot.cpu_seconds() - cpu) / len(messages)
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
        "published": min(published, quizzes - quizzes // 5),
        "file": "old (converted while measured)" if old else "new",
        "startup_s": startup,
        "rss_mb": rss / 1e6,
        "quiz_group_ms": 1000 * statistics.median(timings["quiz_group"]),
        "quiz_group_max_ms": 1000 * max(timings["quiz_group"]),
        "myquizzes_ms": 1000 * statistics.median(timings["myquizzes"]),
        "myquizzes_max_ms": 1000 * max(timings["myquizzes"]),
        "quiz_name_ms": 1000 * statistics.median(timings["quiz_name"]),
        "quiz_name_max_ms": 1000 * max(timings["quiz_name"]),
        "quiz_group_cpu_ms": cpu_ms["quiz_group"],
        "quiz_name_cpu_ms": cpu_ms["quiz_name"],
        "myquizzes_cpu_ms": cpu_ms["myquizzes"],
        "pending_at_stop": left,
        "stop_s": stop,
        "db_mb": size,
        "load": os.getloadavg(),
    }


# --- targets and table (``python -m bench``) ------------------------------------------------


def targets(r: dict[str, Any]) -> dict[str, bool]:
    """The scale targets, for the scenarios that ran (and the sizes measured)."""
    out: dict[str, bool] = {}
    if "overall" in r:
        o = r["overall"]
        name = f"{o['groups']} groups at once under 30/s overall"
        out[f"{name}: every group finished"] = o["finished"] == o["groups"]
        out[f"{name}: ≤ 0.5 % refused with 429"] = o["refused_share"] <= 0.005
        out[f"{name}: every question open its full time"] = o["shortest_open_s"] >= o["seconds"]
        out[f"{name}: slowest group ≤ 1.5 × the median"] = o["slowest_over_median"] <= 1.5
        out[f"{name}: ≤ 20 per group per minute"] = o["max_per_group_minute"] <= 20
    for row in r.get("stored", []):
        n, old = row["quizzes"], row["file"].startswith("old")
        if n == 10_000 and old:
            name = "10,000 stored quizzes (upgraded file)"
            out[f"{name}: start-up < 3 s"] = row["startup_s"] < 3
            out[f"{name}: RSS < 150 MB"] = row["rss_mb"] < 150
            out[f"{name}: /quiz in a group < 8 ms median"] = row["quiz_group_ms"] < 8
            out[f"{name}: /myquizzes < 8 ms median"] = row["myquizzes_ms"] < 8
            out[f"{name}: stop < 1.5 s"] = row["stop_s"] < 1.5
        if n == 50_000:
            name = f"50,000 stored quizzes ({'upgraded' if old else 'new'} file)"
            out[f"{name}: start-up < 5 s"] = row["startup_s"] < 5
            out[f"{name}: RSS < 200 MB"] = row["rss_mb"] < 200
    return out


def table(r: dict[str, Any]) -> list[str]:
    """The two scenarios as Markdown (empty if neither ran)."""
    lines: list[str] = []
    if "overall" in r:
        o = r["overall"]
        lines += [
            "",
            f"6. {o['groups']} groups × {o['students']} students start `/quiz zero "
            f"{o['seconds']}` at once; the fake enforces 30 sends+edits in any sliding second",
            "",
            "| figure | result |",
            "|---|---:|",
            f"| sends+edits / refused with 429 | {o['sends_edits']:,} / {o['refused']:,} "
            f"({100 * o['refused_share']:.2f} %) |",
            f"| most received in any second | {o['max_per_second']} |",
            f"| shortest time a question was open ({o['questions']:,} questions) "
            f"| {o['shortest_open_s']:.2f} s |",
            f"| most sends+edits in one group in 60 s | {o['max_per_group_minute']} |",
            f"| groups finished; fastest / median / slowest (s) | {o['finished']}; "
            f"{o['fastest_s']:.1f} / {o['median_s']:.1f} / {o['slowest_s']:.1f} |",
            f"| slowest ÷ median | {o['slowest_over_median']:.3f} |",
            f"| taps answered / explanations sent to their tapper alone (ephemeral) "
            f"| {o.get('taps', 0):,} / {o.get('ephemeral', 0):,} |",
        ]
    stored = r.get("stored", [])
    if stored:
        lines += [
            "",
            f"7. stored quizzes (20 questions each; {_published(stored)} published): start-up to "
            "the first getUpdates, RSS 0.5 s "
            "later, `/quiz` in a group, `/myquizzes` and `/quiz NAME` (a practice of a published "
            "quiz, in private) median (max) from the command queued to "
            "the reply received, SIGTERM to exit; an *upgraded* file was written by the version "
            "before the JSON form and is converted while this is measured",
            "",
            "| stored | file | start-up (s) | RSS (MB) | /quiz (ms) | /myquizzes (ms) "
            "| /quiz NAME (ms) | CPU per /quiz · /myquizzes · /quiz NAME (ms) "
            "| left to convert at stop | stop (s) | file (MB) |",
            "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in stored:
            lines.append(
                f"| {row['quizzes']:,} | {'upgraded' if row['file'].startswith('old') else 'new'} "
                f"| {row['startup_s']:.2f} | {row['rss_mb']:.0f} "
                f"| {row['quiz_group_ms']:.1f} ({row['quiz_group_max_ms']:.0f}) "
                f"| {row['myquizzes_ms']:.1f} ({row['myquizzes_max_ms']:.0f}) "
                f"| {row['quiz_name_ms']:.1f} ({row['quiz_name_max_ms']:.0f}) "
                f"| {row['quiz_group_cpu_ms']:.1f} · {row['myquizzes_cpu_ms']:.1f} "
                f"· {row['quiz_name_cpu_ms']:.1f} "
                f"| {row['pending_at_stop']:,} | {row['stop_s']:.2f} | {row['db_mb']:.0f} |"
            )
        lines += growth(stored)
    return lines


def _published(stored: list[dict[str, Any]]) -> str:
    """How many of each size's quizzes were published (``/quiz`` lists them)."""
    return " / ".join(sorted({f"{r.get('published', 10):,}" for r in stored}))


def growth(stored: list[dict[str, Any]]) -> list[str]:
    """Start-up and RSS per stored quiz, from the smallest to the largest size measured."""
    out = []
    for kind in ("old", "new"):
        rows = sorted((x for x in stored if x["file"].startswith(kind)), key=lambda x: x["quizzes"])
        if len(rows) < 2 or rows[-1]["quizzes"] == rows[0]["quizzes"]:
            continue
        a, b = rows[0], rows[-1]
        n = b["quizzes"] - a["quizzes"]
        out.append(
            f"\nGrowth per stored quiz ({'upgraded' if kind == 'old' else 'new'} file, "
            f"{a['quizzes']:,} → {b['quizzes']:,}): start-up "
            f"{1e6 * (b['startup_s'] - a['startup_s']) / n:.1f} µs, RSS "
            f"{1e3 * (b['rss_mb'] - a['rss_mb']) / n:.2f} KB."
        )
    return out


def main(argv: list[str]) -> int:
    """One scenario alone; ``python -m bench --only overall --only stored`` runs both too."""
    RESULTS.mkdir(exist_ok=True)
    what = argv[0] if argv else "stored"
    r: dict[str, Any] = {}
    if what == "overall":
        r["overall"] = asyncio.run(overall(int(argv[1]) if len(argv) > 1 else 120))
    else:
        sizes = [int(a) for a in argv[1:]] or [0, 1000, 10000, 50000]
        r["stored"] = [asyncio.run(stored(n, old=old)) for n in sizes for old in (True, False)]
    r["load_after"] = os.getloadavg()
    (RESULTS / f"scale-{what}.json").write_text(json.dumps(r, indent=2) + "\n")
    print("\n".join(table(r)))
    print(*(f"{name}: {'met' if ok else 'NOT met'}" for name, ok in targets(r).items()), sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
