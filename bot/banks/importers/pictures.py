"""Pictures, sound and video in imported questions: the first picture of a question's text
becomes its image; every other picture and every sound or video is named in the report (a
question carries one picture and no sound), never dropped silently."""

from __future__ import annotations

import base64
import binascii
import xml.etree.ElementTree as ET  # only for the Element type
from urllib.parse import unquote

from bot.banks.importers.htmltext import media_in
from bot.banks.importers.model import Location, Parsed
from bot.core.images import media_name

PLUGINFILE = "@@PLUGINFILE@@/"


def take(out: Parsed, where: Location, markup: str, *, keep: bool = True) -> str | None:
    """The picture ``markup`` names first (None if none, or not ``keep``); the others, and
    every sound or video, reported at ``where``."""
    images, media = media_in(markup)
    for name in media:
        out.skip(where, "imp_media_dropped", name=_name(name))
    first = images[0] if images and keep else None
    for name in images[1:] if keep else images:
        out.skip(where, "imp_image_extra", name=_name(name))
    return None if first is None else _name(first)


def embedded(out: Parsed, where: Location, element: ET.Element, named: set[str]) -> None:
    """A Moodle question's ``<file>`` elements (base64): pictures kept in ``out.files`` by
    name, sound and video reported (unless ``named`` already, by a tag of the text)."""
    for file in element.iter("file"):
        name = file.get("name") or ""
        if not name:
            continue
        if media_name(name):
            if name not in named:
                out.skip(where, "imp_media_dropped", name=name)
            continue
        try:
            out.files[name] = base64.b64decode("".join((file.text or "").split()), validate=True)
        except (binascii.Error, ValueError):
            out.skip(where, "imp_image_unreadable", name=name)


def _name(link: str) -> str:
    """A picture's name as its file is named: Moodle's ``@@PLUGINFILE@@/`` prefix dropped and
    its percent-escapes decoded."""
    if link.startswith(PLUGINFILE):
        return unquote(link[len(PLUGINFILE) :])
    return link
