"""Telegram-style validation of ``parse_mode=HTML`` text.

Mirrors the rules of the Bot API (tdlib ``parse_html``), slightly stricter on one point: a bare
``&`` that does not start a known entity is an error (Telegram silently keeps it; a bot that
forgets to escape user input will eventually produce an invalid entity, so we fail early).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["EntityParseError", "ParsedText", "parse_html", "utf16_len"]

_TAG_TYPES: dict[str, str] = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "code": "code",
    "pre": "pre",
    "a": "text_link",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}

_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_ENTITY_RE = re.compile(r"&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));")
_NAME_RE = re.compile(r"[a-zA-Z0-9-]+")


class EntityParseError(ValueError):
    """The text is not valid Telegram HTML; ``str(exc)`` is the part after "can't parse
    entities: "."""


@dataclass
class ParsedText:
    text: str
    entities: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _Open:
    name: str
    entity: dict[str, Any]
    start: int  # UTF-16 offset in the visible text
    byte_offset: int


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _byte_offset(source: str, index: int) -> int:
    return len(source[:index].encode("utf-8"))


def _decode_entity(source: str, index: int) -> tuple[str, int]:
    """Decode the entity starting at ``source[index] == '&'``; return (text, next index)."""
    match = _ENTITY_RE.match(source, index)
    if match is not None:
        dec, hexa, name = match.groups()
        if name is not None:
            value = _NAMED_ENTITIES.get(name)
            if value is not None:
                return value, match.end()
        else:
            code = int(dec) if dec is not None else int(hexa, 16)
            if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
                return chr(code), match.end()
    raise EntityParseError(
        f'Unsupported HTML entity or unescaped "&" at byte offset {_byte_offset(source, index)}'
    )


def _decode_text(source: str, start: int, end: int) -> str:
    out: list[str] = []
    i = start
    while i < end:
        ch = source[i]
        if ch == "&":
            value, i = _decode_entity(source, i)
            out.append(value)
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _parse_attributes(source: str, i: int, tag: str, tag_offset: int) -> tuple[dict[str, str], int]:
    """Parse attributes up to and including '>'; return (attrs, index after '>')."""
    attrs: dict[str, str] = {}
    n = len(source)
    while True:
        while i < n and source[i].isspace():
            i += 1
        if i >= n:
            raise EntityParseError(f"Unclosed start tag at byte offset {tag_offset}")
        if source[i] == ">":
            return attrs, i + 1
        if source[i] == "/":
            raise EntityParseError(f'Unsupported start tag "{tag}/" at byte offset {tag_offset}')
        match = _NAME_RE.match(source, i)
        if match is None:
            raise EntityParseError(
                f'Empty attribute name in the tag "{tag}" at byte offset {_byte_offset(source, i)}'
            )
        name = match.group(0).lower()
        i = match.end()
        while i < n and source[i].isspace():
            i += 1
        if i < n and source[i] != "=":
            attrs[name] = ""  # valueless attribute, e.g. <blockquote expandable>
            continue
        if i >= n:
            raise EntityParseError(f"Unclosed start tag at byte offset {tag_offset}")
        i += 1
        while i < n and source[i].isspace():
            i += 1
        if i >= n:
            raise EntityParseError(f"Unclosed start tag at byte offset {tag_offset}")
        quote = source[i]
        if quote in "\"'":
            end = source.find(quote, i + 1)
            if end == -1:
                raise EntityParseError(f'Unclosed start tag "{tag}" at byte offset {tag_offset}')
            attrs[name] = _decode_text(source, i + 1, end)
            i = end + 1
        else:
            j = i
            while j < n and not source[j].isspace() and source[j] != ">":
                if source[j] in "<\"'":
                    raise EntityParseError(
                        f"Unexpected character in attribute value at byte offset "
                        f"{_byte_offset(source, j)}"
                    )
                j += 1
            attrs[name] = _decode_text(source, i, j)
            i = j


def _make_entity(
    tag: str, attrs: dict[str, str], stack: list[_Open], offset: int
) -> dict[str, Any]:
    kind = _TAG_TYPES[tag]
    entity: dict[str, Any] = {"type": kind}
    if tag == "a":
        href = attrs.get("href", "")
        if not href:
            raise EntityParseError(f'Tag "a" must have attribute "href" at byte offset {offset}')
        entity["url"] = href
    elif tag == "span":
        if attrs.get("class") != "tg-spoiler":
            raise EntityParseError(
                f'Tag "span" must have class "tg-spoiler" at byte offset {offset}'
            )
    elif tag == "tg-emoji":
        emoji_id = attrs.get("emoji-id", "")
        if not emoji_id.isdigit():
            raise EntityParseError(
                f'Tag "tg-emoji" must have attribute "emoji-id" at byte offset {offset}'
            )
        entity["custom_emoji_id"] = emoji_id
    elif tag == "blockquote" and "expandable" in attrs:
        entity["type"] = "expandable_blockquote"
    elif tag == "code":
        language = attrs.get("class", "")
        if stack and stack[-1].name == "pre" and language.startswith("language-"):
            stack[-1].entity["language"] = language[len("language-") :]
    return entity


def parse_html(source: str) -> ParsedText:
    """Parse Telegram HTML into visible text + MessageEntity dicts.

    Raises:
        EntityParseError: for unsupported tags, unbalanced tags, bad entities, stray ``<``/``&``.
    """
    out: list[str] = []
    out_len16 = 0
    entities: list[dict[str, Any]] = []
    stack: list[_Open] = []
    i = 0
    n = len(source)
    while i < n:
        ch = source[i]
        if ch == "&":
            value, i = _decode_entity(source, i)
            out.append(value)
            out_len16 += utf16_len(value)
            continue
        if ch != "<":
            out.append(ch)
            out_len16 += 2 if ord(ch) > 0xFFFF else 1
            i += 1
            continue
        tag_offset = _byte_offset(source, i)
        if i + 1 < n and source[i + 1] == "/":
            close = source.find(">", i + 2)
            if close == -1:
                raise EntityParseError(f"Unclosed end tag at byte offset {tag_offset}")
            name = source[i + 2 : close].strip().lower()
            if not stack:
                raise EntityParseError(f'Unexpected end tag "{name}" at byte offset {tag_offset}')
            top = stack.pop()
            if name != top.name:
                raise EntityParseError(
                    f'Unmatched end tag at byte offset {tag_offset}, expected "</{top.name}>", '
                    f'found "</{name}>"'
                )
            length = out_len16 - top.start
            if length > 0:
                top.entity["offset"] = top.start
                top.entity["length"] = length
                entities.append(top.entity)
            i = close + 1
            continue
        match = _NAME_RE.match(source, i + 1)
        if match is None:
            raise EntityParseError(
                f'Unsupported start tag "" at byte offset {tag_offset}'
                if i + 1 < n
                else f"Unclosed start tag at byte offset {tag_offset}"
            )
        name = match.group(0).lower()
        if name not in _TAG_TYPES:
            raise EntityParseError(f'Unsupported start tag "{name}" at byte offset {tag_offset}')
        attrs, i = _parse_attributes(source, match.end(), name, tag_offset)
        entity = _make_entity(name, attrs, stack, tag_offset)
        stack.append(_Open(name, entity, out_len16, tag_offset))
    if stack:
        raise EntityParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1].name}"')
    # A <code> directly inside <pre> only sets the language: drop the nested code entity.
    pre_spans = {(e["offset"], e["length"]) for e in entities if e["type"] == "pre"}
    entities = [
        e for e in entities if not (e["type"] == "code" and (e["offset"], e["length"]) in pre_spans)
    ]
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return ParsedText("".join(out), entities)
