"""Shared steps of the import tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from shipkit import LOCALE

from bot.banks.importers import import_bytes
from bot.cli import main
from bot.core.bank import Quiz

DATA = Path(__file__).resolve().parents[1] / "data" / "import"


def run_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str, say: str = "en"
) -> tuple[int, list[str], str]:
    """(exit code, problem lines, summary) of ``quizbot import ... --out tmp_path/out``, the
    tool speaking ``say`` (the operator's locale: LANG)."""
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    code = main(["import", *args, "--out", str(out)], env={"LANG": LOCALE[say]})
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def imported(name: str, data: bytes | None = None) -> tuple[Quiz, list[str]]:
    """The bank a fixture of tests/data/import (or ``data``) imports to, and every report line
    (English)."""
    report = import_bytes(
        name, data if data is not None else (DATA / name).read_bytes(), quiz_id="t"
    )
    assert report.fatal is None, report.fatal.text("en")
    assert report.quiz is not None
    return report.quiz, [p.text("en") for p in report.lines()]
