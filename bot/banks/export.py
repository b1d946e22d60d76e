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

from bot.banks.authored import AUTHORED_ID, parse
from bot.banks.yaml_reader import load_folder
from bot.banks.yaml_writer import write_yaml
from bot.core.limits import bank_limits
from bot.core.problems import BankError
from bot.i18n import t_plain
from bot.i18n.lang import Lang
from bot.storage import AuthoredQuiz, Store


async def _stored(db: Path, name: str) -> tuple[AuthoredQuiz, str] | None:
    """The stored quiz with internal id ``name`` (deleted ones too) or live name ``name``, and
    its bank text."""
    store = await Store.open(db)
    try:
        row = None
        if AUTHORED_ID.match(name):
            row = await store.authored(int(name[2:]))
        row = row or await store.authored_named(name)
        text = None if row is None else await store.authored_text(row.quiz_no)
    finally:
        await store.close()
    return None if row is None or text is None else (row, text)


def _written(row: AuthoredQuiz, bank_yaml: str) -> str:
    """A stored quiz's bank text, written from its model (as stored, should it no longer
    validate)."""
    try:
        return write_yaml(parse(bank_yaml, row.quiz_id, bank_limits(), row.quiz_id))
    except BankError:
        return bank_yaml


def export_quiz(folder: Path, db: Path, name: str, out: Path | None, lang: Lang) -> int:
    """Write the quiz; 0 when written, 2 when there is no such quiz. Messages in ``lang``."""
    quizzes, _ = load_folder([folder], bank_limits())
    text: str | None = None
    file_name = name
    if name in quizzes:
        text = Path(quizzes[name].source).read_text(encoding="utf-8")
    elif db.exists():
        found = asyncio.run(_stored(db, name))
        if found is not None:
            text, file_name = _written(*found), found[0].name
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
