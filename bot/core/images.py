"""A question's picture: what the model keeps of it, and what a picture must be (pure).

A question carries at most one image. The model keeps its name as the bank gives it (a path
beside the bank file, ``pics/q3.png``; in a stored quiz the content's name, ``<sha256>.png``)
and the SHA-256 of its content, by which the bot keeps it (stored quizzes: the bytes in SQLite)
and Telegram's ``file_id`` once it was uploaded (bot/storage/images.py).

``sniff`` reads the file's header: its type (JPEG, PNG, GIF or WebP, what ``sendPhoto``
takes) and its size in pixels, checked against Telegram's photo limits (width + height at most
10,000, ratio at most 20) and ours (``MAX_IMAGE_BYTES`` a picture, ``MAX_IMAGES`` a quiz). Then
``check`` decodes it whole with Pillow (``decodes``): the header must tell the truth and the
image data be complete, and a file much larger than its picture needs (zeros or any filler
packed after or inside it, which a .zip would carry almost for free) is refused, so a picture
kept costs what it shows.
"""

from __future__ import annotations

import hashlib
import io
import re
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath

from PIL import Image as PILImage

MAX_IMAGE_BYTES = 5 * 1024 * 1024  # Telegram takes 10 MB; a class's phones like far less
MAX_IMAGES = 50  # a quiz
MAX_SIDES = 10_000  # width + height (Telegram)
MAX_RATIO = 20  # Telegram
#: a picture's file may be this much larger than it compresses to (real image data is already
#: compressed: filler is what squeezes)
PADDING_SLACK = 64 * 1024
_PIL_FORMATS = {"image/jpeg": "JPEG", "image/png": "PNG", "image/gif": "GIF", "image/webp": "WEBP"}
#: a stored quiz names each picture by its content
STORED_NAME = re.compile(r"^([0-9a-f]{64})\.(jpg|png|gif|webp)$")
_EXTENSIONS = {"image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp"}
#: sound and video, which a question cannot carry: named in an import's report
MEDIA_EXTENSIONS = frozenset(
    {"mp3", "ogg", "oga", "wav", "m4a", "aac", "flac", "opus", "mp4", "webm", "mov", "avi", "mkv"}
)


@dataclass(frozen=True, slots=True)
class Image:
    """A question's picture: its name in the bank and the SHA-256 (hex) of its content."""

    file: str
    sha256: str


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture's content, checked: its bytes, type and size in pixels."""

    data: bytes
    mime: str
    width: int
    height: int

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def stored_name(self) -> str:
        """Its name in a stored quiz: the content's hash and the type's extension."""
        return f"{self.sha256}.{_EXTENSIONS[self.mime]}"

    def image(self, file: str | None = None) -> Image:
        return Image(file or self.stored_name, self.sha256)


@dataclass(frozen=True, slots=True)
class PollExtras:
    """What an authored quiz poll carries besides its text: whether its photo was kept (else
    why not: an i18n key and its values), and each part a question cannot keep, by kind
    ("video", "audio" ...), so that the reply names it."""

    photo: bool = False
    refused: tuple[str, dict[str, object]] | None = None
    media: str | None = None  # the poll's media when it is not a photo
    explanation_media: str | None = None
    option_media: bool = False
    description: bool = False


class Refused(Exception):
    """A picture the bot cannot use: ``key`` (i18n, context ``bank``) and its values."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values


def check(data: bytes) -> Picture:
    """``data`` as a picture; Refused if it is too big, not a picture Telegram shows as a
    photo, or out of Telegram's proportions."""
    if len(data) > MAX_IMAGE_BYTES:
        raise Refused("bank_image_big", size=len(data), limit=MAX_IMAGE_BYTES)
    found = sniff(data)
    if found is None:
        raise Refused("bank_image_kind")
    mime, width, height = found
    if width < 1 or height < 1 or width + height > MAX_SIDES:
        raise Refused("bank_image_sides", width=width, height=height, limit=MAX_SIDES)
    if max(width, height) > MAX_RATIO * min(width, height):
        raise Refused("bank_image_sides", width=width, height=height, limit=MAX_SIDES)
    if not decodes(data, mime, width, height):
        raise Refused("bank_image_broken")
    if padded(data):
        raise Refused("bank_image_padded")
    return Picture(data, mime, width, height)


def decodes(data: bytes, mime: str, width: int, height: int) -> bool:
    """Whether Pillow decodes ``data`` whole as a ``mime`` picture of the size its header gave
    (at most 25 million pixels: width + height at most 10,000 was checked first)."""
    try:
        with PILImage.open(io.BytesIO(data), formats=[_PIL_FORMATS[mime]]) as im:
            if im.size != (width, height):
                return False
            im.load()
    except Exception:  # Pillow raises many kinds for a damaged or lying file
        return False
    return True


def padded(data: bytes) -> bool:
    """Whether the file carries filler: it squeezes by more than ``PADDING_SLACK`` and to less
    than half its size, which compressed image data (PNG, JPEG, GIF, WebP) never does."""
    squeezed = len(zlib.compress(data, 1))
    return len(data) - squeezed > PADDING_SLACK and squeezed * 2 < len(data)


def sniff(data: bytes) -> tuple[str, int, int] | None:
    """The type and size in pixels a picture's header gives; None if it is none we take."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
        return "image/png", _big(data, 16, 4), _big(data, 20, 4)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return "image/gif", _little(data, 6, 2), _little(data, 8, 2)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    if data.startswith(b"\xff\xd8"):
        return _jpeg(data)
    return None


def leads_out(name: str) -> bool:
    """Whether a picture's path, relative to its bank's folder (on disk or in a .zip), could
    lead out of it: empty, absolute, a drive, a backslash, a NUL or a ``..``."""
    pure = PurePosixPath(name)
    return (
        not name
        or "\\" in name
        or "\x00" in name
        or pure.is_absolute()
        or ".." in pure.parts
        or (len(name) > 1 and name[1] == ":")  # a Windows drive
    )


def media_name(name: str) -> bool:
    """Whether a file name or link is sound or video (by its extension)."""
    tail = name.split("?", 1)[0].split("#", 1)[0].rsplit(".", 1)
    return len(tail) == 2 and tail[1].casefold() in MEDIA_EXTENSIONS


def _big(data: bytes, at: int, size: int) -> int:
    return int.from_bytes(data[at : at + size], "big")


def _little(data: bytes, at: int, size: int) -> int:
    return int.from_bytes(data[at : at + size], "little")


def _webp(data: bytes) -> tuple[str, int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30:
        return "image/webp", _little(data, 26, 2) & 0x3FFF, _little(data, 28, 2) & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = _little(data, 21, 4)
        return "image/webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        return "image/webp", _little(data, 24, 3) + 1, _little(data, 27, 3) + 1
    return None


_SOF = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})


def _jpeg(data: bytes) -> tuple[str, int, int] | None:
    """Walks the JPEG's segments (each looked at once) to its frame header."""
    i, n = 2, len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = _big(data, i + 2, 2)
        if marker in _SOF:
            if i + 9 > n:
                return None
            return "image/jpeg", _big(data, i + 7, 2), _big(data, i + 5, 2)
        if length < 2:
            return None
        i += 2 + length
    return None
