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

import yaml

from bench.procs import ROOT, Bot, RssSampler, Server
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
    groups_seconds: float = 60.0  # how long the groups play before the load stops
    window: float = 60.0  # Telegram's sliding window for the 20 sends/edits per group
    rtt: float = 0.0  # simulated round trip to Telegram (0: loopback as is)
    rounds: int = 2  # burst rounds per target (bot and baseline alternate); medians reported
    shutdown_groups: int = 100  # quizzes running when SIGTERM comes
    shutdown_load_s: float = 8.0  # how long they run before it
    stock_httpx: bool = True  # burst: also bare PTB with httpx and concurrent updates
    bank_questions: int | None = None  # smoke: serve the shipped quiz cut to this many questions
    overall_groups: int = 120  # many groups under the overall limit (bench/scale.py)
    overall_students: int = 4
    stored: tuple[int, ...] = (0, 1_000, 10_000)  # stored quizzes (bench/scale.py)
    stored_asks: int = 40  # timed /quiz and /myquizzes each
    stored_published: int = 10  # of the stored quizzes, published (listed by /quiz)
    bank: str | None = None  # serve this bank file as the quiz played (default questions/zero.yaml)
    multi: bool = True  # burst: also the several-answers burst (tick, then Submit)


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
        rows = conn.execute(
            "SELECT r.chat_id, COUNT(*) FROM answers AS a JOIN runs AS r"
            " ON r.run_id = a.run_id GROUP BY r.chat_id"
        ).fetchall()
    finally:
        conn.close()
    return {int(c): int(n) for c, n in rows}


class Workdir:
    """A temporary folder for the databases (and a cut question bank) of one invocation."""

    def __init__(self, sizes: Sizes) -> None:
        self.path = Path(tempfile.mkdtemp(prefix="quizbot-bench-"))
        self._count = 0
        self.env: dict[str, str] = {}
        if sizes.bank_questions is not None or sizes.bank is not None:
            source = Path(sizes.bank) if sizes.bank else ROOT / "questions" / "zero.yaml"
            bank = yaml.safe_load(source.read_text("utf-8"))
            bank["questions"] = bank["questions"][: sizes.bank_questions]
            folder = self.path / "questions"
            folder.mkdir()
            (folder / "zero.yaml").write_text(yaml.safe_dump(bank, allow_unicode=True), "utf-8")
            self.env["QUIZBOT_QUESTIONS"] = str(folder)

    def db(self, name: str) -> Path:
        """A fresh database path (never reused: a bot resumes the runs it finds)."""
        self._count += 1
        return self.path / f"{name}-{self._count}.sqlite3"

    def log(self, name: str) -> Path:
        """A fresh path for a bot's standard error."""
        self._count += 1
        return self.path / f"{name}-{self._count}.log"

    def cleanup(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


async def _start_quizzes(
    server: Server,
    chats: Sequence[int],
    seconds: int,
    timeout: float,  # noqa: ASYNC109
) -> dict[str, Any]:
    await server.call("say", {"messages": [[c, CREATOR, f"/quiz zero {seconds}"] for c in chats]})
    deadline = time.monotonic() + timeout
    while True:
        found = (await server.call("open_question", {"chats": list(chats)}))["open"]
        if len(found) == len(chats):
            return dict(found)
        if time.monotonic() > deadline:
            raise TimeoutError(f"only {len(found)} of {len(chats)} quizzes opened a question")
        await asyncio.sleep(0.1)


async def _post_static(
    server: Server, chats: Sequence[int], text: str | None, *, submit: bool = False
) -> dict[str, Any]:
    """For the baseline: a message with four answer-like buttons in each chat (and a
    Submit-like one)."""
    buttons = [[label, f"a:1:0:{i}"] for i, label in enumerate("ABCD")]
    if submit:
        buttons.append(["✔ Submit", SUBMIT_DATA])
    posted = await server.call(
        "post_static", {"chats": list(chats), "text": text or FILLER_TEXT, "buttons": buttons}
    )
    return {
        chat: {"message_id": mid, "buttons": [d for _, d in buttons], "text": text}
        for chat, mid in posted["message_ids"].items()
    }


# --------------------------------------------------------------------------- scenario 1
MULTI_BANK = ROOT / "bench" / "multi.yaml"  # the several-answers burst's quiz
SUBMIT_DATA = "a:1:0:s"  # the baseline's Submit-like button


def multi_env(work: Workdir) -> dict[str, str]:
    """The bot's environment serving bench/multi.yaml as the quiz played (``zero``)."""
    folder = work.path / "multi"
    if not folder.exists():
        folder.mkdir()
        shutil.copy(MULTI_BANK, folder / "zero.yaml")
    return {**work.env, "QUIZBOT_QUESTIONS": str(folder)}


async def burst(
    kind: str,
    sizes: Sizes,
    work: Workdir,
    text: str | None = None,
    *,
    webhook: bool = False,
    multi: bool = False,
) -> dict[str, Any]:
    """One group, one open question, ``burst_taps`` students tapping within one second;
    polled, or pushed to the bot's webhook. ``multi``: a several-answers question, each
    student ticking an option (all at once), then, once every tick is answered, tapping
    Submit (all at once); throughput is the taps over the two bursts' spans."""
    server = await Server.start(sizes.window, sizes.rtt)
    students = list(range(100_000, 100_000 + sizes.burst_taps))
    warm = list(range(200_000, 200_000 + sizes.warmup_taps))
    db = work.db(f"burst-{kind}")
    try:
        await server.call(
            "setup",
            {"groups": [{"chat_id": BURST_CHAT, "creator": CREATOR, "students": students + warm}]},
        )
        bot = await Bot.start(
            server,
            kind,
            db=db if kind == "bot" else None,
            env=multi_env(work) if multi and kind == "bot" else work.env,
            webhook=webhook,
            log=work.log(f"burst-{kind}"),
        )
        try:
            if kind == "bot":
                question = (await _start_quizzes(server, [BURST_CHAT], 600, 30))[str(BURST_CHAT)]
            else:
                posted = await _post_static(server, [BURST_CHAT], text, submit=multi)
                question = posted[str(BURST_CHAT)]
            mid, datas = question["message_id"], question["buttons"]
            options = [d for d in datas if not d.endswith(":s")]
            submit = next((d for d in datas if d.endswith(":s")), None)

            def taps(users: Sequence[int]) -> list[list[Any]]:
                return [[BURST_CHAT, u, mid, options[u % len(options)]] for u in users]

            await server.call("burst", {"taps": taps(warm), "spread": 0.2, "batches": 4})
            await server.wait(lambda p: p["answered"] >= len(warm), 30, "warm-up answers")
            cpu0, scpu0 = bot.cpu_seconds(), server.cpu_seconds()
            await server.call("burst", {"taps": taps(students), "spread": 0.0, "batches": 1})
            total = len(warm) + len(students)
            await server.wait(lambda p: p["answered"] >= total, 120, "every burst tap answered")
            if multi:
                assert submit is not None, "a several-answers question has a Submit button"
                submits = [[BURST_CHAT, u, mid, submit] for u in students]
                await server.call("burst", {"taps": submits, "spread": 0.0, "batches": 1})
                total += len(students)
                await server.wait(lambda p: p["answered"] >= total, 120, "every Submit answered")
            cpu = bot.cpu_seconds() - cpu0
            scpu = server.cpu_seconds() - scpu0
        finally:
            await bot.stop()
        report = await server.call("report")
    finally:
        await server.stop()
    main = [t for t in report["taps"] if t["user"] < 200_000]
    if multi:  # the ticks were all queued before the first Submit: two bursts, two spans
        main.sort(key=lambda t: t["tapped"])
        ticks, submits_done = main[: len(students)], main[len(students) :]
        figures = _two_bursts(ticks, submits_done)
    else:
        figures = tap_figures(main)
    figures["cpu_ms_per_tap"] = cpu * 1000 / max(1, len(main))
    figures["server_cpu_ms_per_tap"] = scpu * 1000 / max(1, len(main))
    figures["question_text"] = question.get("text")
    if kind == "bot":
        accepted = sum(1 for t in report["taps"] if t["accepted"])
        stored = stored_answers(db).get(BURST_CHAT, 0)
        expected = len(students) if multi else len(report["taps"])  # a tick stores no answer
        figures.update(accepted=accepted, stored=stored, all_stored=stored == accepted == expected)
    return figures


def _two_bursts(
    first: Sequence[dict[str, Any]], second: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The figures of two bursts run one after the other: taps per second of their spans
    added (the wait between them left out), latency percentiles over every tap."""
    both = tap_figures([*first, *second])
    spans = [
        f["answered"] / f["per_second"] if f["per_second"] else 0.0
        for f in (tap_figures(first), tap_figures(second))
    ]
    both["per_second"] = both["answered"] / sum(spans) if sum(spans) > 0 else 0.0
    return both


# --------------------------------------------------------------------------- scenario 2
def group_ids(count: int, base: int = -1002000000000) -> list[int]:
    return [base - i for i in range(count)]


def class_of(chat_index: int, students: int) -> list[int]:
    start = 1_000_000 + chat_index * 1000
    return list(range(start, start + students))


async def _classes(server: Server, chats: Sequence[int], students: int) -> None:
    """Each chat a group with the creator and ``students`` students."""
    await server.call(
        "setup",
        {
            "groups": [
                {"chat_id": c, "creator": CREATOR, "students": class_of(i, students)}
                for i, c in enumerate(chats)
            ]
        },
    )


async def many_groups(
    kind: str,
    sizes: Sizes,
    work: Workdir,
    timeline: list[Any] | None = None,
    text: str | None = None,
) -> dict[str, Any]:
    """``groups`` groups of ``students`` each, all running a quiz with short timers at once.

    The bot's run records when each student tapped; the baseline replays that timeline onto
    static messages, so both see the same load.
    """
    server = await Server.start(sizes.window, sizes.rtt)
    chats = group_ids(sizes.groups)
    db = work.db(f"groups-{kind}")
    try:
        await _classes(server, chats, sizes.students)
        bot = await Bot.start(
            server,
            kind,
            db=db if kind == "bot" else None,
            env=work.env,
            log=work.log(f"groups-{kind}"),
        )
        sampler = RssSampler(bot.pid)
        sampler.start()
        started = time.monotonic()
        try:
            cpu0 = bot.cpu_seconds()
            if kind == "bot":
                await server.call(
                    "autopilot", {"answer_window": [0.3, sizes.question_seconds - 1.5], "seed": 6}
                )
                question = await _start_quizzes(server, chats, sizes.question_seconds, 60)
                await asyncio.sleep(sizes.groups_seconds)
                await server.call("autopilot_off")
                await asyncio.sleep(sizes.question_seconds)  # the taps already scheduled
                text = next(iter(question.values()))["text"]
            else:
                assert timeline is not None
                posted = await _post_static(server, chats, text)
                await server.call(
                    "replay",
                    {
                        "timeline": timeline,
                        "targets": {c: [q["message_id"], q["buttons"]] for c, q in posted.items()},
                    },
                )
                await server.wait(
                    lambda p: p["tapped"] >= len(timeline), 600, "the replayed taps", interval=0.5
                )
            drained = time.monotonic()
            await server.wait(
                lambda p: p["answered"] >= p["tapped"], 300, "every tap answered", interval=0.2
            )
            drain = time.monotonic() - drained
            cpu = bot.cpu_seconds() - cpu0
        finally:
            await sampler.stop()
            await bot.stop(timeout=60.0)  # answers are durable before their alerts either way
        report = await server.call("report", {"window": 60.0})
    finally:
        await server.stop()
    figures = tap_figures(report["taps"])
    figures["duration_s"] = time.monotonic() - started
    figures["drain_s"] = drain  # after the last tap, until every tap was answered
    figures["cpu_ms_per_tap"] = cpu * 1000 / max(1, len(report["taps"]))
    figures["peak_rss_mb"] = sampler.peak / 2**20
    figures["question_text"] = text
    if kind == "bot":
        accepted: dict[int, int] = {}
        for tap in report["taps"]:
            if tap["accepted"]:
                accepted[tap["chat"]] = accepted.get(tap["chat"], 0) + 1
        stored = stored_answers(db)
        windows = report["max_in_window"]
        figures.update(
            timeline=report["timeline"],
            questions=report["questions"],
            accepted=sum(accepted.values()),
            stored=sum(stored.values()),
            all_answered=figures["answered"] == figures["taps"],
            all_stored=all(stored.get(c, 0) == n for c, n in accepted.items())
            and sum(stored.values()) == sum(accepted.values()),
            late=figures["taps"] - sum(accepted.values()),
            max_per_window=max(windows.values(), default=0),
            within_limit=max(windows.values(), default=0) <= 20,
        )
    return figures


# --------------------------------------------------------------------------- scenario 4
async def memory(sizes: Sizes, work: Workdir) -> dict[str, Any]:
    """Peak RSS with ``memory_groups`` quizzes running at once, and RSS at idle."""
    server = await Server.start(sizes.window, sizes.rtt)
    chats = group_ids(sizes.memory_groups, base=-1003000000000)
    try:
        await _classes(server, chats, sizes.students)
        bot = await Bot.start(
            server, "bot", db=work.db("memory"), env=work.env, log=work.log("memory")
        )
        sampler = RssSampler(bot.pid)
        try:
            await asyncio.sleep(1.0)
            idle = sampler.current()
            sampler.start()
            await server.call(
                "autopilot", {"answer_window": [0.3, sizes.question_seconds - 1.5], "seed": 4}
            )
            await _start_quizzes(server, chats, sizes.question_seconds, 120)
            await asyncio.sleep(sizes.memory_seconds)
            progress = await server.call("progress")
        finally:
            await sampler.stop()
            await bot.stop(timeout=5.0)  # a kill is fine: only memory is measured here
    finally:
        await server.stop()
    return {
        "idle_rss_mb": idle / 2**20,
        "peak_rss_mb": sampler.peak / 2**20,
        "groups": len(chats),
        "taps": progress["tapped"],
        "questions": progress["questions"],
    }


# --------------------------------------------------------------------------- scenario 5
BAD_LOG_LINES = ("Task was destroyed but it is pending", "no running event loop", "Traceback")


async def shutdown(sizes: Sizes, work: Workdir) -> dict[str, Any]:
    """SIGTERM while ``shutdown_groups`` quizzes run and their students tap: how long the bot
    takes to exit, and whether its log is clean."""
    server = await Server.start(sizes.window, sizes.rtt)
    chats = group_ids(sizes.shutdown_groups, base=-1005000000000)
    try:
        await _classes(server, chats, sizes.students)
        bot = await Bot.start(
            server,
            "bot",
            db=work.db("shutdown"),
            env={**work.env, "QUIZBOT_LOG_LEVEL": "INFO"},
            log=work.log("shutdown"),
        )
        try:
            await server.call(
                "autopilot", {"answer_window": [0.3, sizes.question_seconds - 1.5], "seed": 5}
            )
            await _start_quizzes(server, chats, sizes.question_seconds, 120)
            await asyncio.sleep(sizes.shutdown_load_s)
            progress = await server.call("progress")
            began = time.monotonic()
            code = await bot.stop(timeout=30.0)
            took = time.monotonic() - began
        except BaseException:
            await bot.stop(timeout=5.0)
            raise
    finally:
        await server.stop()
    log = bot.log.read_text(errors="replace")
    bad = [
        line
        for line in log.splitlines()
        if any(b in line for b in BAD_LOG_LINES) or " ERROR " in line or " CRITICAL " in line
    ]
    return {
        "groups": len(chats),
        "taps": progress["tapped"],
        "exit_s": took,
        "exit_code": code,
        "clean_log": not bad,
        "bad_lines": bad[:10],
        "stopped_cleanly": "INFO bot.app.application: stopped" in log,
        "log_tail": log.splitlines()[-40:],
    }
