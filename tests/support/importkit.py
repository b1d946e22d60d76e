"""Shared steps of the import tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from shipkit import LOCALE

from bot.cli import main


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
