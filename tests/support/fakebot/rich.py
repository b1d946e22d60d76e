"""Rich messages (Bot API 10.1, as 10.3 extends them): ``InputRichMessage`` validated, parsed
and stored.

The spec JSON (Bot API 10.3) gives ``InputRichMessage`` = exactly one of ``html``, ``markdown`` or
``blocks`` (an array of ``InputRichBlock``), plus ``media`` (``InputRichMessageMedia``: an ``id``
and an ``InputMedia*``, named in the html or markdown by ``tg://photo?id=<id>`` links),
``is_rtl`` and ``skip_entity_detection``. ``blocks`` are shape-checked by the spec check; their
text is read from their ``text``/``expression`` fields. Its formatting section lacks the rich tags,
so the tag set, the media rules and the limits follow Telegram's "Rich Message Formatting
Options" page: inline ``b strong i em u ins s strike del code mark sub sup tg-spoiler span
tg-emoji tg-time tg-math a tg-reference``; blocks ``h1-h6 p pre footer hr ul ol li input
blockquote aside details summary table caption tr th td tg-map tg-collage tg-slideshow
tg-math-block img video audio figure figcaption cite br``; LaTeX inside
``tg-math``/``tg-math-block`` is raw text; table cells hold inline formatting only; media are
separate blocks with http(s) URLs or ``tg://photo?id=`` links (see below); limits 32768
characters (formula source included), 500 blocks, depth 16, 50 media, 20 table columns.

Telegram's own page, "Rich messages" (https://core.telegram.org/bots/api/rich-messages.md,
canonical https://core.telegram.org/bots/api#rich-messages; found through the ``search`` tool's
docs corpus, which holds its opening part), confirms the formatting options (Markdown or HTML
style; explicit ``blocks`` and the ``media`` list, which Bot API 10.2 brought to the spec),
automatic entity detection and ``skip_entity_detection``, and media reused by
``tg://photo?id=``, ``tg://video?id=``, ``tg://document?id=`` or ``tg://audio?id=`` links
instead of an HTTP URL. A link's id names an entry of ``media`` (10.3); an id no entry has is
read as a ``file_id`` the fake returned earlier, as 10.1 did. The limits above are its "Rich
Message Limits" as third-party libraries quote them (the part of the page the corpus holds
stops at that heading).

Rejections use the ``RICH_MESSAGE_*`` descriptions; ``ApiError.detail`` says why. The part of
Telegram's page found names no error descriptions: these still rest on secondary sources.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .html_check import EntityParseError, _decode_text
from .models import JSON, ApiError, bad_request

__all__ = ["RichContent", "parse_input_rich_message"]

MAX_CHARS = 32768
MAX_BLOCKS = 500
MAX_DEPTH = 16
MAX_MEDIA = 50
MAX_COLUMNS = 20

_INLINE = frozenset(
    [
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "code",
        "mark",
        "sub",
        "sup",
        "tg-spoiler",
        "span",
        "tg-emoji",
        "tg-time",
        "tg-math",
        "a",
        "tg-reference",
        "br",
    ]
)
_BLOCK = frozenset(
    [
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "p",
        "pre",
        "footer",
        "hr",
        "ul",
        "ol",
        "li",
        "input",
        "blockquote",
        "aside",
        "details",
        "summary",
        "table",
        "caption",
        "tr",
        "th",
        "td",
        "tg-map",
        "tg-collage",
        "tg-slideshow",
        "tg-math-block",
        "img",
        "video",
        "audio",
        "figure",
        "figcaption",
        "cite",
    ]
)
_VOID = frozenset({"hr", "img", "input", "tg-map", "br"})
_MEDIA = frozenset({"img", "video", "audio"})
#: where a media block may stand (it is a block of its own, never inside text)
_MEDIA_PARENTS = frozenset({None, "figure", "tg-collage", "tg-slideshow", "li", "details"})
_COUNTED = (_BLOCK - {"summary", "caption", "figcaption", "cite", "input", "th", "td"}) | {"li"}
_REQUIRED_ATTRS = {"img": "src", "tg-emoji": "emoji-id", "tg-time": "unix", "tg-map": "lat"}
_TAG_RE = re.compile(
    r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z][a-zA-Z0-9-]*"
    r"(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'<>=/]+))?)*)\s*(/?)>"
)
_ATTR_RE = re.compile(r"([a-zA-Z][a-zA-Z0-9-]*)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'<>=/]+))?")
_FILE_LINK_RE = re.compile(r"tg://(photo|video|document|audio)\?id=(\S+)")
_LINK_RE = re.compile(r"(https?://\S+|mailto:\S+|tel:\S+|tg://user\?id=\d+|#\S*)")
_HEADINGS = {f"h{n}": n for n in range(1, 7)}


def _rich_error(code: str, detail: str) -> ApiError:
    error = bad_request(code)
    error.detail = detail
    return error


@dataclass
class Node:
    tag: str | None  # None: the root
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)


@dataclass
class RichContent:
    """What a rich message carried, as a test reads it."""

    source: str  # "html" | "markdown" | "blocks"
    markup: str  # the html / markdown as sent
    is_rtl: bool = False
    skip_entity_detection: bool = False
    plain: str = ""  # visible text: blocks on lines, table cells tab-separated, LaTeX as source
    math: list[str] = field(default_factory=list)  # LaTeX of tg-math / tg-math-block, in order
    tables: list[list[list[str]]] = field(default_factory=list)  # rows of cell texts
    photos: list[str] = field(default_factory=list)  # img src: URL or tg://photo?id=<file_id>
    blocks: list[JSON] = field(default_factory=list)  # RichMessage.blocks as returned

    def to_dict(self) -> JSON:
        """The ``RichMessage`` object of the returned Message."""
        data: JSON = {"blocks": self.blocks}
        if self.is_rtl:
            data["is_rtl"] = True
        return data


def _parse_tree(source: str) -> Node:
    root = Node(None)
    stack = [root]
    pos = 0
    for match in _TAG_RE.finditer(source):
        _text(stack[-1], source, pos, match.start())
        pos = match.end()
        closing, name, attr_text, self_closing = match.groups()
        name = name.lower()
        if name not in _INLINE and name not in _BLOCK:
            raise _rich_error("RICH_MESSAGE_INVALID", f'Unsupported tag "{name}"')
        if closing:
            if len(stack) == 1 or stack[-1].tag != name:
                raise _rich_error("RICH_MESSAGE_INVALID", f'Unmatched end tag "{name}"')
            stack.pop()
            continue
        attrs = {
            key.lower(): _decode_text(value, 1, len(value) - 1)
            if value[:1] in "\"'"
            else _decode_text(value, 0, len(value))
            for key, value in ((m.group(1), m.group(2) or "") for m in _ATTR_RE.finditer(attr_text))
        }
        node = Node(name, attrs)
        stack[-1].children.append(node)
        if not self_closing and name not in _VOID:
            stack.append(node)
    _text(stack[-1], source, pos, len(source))
    if len(stack) > 1:
        raise _rich_error("RICH_MESSAGE_INVALID", f'Unclosed tag "{stack[-1].tag}"')
    return root


def _text(node: Node, source: str, start: int, end: int) -> None:
    if start >= end:
        return
    if "<" in source[start:end]:
        raise _rich_error("RICH_MESSAGE_INVALID", "Unescaped '<' or malformed tag")
    try:
        node.children.append(_decode_text(source, start, end))
    except EntityParseError as exc:
        raise _rich_error("RICH_MESSAGE_INVALID", str(exc)) from None


class _Walker:
    def __init__(self, content: RichContent, known_photo: Callable[[str], bool]) -> None:
        self.content = content
        self.known_photo = known_photo
        self.blocks = 0
        self.media = 0

    def check(self, node: Node, parent: str | None, depth: int, inline_only: bool) -> None:
        if depth > MAX_DEPTH:
            raise _rich_error("RICH_MESSAGE_DEPTH_INVALID", f"nested deeper than {MAX_DEPTH}")
        tag = node.tag
        if tag is not None:
            self._check_tag(node, parent, inline_only)
        if tag in ("tg-math", "tg-math-block"):
            if any(isinstance(c, Node) for c in node.children):
                raise _rich_error("RICH_MESSAGE_INVALID", f"<{tag}> holds raw LaTeX, not tags")
            self.content.math.append("".join(str(c) for c in node.children))
        cells_inline = inline_only or tag in ("td", "th") or tag in _INLINE
        for child in node.children:
            if isinstance(child, Node):
                self.check(child, tag, depth + 1, cells_inline)

    def _check_tag(self, node: Node, parent: str | None, inline_only: bool) -> None:
        tag = node.tag
        assert tag is not None
        if inline_only and tag in _BLOCK:
            raise _rich_error("RICH_MESSAGE_INVALID", f"<{tag}> inside text or a table cell")
        needed = _REQUIRED_ATTRS.get(tag)
        if needed is not None and not node.attrs.get(needed):
            raise _rich_error("RICH_MESSAGE_INVALID", f'<{tag}> needs attribute "{needed}"')
        if tag == "a" and not (node.attrs.get("href") or node.attrs.get("name")):
            raise _rich_error("RICH_MESSAGE_INVALID", '<a> needs "href" or "name"')
        href = node.attrs.get("href")
        if tag == "a" and href is not None and not _LINK_RE.fullmatch(href):
            raise _rich_error("RICH_MESSAGE_URL_INVALID", f"link {href!r}")
        if tag == "span" and node.attrs.get("class") != "tg-spoiler":
            raise _rich_error("RICH_MESSAGE_INVALID", '<span> needs class="tg-spoiler"')
        if tag in ("tr",) and parent != "table":
            raise _rich_error("RICH_MESSAGE_INVALID", "<tr> outside <table>")
        if tag in ("td", "th") and parent != "tr":
            raise _rich_error("RICH_MESSAGE_INVALID", f"<{tag}> outside <tr>")
        if tag == "li" and parent not in ("ul", "ol"):
            raise _rich_error("RICH_MESSAGE_INVALID", "<li> outside a list")
        if tag in _COUNTED:
            self.blocks += 1
            if self.blocks > MAX_BLOCKS:
                raise _rich_error("RICH_MESSAGE_BLOCKS_TOO_MANY", f"over {MAX_BLOCKS} blocks")
        if tag == "table":
            self._check_table(node)
        if tag in _MEDIA:
            self._check_media(node, parent)

    def _check_table(self, node: Node) -> None:
        for row in node.children:
            if isinstance(row, str):
                if row.strip():
                    raise _rich_error("RICH_MESSAGE_INVALID", "text directly inside <table>")
                continue
            if row.tag not in ("tr", "caption"):
                raise _rich_error("RICH_MESSAGE_INVALID", f"<{row.tag}> directly inside <table>")
            width = sum(int(c.attrs.get("colspan", "1") or 1) for c in _cells(row))
            if width > MAX_COLUMNS:
                raise _rich_error("RICH_MESSAGE_TABLE_INVALID", f"{width} columns")

    def _check_media(self, node: Node, parent: str | None) -> None:
        if parent not in _MEDIA_PARENTS:
            raise _rich_error("RICH_MESSAGE_INVALID", f"<{node.tag}> inside <{parent}>")
        self.media += 1
        if self.media > MAX_MEDIA:
            raise _rich_error("RICH_MESSAGE_MEDIA_TOO_MANY", f"over {MAX_MEDIA} media")
        src = node.attrs.get("src", "")
        by_id = _FILE_LINK_RE.fullmatch(src)
        if by_id is not None:
            # a file already on Telegram, by its id (Telegram's page: tg://photo, tg://video,
            # tg://document or tg://audio links); the fake keeps photos only, on <img>
            kind, file_id = by_id.groups()
            if kind != "photo" or node.tag != "img" or not self.known_photo(file_id):
                raise bad_request("wrong file identifier/HTTP URL specified")
        elif not re.fullmatch(r"https?://\S+", src):
            raise _rich_error("RICH_MESSAGE_URL_INVALID", f"media src {src!r}")
        if node.tag == "img":
            self.content.photos.append(src)


def _cells(row: Node) -> list[Node]:
    return [c for c in row.children if isinstance(c, Node) and c.tag in ("td", "th")]


def _plain(node: Node | str) -> str:
    """Visible text: inline runs joined as they are, blocks on lines of their own."""
    if isinstance(node, str):
        return node
    if node.tag == "br":
        return "\n"
    if node.tag == "tr":
        return "\t".join(_plain(c) for c in _cells(node))
    if node.tag is not None and node.tag not in _BLOCK:
        return "".join(_plain(c) for c in node.children)
    lines: list[str] = []
    run: list[str] = []
    for child in node.children:
        if isinstance(child, Node) and child.tag in _BLOCK:
            lines += ["".join(run), _plain(child)]
            run = []
        else:
            run.append(_plain(child))
    lines.append("".join(run))
    return "\n".join(p for p in (_strip(x) for x in lines) if p)


def _strip(text: str) -> str:
    return text.strip("\n")


def _block(node: Node | str, content: RichContent) -> JSON | None:
    """One top-level element as a RichBlock (text kept plain: a fake, not a renderer)."""
    if isinstance(node, str):
        return {"type": "paragraph", "text": node} if node.strip() else None
    tag = node.tag
    assert tag is not None
    if tag in _HEADINGS:
        return {"type": "heading", "text": _plain(node), "size": _HEADINGS[tag]}
    if tag == "tg-math-block":
        return {"type": "mathematical_expression", "expression": _plain(node)}
    if tag == "hr":
        return {"type": "divider"}
    if tag == "table":
        rows = [r for r in node.children if isinstance(r, Node) and r.tag == "tr"]
        cells = [[_cell(c) for c in _cells(r)] for r in rows]
        content.tables.append([[str(c.get("text", "")) for c in row] for row in cells])
        return {"type": "table", "cells": cells}
    if tag in ("img", "figure"):
        img = node if tag == "img" else _find(node, "img")
        if img is not None:
            src = img.attrs["src"]
            block: JSON = {"type": "photo", "photo": [_photo_size(src)]}
            caption = _find(node, "figcaption")
            if caption is not None:
                block["caption"] = {"text": _plain(caption)}
            return block
    kinds = {"p": "paragraph", "pre": "pre", "ul": "list", "ol": "list", "footer": "footer"}
    return {"type": kinds.get(tag, tag.replace("tg-", "")), "text": _plain(node)}


def _cell(node: Node) -> JSON:
    cell: JSON = {"text": _plain(node), "align": node.attrs.get("align", "left")}
    cell["valign"] = node.attrs.get("valign", "top")
    if node.tag == "th":
        cell["is_header"] = True
    return cell


def _find(node: Node, tag: str) -> Node | None:
    for child in node.children:
        if isinstance(child, Node):
            if child.tag == tag:
                return child
            found = _find(child, tag)
            if found is not None:
                return found
    return None


def _photo_size(src: str) -> JSON:
    file_id = src[len("tg://photo?id=") :] if src.startswith("tg://photo?id=") else src
    return {"file_id": file_id, "file_unique_id": file_id[-16:], "width": 1280, "height": 720}


def _from_html(content: RichContent, known_photo: Callable[[str], bool]) -> None:
    root = _parse_tree(content.markup)
    _Walker(content, known_photo).check(root, None, 0, False)
    content.plain = _plain(root)
    content.blocks = [b for b in (_block(c, content) for c in root.children) if b is not None]


_MD_MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$\n]+)\$", re.DOTALL)


def _from_markdown(content: RichContent) -> None:
    """Markdown is stored, not rendered: paragraphs, pipe tables and $…$ / $$…$$ math."""
    text = content.markup
    content.math = [a or b for a, b in _MD_MATH.findall(text)]
    content.plain = text
    for chunk in re.split(r"\n\s*\n", text):
        lines = [ln.strip() for ln in chunk.strip().splitlines()]
        if lines and all(ln.startswith("|") for ln in lines):
            rows = [
                [c.strip() for c in ln.strip("|").split("|")]
                for ln in lines
                if not re.fullmatch(r"\|[\s:|-]+\|?", ln)
            ]
            content.tables.append(rows)
            cells = [[{"text": c, "align": "left", "valign": "top"} for c in r] for r in rows]
            content.blocks.append({"type": "table", "cells": cells})
        elif chunk.strip():
            content.blocks.append({"type": "paragraph", "text": chunk.strip()})


def _media_ids(value: JSON, known_photo: Callable[[str], bool]) -> dict[str, str]:
    """``media``'s ids, each to the file_id or URL of its photo (other kinds: refused)."""
    media = value.get("media") or []
    found: dict[str, str] = {}
    for item in media:
        ident, inner = item.get("id"), item.get("media")
        if not isinstance(ident, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", ident):
            raise _rich_error("RICH_MESSAGE_MEDIA_INVALID", f"media id {ident!r}")
        if ident in found:
            raise _rich_error("RICH_MESSAGE_MEDIA_INVALID", f"media id {ident!r} twice")
        source = inner.get("media") if isinstance(inner, dict) else None
        if not isinstance(inner, dict) or inner.get("type") != "photo":
            raise bad_request("can't parse InputRichMessageMedia: the fake holds photos only")
        if not isinstance(source, str) or not (
            known_photo(source) or re.fullmatch(r"https?://\S+", source)
        ):
            raise bad_request("wrong file identifier/HTTP URL specified")
        found[ident] = source
    return found


def _block_texts(value: Any, content: RichContent) -> list[str]:
    """The visible strings of explicit ``blocks`` (their ``text`` and formulas), in order."""
    if isinstance(value, list):
        return [t for item in value for t in _block_texts(item, content)]
    if not isinstance(value, dict):
        return []
    texts: list[str] = []
    for key, inner in value.items():
        if key == "expression" and isinstance(inner, str):
            content.math.append(inner)
            texts.append(inner)
        elif key == "text" and isinstance(inner, str):
            texts.append(inner)
        elif isinstance(inner, dict | list):
            texts.extend(_block_texts(inner, content))
    return texts


def parse_input_rich_message(value: Any, known_photo: Callable[[str], bool]) -> RichContent:
    """Validate an ``InputRichMessage`` (already shape-checked against the spec) and parse it."""
    if not isinstance(value, dict):
        raise bad_request("can't parse InputRichMessage JSON object")
    given = [k for k in ("html", "markdown", "blocks") if value.get(k) is not None]
    if len(given) > 1:
        raise _rich_error("RICH_MESSAGE_INVALID", f"{' and '.join(given)} given together")
    media = _media_ids(value, known_photo)
    if given == ["blocks"]:
        return _from_blocks(value)
    html, markdown = value.get("html"), value.get("markdown")
    markup = html if html is not None else markdown
    if not isinstance(markup, str) or not markup.strip():
        raise _rich_error("RICH_MESSAGE_EMPTY", "no html, markdown or blocks content")
    content = RichContent(
        source="html" if html is not None else "markdown",
        markup=markup,
        is_rtl=value.get("is_rtl") in (True, "true"),
        skip_entity_detection=value.get("skip_entity_detection") in (True, "true"),
    )
    if html is not None:
        _from_html(content, lambda ident: ident in media or known_photo(ident))
        content.photos = [_named_photo(src, media) for src in content.photos]
    else:
        _from_markdown(content)
    if not content.plain.strip() and not content.photos:
        raise _rich_error("RICH_MESSAGE_EMPTY", "nothing visible")
    if len(content.plain) > MAX_CHARS:
        raise _rich_error("RICH_MESSAGE_TOO_LONG", f"over {MAX_CHARS} characters")
    return content


def _named_photo(src: str, media: dict[str, str]) -> str:
    """A ``tg://photo?id=`` link naming a ``media`` entry, as the link of that entry's file."""
    by_id = _FILE_LINK_RE.fullmatch(src)
    if by_id is None or by_id.group(2) not in media:
        return src
    target = media[by_id.group(2)]
    return target if target.startswith(("http://", "https://")) else f"tg://photo?id={target}"


def _from_blocks(value: JSON) -> RichContent:
    """A rich message given as explicit blocks (shape-checked by the spec already)."""
    blocks = value["blocks"]
    if not isinstance(blocks, list) or not blocks:
        raise _rich_error("RICH_MESSAGE_EMPTY", "no blocks")
    if len(blocks) > MAX_BLOCKS:
        raise _rich_error("RICH_MESSAGE_BLOCKS_TOO_MANY", f"over {MAX_BLOCKS} blocks")
    content = RichContent(
        source="blocks",
        markup="",
        is_rtl=value.get("is_rtl") in (True, "true"),
        skip_entity_detection=value.get("skip_entity_detection") in (True, "true"),
    )
    content.plain = "\n".join(_block_texts(blocks, content))
    content.blocks = list(blocks)
    if not content.plain.strip():
        raise _rich_error("RICH_MESSAGE_EMPTY", "nothing visible")
    if len(content.plain) > MAX_CHARS:
        raise _rich_error("RICH_MESSAGE_TOO_LONG", f"over {MAX_CHARS} characters")
    return content
