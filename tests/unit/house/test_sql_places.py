"""SQL is written only where storage lives: ``bot/storage/`` and each feature's ``queries.py``.

import-linter keeps aiosqlite and sqlite3 out of routes, views and use cases; this keeps the SQL
text out of them too (a query string built in a route and handed to the store would pass that
contract). Every string constant of every module of ``bot/`` is read with ``ast``; one that
looks like a statement fails the test, naming its file and line.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
BOT = ROOT / "bot"

#: what a statement looks like (keywords in capitals, as this code writes them)
SQL = re.compile(
    r"\bSELECT\b.*\bFROM\b|\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b"
    r"|\bDELETE\s+FROM\b|\bCREATE\s+(?:TEMP\s+)?(?:TABLE|INDEX|UNIQUE\s+INDEX|TRIGGER|VIEW)\b"
    r"|\bPRAGMA\s+\w+",
    re.DOTALL,
)


def may_hold_sql(path: Path) -> bool:
    """``bot/storage/**`` and ``bot/features/<name>/queries.py``."""
    rel = path.relative_to(BOT).parts
    return rel[0] == "storage" or (rel[0] == "features" and rel[-1] == "queries.py")


def sql_lines(source: str) -> list[int]:
    """The lines of the string constants in ``source`` that look like SQL."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value)
    )


def test_the_checker_finds_a_planted_statement() -> None:
    planted = 'def f(x):\n    return x.run("SELECT name FROM users WHERE id = ?")\n'
    assert sql_lines(planted) == [2]
    assert sql_lines('SQL = f"UPDATE runs SET phase = {p!r}"\n') == [1]
    assert sql_lines('q = (\n    "DELETE FROM cards"\n    " WHERE card_id = ?"\n)\n') == [2]
    assert sql_lines('"""PRAGMA optimize, said in a docstring."""\n') == [1]


def test_the_checker_lets_prose_pass() -> None:
    prose = 'TEXT = "Select a quiz from the list; we update the board and delete nothing."\n'
    assert sql_lines(prose) == []


MODULES = sorted(p for p in BOT.rglob("*.py") if not may_hold_sql(p))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_sql_outside_storage_and_queries(path: Path) -> None:
    lines = sql_lines(path.read_text(encoding="utf-8"))
    where = ", ".join(f"{path.relative_to(ROOT).as_posix()}:{n}" for n in lines)
    assert not lines, f"SQL outside bot/storage and features' queries.py: {where}"
