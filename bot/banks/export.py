"""``quizbot export-quiz NAME``: any quiz as a bank file that ``quizbot validate`` accepts.

A folder bank is copied as it is (its comments and layout kept); a quiz written in Telegram is
written from its model by the one YAML writer (its stored text as it is, should that no longer
validate). Found by name (folder banks first, as in groups) or, for a stored
quiz, by its internal id ``u.N``, which also reaches deleted ones.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.banks.authored import parse
from bot.banks.yaml_reader import load_folder
from bot.banks.yaml_writer import write_yaml
from bot.core.limits import bank_limits
from bot.core.problems import BankError
from bot.i18n import t_plain
from bot.i18n.lang import Lang
from bot.storage import AuthoredQuiz, Store


async def _stored(db: Path, name: str) -> AuthoredQuiz | None:
    store = await Store.open(db)
    try:
        rows = await store.authored_quizzes()
    finally:
        await store.close()
    by_id = next((r for r in rows if r.quiz_id == name), None)
    return by_id or next((r for r in rows if r.name == name and r.deleted_at is None), None)


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
    if name in quizzes:
        text = Path(quizzes[name].source).read_text(encoding="utf-8")
    elif db.exists():
        row = asyncio.run(_stored(db, name))
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
    target.write_text(text, encoding="utf-8")
    print(t_plain(lang, "cli_export_written", quiz=name, target=str(target)), file=sys.stderr)
    return 0
