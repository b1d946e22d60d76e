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

from bench import history, live, scale
from bench.stats import ratio

RESULTS = Path(__file__).absolute().parent / "results"

FULL = live.Sizes()
SMOKE = live.Sizes(
    burst_taps=20,
    warmup_taps=4,
    groups=3,
    students=5,
    question_seconds=5,
    memory_groups=5,
    memory_seconds=1.0,
    rounds=1,
    bank_questions=2,
    groups_seconds=2.0,
    shutdown_groups=5,
    shutdown_load_s=1.0,
    stock_httpx=False,
    overall_groups=3,
    overall_students=2,
    stored=(50,),
    stored_asks=3,
)
FULL_HISTORY = history.HistorySizes()
SMOKE_HISTORY = history.HistorySizes(answers=2_000, groups=5, students=100, quizzes=3, calls=5)

#: the bare PTB bots of the burst, besides the baseline (PTB's defaults): key -> variant
BURST_BARE = {
    "ceiling": "ceiling",
    "ceiling_uvloop": "ceiling-uvloop",
    "httpx_concurrent": "httpx-concurrent",
}


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


async def run_all(
    sizes: live.Sizes, hsizes: history.HistorySizes, only: set[str] | None
) -> dict[str, Any]:
    results: dict[str, Any] = {
        "machine": machine(),
        "load_before": os.getloadavg(),
        "sizes": {**sizes.__dict__},
        "history_sizes": {**hsizes.__dict__},
    }
    work = live.Workdir(sizes)
    began = time.monotonic()
    try:
        if not only or "burst" in only:
            results["burst"] = await _bursts(sizes, work)
            _progress("burst", began)
        if not only or "groups" in only:
            b = await live.many_groups("bot", sizes, work)
            timeline = b.pop("timeline")
            a = await live.many_groups("defaults", sizes, work, timeline, b.pop("question_text"))
            a.pop("question_text")
            results["groups"] = {"bot": b, "baseline": a}
            _progress("groups", began)
        if not only or "history" in only:
            results["history"] = await history.measure(hsizes, work.path)
            _progress("history", began)
        if not only or "memory" in only:
            results["memory"] = await live.memory(sizes, work)
            _progress("memory", began)
        if not only or "shutdown" in only:
            results["shutdown"] = await live.shutdown(sizes, work)
            _progress("shutdown", began)
        if not only or "overall" in only:
            results["overall"] = await scale.overall(
                sizes.overall_groups, sizes.overall_students, sizes.question_seconds, work.env
            )
            _progress("overall", began)
        if not only or "stored" in only:
            results["stored"] = [
                await scale.stored(
                    n, old=old, asks=sizes.stored_asks, published=sizes.stored_published
                )
                for n in sizes.stored
                for old in (True, False)
            ]
            _progress("stored", began)
    finally:
        work.cleanup()
    results["load_after"] = os.getloadavg()
    results["elapsed_s"] = time.monotonic() - began
    results["targets"] = judge(results)
    return results


async def _bursts(sizes: live.Sizes, work: live.Workdir) -> dict[str, Any]:
    """Each round: quizbot, the bare PTB bots and quizbot on a webhook, one after the other
    (drift hits all alike); medians over the rounds. The stock-httpx concurrent variant runs
    in the first round only (it only shows what PTB's own switch gives)."""
    rounds: dict[str, list[dict[str, Any]]] = {}
    for i in range(sizes.rounds):
        b = await live.burst("bot", sizes, work)
        text = b.pop("question_text")
        rounds.setdefault("bot", []).append(b)
        kinds = {"baseline": "defaults", **BURST_BARE}
        for key, variant in kinds.items():
            if key == "httpx_concurrent" and (i > 0 or not sizes.stock_httpx):
                continue
            a = await live.burst(variant, sizes, work, text)
            a.pop("question_text")
            rounds.setdefault(key, []).append(a)
        w = await live.burst("bot", sizes, work, webhook=True)
        w.pop("question_text")
        rounds.setdefault("bot_webhook", []).append(w)
        if sizes.multi:  # several right answers: tick, then Submit, against the same bare PTB
            m = await live.burst("bot", sizes, work, multi=True)
            text = m.pop("question_text")
            rounds.setdefault("bot_multi", []).append(m)
            a = await live.burst("defaults", sizes, work, text, multi=True)
            a.pop("question_text")
            rounds.setdefault("baseline_multi", []).append(a)
    out: dict[str, Any] = {key: _median(values) for key, values in rounds.items()}
    out["rounds"] = rounds
    return out


def _progress(name: str, began: float) -> None:
    print(f"bench: {name} done at {time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)


def judge(r: dict[str, Any]) -> dict[str, bool]:
    """Which targets were met (only for the scenarios that ran)."""
    out: dict[str, bool] = {}
    if "burst" in r:
        burst = r["burst"]
        bot, base, top = burst["bot"], burst["baseline"], burst["ceiling"]
        out["burst throughput ≥ 2.5 × bare PTB (defaults)"] = (
            ratio(bot["per_second"], base["per_second"]) >= 2.5
        )
        out["burst throughput ≥ 0.85 × bare PTB + aiohttp (ceiling)"] = (
            ratio(bot["per_second"], top["per_second"]) >= 0.85
        )
        out["burst p99 ≤ 0.25 × bare PTB (defaults)"] = ratio(bot["p99_ms"], base["p99_ms"]) <= 0.25
        out["burst: every answer stored before its alert"] = bool(
            bot["all_stored"] and burst["bot_webhook"]["all_stored"]
        )
        if "bot_multi" in burst:
            out["burst (several answers): every Submit stored before its alert"] = bool(
                burst["bot_multi"]["all_stored"]
            )
    if "groups" in r:
        bot = r["groups"]["bot"]
        out["groups: ≤ 20 sends+edits per group per 60 s"] = bool(bot["within_limit"])
        out["groups: every tap answered and stored"] = bool(
            bot["all_answered"] and bot["all_stored"]
        )
        out["groups: 0 taps in time refused"] = bot["late"] == 0
        out["groups: p99 < 1 s"] = bot["p99_ms"] < 1000
    if "history" in r:
        cmds = r["history"]["commands"]
        for name in ("/leaderboard", "/me (group)", "/me (private)"):
            out[f"{name} p95 < 50 ms"] = cmds[name]["p95_ms"] < 50
            out[f"{name} largest group < 50 ms"] = cmds[name]["largest_p50_ms"] < 50
        out["/export of the largest group < 1 s"] = cmds["/export"]["max_ms"] < 1000
    if "memory" in r:
        out["peak RSS < 100 MB with 200 running quizzes"] = r["memory"]["peak_rss_mb"] < 100
    if "shutdown" in r:
        down = r["shutdown"]
        out["SIGTERM with 100 quizzes: exit < 5 s"] = down["exit_s"] < 5 and down["exit_code"] in (
            0,
            -15,
        )
        out["SIGTERM with 100 quizzes: clean log"] = bool(
            down["clean_log"] and down["stopped_cleanly"]
        )
    out.update(scale.targets(r))
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
    """The figures as Markdown tables (print fine in a terminal, paste into the README)."""
    m = r["machine"]
    load = " / ".join(f"{x:.2f}" for x in r["load_before"])
    load2 = " / ".join(f"{x:.2f}" for x in r["load_after"])
    lines = [
        f"quizbot bench — {m['date']} — {m['cores']} cores ({m['cpu']}), "
        f"{m['memory_gb']} GB RAM, Python {m['python']}, PTB {m['ptb']}, "
        f"SQLite {m['sqlite']}; load average (1/5/15 min) before {load}, after {load2}; "
        f"elapsed {r['elapsed_s']:.0f} s",
        "",
    ]
    if "burst" in r:
        lines += _burst_table(r)
    rows: list[tuple[str, str, str, str]] = []

    def live_rows(name: str, bot: dict[str, Any], base: dict[str, Any]) -> None:
        rows.append(
            (
                f"{name}: taps answered / s",
                _f(bot["per_second"]),
                _f(base["per_second"]),
                _f(ratio(bot["per_second"], base["per_second"]), 2),
            )
        )
        for p in ("p50", "p95", "p99"):
            key = f"{p}_ms"
            rows.append(
                (
                    f"{name}: latency {p} (ms)",
                    _f(bot[key]),
                    _f(base[key]),
                    _f(ratio(bot[key], base[key]), 2),
                )
            )
        rows.append(
            (
                f"{name}: CPU per tap (ms)",
                _f(bot["cpu_ms_per_tap"], 2),
                _f(base["cpu_ms_per_tap"], 2),
                _f(ratio(bot["cpu_ms_per_tap"], base["cpu_ms_per_tap"]), 2),
            )
        )

    if "groups" in r:
        bot, base = r["groups"]["bot"], r["groups"]["baseline"]
        s = r["sizes"]
        name = f"2. {s['groups']} groups × {s['students']}"
        live_rows(name, bot, base)
        rows.append(
            (
                f"{name}: taps / answered / stored",
                f"{_f(bot['taps'])} / {_f(bot['answered'])} / {_f(bot['stored'])}",
                "",
                "",
            )
        )
        rows.append((f"{name}: taps refused as late", _f(bot["late"]), "", ""))
        rows.append(
            (
                f"{name}: most sends+edits in one group in 60 s",
                _f(bot["max_per_window"]),
                "",
                "limit 20",
            )
        )
        rows.append(
            (
                f"{name}: duration (s) / peak RSS (MB)",
                f"{_f(bot['duration_s'])} / {_f(bot['peak_rss_mb'])}",
                "",
                "",
            )
        )
    if "history" in r:
        h = r["history"]
        rows.append(
            (
                f"3. history: {_f(h['answers'])} answers, {_f(h['runs'])} runs, "
                f"{_f(h['groups'])} groups",
                f"{_f(h['db_mb'], 1)} MB on disk",
                "",
                "",
            )
        )
        for name, c in h["commands"].items():
            rows.append(
                (
                    f"3. {name} p50 / p95 / largest (ms)",
                    f"{_f(c['p50_ms'], 1)} / {_f(c['p95_ms'], 1)} / {_f(c['largest_p50_ms'], 1)}",
                    "",
                    "",
                )
            )
    if "memory" in r:
        mem = r["memory"]
        rows.append(
            (
                f"4. memory: RSS idle / peak with {mem['groups']} quizzes (MB)",
                f"{_f(mem['idle_rss_mb'])} / {_f(mem['peak_rss_mb'])}",
                "",
                "",
            )
        )
    if "shutdown" in r:
        down = r["shutdown"]
        rows.append(
            (
                f"5. SIGTERM with {down['groups']} quizzes: exit (s) / log clean",
                f"{_f(down['exit_s'], 2)} / {_f(down['clean_log'])}",
                "",
                "",
            )
        )
    if rows:
        lines += _markdown(("figure", "quizbot", "bare PTB (defaults)", "ratio"), rows)
    lines += scale.table(r)
    lines.append("")
    lines.append("| target | met |")
    lines.append("|---|---|")
    lines += [f"| {name} | {'yes' if ok else '**no**'} |" for name, ok in r["targets"].items()]
    return "\n".join(lines)


def _burst_table(r: dict[str, Any]) -> list[str]:
    burst = r["burst"]
    size = r["sizes"]["burst_taps"]
    columns = [
        ("bare PTB (defaults)", "baseline"),
        ("bare PTB + aiohttp (ceiling)", "ceiling"),
        ("ceiling + uvloop (best bare)", "ceiling_uvloop"),
        ("quizbot", "bot"),
        ("quizbot, webhook", "bot_webhook"),
        ("bare PTB, httpx, concurrent", "httpx_concurrent"),
    ]
    columns = [(title, key) for title, key in columns if key in burst]
    base = burst["baseline"]
    rows: list[tuple[str, ...]] = []
    for label, key, digits in (
        ("taps answered / s", "per_second", 0),
        ("latency p50 (ms)", "p50_ms", 0),
        ("latency p95 (ms)", "p95_ms", 0),
        ("latency p99 (ms)", "p99_ms", 0),
        ("CPU per tap, bot process (ms)", "cpu_ms_per_tap", 2),
    ):
        rows.append((label, *(_f(burst[k][key], digits) for _, k in columns)))
        if key in ("per_second", "p99_ms"):
            rows.append(
                (
                    f"{label.split(' (')[0]}: × bare PTB (defaults)",
                    *(_f(ratio(burst[k][key], base[key]), 2) for _, k in columns),
                )
            )
    bot = burst["bot"]
    rows.append(
        (
            "answers stored / accepted",
            *(
                f"{_f(burst[k]['stored'])} / {_f(burst[k]['accepted'])}"
                if "stored" in burst[k]
                else ""
                for _, k in columns
            ),
        )
    )
    title = (
        f"1. burst: {size} taps queued at once on one open question (medians of "
        f"{r['sizes']['rounds']} rounds)"
    )
    ceiling = ratio(bot["per_second"], burst["ceiling"]["per_second"])
    best = burst.get("ceiling_uvloop")
    versus_best = (
        f"; {_f(ratio(bot['per_second'], best['per_second']), 2)} × the best bare setup's"
        if best
        else ""
    )
    return [
        title,
        "",
        *_markdown(("", *(t for t, _ in columns)), rows),
        "",
        f"quizbot's throughput is {_f(ceiling, 2)} × the ceiling's{versus_best}.",
        "",
        *_multi_table(r),
    ]


def _multi_table(r: dict[str, Any]) -> list[str]:
    """1b: the several-answers burst (a tick each, then Submit each) against bare PTB."""
    burst = r["burst"]
    if "bot_multi" not in burst:
        return []
    bot, base = burst["bot_multi"], burst["baseline_multi"]
    rows = [
        (label, _f(base[key], digits), _f(bot[key], digits), _f(ratio(bot[key], base[key]), 2))
        for label, key, digits in (
            ("taps answered / s", "per_second", 0),
            ("latency p50 (ms)", "p50_ms", 0),
            ("latency p99 (ms)", "p99_ms", 0),
            ("CPU per tap, bot process (ms)", "cpu_ms_per_tap", 2),
        )
    ]
    rows.append(
        ("answers stored / accepted", "", f"{_f(bot['stored'])} / {_f(bot['accepted'])}", "")
    )
    size = r["sizes"]["burst_taps"]
    return [
        f"1b. several-answers burst: {size} students tick an option at once, then all tap "
        f"✔ Submit at once ({2 * size} taps; medians of {r['sizes']['rounds']} rounds)",
        "",
        *_markdown(("", "bare PTB (defaults)", "quizbot", "× bare PTB"), rows),
        "",
    ]


def _markdown(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    n = len(head)
    widths = [max(len(x[i]) for x in [head, *rows]) for i in range(n)]
    fmt = (
        "| " + " | ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in enumerate(widths)) + " |"
    )
    out = [fmt.format(*head)]
    out.append(
        "|"
        + "|".join(("-" * (w + 1) + ":") if i else ("-" * (w + 2)) for i, w in enumerate(widths))
        + "|"
    )
    out += [fmt.format(*row) for row in rows]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="tiny sizes (CI): checks the benchmark runs and produces every figure, judges nothing",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=["burst", "groups", "history", "memory", "shutdown", "overall", "stored"],
        help="run only this scenario (repeatable)",
    )
    parser.add_argument(
        "--rtt",
        type=float,
        default=0.0,
        help="simulated round trip to "
        "Telegram in seconds for every call but getUpdates (default 0)",
    )
    parser.add_argument("--rounds", type=int, help="burst rounds (default 2)")
    parser.add_argument(
        "--stored",
        type=int,
        action="append",
        help="stored quizzes in the stored-quiz scenario (repeatable; default 0, 1000, 10000)",
    )
    parser.add_argument(
        "--published",
        type=int,
        help="published stored quizzes in the stored-quiz scenario, listed by /quiz (default 10;"
        " past 256 no longer fit the bot's cache of decoded quizzes)",
    )
    parser.add_argument(
        "--bank",
        type=Path,
        help="serve this bank file as the quiz played (default questions/zero.yaml); "
        "bench/math.yaml: every question holds math, so it goes as rich messages",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=RESULTS / "latest.json",
        help="where to write the figures (default bench/results/latest.json)",
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    sizes = SMOKE if args.smoke else FULL
    if args.rtt:
        sizes = live.Sizes(**{**sizes.__dict__, "rtt": args.rtt})
    if args.rounds:
        sizes = live.Sizes(**{**sizes.__dict__, "rounds": args.rounds})
    if args.stored:
        sizes = live.Sizes(**{**sizes.__dict__, "stored": tuple(args.stored)})
    if args.published is not None:
        sizes = live.Sizes(**{**sizes.__dict__, "stored_published": args.published})
    if args.bank:
        sizes = live.Sizes(**{**sizes.__dict__, "bank": str(args.bank.resolve())})
    hsizes = SMOKE_HISTORY if args.smoke else FULL_HISTORY
    results = asyncio.run(run_all(sizes, hsizes, set(args.only) if args.only else None))
    results["smoke"] = args.smoke
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(table(results))
    print(f"\nfigures written to {args.json}")
    return 0
