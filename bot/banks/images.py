"""Where a bank's pictures are found: beside its file (folder banks, ``quizbot import``) or, for
a stored quiz, by the content's name (the bytes are in SQLite, bot/storage/images.py).

A folder bank names a picture by a path relative to the bank's folder (``pics/q3.png``). It is
confined there: no absolute path, no ``..``, no backslash, and a symbolic link that leads out
of the folder is refused (the path is resolved and must stay inside the folder's own resolved
path). A picture is read only after its size was checked (``MAX_IMAGE_BYTES``).
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from typing import Protocol

from bot.core.images import (
    MAX_IMAGE_BYTES,
    STORED_NAME,
    Image,
    Picture,
    Refused,
    check,
    leads_out,
)


class ImageFinder(Protocol):
    """What a reader asks for a picture a bank names: the model's Image, or Refused."""

    def find(self, name: str) -> Image: ...


class NoImages:
    """A bank read without any folder (a YAML file uploaded in the chat): every picture it
    names is missing (and said so)."""

    def find(self, name: str) -> Image:
        raise Refused("bank_image_missing", name=name)


class StoredImages:
    """A stored quiz: a picture is named by its content (``pictures/<sha256>.<ext>``), its bytes
    kept in SQLite."""

    def find(self, name: str) -> Image:
        folder, _, file = name.rpartition("/")
        found = STORED_NAME.match(file)
        if found is None or folder != "pictures":
            raise Refused("bank_image_missing", name=name)
        return Image(name, found.group(1))


class FolderImages:
    """Pictures beside a bank file, confined to its folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def find(self, name: str) -> Image:
        return self.read(name).image(name)

    def read(self, name: str) -> Picture:
        """The picture at ``name`` in the folder, checked; Refused if it cannot be used."""
        path = self.path(name)
        try:
            size = path.stat().st_size
            if not path.is_file():
                raise Refused("bank_image_missing", name=name)
            if size > MAX_IMAGE_BYTES:
                raise Refused("bank_image_big", size=size, limit=MAX_IMAGE_BYTES)
            with path.open("rb") as f:
                data = f.read(MAX_IMAGE_BYTES + 1)
        except OSError:
            raise Refused("bank_image_missing", name=name) from None
        return check(data)

    def path(self, name: str) -> Path:
        """The file ``name`` is, inside the folder; Refused if it would lead out of it."""
        if leads_out(name):
            raise Refused("bank_image_outside", name=name)
        root = Path(os.path.realpath(self.folder))
        real = Path(os.path.realpath(root / PurePosixPath(name)))
        if real != root and root not in real.parents:
            raise Refused("bank_image_outside", name=name)
        return real
