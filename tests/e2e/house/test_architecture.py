"""ARCHITECTURE.md stays true to the code, and the house rules hold: every package it names
exists, every module of the bot is placed, the features are independent, the kernel never
imports a feature, and routes and views never touch SQL (a feature's queries.py may)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from quizkit import ROOT

NOTE = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")


def named_paths() -> set[str]:
    return set(re.findall(r"`(bot/[\w/*.]*)`", NOTE))


def test_the_map_is_one_page_with_short_cells() -> None:
    lines = NOTE.splitlines()
    assert len(lines) <= 200, f"ARCHITECTURE.md has {len(lines)} lines"
    cells = [c for line in lines if line.startswith("|") for c in line.strip("|").split("|")]
    assert max(len(c.strip()) for c in cells) <= 400


def test_every_path_the_note_names_exists() -> None:
    for path in sorted(named_paths()):
        if "*" in path:
            assert list(ROOT.glob(path)), path
        else:
            assert (ROOT / path).exists(), f"ARCHITECTURE.md names {path}, which does not exist"


def test_every_module_is_placed() -> None:
    named = named_paths()
    for module in sorted((ROOT / "bot").rglob("*.py")):
        name = module.relative_to(ROOT).as_posix()
        if name == "bot/__init__.py":
            continue
        placed = any(
            name == p
            or (p.endswith("/") and name.startswith(p))
            or ("*" in p and module in ROOT.glob(p))
            for p in named
        )
        assert placed, f"{name} is placed nowhere in ARCHITECTURE.md"


def test_every_feature_package_is_in_the_independence_contract() -> None:
    features = sorted(
        p.name for p in (ROOT / "bot" / "features").iterdir() if (p / "__init__.py").exists()
    )
    contract = (ROOT / ".importlinter").read_text(encoding="utf-8")
    for name in features:
        assert f"bot.features.{name}\n" in contract, name


def test_the_core_is_pure() -> None:
    for path in sorted((ROOT / "bot" / "core").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert not re.search(
            r"^\s*(from|import) (telegram|aiosqlite|sqlite3)\b", source, re.MULTILINE
        ), path.name


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=120,
    )


def test_the_contracts_hold_on_the_real_tree() -> None:
    kept = _lint_imports(ROOT)
    assert kept.returncode == 0, kept.stdout + kept.stderr


BREAKS = [
    # a feature importing another feature
    (
        "bot/features/teacher/routes.py",
        "from bot.features.stats import routes",
        "bot.features.teacher",
    ),
    # the kernel importing a feature
    ("bot/render/text.py", "from bot.features.quiz import runs", "bot.render.text"),
    # routes touching the database
    ("bot/features/quiz/routes.py", "import aiosqlite", "bot.features.quiz.routes -> aiosqlite"),
    # routes of a feature with queries of its own touching the database (only queries.py may)
    ("bot/features/stats/routes.py", "import aiosqlite", "bot.features.stats.routes -> aiosqlite"),
    ("bot/features/teacher/routes.py", "import sqlite3", "bot.features.teacher.routes -> sqlite3"),
    # a feature's queries importing another feature's queries
    (
        "bot/features/stats/queries.py",
        "from bot.features.teacher import queries",
        "bot.features.stats is not allowed to import bot.features.teacher",
    ),
    # the core importing Telegram
    ("bot/core/engine.py", "import telegram", "bot.core.engine -> telegram"),
]


@pytest.mark.parametrize(("module", "line", "named"), BREAKS)
def test_a_broken_rule_fails_the_build(tmp_path: Path, module: str, line: str, named: str) -> None:
    """On a copy of the tree with one forbidden import added, import-linter fails and names it."""
    shutil.copytree(ROOT / "bot", tmp_path / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    path = tmp_path / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    broken = _lint_imports(tmp_path)
    assert broken.returncode != 0
    assert named in broken.stdout, broken.stdout
