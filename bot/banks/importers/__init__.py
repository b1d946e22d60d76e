"""Importers: questions from other tools (GIFT, Aiken, Moodle XML, CSV spreadsheets, Open Trivia
DB JSON, or our own YAML) turned into a bank in our YAML format.

Pure: bytes in, an ImportReport out; no file, network, Telegram or database access. Every
source file is hostile: its size is capped, XML is parsed with DTDs and entities refused, and a
question that is not a single-answer multiple-choice question, or that breaks one of our
limits, is reported with its place and skipped, never cut to fit.

API (used by the CLI's ``quizbot import`` and by chat uploads)::

    report = import_bytes("quiz.gift", data, quiz_id="quiz", lang=None, title=None)
    report.quiz        # the validated bank (bot.core.bank.Quiz), or None
    report.yaml_text   # the same bank as a bank file (one YAML writer), or None
    report.problems    # one Problem per skipped question or dropped part
    report.fatal       # why nothing was imported, if so
    problem.text("bn") # a localized one-line message, plain text
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import PurePath

from bot.banks.importers import aiken, csvsheet, gift, moodle, opentdb, scan, ziparchive
from bot.banks.importers.build import Beside, ImportReport, build
from bot.banks.importers.model import Parsed, Problem
from bot.banks.yaml_reader import parse_quiz
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import QUIZ_ID
from bot.core.images import Image, Picture, Refused
from bot.core.limits import bank_limits
from bot.core.problems import BankError
from bot.i18n.lang import Lang

MAX_IMPORT_BYTES = 4 * 1024 * 1024  # any one source file; a chat may allow less
FORMATS = ("yaml", "gift", "aiken", "moodle-xml", "csv", "opentdb")
_EXTENSIONS = {
    ".yaml": "yaml",
    ".yml": "yaml",
    ".gift": "gift",
    ".xml": "moodle-xml",
    ".csv": "csv",
    ".tsv": "csv",
    ".json": "opentdb",
}
_ID_CHARS = 32  # a quiz id's length at most (QUIZ_ID)
_SAMPLE = 200_000  # characters of a .txt read to recognise its format
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def quiz_id_for(filename: str) -> str:
    """A quiz id made from a file name: lowercase, other characters as '-', at most 32, cut
    at a word's end (``networking-fundamentals-week-one-revision`` gives
    ``networking-fundamentals-week-one``, not ``...-revi``)."""
    stem = unicodedata.normalize("NFKD", PurePath(filename).stem.casefold())
    stem = "".join(ch for ch in stem if not unicodedata.combining(ch))  # é as e
    slug = re.sub(r"[^a-z0-9_-]+", "-", stem).strip("-_")
    if len(slug) > _ID_CHARS:
        cut = slug[: _ID_CHARS + 1]
        end = max(cut.rfind("-"), cut.rfind("_"))
        slug = cut[:end] if end > 0 else slug[:_ID_CHARS]
    slug = slug.strip("-_")
    return slug if QUIZ_ID.match(slug) else "imported"


def decode(data: bytes, name: str) -> tuple[str | None, Problem | None]:
    """UTF-8 text (a BOM, as Excel writes, dropped), or UTF-16 with its BOM; else a problem
    naming the line of the first byte that is not UTF-8 (mixed encodings are refused)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), None
        except UnicodeDecodeError:
            return None, Problem(name, "imp_not_utf8", {"line": 1})
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return None, Problem(name, "imp_not_utf8", {"line": line})
    if "\x00" in text:
        return None, Problem(name, "imp_binary", {})
    return text, None


def detect_format(filename: str, data: bytes) -> str | None:
    """The format by extension, else (and for .txt) by content; None if unrecognised.
    UTF-16 (with its BOM) is recognised by its text. Every check is one linear scan
    (bot/banks/importers/scan.py): a hostile file cannot make it slow."""
    ext = PurePath(filename).suffix.casefold()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    if data.startswith(_UTF16_BOMS):
        sample = data[: 2 * _SAMPLE].decode("utf-16", errors="replace")
        whole = sample.encode("utf-8", errors="replace")
        head = whole[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    else:
        head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
        sample = data[:_SAMPLE].decode("utf-8", errors="replace")
        whole = data[:1_000_000]
    if head.startswith((b"<?xml", b"<quiz")):
        return "moodle-xml"
    if head.startswith(b"{") and b'"results"' in whole:
        return "opentdb"
    return scan.text_format(sample)


def import_bytes(
    filename: str,
    data: bytes,
    *,
    quiz_id: str,
    lang: Lang | None = None,
    title: str | None = None,
    max_bytes: int = MAX_IMPORT_BYTES,
    beside: Beside | None = None,
    max_zip_bytes: int = ziparchive.MAX_ZIP_BYTES,
) -> ImportReport:
    """Import one source file given as bytes; ``filename`` names it in every problem and
    chooses the format (with the content); the pictures it names are embedded in it or given
    ``beside`` it. A ``.zip`` (at most ``max_zip_bytes``) holds the source file and its
    pictures (bot/banks/importers/ziparchive.py). Never raises on bad input."""
    name = PurePath(filename).name or "upload"
    if PurePath(name).suffix.casefold() == ".zip":
        return _zipped(name, data, quiz_id, lang, title, max_bytes, max_zip_bytes)
    if len(data) > max_bytes:
        return _fatal("unknown", name, "imp_too_big", size=len(data), limit=max_bytes)
    fmt = detect_format(name, data)
    if fmt is None:
        return _fatal("unknown", name, "imp_unknown_format", formats=", ".join(FORMATS))
    if fmt == "moodle-xml":
        xml = moodle.parse(name, data)
        return build(xml, fmt, name, quiz_id=quiz_id, lang=lang, title=title, beside=beside)
    text, problem = decode(data, name)
    if text is None:
        assert problem is not None
        return ImportReport(fmt, None, 0, (), problem)
    if fmt == "yaml":
        return _own(name, text, quiz_id, beside)
    parsed: Parsed
    if fmt == "gift":
        parsed = gift.parse(name, text)
    elif fmt == "aiken":
        parsed = aiken.parse(name, text)
    elif fmt == "csv":
        parsed = csvsheet.parse(name, text)
    else:
        parsed = opentdb.parse(name, text)
    return build(parsed, fmt, name, quiz_id=quiz_id, lang=lang, title=title, beside=beside)


def _zipped(
    name: str,
    data: bytes,
    quiz_id: str,
    lang: Lang | None,
    title: str | None,
    max_bytes: int,
    max_zip_bytes: int,
) -> ImportReport:
    """The question file of a .zip imported with the pictures beside it in the zip; a zip
    that cannot be read safely is refused whole, its reason named."""
    if len(data) > max_zip_bytes:
        return _fatal("zip", name, "imp_too_big", size=len(data), limit=max_zip_bytes)
    suffixes = {*_EXTENSIONS, ".txt"}
    try:
        unpacked = ziparchive.unpack(data, suffixes, max_bytes)
    except ziparchive.ZipRefused as refused:
        return _fatal("zip", name, refused.key, **refused.values)
    beside = ziparchive.ZipPictures(unpacked.name, unpacked.pictures)
    inner = PurePath(unpacked.name).name
    return import_bytes(
        inner,
        unpacked.data,
        quiz_id=quiz_id,
        lang=lang,
        title=title,
        max_bytes=max_bytes,
        beside=beside,
    )


class _Renamed:
    """A bank's pictures found beside it and renamed by their content (``pictures/<sha256>.
    <ext>``, as an import names them)."""

    def __init__(self, beside: Beside | None) -> None:
        self.beside = beside
        self.found: dict[str, Picture] = {}

    def find(self, name: str) -> Image:
        if self.beside is None:
            raise Refused("bank_image_missing", name=name)
        picture = self.beside.read(name)
        file = f"pictures/{picture.stored_name}"
        self.found[file] = picture
        return picture.image(file)


def _own(name: str, text: str, quiz_id: str, beside: Beside | None = None) -> ImportReport:
    """A bank already in our format: checked as the bot would load it, passed through (its
    pictures, if any, renamed by their content)."""
    renamed = _Renamed(beside)
    try:
        quiz = parse_quiz(text, name, quiz_id, bank_limits(), renamed)
    except BankError as exc:
        problems = tuple(
            Problem(f"{name}:{p.line}" if p.line else name, "imp_yaml", {"message": p})
            for p in exc.problems
        )
        return ImportReport("yaml", None, 0, problems[1:], problems[0] if problems else None)
    if renamed.found:
        text = write_yaml(quiz)
    return ImportReport("yaml", text, len(quiz.questions), (), None, quiz, pictures=renamed.found)


def _fatal(fmt: str, name: str, key: str, **values: object) -> ImportReport:
    return ImportReport(fmt, None, 0, (), Problem(name, key, values))


__all__ = [
    "FORMATS",
    "MAX_IMPORT_BYTES",
    "Beside",
    "ImportReport",
    "Problem",
    "decode",
    "detect_format",
    "import_bytes",
    "quiz_id_for",
]
