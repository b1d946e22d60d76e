"""Pictures, sound, video and other attachments in imported questions: the first picture of a
question's text becomes its image; every other picture and every sound, video or attachment is
named in the report (a question carries one picture and no sound), never dropped silently.

A picture may come in the markup itself as a ``data:`` URI (``<img src="data:image/png;base64,
...">``, as editors paste a chart): it is decoded into ``Parsed.files`` under a name of its
own (``embedded-1.png``), checked later as every picture is (bot/core/images.py), and only
that name ever reaches a report, never the data.
"""

from __future__ import annotations

import base64
import binascii
import xml.etree.ElementTree as ET  # only for the Element type
from urllib.parse import unquote

from bot.banks.importers.htmltext import media_in
from bot.banks.importers.model import Location, Parsed
from bot.core.images import media_name, sniff

PLUGINFILE = "@@PLUGINFILE@@/"
#: a data: URI's type as a file name's extension (anything else: ``bin``)
_DATA_TYPES = {
    "image/png": "png",
    "image/jpeg": "jpg",
    "image/jpg": "jpg",
    "image/gif": "gif",
    "image/webp": "webp",
    "image/svg+xml": "svg",
    "image/bmp": "bmp",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
    "audio/ogg": "ogg",
    "audio/wav": "wav",
    "video/mp4": "mp4",
    "video/webm": "webm",
}


def take(out: Parsed, where: Location, markup: str, *, keep: bool = True) -> str | None:
    """The picture ``markup`` names first (None if none, or not ``keep``: options and
    feedback, which show no picture); the others, and every sound or video, reported at
    ``where``. A picture given as a ``data:`` URI is decoded
    into ``out.files`` and named there."""
    images, media = media_in(markup)
    for link in media:
        out.skip(where, "imp_media_dropped", name=_named(out, where, link, decode=False))
    names = [_named(out, where, link, decode=keep and n == 0) for n, link in enumerate(images)]
    first = names[0] if names and keep else None
    for name in names[1:] if keep else names:
        out.skip(where, "imp_image_extra" if keep else "imp_image_elsewhere", name=name)
    if first is not None and is_data(images[0]) and first not in out.files:
        return None  # embedded, but unreadable: said already
    return first


def embedded(
    out: Parsed, where: Location, element: ET.Element, named: set[str], image: str | None = None
) -> None:
    """A Moodle question's ``<file>`` elements (base64): pictures kept in ``out.files`` by
    name; sound, video and any other attachment reported (unless ``named`` already, by a tag
    of the text; ``image`` is the question's own picture, checked when the quiz is built)."""
    for file in element.iter("file"):
        name = file.get("name") or ""
        if not name or name in named:
            continue
        if media_name(name):
            out.skip(where, "imp_media_dropped", name=name)
            continue
        try:
            data = base64.b64decode("".join((file.text or "").split()), validate=True)
        except (binascii.Error, ValueError):
            out.skip(where, "imp_image_unreadable", name=name)
            continue
        if sniff(data) is None and name != image:
            out.skip(where, "imp_attachment_dropped", name=name)
            continue
        out.files[name] = data


def old_image(out: Parsed, where: Location, element: ET.Element, image: str | None) -> str | None:
    """The question's picture, with Moodle 1.9's ``<image>`` (and its ``<image_base64>``),
    which Moodle's import still shows after the text: it, when the text shows none (its bytes
    into ``out.files``), else named as a picture the question cannot show as well."""
    name = (element.findtext("image") or "").strip()
    if not name:
        return image
    name = unquote(name.rsplit("/", 1)[-1]) if "://" not in name else name
    if image is not None:
        out.skip(where, "imp_image_extra", name=name)
        return image
    encoded = "".join((element.findtext("image_base64") or "").split())
    if encoded:
        try:
            out.files[name] = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            out.skip(where, "imp_image_unreadable", name=name)
            return None
    return name


def is_data(link: str) -> bool:
    """Whether a link is a ``data:`` URI (the content itself, not a name)."""
    return link[:5].casefold() == "data:"


def _named(out: Parsed, where: Location, link: str, *, decode: bool) -> str:
    """A link's name as a report shows it and ``out.files`` keeps it: Moodle's
    ``@@PLUGINFILE@@/`` prefix dropped and percent-escapes decoded; a ``data:`` URI named
    ``embedded-N.ext`` (and, with ``decode``, its picture decoded into ``out.files``)."""
    if not is_data(link):
        if link.startswith(PLUGINFILE):
            return unquote(link[len(PLUGINFILE) :])
        return link
    comma = link.find(",")
    header = link[5:comma] if comma >= 0 else link[5:60]
    kind, *params = [part.strip().casefold() for part in header.split(";")]
    out.embedded += 1
    name = f"embedded-{out.embedded}.{_DATA_TYPES.get(kind, 'bin')}"
    if not decode:
        return name
    payload = link[comma + 1 :] if comma >= 0 else ""
    if "base64" not in params:  # a picture is never given otherwise
        out.skip(where, "imp_image_unreadable", name=name)
        return name
    try:
        out.files[name] = base64.b64decode("".join(payload.split()), validate=True)
    except (binascii.Error, ValueError):
        out.skip(where, "imp_image_unreadable", name=name)
    return name
