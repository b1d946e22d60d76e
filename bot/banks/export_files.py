"""A quiz's pictures in a GIFT or Moodle XML export, named as Moodle names a question's files.

Each picture gets a plain file name (the last part of its name in the bank; a picture of other
content already holding that name gets its content's name, ``<sha256>.<ext>``) and is linked
from its question's text as ``<img src="@@PLUGINFILE@@/name">``, as Moodle's own exports link
them: Moodle XML carries the file in the question (``<file encoding="base64">``), a GIFT export
is a .zip of the GIFT file with the pictures beside it (bot/banks/export.py), which our zip
import (bot/banks/importers/ziparchive.py) reads back. Texts holding a picture are HTML.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath
from urllib.parse import quote

from bot.core.bank import Quiz
from bot.core.images import STORED_NAME

PLUGINFILE = "@@PLUGINFILE@@/"


def entities(text: str) -> str:
    """``&``, ``<`` and ``>`` as XML entities (a file for Moodle, not a Telegram message)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def html_of(text: str) -> str:
    """Plain text as the HTML Moodle shows: escaped, each line break a ``<br>``."""
    return "<br>".join(entities(line) for line in text.replace("\r\n", "\n").split("\n"))


def picture_names(quiz: Quiz, pictures: Mapping[str, bytes]) -> dict[str, str]:
    """Each picture of ``quiz`` whose bytes ``pictures`` holds (by its name in the bank), and
    the file name it is exported under."""
    names: dict[str, str] = {}
    taken: dict[str, str] = {}  # file name -> the content it holds
    for question in quiz.questions:
        image = question.image
        if image is None or image.file not in pictures or image.file in names:
            continue
        name = PurePosixPath(image.file).name or image.file
        if taken.get(name, image.sha256) != image.sha256:
            suffix = PurePosixPath(name).suffix.casefold().lstrip(".")
            stored = STORED_NAME.match(f"{image.sha256}.{suffix}")
            name = f"{image.sha256}.{suffix}" if stored else f"{image.sha256}-{name}"
        taken[name] = image.sha256
        names[image.file] = name
    return names


def img_tag(name: str) -> str:
    """The ``<img>`` a question's text shows its picture ``name`` with."""
    return f'<img src="{PLUGINFILE}{quote(name)}" alt="">'


def shortanswer_text(text: str) -> str:
    """A short answer as Moodle matches it: every ``*`` (its wildcard) escaped ``\\*``."""
    return text.replace("*", "\\*")
