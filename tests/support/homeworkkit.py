"""Shared steps of the homework tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage.schema import GROUP_TOTALS_AGGREGATE


def plain(text: str) -> str:
    """A message without the isolation marks around names."""
    return text.replace("\u2068", "").replace("\u2069", "")


def totals_match_answers(db: Path) -> None:
    conn = sqlite3.connect(db)
    try:
        kept = conn.execute(
            "SELECT chat_id, season, user_id, points, correct, answered, runs,"
            " last_at FROM group_totals ORDER BY 1, 2, 3"
        ).fetchall()
        assert kept == conn.execute(GROUP_TOTALS_AGGREGATE + " ORDER BY 1, 2, 3").fetchall()
    finally:
        conn.close()
