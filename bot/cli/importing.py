"""``quizbot import``: source files in, bank files out, each written whole or not at all."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from bot.banks.images import FolderImages
from bot.banks.importers import MAX_IMPORT_BYTES, ImportReport, import_bytes, quiz_id_for
from bot.banks.importers.digest import digest
from bot.banks.importers.ziparchive import MAX_ZIP_BYTES
from bot.core.bank import QUIZ_ID
from bot.i18n import t_plain
from bot.i18n.lang import Lang


def write_atomically(path: Path, text: str | bytes) -> None:
    """``text`` (UTF-8, or bytes) at ``path``: written to a temporary file beside it, synced,
    then renamed over it, so a reader (or the bot reloading) never sees half a file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8") if isinstance(text, str) else text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_pictures(out: Path, report: ImportReport) -> None:
    """The pictures an imported bank names, written beside it (``pictures/<sha256>.<ext>``:
    named by their content, so banks share them and one already there is kept)."""
    for name, picture in report.pictures.items():
        path = out / name
        if path.is_file():
            continue
        path.parent.mkdir(exist_ok=True)
        write_atomically(path, picture.data)


def read_limited(path: Path, limit: int, lang: Lang) -> bytes | str:
    """The file's bytes, or an error in ``lang`` if it is missing, unreadable or too big
    (checked before reading: a huge file is never loaded)."""
    where = str(path)
    try:
        size = path.stat().st_size
        if not path.is_file():
            return t_plain(lang, "cli_imp_not_file", where=where)
        if size > limit:
            return t_plain(lang, "imp_too_big", where=where, size=size, limit=limit)
        with path.open("rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        return t_plain(lang, "cli_imp_unreadable", where=where, reason=exc.strerror)
    if len(data) > limit:
        return t_plain(lang, "cli_imp_over", where=where, limit=limit)
    return data


def import_files(
    files: list[Path],
    *,
    out: Path,
    quiz_id: str | None,
    lang: Lang | None,
    title: str | None,
    force: bool,
    say: Lang,
    limit: int = MAX_IMPORT_BYTES,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Import each file into ``out``; 0 if everything was imported, 1 if something was
    skipped or a file failed, 2 if nothing at all was imported. ``lang`` is the questions'
    language (None: guessed); every message is printed in ``say``."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    if quiz_id is not None and len(files) > 1:
        refusal = t_plain(say, "cli_imp_id_one_file")
    elif quiz_id is not None and not QUIZ_ID.match(quiz_id):
        refusal = t_plain(say, "cli_imp_id_bad", quiz=quiz_id, limit=32)
    elif not out.is_dir():
        refusal = t_plain(say, "cli_imp_no_folder", folder=str(out))
    else:
        refusal = None
    if refusal is not None:
        print(f"quizbot: {refusal}", file=stderr)
        return 2
    written: set[str] = set()
    imported = skipped = failed = 0
    for path in files:
        qid = quiz_id or quiz_id_for(path.name)
        target = out / f"{qid}.yaml"
        zipped = path.suffix.casefold() == ".zip"  # a question file with its pictures
        data = read_limited(path, max(limit, MAX_ZIP_BYTES) if zipped else limit, say)
        if isinstance(data, str):
            print(data, file=stdout)
            failed += 1
            continue
        report = import_bytes(
            path.name,
            data,
            quiz_id=qid,
            lang=lang,
            title=title,
            max_bytes=limit,
            beside=FolderImages(path.parent),
            max_zip_bytes=max(limit, MAX_ZIP_BYTES),
        )
        for line in digest(report.lines(), say):  # problems and notes, in the file's order
            print(line, file=stdout)
        skipped += len(report.problems)
        refusal = _refusal(report, target, qid, written, force, say)
        if refusal is not None:
            print(refusal, file=stdout)
            failed += 1
            continue
        assert report.yaml_text is not None
        write_pictures(out, report)  # before the bank, which names them
        write_atomically(target, report.yaml_text)
        written.add(qid)
        imported += report.imported
        done = {"source": str(path), "target": str(target), "imported": report.imported}
        print(
            t_plain(
                say,
                "cli_imp_file_done",
                problems=len(report.problems),
                format=report.format,
                **done,
            ),
            file=stderr,
        )
    print(
        t_plain(
            say,
            "cli_imp_summary",
            imported=imported,
            banks=len(written),
            problems=skipped,
            failed=failed,
        ),
        file=stderr,
    )
    if not written:
        return 2
    return 1 if skipped or failed else 0


def _refusal(
    report: ImportReport, target: Path, qid: str, written: set[str], force: bool, say: Lang
) -> str | None:
    if report.fatal is not None:
        return report.fatal.text(say)
    if qid in written:
        return t_plain(say, "cli_imp_written_earlier", target=target.name, quiz=qid)
    if target.exists() and not force:
        return t_plain(say, "cli_imp_exists", target=str(target))
    return None
