"""A message as a rich message (Bot API 10.1): the same Telegram HTML in rich HTML's form, with
its formulas rendered by Telegram.

A question that holds math (bot/core/mathtext.py) is posted, counted, revealed and recapped as a
rich message: ``rich_html`` turns the HTML every other message is written in into rich HTML.
Paragraphs (a blank line) become ``<p>``, a line break ``<br>`` (a rich message folds a bare
line break into a space), an inline formula ``<tg-math>`` and a formula that is a paragraph of
its own ``<tg-math-block>``. The text was escaped when the message was rendered, so the LaTeX
inside the new tags is escaped LaTeX, as Telegram reads it; a formula is looked for only
inside one run of text, never across a tag.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.mathtext import spans
from bot.i18n.markup import Safe


@dataclass(frozen=True, slots=True)
class _Piece:
    kind: str  # "tag", "text", "math", "block-math", "paragraph", "line"
    value: str = ""


def rich_html(text: Safe) -> Safe:
    """``text`` (Telegram HTML) as a rich message's HTML."""
    paragraphs: list[list[_Piece]] = [[]]
    depth = 0
    for piece in _pieces(str(text)):
        if piece.kind == "tag":
            depth += -1 if piece.value.startswith("</") else 1
        if piece.kind == "paragraph" and depth == 0:
            paragraphs.append([])
        elif piece.kind == "paragraph":  # inside a tag: the break is kept as two lines
            paragraphs[-1] += [_Piece("line"), _Piece("line")]
        else:
            paragraphs[-1].append(piece)
    return Safe("".join(_paragraph(p) for p in paragraphs))


def _paragraph(pieces: list[_Piece]) -> str:
    shown = [p for p in pieces if not (p.kind in ("text", "line") and not p.value.strip())]
    if not shown:
        return ""
    if len(shown) == 1 and shown[0].kind == "block-math":
        return f"<tg-math-block>{shown[0].value}</tg-math-block>"
    while pieces and pieces[0].kind == "line":
        pieces = pieces[1:]
    while pieces and pieces[-1].kind == "line":
        pieces = pieces[:-1]
    return "<p>" + "".join(_inline(p) for p in pieces) + "</p>"


def _inline(piece: _Piece) -> str:
    if piece.kind in ("math", "block-math"):
        return f"<tg-math>{piece.value}</tg-math>"
    if piece.kind == "line":
        return "<br>"
    return piece.value


def _pieces(html: str) -> list[_Piece]:
    """The HTML cut into tags, text, formulas and line breaks (one linear pass)."""
    pieces: list[_Piece] = []
    i = 0
    while i < len(html):
        start = html.find("<", i)
        end = html.find(">", start) if start >= 0 else -1
        if start < 0 or end < 0:
            pieces += _run(html[i:])
            break
        pieces += _run(html[i:start])
        pieces.append(_Piece("tag", html[start : end + 1]))
        i = end + 1
    return pieces


def _run(text: str) -> list[_Piece]:
    """One run of text between tags: its formulas, and its breaks outside them."""
    pieces: list[_Piece] = []
    i = 0
    for span in spans(text):
        pieces += _lines(text[i : span.start])
        if span.latex.strip():
            kind = "block-math" if span.display else "math"
            pieces.append(_Piece(kind, span.latex.strip()))
        i = span.end
    return pieces + _lines(text[i:])


def _lines(text: str) -> list[_Piece]:
    pieces: list[_Piece] = []
    for n, paragraph in enumerate(text.split("\n\n")):
        if n:
            pieces.append(_Piece("paragraph"))
        for m, line in enumerate(paragraph.split("\n")):
            if m:
                pieces.append(_Piece("line"))
            if line:
                pieces.append(_Piece("text", line))
    return pieces
