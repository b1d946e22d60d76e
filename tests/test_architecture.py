"""ARCHITECTURE.md stays true to the code: every module it names exists, every module of the
bot is placed in a layer, and the engine stays pure."""

from __future__ import annotations

import re

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
