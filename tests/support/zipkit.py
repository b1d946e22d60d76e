"""Real-shaped .zip files for the tests of bot/banks/importers/ziparchive.py: made by Python's
``zipfile`` as archivers make them, or written byte by byte (``raw_zip``) where a hostile zip
lies: a declared size that is not the real one, a name leading out, an entry count."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from dataclasses import dataclass

from picturekit import PICTURE

GIFT = (
    "// a GIFT file with its pictures beside it\n"
    '::Layout:: [html]<p>Which layout does this figure show?</p><img src="pics/lay%20out.png"> '
    "{=Tensor parallel ~Pipeline parallel}\n\n"
    '::Gone:: [html]What is this? <img src="pics/gone.png"> {=a bird ~a fish}\n'
)


def zip_of(files: dict[str, bytes], *, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip as an archiver writes it (a name ending with ``/`` is a folder)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def teacher_zip() -> bytes:
    """A teacher's .zip: the GIFT file and its picture in a folder, with what archivers and
    people add beside them (a folder entry, macOS's copies, a note)."""
    return zip_of(
        {
            "week1/": b"",
            "week1/pics/": b"",
            "week1/layouts.gift": GIFT.encode(),
            "week1/pics/lay out.png": PICTURE,
            "__MACOSX/week1/._layouts.gift": b"\x00\x05\x16\x07",
            "week1/README.md": b"# notes for the class",
        }
    )


@dataclass(frozen=True)
class Entry:
    """One entry of a zip written by hand: what it says of itself, and its bytes."""

    name: str
    payload: bytes  # as stored in the zip (compressed, for deflate)
    size: int  # the uncompressed size it declares
    crc: int = 0
    method: int = zipfile.ZIP_DEFLATED
    flags: int = 0


def raw_zip(entries: list[Entry], *, declared_count: int | None = None) -> bytes:
    """A zip written byte by byte: local headers, central directory, end record."""
    body = b""
    central = b""
    for e in entries:
        name = e.name.encode()
        offset = len(body)
        body += struct.pack(
            "<IHHHHHIIIHH",
            0x04034B50,
            20,
            e.flags,
            e.method,
            0,
            0,
            e.crc,
            len(e.payload),
            e.size,
            len(name),
            0,
        )
        body += name + e.payload
        central += struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            20,
            20,
            e.flags,
            e.method,
            0,
            0,
            e.crc,
            len(e.payload),
            e.size,
            len(name),
            0,
            0,
            0,
            0,
            0,
            offset,
        )
        central += name
    count = len(entries) if declared_count is None else declared_count
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, len(central), len(body), 0)
    return body + central + end


def deflated(data: bytes) -> bytes:
    """``data`` as a zip stores it deflated (raw deflate, no zlib header)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


BOMB_BYTES = 256 * 1024 * 1024


def bomb_payload() -> bytes:
    """256 MB of zeros deflated to about 250 KB: what a zip bomb inflates."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = b"\x00" * (1024 * 1024)
    parts = [packer.compress(chunk) for _ in range(BOMB_BYTES // len(chunk))]
    return b"".join(parts) + packer.flush()


def bomb_zip(payload: bytes, *, declared: int) -> bytes:
    """A GIFT file beside a picture that inflates to 256 MB; the picture declares
    ``declared`` bytes (the real size, or a lie)."""
    gift = GIFT.encode()
    return raw_zip(
        [
            Entry("layouts.gift", deflated(gift), len(gift), zlib.crc32(gift)),
            Entry("pics/lay out.png", payload, declared, 0x12345678),
        ]
    )
