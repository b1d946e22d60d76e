"""HTML from other tools as plain text Telegram can show: entities decoded, tags dropped,
line breaks kept, images counted (they cannot be shown and are dropped).

A hand-written scanner, not ``html.parser``: that one is quadratic on malformed markup
(``<a‹a…`` fifty thousand times took 8-12 s of CPU) and raises AssertionError on ``<![``.
Here every character is looked at a bounded number of times: each search for the end of a tag,
comment or section starts where the previous one stopped, and an unterminated one ends the
scan (its text kept as text, as a browser shows it).
"""

from __future__ import annotations

import re
from html import unescape

from bot.banks.importers.model import clean, from_markdown
from bot.core.images import media_name

_BREAKS = frozenset(
    {
        "br",
        "p",
        "div",
        "li",
        "tr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "ul",
        "ol",
        "table",
        "blockquote",
        "pre",
        "hr",
    }
)
_MEDIA = frozenset({"img", "video", "audio", "object", "embed", "iframe"})
_HIDDEN_END = {
    "script": re.compile("</script", re.IGNORECASE),
    "style": re.compile("</style", re.IGNORECASE),
}
_NAME_END = frozenset(" \t\n\r\f/>")


class _Text:
    """The scanner's state: the text so far and the images seen."""

    def __init__(self, markup: str) -> None:
        self.markup = markup
        self.parts: list[str] = []
        self.images = 0

    def run(self) -> None:
        markup, i, n = self.markup, 0, len(self.markup)
        while i < n:
            lt = markup.find("<", i)
            if lt < 0:
                self.parts.append(unescape(markup[i:]))
                return
            if lt > i:
                self.parts.append(unescape(markup[i:lt]))
            i = self._markup_at(lt)

    def _markup_at(self, lt: int) -> int:
        """Read what starts with the ``<`` at ``lt``; return where the text goes on."""
        markup, n = self.markup, len(self.markup)
        nxt = markup[lt + 1 : lt + 2]
        if nxt.isascii() and nxt.isalpha():
            return self._start_tag(lt)
        if nxt == "/" and markup[lt + 2 : lt + 3].isascii() and markup[lt + 2 : lt + 3].isalpha():
            gt = markup.find(">", lt)
            if gt < 0:
                return self._rest_as_text(lt)
            name = self._name(lt + 2, gt)
            if name in _BREAKS and name != "br":
                self.parts.append("\n")
            return gt + 1
        if markup.startswith("<!--", lt):
            end = markup.find("-->", lt + 4)
            return n if end < 0 else end + 3
        if markup.startswith("<![CDATA[", lt):
            end = markup.find("]]>", lt + 9)
            self.parts.append(markup[lt + 9 : n if end < 0 else end])
            return n if end < 0 else end + 3
        if nxt in ("!", "?"):  # a declaration or processing instruction: dropped
            gt = markup.find(">", lt)
            return self._rest_as_text(lt) if gt < 0 else gt + 1
        self.parts.append("<")
        return lt + 1

    def _name(self, start: int, stop: int) -> str:
        end = start
        while end < stop and self.markup[end] not in _NAME_END:
            end += 1
        return self.markup[start:end].lower()

    def _start_tag(self, lt: int) -> int:
        markup, n = self.markup, len(self.markup)
        i = lt + 1
        while i < n and markup[i] not in _NAME_END:
            i += 1
        name = markup[lt + 1 : i].lower()
        # the tag's end: the first '>' not inside a quoted attribute value
        while i < n and markup[i] != ">":
            if markup[i] in "\"'":
                close = markup.find(markup[i], i + 1)
                if close < 0:
                    return self._rest_as_text(lt)
                i = close
            i += 1
        if i >= n:
            return self._rest_as_text(lt)
        hidden = _HIDDEN_END.get(name)
        if hidden is not None:
            found = hidden.search(markup, i + 1)
            if found is None:
                return n
            gt = markup.find(">", found.end())
            return n if gt < 0 else gt + 1
        if name in _MEDIA:
            self.images += 1
        elif name == "li":
            self.parts.append("\n• ")
        elif name in _BREAKS:
            self.parts.append("\n")
        return i + 1

    def _rest_as_text(self, lt: int) -> int:
        """An unterminated tag: it and everything after it are text."""
        self.parts.append(unescape(self.markup[lt:]))
        return len(self.markup)


def html_to_text(markup: str) -> tuple[str, int]:
    """(plain text, number of images dropped)."""
    scanner = _Text(markup)
    scanner.run()
    text = "".join(scanner.parts).replace("\xa0", " ")
    return clean(text), scanner.images


_ATTR = re.compile(
    r"""\b(src|href|data)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE
)
_SOUND = frozenset({"audio", "video", "source", "embed", "object", "iframe"})


def media_in(markup: str) -> tuple[list[str], list[str]]:
    """The pictures (``<img src>``) and the sound or video (``<audio>``, ``<video>``, a link
    to an mp3...) that HTML names, in order; one linear pass (each tag's attributes are read
    within the tag only)."""
    images: list[str] = []
    media: list[str] = []
    i, n = 0, len(markup)
    while i < n:
        lt = markup.find("<", i)
        if lt < 0:
            break
        gt = markup.find(">", lt)
        if gt < 0:
            break
        tag = markup[lt + 1 : gt]
        end = 0
        while end < len(tag) and tag[end] not in _NAME_END:
            end += 1
        name = tag[:end].lower()
        if name == "img" or name in _SOUND or name == "a":
            links = {
                m.group(1).lower(): m.group(2) or m.group(3) or m.group(4) or ""
                for m in _ATTR.finditer(tag, end)
            }
            link = unescape(links.get("src") or links.get("data") or links.get("href") or "")
            if name == "img" and link:
                images.append(link)
            elif name in _SOUND and (link or name not in ("audio", "video")):
                media.append(link or f"<{name}>")  # an <audio>'s <source> names its file
            elif name == "a" and media_name(link):
                media.append(link)
        i = gt + 1
    return images, media


def carries_media(markup: str) -> bool:
    """Whether a text names a picture, sound or video in HTML (Moodle's own format, "moodle
    auto format", is HTML: such a text is read as HTML, any other as written)."""
    return "<" in markup and media_in(markup) != ([], [])


#: ``![alt](x.png "title")``; the alt stops at any bracket and the link at the first ``)`` or
#: line end, so that every character is read a bounded number of times (an unclosed one is
#: left as written)
_MD_PICTURE = re.compile(r"!\[([^\[\]\n]{0,200})\]\(([^)\n]*)(\)?)")


def markdown_as_html(text: str) -> str:
    """Markdown's pictures (``![alt](x.png)``) as the ``<img>`` tags Moodle's Markdown makes of
    them, the rest as written."""

    def tag(found: re.Match[str]) -> str:
        written = found.group(2).strip()
        if written.startswith("<"):  # <a link with spaces.png>
            link = written[1:].partition(">")[0].strip()
        else:
            link = written.split(maxsplit=1)[0] if written else ""
        quote = next((q for q in "\"'" if q not in link), None)
        if not found.group(3) or not link or quote is None:
            return found.group(0)
        return f"<img src={quote}{link}{quote}>"

    return _MD_PICTURE.sub(tag, text)


def markdown_to_text(text: str) -> str:
    """A Markdown text as plain text: its pictures dropped (named by the caller), HTML in it
    read as HTML, ``**yes**`` -> yes."""
    html = markdown_as_html(text)
    return from_markdown(html_to_text(html)[0] if carries_media(html) else html)
