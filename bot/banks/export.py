"""``quizbot export-quiz NAME``: any quiz as a bank file that ``quizbot validate`` accepts.

A folder bank is copied as it is (its comments and layout kept); a quiz written in Telegram is
written from its model by the one YAML writer (its stored text as it is, should that no longer
validate). Found by name (folder banks first, as in groups) or, for a stored
quiz, by its internal id ``u.N``, which also reaches deleted ones. The pictures its questions
name are written beside the file, at the paths the bank gives (a stored quiz's from SQLite).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.banks.authored import parse
from bot.banks.yaml_reader import load_folder
from bot.banks.yaml_writer import write_yaml
from bot.core.images import Image
from bot.core.limits import bank_limits
from bot.core.problems import BankError
from bot.i18n import t_plain
from bot.i18n.lang import Lang
from bot.storage import AuthoredQuiz, Store


async def _stored(db: Path, name: str) -> tuple[AuthoredQuiz | None, dict[str, bytes]]:
    store = await Store.open(db)
    pictures: dict[str, bytes] = {}
    try:
        rows = await store.authored_quizzes()
        by_id = next((r for r in rows if r.quiz_id == name), None)
        row = by_id or next((r for r in rows if r.name == name and r.deleted_at is None), None)
        if row is not None:
            for image in _images(row):
                found = await store.image_data(image.sha256)
                if found is not None:
                    pictures[image.file] = found[0]
    finally:
        await store.close()
    return row, pictures


def _images(row: AuthoredQuiz) -> list[Image]:
    try:
        quiz = parse(row.bank_yaml, row.quiz_id, bank_limits(), row.quiz_id)
    except BankError:
        return []
    return [q.image for q in quiz.questions if q.image is not None]


def _written(row: AuthoredQuiz) -> str:
    """A stored quiz's bank text, written from its model."""
    try:
        return write_yaml(parse(row.bank_yaml, row.quiz_id, bank_limits(), row.quiz_id))
    except BankError:
        return row.bank_yaml


def export_quiz(folder: Path, db: Path, name: str, out: Path | None, lang: Lang) -> int:
    """Write the quiz; 0 when written, 2 when there is no such quiz. Messages in ``lang``."""
    quizzes, _ = load_folder([folder], bank_limits())
    text: str | None = None
    file_name = name
    pictures: dict[str, bytes] = {}
    if name in quizzes:
        bank = Path(quizzes[name].source)
        text = bank.read_text(encoding="utf-8")
        for q in quizzes[name].questions:
            if q.image is not None:
                pictures[q.image.file] = (bank.parent / q.image.file).read_bytes()
    elif db.exists():
        row, pictures = asyncio.run(_stored(db, name))
        if row is not None:
            text, file_name = _written(row), row.name
    if text is None:
        missing = t_plain(lang, "cli_export_missing", quiz=name, folder=str(folder), db=str(db))
        print(f"quizbot: {missing}", file=sys.stderr)
        return 2
    if out is not None and str(out) == "-":
        sys.stdout.write(text)
        return 0
    target = out or Path(f"{file_name}.yaml")
    for file, data in pictures.items():  # first: the bank names them
        (target.parent / file).parent.mkdir(parents=True, exist_ok=True)
        (target.parent / file).write_bytes(data)
    target.write_text(text, encoding="utf-8")
    print(t_plain(lang, "cli_export_written", quiz=name, target=str(target)), file=sys.stderr)
    return 0
