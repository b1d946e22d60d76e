"""HTML from other tools as plain text Telegram can show: entities decoded, tags dropped,
line breaks kept, images counted (they cannot be shown and are dropped)."""

from __future__ import annotations

from html.parser import HTMLParser

from bot.banks.importers.model import clean

_BREAKS = {
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
_SKIP = {"script", "style"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.images = 0
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._hidden += 1
        elif tag in ("img", "video", "audio", "object", "embed", "iframe"):
            self.images += 1
        elif tag == "li":
            self.parts.append("\n• ")
        elif tag in _BREAKS:
            self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BREAKS and tag != "br":
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def html_to_text(markup: str) -> tuple[str, int]:
    """(plain text, number of images dropped)."""
    parser = _Text()
    parser.feed(markup)
    parser.close()
    text = "".join(parser.parts).replace("\xa0", " ")
    return clean(text), parser.images
