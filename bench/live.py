"""Scenarios 1, 2 and 4: the real bot process (and the baseline) against the fake server."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.procs import Bot, RssSampler, Server
from bench.stats import percentile

CREATOR = 1
BURST_CHAT = -1001000000001
FILLER_TEXT = "x" * 600  # the baseline's message, when no real question text is at hand


@dataclass(frozen=True)
class Sizes:
    burst_taps: int = 1000
    warmup_taps: int = 20
    groups: int = 100
    students: int = 30
    question_seconds: int = 10
    memory_groups: int = 200
    memory_seconds: float = 25.0
    window: float = 60.0  # Telegram's sliding window for the 20 sends/edits per group


def tap_figures(taps: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Throughput and latency of a set of taps from the server's report."""
    answered = [t for t in taps if t["answered"] is not None and t["offered"] is not None]
    latencies = [(t["answered"] - t["offered"]) * 1000 for t in answered]
    if answered:
        span = max(t["answered"] for t in answered) - min(t["tapped"] for t in taps)
    else:
        span = 0.0
    return {
        "taps": len(taps),
        "answered": len(answered),
        "per_second": len(answered) / span if span > 0 else 0.0,
        "p50_ms": percentile(latencies, 50),
        "p95_ms": percentile(latencies, 95),
        "p99_ms": percentile(latencies, 99),
        "max_ms": max(latencies, default=0.0),
    }


def stored_answers(db: Path) -> dict[int, int]:
    """Rows in ``answers`` per chat, read after the bot stopped."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT r.chat_id, COUNT(*) FROM answers AS a JOIN runs AS r"
                            " ON r.run_id = a.run_id GROUP BY r.chat_id").fetchall()
    finally:
        conn.close()
    return {int(c): int(n) for c, n in rows}


class Workdir:
    """A temporary folder for the databases of one invocation."""

    def __init__(self) -> None:
        self.path = Path(tempfile.mkdtemp(prefix="quizbot-bench-"))

    def db(self, name: str) -> Path:
        return self.path / f"{name}.sqlite3"

    def cleanup(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


async def _start_quizzes(server: Server, chats: Sequence[int], seconds: int,
                         timeout: float) -> dict[str, Any]:  # noqa: ASYNC109
    await server.call("say", {"messages": [[c, CREATOR, f"/quiz zero {seconds}"] for c in chats]})
    deadline = time.monotonic() + timeout
    while True:
        found = (await server.call("open_question", {"chats": list(chats)}))["open"]
        if len(found) == len(chats):
            return dict(found)
        if time.monotonic() > deadline:
            raise TimeoutError(f"only {len(found)} of {len(chats)} quizzes opened a question")
        await asyncio.sleep(0.1)


# --------------------------------------------------------------------------- scenario 1
async def burst(kind: str, sizes: Sizes, work: Workdir, text: str | None = None) -> dict[str, Any]:
    """One group, one open question, ``burst_taps`` students tapping within one second."""
    server = await Server.start(sizes.window)
    students = list(range(100_000, 100_000 + sizes.burst_taps))
    warm = list(range(200_000, 200_000 + sizes.warmup_taps))
    db = work.db(f"burst-{kind}")
    try:
        await server.call("setup", {"groups": [{"chat_id": BURST_CHAT, "creator": CREATOR,
                                                "students": students + warm}]})
        bot = await Bot.start(server, kind, db=db if kind == "bot" else None)
        try:
            if kind == "bot":
                question = (await _start_quizzes(server, [BURST_CHAT], 600, 30))[str(BURST_CHAT)]
            else:
                buttons = [[label, f"a:1:0:{i}"] for i, label in enumerate("ABCD")]
                posted = await server.call("post_static", {"chat_id": BURST_CHAT,
                                                           "text": text or FILLER_TEXT,
                                                           "buttons": buttons})
                question = {"message_id": posted["message_id"],
                            "buttons": [d for _, d in buttons], "text": text}
            mid, datas = question["message_id"], question["buttons"]

            def taps(users: Sequence[int]) -> list[list[Any]]:
                return [[BURST_CHAT, u, mid, datas[u % len(datas)]] for u in users]

            await server.call("burst", {"taps": taps(warm), "spread": 0.2, "batches": 4})
            await server.wait(lambda p: p["answered"] >= len(warm), 30, "warm-up answers")
            cpu0 = bot.cpu_seconds()
            await server.call("burst", {"taps": taps(students), "spread": 1.0, "batches": 20})
            total = len(warm) + len(students)
            await server.wait(lambda p: p["answered"] >= total, 120, "every burst tap answered")
            cpu = bot.cpu_seconds() - cpu0
        finally:
            await bot.stop()
        report = await server.call("report")
    finally:
        await server.stop()
    main = [t for t in report["taps"] if t["user"] < 200_000]
    figures = tap_figures(main)
    figures["cpu_ms_per_tap"] = cpu * 1000 / max(1, len(main))
    figures["question_text"] = question.get("text")
    if kind == "bot":
        accepted = sum(1 for t in report["taps"] if t["accepted"])
        stored = stored_answers(db).get(BURST_CHAT, 0)
        figures.update(accepted=accepted, stored=stored, all_stored=stored == accepted == len(
            report["taps"]))
    return figures
