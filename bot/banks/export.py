"""``quizbot export-quiz NAME [--format yaml|gift|moodle-xml]``: any quiz written out.

As YAML (the default), a bank file that ``quizbot validate`` accepts: a folder bank is copied as
it is (its comments and layout kept); a quiz written in Telegram is written from its model by
the one YAML writer (its stored text as it is, should that no longer validate). As GIFT or
Moodle XML (bot/banks/gift_writer.py, bot/banks/moodle_writer.py), a file Moodle imports, a
bilingual quiz in one of its languages. Found by name (folder banks first, as in groups) or,
for a stored quiz, by its internal id ``u.N``, which also reaches deleted ones.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

from bot.banks.authored import AUTHORED_ID, parse
from bot.banks.gift_writer import write_gift
from bot.banks.moodle_writer import write_moodle_xml
from bot.banks.yaml_reader import load_folder
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import Quiz
from bot.core.limits import bank_limits
from bot.core.problems import BankError
from bot.i18n import t_plain
from bot.i18n.lang import Lang
from bot.storage import AuthoredQuiz, Store

EXPORT_FORMATS = ("yaml", "gift", "moodle-xml")
_EXTENSIONS = {"yaml": ".yaml", "gift": ".gift", "moodle-xml": ".xml"}
_WRITERS: dict[str, Callable[[Quiz, Lang], str]] = {
    "gift": write_gift,
    "moodle-xml": write_moodle_xml,
}


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


def _model(row: AuthoredQuiz, bank_yaml: str) -> Quiz | None:
    """A stored quiz's model, or None should its text no longer validate."""
    try:
        return parse(bank_yaml, row.quiz_id, bank_limits(), row.quiz_id)
    except BankError:
        return None


def _found(folder: Path, db: Path, name: str) -> tuple[str, Quiz | None, str] | None:
    """The quiz called ``name``: its bank text, its model (None if it no longer validates) and
    the file name to write it under; None if there is no such quiz."""
    quizzes, _ = load_folder([folder], bank_limits())
    if name in quizzes:
        folder_quiz = quizzes[name]
        return Path(folder_quiz.source).read_text(encoding="utf-8"), folder_quiz, name
    if db.exists():
        found = asyncio.run(_stored(db, name))
        if found is not None:
            row, bank_yaml = found
            quiz = _model(row, bank_yaml)
            return (bank_yaml if quiz is None else write_yaml(quiz)), quiz, row.name
    return None


def export_quiz(
    folder: Path,
    db: Path,
    name: str,
    out: Path | None,
    lang: Lang,
    fmt: str = "yaml",
    text_lang: Lang | None = None,
) -> int:
    """Write the quiz in ``fmt``; 0 when written, 2 when there is no such quiz (or it no longer
    validates, for GIFT and Moodle XML). A bilingual quiz's GIFT or Moodle XML is in
    ``text_lang``, else ``lang``. Messages in ``lang``."""
    found = _found(folder, db, name)
    if found is None:
        missing = t_plain(lang, "cli_export_missing", quiz=name, folder=str(folder), db=str(db))
        print(f"quizbot: {missing}", file=sys.stderr)
        return 2
    text, quiz, file_name = found
    if fmt in _WRITERS:
        if quiz is None:
            print(f"quizbot: {t_plain(lang, 'cli_export_invalid', quiz=name)}", file=sys.stderr)
            return 2
        language = quiz.language if not quiz.bilingual else text_lang or lang
        text = _WRITERS[fmt](quiz, language)
    if out is not None and str(out) == "-":
        sys.stdout.write(text)
        return 0
    target = out or Path(f"{file_name}{_EXTENSIONS.get(fmt, '.yaml')}")
    target.write_text(text, encoding="utf-8")
    print(t_plain(lang, "cli_export_written", quiz=name, target=str(target)), file=sys.stderr)
    return 0
