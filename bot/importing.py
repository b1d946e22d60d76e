"""``quizbot import``: source files in, bank files out, each written whole or not at all."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from bot.bank import QUIZ_ID, Lang
from bot.importers import MAX_IMPORT_BYTES, ImportReport, import_bytes, quiz_id_for


def write_atomically(path: Path, text: str) -> None:
    """``text`` at ``path``: written to a temporary file beside it, synced, then renamed over
    it, so a reader (or the bot reloading) never sees half a file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_limited(path: Path, limit: int) -> bytes | str:
    """The file's bytes, or an English error if it is missing, unreadable or too big (checked
    before reading: a huge file is never loaded)."""
    try:
        size = path.stat().st_size
        if not path.is_file():
            return f"{path}: not a file"
        if size > limit:
            return f"{path}: the file is {size} bytes, at most {limit} allowed; nothing imported."
        with path.open("rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        return f"{path}: cannot read: {exc.strerror}"
    if len(data) > limit:
        return f"{path}: the file is over {limit} bytes; nothing imported."
    return data


def import_files(
    files: list[Path],
    *,
    out: Path,
    quiz_id: str | None,
    lang: Lang | None,
    title: str | None,
    force: bool,
    limit: int = MAX_IMPORT_BYTES,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Import each file into ``out``; 0 if everything was imported, 1 if something was
    skipped or a file failed, 2 if nothing at all was imported."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    if quiz_id is not None and len(files) > 1:
        print("quizbot: --id names one quiz: give one FILE with it", file=stderr)
        return 2
    if quiz_id is not None and not QUIZ_ID.match(quiz_id):
        print(
            f"quizbot: --id {quiz_id!r}: use lowercase letters, digits, - and _ (at most 32)",
            file=stderr,
        )
        return 2
    if not out.is_dir():
        print(f"quizbot: {out}: no such folder", file=stderr)
        return 2
    written: set[str] = set()
    imported = skipped = failed = 0
    for path in files:
        qid = quiz_id or quiz_id_for(path.name)
        target = out / f"{qid}.yaml"
        data = read_limited(path, limit)
        if isinstance(data, str):
            print(data, file=stdout)
            failed += 1
            continue
        report = import_bytes(path.name, data, quiz_id=qid, lang=lang, title=title, max_bytes=limit)
        for problem in report.problems:
            print(problem.text("en"), file=stdout)
        skipped += len(report.problems)
        refusal = _refusal(report, target, qid, written, force)
        if refusal is not None:
            print(refusal, file=stdout)
            failed += 1
            continue
        assert report.yaml_text is not None
        write_atomically(target, report.yaml_text)
        written.add(qid)
        imported += report.imported
        print(
            f"{path} -> {target}: {report.imported} question(s) imported, "
            f"{len(report.problems)} problem(s) ({report.format})",
            file=stderr,
        )
    print(
        f"imported {imported} question(s) into {len(written)} bank(s); {skipped} problem(s); "
        f"{failed} file(s) not imported",
        file=stderr,
    )
    if not written:
        return 2
    return 1 if skipped or failed else 0


def _refusal(
    report: ImportReport, target: Path, qid: str, written: set[str], force: bool
) -> str | None:
    if report.fatal is not None:
        return report.fatal.text("en")
    if qid in written:
        return (
            f"{target.name}: quiz id {qid!r} was already written by an earlier file "
            "of this import; nothing imported (use --id)."
        )
    if target.exists() and not force:
        return f"{target}: exists; nothing imported (use --force to replace it, or --id)."
    return None
