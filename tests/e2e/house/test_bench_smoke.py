"""The benchmark at tiny sizes, so it cannot rot: every scenario runs and yields every figure.

Speed is not judged here (CI machines are noisy); ``python -m bench`` measures it.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


@pytest.mark.timeout(190)
def test_bench_smoke(tmp_path: Path) -> None:
    out = tmp_path / "smoke.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "bench", "--smoke", "--json", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,  # the several-answers burst (two more bot runs) included
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "| figure" in proc.stdout and "| target | met |" in proc.stdout
    r = json.loads(out.read_text())
    assert r["smoke"] is True

    runs = [("burst", kind) for kind in ("bot", "baseline", "ceiling", "bot_webhook")]
    for scenario, kind in [*runs, ("groups", "bot"), ("groups", "baseline")]:
        figures = r[scenario][kind]
        for key in ("per_second", "p50_ms", "p95_ms", "p99_ms", "cpu_ms_per_tap"):
            assert _number(figures[key]), (scenario, kind, key, figures[key])
        assert figures["answered"] == figures["taps"] > 0, (scenario, kind)
    assert r["burst"]["bot"]["all_stored"] and r["burst"]["bot_webhook"]["all_stored"]
    for kind in ("bot_multi", "baseline_multi"):  # ticks, then Submits
        figures = r["burst"][kind]
        assert _number(figures["per_second"]) and figures["per_second"] > 0, kind
        assert figures["answered"] == figures["taps"] == 2 * r["sizes"]["burst_taps"], kind
    assert r["burst"]["bot_multi"]["all_stored"]
    groups = r["groups"]["bot"]
    assert groups["all_answered"] and groups["all_stored"] and groups["late"] == 0
    assert groups["within_limit"] and 0 < groups["max_per_window"] <= 20
    assert groups["stored"] > 0

    history = r["history"]
    assert history["answers"] == 2_000
    assert history["db_mb"] > 0
    for name in ("/leaderboard", "/leaderboard QUIZ", "/me (group)", "/me (private)", "/export"):
        figures = history["commands"][name]
        for key in ("p50_ms", "p95_ms", "largest_p50_ms"):
            assert _number(figures[key]), (name, key)

    memory = r["memory"]
    assert memory["idle_rss_mb"] > 0 and memory["peak_rss_mb"] >= memory["idle_rss_mb"] * 0.5
    assert memory["questions"] > 0

    shutdown = r["shutdown"]
    assert shutdown["exit_code"] in (0, -15) and shutdown["stopped_cleanly"], shutdown
    assert shutdown["clean_log"], shutdown["bad_lines"]

    assert set(r["targets"]) and all(isinstance(v, bool) for v in r["targets"].values())

    overall = r["overall"]  # many groups under the overall limit (tiny: 3 groups)
    assert overall["finished"] == overall["groups"] == 3 and overall["refused"] == 0
    assert overall["shortest_open_s"] >= overall["seconds"]
    assert 0 < overall["max_per_group_minute"] <= 20 and overall["slowest_over_median"] >= 1

    stored = r["stored"]  # 50 stored quizzes, an upgraded file and a new one
    assert [(s["quizzes"], s["file"][:3]) for s in stored] == [(50, "old"), (50, "new")]
    for row in stored:
        for key in ("startup_s", "rss_mb", "quiz_group_ms", "myquizzes_ms", "stop_s"):
            assert _number(row[key]) and row[key] > 0, (row["file"], key)
