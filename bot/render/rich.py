"""A message as a rich message (Bot API 10.1): the same Telegram HTML in rich HTML's form, with
its formulas rendered by Telegram.

A question that holds math (bot/core/mathtext.py) is posted, counted, revealed and recapped as a
rich message: ``rich_html`` turns the HTML every other message is written in into rich HTML.
Paragraphs (a blank line) become ``<p>``, a line break ``<br>`` (a rich message folds a bare
line break into a space), an inline formula ``<tg-math>`` and a formula that is a paragraph of
its own ``<tg-math-block>``. The text was escaped when the message was rendered, so the LaTeX
inside the new tags is escaped LaTeX, as Telegram reads it; a formula is looked for only
inside one line of one run of text, never across a tag or a line break: an option is a line of
its own, so a formula opened in one option and closed in the next is two texts, never one
formula hiding the next option's label.

Telegram refuses a rich message of more than ``MAX_BLOCKS`` blocks (``<p>``, a formula block),
32,768 characters (formula sources included) or 16 levels of nesting (Bot API, "Rich message
limits"). Our messages keep to the text message's 4,096 characters and nest at most two tags;
a message of more paragraphs than the blocks allowed (a question of a thousand short
paragraphs) keeps them as blank lines inside fewer paragraphs, so it is still shown whole.

A rich message Telegram refuses all the same goes as a text message (``plain_fallback``): the
formulas as written, and a note saying so in the chat's language, the note kept whole within a
text message's limit (the body is cut, its longest lines first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

from bot.core.bank import utf16_len
from bot.core.limits import trim_utf16
from bot.core.mathtext import spans
from bot.i18n import t
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, escape
from bot.render.text import MESSAGE_LIMIT, shown_length

MAX_BLOCKS = 500  # Telegram: blocks in one rich message
_BLOCKS_USED = 400  # ours: well within, for what Telegram may count beside our paragraphs


#: a tag or a line break: what a text message is cut between
_BREAK = re.compile(r"(</?[a-z][^>]*>|\n)")


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
    return Safe("".join(_paragraph(p) for p in _within_blocks(paragraphs)))


def plain_fallback(text: Safe, lang: Lang) -> Safe:
    """``text`` (Telegram HTML) as the text message a refused rich message is sent as instead:
    its formulas as written, then a note in ``lang`` saying so; the body cut, never the note,
    so the whole stays within a text message's limit."""
    note = Safe(f"<i>{t(lang, 'rich_shown_plain')}</i>")
    body = _cut(text, MESSAGE_LIMIT - shown_length(note) - 2)
    return Safe(f"{body}\n\n{note}")


def _cut(text: Safe, units: int) -> Safe:
    """``text`` shown in at most ``units`` UTF-16 units: its longest line of text cut (with an
    ellipsis) until it fits, its tags and the other lines kept (a question's options too)."""
    parts = _BREAK.split(str(text))  # text at even places, tags and line breaks at odd ones
    while (excess := shown_length(Safe("".join(parts))) - units) > 0:
        longest = max(range(0, len(parts), 2), key=lambda n: len(parts[n]))
        if not parts[longest]:
            break  # only tags and line breaks left: nothing more to cut
        shown = unescape(parts[longest])
        keep = utf16_len(shown) - excess
        parts[longest] = escape(trim_utf16(shown, keep)) if keep > 1 else ""
    return Safe("".join(parts))


def _within_blocks(paragraphs: list[list[_Piece]]) -> list[list[_Piece]]:
    """The paragraphs, as they are if they are few enough blocks, else packed into at most
    ``_BLOCKS_USED`` paragraphs, each holding several as lines with a blank line between (a
    formula block among them becomes an inline formula)."""
    shown = [p for p in paragraphs if _paragraph(p)]
    if len(shown) <= _BLOCKS_USED:
        return paragraphs
    size = -(-len(shown) // _BLOCKS_USED)  # paragraphs per packed one, rounded up
    packed: list[list[_Piece]] = []
    for start in range(0, len(shown), size):
        merged: list[_Piece] = []
        for n, paragraph in enumerate(shown[start : start + size]):
            if n:
                merged += [_Piece("line"), _Piece("line")]
            merged += [_Piece("math", p.value) if p.kind == "block-math" else p for p in paragraph]
        packed.append(merged)
    return packed


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
    """One run of text between tags: its paragraphs, lines and, inside each line, its
    formulas."""
    pieces: list[_Piece] = []
    for n, paragraph in enumerate(text.split("\n\n")):
        if n:
            pieces.append(_Piece("paragraph"))
        for m, line in enumerate(paragraph.split("\n")):
            if m:
                pieces.append(_Piece("line"))
            pieces += _formulas(line)
    return pieces


def _formulas(line: str) -> list[_Piece]:
    """One line: its text and its formulas."""
    pieces: list[_Piece] = []
    i = 0
    for span in spans(line):
        if span.start > i:
            pieces.append(_Piece("text", line[i : span.start]))
        if span.latex.strip():
            kind = "block-math" if span.display else "math"
            pieces.append(_Piece(kind, span.latex.strip()))
        i = span.end
    if i < len(line):
        pieces.append(_Piece("text", line[i:]))
    return pieces
