"""ARCHITECTURE.md stays true to the code: every module it names exists, every module of the
bot is placed in a layer, and the engine stays pure."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from quizkit import ROOT

NOTE = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")


def named_paths() -> set[str]:
    lines = [line for line in NOTE.splitlines() if "placeholder" not in line]
    return set(re.findall(r"`(bot/[\w/*.]*)`", "\n".join(lines)))


def test_every_path_the_note_names_exists() -> None:
    for path in sorted(named_paths()):
        if "*" in path:
            assert list(ROOT.glob(path)), path
        else:
            assert (ROOT / path).exists(), f"ARCHITECTURE.md names {path}, which does not exist"


def test_every_module_is_placed_in_a_layer() -> None:
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
        assert placed, f"{name} is in no layer of ARCHITECTURE.md"


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


def test_the_layer_contracts_hold_and_catch_a_handler_importing_a_handler(tmp_path: Path) -> None:
    """import-linter keeps every contract of .importlinter on the real tree; on a copy where a
    feature handler imports another one (or the core imports Telegram), it fails."""
    kept = _lint_imports(ROOT)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    shutil.copytree(ROOT / "bot", tmp_path / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    teacher = tmp_path / "bot" / "handlers" / "teacher.py"
    teacher.write_text(
        teacher.read_text(encoding="utf-8") + "\nfrom bot.handlers import stats  # noqa\n",
        encoding="utf-8",
    )
    broken = _lint_imports(tmp_path)
    assert broken.returncode != 0
    assert "bot.handlers.teacher -> bot.handlers.stats" in broken.stdout
    teacher.write_text(
        teacher.read_text(encoding="utf-8").replace("from bot.handlers import stats  # noqa\n", ""),
        encoding="utf-8",
    )
    engine = tmp_path / "bot" / "core" / "engine.py"
    engine.write_text(engine.read_text(encoding="utf-8") + "\nimport telegram  # noqa\n")
    broken = _lint_imports(tmp_path)
    assert broken.returncode != 0
    assert "bot.core.engine -> telegram" in broken.stdout
