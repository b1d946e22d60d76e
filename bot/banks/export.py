"""``quizbot export-quiz NAME [--format yaml|gift|moodle-xml]``: any quiz written out.

As YAML (the default), a bank file that ``quizbot validate`` accepts: a folder bank is copied as
it is (its comments and layout kept); a quiz written in Telegram is written from its model by
the one YAML writer (its stored text as it is, should that no longer validate). As GIFT or
Moodle XML (bot/banks/gift_writer.py, bot/banks/moodle_writer.py), a file Moodle imports, a
bilingual quiz in one of its languages. Found by name (folder banks first, as in groups) or,
for a stored quiz, by its internal id ``u.N``, which also reaches deleted ones.
The pictures its questions name (a stored quiz's from SQLite) are written beside a YAML file,
at the paths the bank gives; Moodle XML carries them in its questions (``<file
encoding="base64">``); a GIFT export with pictures is a .zip of the GIFT file and its pictures
beside it, linked ``@@PLUGINFILE@@/name`` (bot/banks/export_files.py), which ``quizbot
import`` and an upload in the chat read back whole.
"""

from __future__ import annotations

import asyncio
import io
import sys
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path

from bot.banks.authored import AUTHORED_ID, parse
from bot.banks.export_files import picture_names
from bot.banks.gift_writer import write_gift
from bot.banks.moodle_writer import write_moodle_xml
from bot.banks.yaml_reader import load_folder
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import Quiz
from bot.core.images import Image
from bot.core.limits import bank_limits
from bot.core.problems import BankError
from bot.i18n import t_plain
from bot.i18n.lang import Lang
from bot.storage import AuthoredQuiz, StoreBase

EXPORT_FORMATS = ("yaml", "gift", "moodle-xml")
_EXTENSIONS = {"yaml": ".yaml", "gift": ".gift", "moodle-xml": ".xml"}
_WRITERS: dict[str, Callable[[Quiz, Lang, Mapping[str, bytes]], str]] = {
    "gift": write_gift,
    "moodle-xml": write_moodle_xml,
}


async def _stored(db: Path, name: str) -> tuple[AuthoredQuiz, str, dict[str, bytes]] | None:
    """The stored quiz with internal id ``name`` (deleted ones too) or live name ``name``: its
    row, its bank text and the pictures its questions name (kept in SQLite)."""
    store = await StoreBase.open(db)
    pictures: dict[str, bytes] = {}
    try:
        row = None
        if AUTHORED_ID.match(name):
            row = await store.authored(int(name[2:]))
        row = row or await store.authored_named(name)
        text = None if row is None else await store.authored_text(row.quiz_no)
        if row is not None and text is not None:
            for image in _images(_model(row, text)):
                found = await store.image_data(image.sha256)
                if found is not None:
                    pictures[image.file] = found[0]
    finally:
        await store.close()
    return None if row is None or text is None else (row, text, pictures)


def _images(quiz: Quiz | None) -> list[Image]:
    return [] if quiz is None else [q.image for q in quiz.questions if q.image is not None]


def _model(row: AuthoredQuiz, bank_yaml: str) -> Quiz | None:
    """A stored quiz's model, or None should its text no longer validate."""
    try:
        return parse(bank_yaml, row.quiz_id, bank_limits(), row.quiz_id)
    except BankError:
        return None


def _found(
    folder: Path, db: Path, name: str
) -> tuple[str, Quiz | None, str, dict[str, bytes]] | None:
    """The quiz called ``name``: its bank text, its model (None if it no longer validates),
    the file name to write it under and its pictures; None if there is no such quiz."""
    quizzes, _ = load_folder([folder], bank_limits())
    if name in quizzes:
        folder_quiz = quizzes[name]
        bank = Path(folder_quiz.source)
        pictures = {i.file: (bank.parent / i.file).read_bytes() for i in _images(folder_quiz)}
        return bank.read_text(encoding="utf-8"), folder_quiz, name, pictures
    if db.exists():
        found = asyncio.run(_stored(db, name))
        if found is not None:
            row, bank_yaml, pictures = found
            quiz = _model(row, bank_yaml)
            return (bank_yaml if quiz is None else write_yaml(quiz)), quiz, row.name, pictures
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
    text, quiz, file_name, pictures = found
    if fmt in _WRITERS:
        if quiz is None:
            print(f"quizbot: {t_plain(lang, 'cli_export_invalid', quiz=name)}", file=sys.stderr)
            return 2
        language = quiz.language if not quiz.bilingual else text_lang or lang
        text = _WRITERS[fmt](quiz, language, pictures)
        names = picture_names(quiz, pictures)
        if fmt == "gift" and names:  # the GIFT file and its pictures, in one .zip
            return _zipped(out, file_name, text, {names[f]: pictures[f] for f in names}, name, lang)
        pictures = {}  # Moodle XML carries them
    if out is not None and str(out) == "-":
        sys.stdout.write(text)
        return 0
    target = out or Path(f"{file_name}{_EXTENSIONS.get(fmt, '.yaml')}")
    for file, data in pictures.items():  # first: the bank names them
        (target.parent / file).parent.mkdir(parents=True, exist_ok=True)
        (target.parent / file).write_bytes(data)
    target.write_text(text, encoding="utf-8")
    print(t_plain(lang, "cli_export_written", quiz=name, target=str(target)), file=sys.stderr)
    return 0


def gift_zip(gift_name: str, text: str, pictures: Mapping[str, bytes]) -> bytes:
    """A .zip of a GIFT file and its pictures beside it, under the names it links them by."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(gift_name, text.encode("utf-8"))
        for file, data in pictures.items():
            archive.writestr(file, data)
    return out.getvalue()


def _zipped(
    out: Path | None,
    file_name: str,
    text: str,
    pictures: Mapping[str, bytes],
    name: str,
    lang: Lang,
) -> int:
    """A GIFT export with pictures written as a .zip (``--out`` with .zip as its extension;
    ``-``: the zip's bytes on standard output)."""
    stdout = out is not None and str(out) == "-"
    target = Path(f"{file_name}.zip") if out is None or stdout else out.with_suffix(".zip")
    data = gift_zip(f"{target.stem}.gift", text, pictures)
    if stdout:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    target.write_bytes(data)
    said = t_plain(lang, "cli_export_zip", quiz=name, target=str(target), count=len(pictures))
    print(said, file=sys.stderr)
    return 0
