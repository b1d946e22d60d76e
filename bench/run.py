"""``python -m bench``: run every scenario, print the table, write the JSON."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped,unused-ignore]

from bench import history, live
from bench.procs import TOKEN
from bench.stats import ratio

RESULTS = Path(__file__).absolute().parent / "results"

FULL = live.Sizes()
SMOKE = live.Sizes(burst_taps=20, warmup_taps=4, groups=3, students=5, question_seconds=5,
                   memory_groups=5, memory_seconds=2.0, rounds=1, bank_questions=2,
                   groups_seconds=6.0)
FULL_HISTORY = history.HistorySizes()
SMOKE_HISTORY = history.HistorySizes(answers=2_000, groups=5, students=100, quizzes=3, calls=5)

# (section, key, target, how it is judged)
TARGETS = {
    "burst_throughput": "≥ 0.8 × baseline",
    "burst_p99": "≤ 2 × baseline",
    "durable": "every answer stored before its alert",
    "window": "≤ 20 per group per 60 s",
    "history_fast": "< 50 ms",
    "export": "< 1000 ms",
    "rss": "< 150 MB",
}


def framework_config() -> dict[str, int]:
    """The bot's own PTB settings, so the baseline runs the framework exactly the same way."""
    config = {"concurrent_updates": 256, "connection_pool_size": 128}
    try:
        from bot.app import build_application
        from bot.settings import Settings

        app = build_application(Settings(token=TOKEN, api_url="http://127.0.0.1:9/bot"),
                                quizzes={})
        config["concurrent_updates"] = int(app.update_processor.max_concurrent_updates)
        limits = app.bot.request._client_kwargs["limits"]
        config["connection_pool_size"] = int(limits.max_connections)
    except Exception as exc:  # the defaults above mirror bot/app.py at the time of writing
        print(f"bench: could not read the bot's PTB settings ({exc!r}); using {config}",
              file=sys.stderr)
    return config


def machine() -> dict[str, Any]:
    import telegram

    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "cores": os.cpu_count(),
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "cpu": _cpu_model(),
        "python": platform.python_version(),
        "ptb": telegram.__version__,
        "sqlite": __import__("sqlite3").sqlite_version,
        "platform": platform.platform(),
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _median(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in rounds[0].items():
        if isinstance(value, bool):
            out[key] = all(r[key] for r in rounds)
        elif isinstance(value, int | float):
            out[key] = statistics.median(r[key] for r in rounds)
    return out


async def run_all(sizes: live.Sizes, hsizes: history.HistorySizes,
                  only: set[str] | None) -> dict[str, Any]:
    config = framework_config()
    os.environ["BENCH_CONCURRENT_UPDATES"] = str(config["concurrent_updates"])
    os.environ["BENCH_POOL"] = str(config["connection_pool_size"])
    results: dict[str, Any] = {"machine": machine(), "framework": config,
                               "sizes": {**sizes.__dict__}, "history_sizes": {**hsizes.__dict__}}
    work = live.Workdir(sizes)
    began = time.monotonic()
    try:
        if not only or "burst" in only:
            bots, bases = [], []
            for _ in range(sizes.rounds):  # alternate, so drift hits both alike
                b = await live.burst("bot", sizes, work)
                text = b.pop("question_text")
                a = await live.burst("baseline", sizes, work, text)
                a.pop("question_text")
                bots.append(b)
                bases.append(a)
            results["burst"] = {"bot": _median(bots), "baseline": _median(bases),
                                "rounds": {"bot": bots, "baseline": bases}}
            _progress("burst", began)
        if not only or "groups" in only:
            b = await live.many_groups("bot", sizes, work)
            timeline = b.pop("timeline")
            a = await live.many_groups("baseline", sizes, work, timeline, b.pop("question_text"))
            a.pop("question_text")
            results["groups"] = {"bot": b, "baseline": a}
            _progress("groups", began)
        if not only or "history" in only:
            results["history"] = await history.measure(hsizes, work.path)
            _progress("history", began)
        if not only or "memory" in only:
            results["memory"] = await live.memory(sizes, work)
            _progress("memory", began)
    finally:
        work.cleanup()
    results["elapsed_s"] = time.monotonic() - began
    results["targets"] = judge(results)
    return results


def _progress(name: str, began: float) -> None:
    print(f"bench: {name} done at {time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)


def judge(r: dict[str, Any]) -> dict[str, bool]:
    """Which targets were met (only for the scenarios that ran)."""
    out: dict[str, bool] = {}
    if "burst" in r:
        bot, base = r["burst"]["bot"], r["burst"]["baseline"]
        out["burst throughput ≥ 0.8 × baseline"] = ratio(bot["per_second"],
                                                         base["per_second"]) >= 0.8
        out["burst p99 ≤ 2 × baseline"] = ratio(bot["p99_ms"], base["p99_ms"]) <= 2.0
        out["burst: every answer stored before its alert"] = bool(bot["all_stored"])
    if "groups" in r:
        bot = r["groups"]["bot"]
        out["groups: ≤ 20 sends+edits per group per 60 s"] = bool(bot["within_limit"])
        out["groups: every tap answered and stored"] = bool(bot["all_answered"]
                                                            and bot["all_stored"])
    if "history" in r:
        cmds = r["history"]["commands"]
        for name in ("/leaderboard", "/me (group)", "/me (private)"):
            out[f"{name} p95 < 50 ms"] = cmds[name]["p95_ms"] < 50
            out[f"{name} largest group < 50 ms"] = cmds[name]["largest_p50_ms"] < 50
        out["/export of the largest group < 1 s"] = cmds["/export"]["max_ms"] < 1000
    if "memory" in r:
        out["peak RSS < 150 MB with running quizzes"] = r["memory"]["peak_rss_mb"] < 150
    return out


def _f(value: Any, digits: int = 0) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def table(r: dict[str, Any]) -> str:
    """The figures as a Markdown table (prints fine in a terminal, pastes into the README)."""
    m = r["machine"]
    lines = [f"quizbot bench — {m['date']} — {m['cores']} cores ({m['cpu']}), "
             f"{m['memory_gb']} GB RAM, Python {m['python']}, PTB {m['ptb']}, "
             f"SQLite {m['sqlite']}",
             f"PTB settings of bot and baseline: concurrent_updates="
             f"{r['framework']['concurrent_updates']}, connection_pool_size="
             f"{r['framework']['connection_pool_size']}; elapsed {r['elapsed_s']:.0f} s", ""]
    rows: list[tuple[str, str, str, str]] = []

    def live_rows(name: str, bot: dict[str, Any], base: dict[str, Any]) -> None:
        rows.append((f"{name}: taps answered / s", _f(bot["per_second"]),
                     _f(base["per_second"]), _f(ratio(bot["per_second"], base["per_second"]), 2)))
        for p in ("p50", "p95", "p99"):
            key = f"{p}_ms"
            rows.append((f"{name}: latency {p} (ms)", _f(bot[key]), _f(base[key]),
                         _f(ratio(bot[key], base[key]), 2)))
        rows.append((f"{name}: CPU per tap (ms)", _f(bot["cpu_ms_per_tap"], 2),
                     _f(base["cpu_ms_per_tap"], 2),
                     _f(ratio(bot["cpu_ms_per_tap"], base["cpu_ms_per_tap"]), 2)))

    if "burst" in r:
        bot, base = r["burst"]["bot"], r["burst"]["baseline"]
        size = r["sizes"]["burst_taps"]
        live_rows(f"1. burst ({size} taps in 1 s)", bot, base)
        rows.append(("1. burst: answers stored / accepted", f"{_f(bot['stored'])} / "
                     f"{_f(bot['accepted'])}", "", ""))
    if "groups" in r:
        bot, base = r["groups"]["bot"], r["groups"]["baseline"]
        s = r["sizes"]
        name = f"2. {s['groups']} groups × {s['students']}"
        live_rows(name, bot, base)
        rows.append((f"{name}: taps / answered / stored", f"{_f(bot['taps'])} / "
                     f"{_f(bot['answered'])} / {_f(bot['stored'])}", "", ""))
        rows.append((f"{name}: taps after the question closed", _f(bot["late"]), "", ""))
        rows.append((f"{name}: most sends+edits in one group in 60 s", _f(bot["max_per_window"]),
                     "", "limit 20"))
        rows.append((f"{name}: duration (s) / peak RSS (MB)", f"{_f(bot['duration_s'])} / "
                     f"{_f(bot['peak_rss_mb'])}", "", ""))
    if "history" in r:
        h = r["history"]
        rows.append((f"3. history: {_f(h['answers'])} answers, {_f(h['runs'])} runs, "
                     f"{_f(h['groups'])} groups", f"{_f(h['db_mb'], 1)} MB on disk", "", ""))
        for name, c in h["commands"].items():
            rows.append((f"3. {name} p50 / p95 / largest (ms)",
                         f"{_f(c['p50_ms'], 1)} / {_f(c['p95_ms'], 1)} / "
                         f"{_f(c['largest_p50_ms'], 1)}", "", ""))
    if "memory" in r:
        mem = r["memory"]
        rows.append((f"4. memory: RSS idle / peak with {mem['groups']} quizzes (MB)",
                     f"{_f(mem['idle_rss_mb'])} / {_f(mem['peak_rss_mb'])}", "", ""))
    head = ("figure", "quizbot", "baseline", "ratio")
    widths = [max(len(x[i]) for x in [head, *rows]) for i in range(4)]
    fmt = "| " + " | ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in
                            enumerate(widths)) + " |"
    lines.append(fmt.format(*head))
    lines.append("|" + "|".join(("-" * (w + 1) + ":") if i else ("-" * (w + 2))
                                for i, w in enumerate(widths)) + "|")
    lines += [fmt.format(*row) for row in rows]
    lines.append("")
    lines.append("| target | met |")
    lines.append("|---|---|")
    lines += [f"| {name} | {'yes' if ok else '**no**'} |" for name, ok in r["targets"].items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (CI): checks the "
                        "benchmark runs and produces every figure, judges nothing")
    parser.add_argument("--only", action="append", choices=["burst", "groups", "history",
                                                            "memory"],
                        help="run only this scenario (repeatable)")
    parser.add_argument("--rtt", type=float, default=0.0, help="simulated round trip to "
                        "Telegram in seconds for every call but getUpdates (default 0)")
    parser.add_argument("--json", type=Path, default=RESULTS / "latest.json",
                        help="where to write the figures (default bench/results/latest.json)")
    args = parser.parse_args(argv)
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    sizes = SMOKE if args.smoke else FULL
    if args.rtt:
        sizes = live.Sizes(**{**sizes.__dict__, "rtt": args.rtt})
    hsizes = SMOKE_HISTORY if args.smoke else FULL_HISTORY
    results = asyncio.run(run_all(sizes, hsizes, set(args.only) if args.only else None))
    results["smoke"] = args.smoke
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(table(results))
    print(f"\nfigures written to {args.json}")
    return 0
