"""A question file sent with its pictures in one .zip (``quizbot import``, uploads in the chat).

A GIFT, Moodle XML or bank file names its pictures by path (``<img src="pics/cat.png">``); in
the chat there is no folder beside it, so the teacher sends both in a .zip. The zip is hostile
until it is read, and nothing of it is ever written to disk:

- the entry count the zip declares (its end record) is checked before anything is parsed, then
  the entries themselves (``MAX_ENTRIES``);
- every entry's name must stay inside the zip: no absolute path, drive, backslash or ``..``
  (the whole zip is refused: a tool that made it meant harm or went wrong);
- only the question file and the pictures are read; directories and other files are ignored;
  a .zip inside it is refused, never opened;
- only stored or deflated entries (``bzip2``/``lzma`` decompress without a bound), and no
  encrypted ones;
- each entry's declared size is checked against its limit (the question file ``max_bytes``, a
  picture ``MAX_IMAGE_BYTES``) and all of them together against ``MAX_UNPACKED``; then reading
  stops one byte past the limit, whatever the header said: a zip bomb is never inflated.

The pictures are then found by name relative to the question file's folder in the zip
(:class:`ZipPictures`), as beside a file on disk (bot/banks/images.py). In the bot this runs in
the parsing worker (bot/banks/importers/sandbox.py) under its CPU and memory limits.
"""

from __future__ import annotations

import io
import posixpath
import struct
import zipfile
import zlib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import unquote

from bot.core.images import MAX_IMAGE_BYTES, Picture, Refused, check, leads_out

MAX_ZIP_BYTES = 16 * 1024 * 1024  # the .zip itself (``quizbot import``; a chat allows less)
MAX_ENTRIES = 200  # files and folders in the zip
MAX_UNPACKED = 64 * 1024 * 1024  # the question file and the pictures, once inflated
PICTURE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp"})
_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_END = b"PK\x05\x06"  # the end of central directory record
_END_SIZE = 22
_COMMENT_MAX = 65535


class ZipRefused(Exception):
    """Why a .zip is not read: an i18n key (context ``import``) and its values."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values


@dataclass(frozen=True, slots=True)
class Unpacked:
    """What a .zip gave: its one question file (name in the zip, bytes) and its pictures, by
    their names in the zip."""

    name: str
    data: bytes
    pictures: Mapping[str, bytes]


class ZipPictures:
    """The pictures of a .zip, named relative to the question file's folder in it (``Beside``
    of bot/banks/importers/build.py)."""

    def __init__(self, bank: str, pictures: Mapping[str, bytes]) -> None:
        self.folder = posixpath.dirname(bank)
        self.pictures = pictures

    def read(self, name: str) -> Picture:
        """The picture ``name`` names, checked; Refused if it is not in the zip."""
        for candidate in dict.fromkeys((name, unquote(name))):
            if leads_out(candidate):
                raise Refused("bank_image_outside", name=name)
            path = posixpath.normpath(posixpath.join(self.folder, candidate))
            if path.startswith("../"):
                raise Refused("bank_image_outside", name=name)
            data = self.pictures.get(path)
            if data is not None:
                return check(data)
        raise Refused("bank_image_missing", name=name)


def declared_entries(data: bytes) -> int | None:
    """The number of entries the zip's end record declares (None: no end record)."""
    tail = data[-(_END_SIZE + _COMMENT_MAX) :]
    at = tail.rfind(_END)
    if at < 0 or len(tail) - at < _END_SIZE:
        return None
    disk_entries, total = struct.unpack("<HH", tail[at + 8 : at + 12])
    count: int = max(disk_entries, total)
    return count  # 0xFFFF: a zip64 count, more than we allow anyway


def unpack(data: bytes, bank_suffixes: Collection[str], max_bytes: int) -> Unpacked:
    """The question file (its name ends with one of ``bank_suffixes``, at most ``max_bytes``)
    and the pictures of a .zip; ZipRefused with the reason otherwise."""
    declared = declared_entries(data)
    if declared is None:
        raise ZipRefused("imp_zip_bad")
    if declared > MAX_ENTRIES:
        raise ZipRefused("imp_zip_entries", count=declared, limit=MAX_ENTRIES)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise ZipRefused("imp_zip_bad") from None
    if len(entries) > MAX_ENTRIES:
        raise ZipRefused("imp_zip_entries", count=len(entries), limit=MAX_ENTRIES)
    banks: list[zipfile.ZipInfo] = []
    pictures: list[zipfile.ZipInfo] = []
    for entry in entries:
        name = entry.filename
        if leads_out(name.rstrip("/")):
            raise ZipRefused("imp_zip_path", entry=name[:100])
        if entry.is_dir() or _ignored(name):
            continue
        suffix = PurePosixPath(name).suffix.casefold()
        if suffix == ".zip":
            raise ZipRefused("imp_zip_nested", entry=name[:100])
        if suffix in bank_suffixes:
            banks.append(entry)
        elif suffix in PICTURE_SUFFIXES:
            pictures.append(entry)
    if not banks:
        raise ZipRefused("imp_zip_no_bank")
    if len(banks) > 1:
        names = ", ".join(b.filename[:60] for b in banks[:5])
        raise ZipRefused("imp_zip_banks", names=names)
    [bank] = banks
    limits = [(bank, max_bytes), *((p, MAX_IMAGE_BYTES) for p in pictures)]
    total = 0
    for entry, limit in limits:  # every declared size first: nothing inflated if one lies big
        _usable(entry)
        if entry.file_size > limit:
            raise ZipRefused("imp_zip_entry_big", entry=entry.filename[:100], limit=limit)
        total += entry.file_size
        if total > MAX_UNPACKED:
            raise ZipRefused("imp_zip_total", limit=MAX_UNPACKED)
    read = {entry.filename: _read(archive, entry, limit) for entry, limit in limits}
    return Unpacked(bank.filename, read.pop(bank.filename), read)


def _ignored(name: str) -> bool:
    """What archivers add beside the files (macOS's ``__MACOSX/`` and ``._`` copies)."""
    parts = PurePosixPath(name).parts
    return parts[0] == "__MACOSX" or parts[-1].startswith("._")


def _usable(entry: zipfile.ZipInfo) -> None:
    """Refused unless the entry can be read with a bound: not encrypted, stored or deflated."""
    if entry.flag_bits & 0x1:
        raise ZipRefused("imp_zip_encrypted", entry=entry.filename[:100])
    if entry.compress_type not in _METHODS:
        raise ZipRefused("imp_zip_unreadable", entry=entry.filename[:100])


def _read(archive: zipfile.ZipFile, entry: zipfile.ZipInfo, limit: int) -> bytes:
    """The entry's bytes, reading (and inflating) at most one byte past ``limit``."""
    try:
        with archive.open(entry) as f:
            data = f.read(limit + 1)
    except (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError, OSError):
        raise ZipRefused("imp_zip_unreadable", entry=entry.filename[:100]) from None
    if len(data) > limit:
        raise ZipRefused("imp_zip_entry_big", entry=entry.filename[:100], limit=limit)
    return data
