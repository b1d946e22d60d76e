"""Math in bank texts (pure): LaTeX between ``\\( \\)``, ``\\[ \\]`` or ``$$ $$``.

A bank keeps its formulas as LaTeX inside those markers (the importers turn Moodle's ``$ $``
into ``\\( \\)`` and drop empty markers). Where Telegram renders math (a rich message,
bot/render/rich.py) the formula goes as LaTeX; everywhere else (alerts, ``quizbot play``, CSV
exports, plain HTML messages) ``readable`` gives a Unicode form through ``pylatexenc``:
``\\(- 3 x^{2} - 3 x - 2=0\\)`` reads ``−3x² − 3x − 2 = 0``, never raw TeX.

Every scan here is linear in the text: a marker without its closing one is text, and once a
closing marker is missing no later opening one of its kind is looked for again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.latexwalker import LatexMacroNode

from bot.core.bank import Question, Text

#: (opening, closing, display): the markers a bank writes math between
_MARKERS = ((r"\(", r"\)", False), (r"\[", r"\]", True), ("$$", "$$", True))
_SUP = dict(zip("0123456789+-=()niaehkx", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵃᵉʰᵏˣ", strict=True))
_SUB = dict(zip("0123456789+-=()aeoxhklmnpst", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜ", strict=True))
_BINARY = set("+−=≠≤≥<>±×·÷→⇒≈≡∈")
_RELATIONS = set("=≠≤≥<>→⇒≈≡∈")  # never a sign: spaced even at the start of a formula
_OPENING = set("([{,;")
_TEXT_MACROS = (r"\text{", r"\mathrm{", r"\textrm{", r"\mbox{")
_NBSP = "\u00a0"
_MAX_MATH = 2000  # longer "formulas" are shown as they are, never parsed


@dataclass(frozen=True, slots=True)
class Span:
    """One formula: where it is in its text (markers included) and its LaTeX."""

    start: int
    end: int
    latex: str
    display: bool


def spans(text: str) -> list[Span]:
    """Every formula of ``text``, in order (an empty one too: ``tidy`` drops it)."""
    found: list[Span] = []
    exhausted: set[str] = set()
    i = 0
    while True:
        starts = [
            (text.find(opening, i), opening, closing, display)
            for opening, closing, display in _MARKERS
            if opening not in exhausted
        ]
        starts = [s for s in starts if s[0] >= 0]
        if not starts:
            return found
        start, opening, closing, display = min(starts)
        end = text.find(closing, start + len(opening))
        if end < 0:
            exhausted.add(opening)
            i = start + len(opening)
            continue
        found.append(Span(start, end + len(closing), text[start + len(opening) : end], display))
        i = end + len(closing)


def has_math(text: str) -> bool:
    """Whether ``text`` holds a formula."""
    return any(s.latex.strip() for s in spans(text))


@lru_cache(maxsize=1024)
def question_has_math(question: Question) -> bool:
    """Whether any text of ``question`` (in either language) holds a formula: then every
    message about it is a rich message (cached: asked at each send and edit)."""
    return any(has_math(part) for part in _texts(question))


def _texts(question: Question) -> Iterable[str]:
    texts: list[Text | None] = [question.text, question.explanation, question.note]
    for option in question.options:
        texts += [option, option.feedback]
    for text in texts:
        if text is not None:
            yield text.bn
            yield text.en


def tidy(text: str, *, dollars: bool = False) -> str:
    """``text`` as a bank keeps it: empty formula markers dropped, and with ``dollars`` (an
    import from Moodle) ``$x$`` written ``\\(x\\)``."""
    if dollars:
        text = _dollars(text)
    empty = [span for span in spans(text) if not span.latex.strip()]
    if not empty:
        return text
    out: list[str] = []
    i = 0
    for span in empty:
        out.append(text[i : span.start].rstrip(" ") + (" " if span.start else ""))
        i = span.end
        while i < len(text) and text[i] == " ":
            i += 1
    out.append(text[i:])
    return "".join(out).strip(" ")


def _dollars(text: str) -> str:
    """Moodle's inline ``$x$`` as ``\\(x\\)`` (pandoc's rule, so "$5 or $10" stays money: the
    opening ``$`` is followed by a non-space, the closing one follows a non-space and is not
    followed by a digit); ``$$`` is left to the display form."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if text.startswith("$$", i):
            end = text.find("$$", i + 2)
            stop = n if end < 0 else end + 2
            out.append(text[i:stop])
            i = stop
            continue
        if ch != "$" or i + 1 >= n or text[i + 1].isspace():
            out.append(ch)
            i += 1
            continue
        end = text.find("$", i + 1)
        if (
            end < 0
            or text[end - 1].isspace()
            or text.startswith("$$", end)
            or (end + 1 < n and text[end + 1].isdigit())
        ):
            out.append(ch)
            i += 1
            continue
        out.append(r"\(" + text[i + 1 : end] + r"\)")
        i = end + 1
    return "".join(out)


@lru_cache(maxsize=4096)
def readable(text: str) -> str:
    """``text`` with each formula in a readable Unicode form (no markers, no TeX); cached, as
    every tap on a question shows the same few texts."""
    found = spans(text)
    if not found:
        return text
    out: list[str] = []
    i = 0
    for span in found:
        out.append(text[i : span.start])
        if span.latex.strip():
            out.append(latex_to_unicode(span.latex))
        i = span.end
    out.append(text[i:])
    return "".join(out)


def latex_to_unicode(latex: str) -> str:
    """One formula as Unicode: ``- 3 x^{2} - 3 x - 2=0`` -> ``−3x² − 3x − 2 = 0``."""
    if len(latex) > _MAX_MATH:
        return latex.strip()
    source = _scripts(_keep_text_spaces(latex))
    try:
        converted = _converter().latex_to_text(source)
    except Exception:  # pylatexenc is tolerant; anything it still refuses is shown as written
        converted = source
    return _spaced(converted)


def _keep_text_spaces(latex: str) -> str:
    """Spaces inside ``\\text{...}`` kept (the others are LaTeX's and are dropped)."""
    out: list[str] = []
    i = 0
    while True:
        starts = [(latex.find(m, i), m) for m in _TEXT_MACROS]
        starts = [s for s in starts if s[0] >= 0]
        if not starts:
            out.append(latex[i:])
            return "".join(out)
        start, macro = min(starts)
        end = latex.find("}", start + len(macro))
        if end < 0:
            out.append(latex[i:])
            return "".join(out)
        body = latex[start + len(macro) : end].replace(" ", _NBSP)
        out.append(latex[i:start] + "{" + body + "}")
        i = end + 1


def _scripts(latex: str) -> str:
    """``^{2}``, ``^2``, ``_{i}`` as Unicode super- and subscripts where every character has
    one (else left to the converter, which writes ``^…``)."""
    out: list[str] = []
    i = 0
    n = len(latex)
    while i < n:
        ch = latex[i]
        if ch not in "^_" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        table = _SUP if ch == "^" else _SUB
        if latex[i + 1] == "{":
            end = latex.find("}", i + 2)
            body = latex[i + 2 : end] if end >= 0 else ""
            stop = end + 1
        else:
            body, stop = latex[i + 1], i + 2
        compact = body.replace(" ", "")
        if compact and all(c in table for c in compact) and "{" not in body:
            out.append("".join(table[c] for c in compact))
            i = stop
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _spaced(text: str) -> str:
    """LaTeX's own spacing dropped, one space around each binary operator, a true minus."""
    chars = [c for c in text.replace("-", "−") if not c.isspace() or c == _NBSP]
    out: list[str] = []
    for c in chars:
        previous = next((p for p in reversed(out) if p != " "), "")
        if c in _RELATIONS or (
            c in _BINARY and previous and previous not in _BINARY and previous not in _OPENING
        ):
            out += [" ", c, " "]
        else:
            out.append(c)
    return "".join(out).replace(_NBSP, " ").replace("  ", " ").strip()


_CONVERTER: list[LatexNodes2Text] = []


def _converter() -> LatexNodes2Text:
    """pylatexenc's converter with fractions and roots that keep their grouping."""
    if not _CONVERTER:
        db = get_default_latex_context_db()
        db.add_context_category(
            "quizbot",
            prepend=True,
            macros=[
                MacroTextSpec("frac", simplify_repl=_fraction),
                MacroTextSpec("dfrac", simplify_repl=_fraction),
                MacroTextSpec("tfrac", simplify_repl=_fraction),
                MacroTextSpec("sqrt", simplify_repl=_root),
            ],
        )
        _CONVERTER.append(LatexNodes2Text(latex_context=db, math_mode="text"))
    return _CONVERTER[0]


def _arguments(node: LatexMacroNode, l2tobj: LatexNodes2Text) -> list[str]:
    args = node.nodeargd.argnlist if node.nodeargd is not None else []
    return ["" if arg is None else "".join(l2tobj.nodelist_to_text([arg]).split()) for arg in args]


def _grouped(text: str) -> str:
    """``text`` in parentheses unless it is one number or one symbol."""
    return text if len(text) <= 1 or text.isdigit() or text.isalpha() else f"({text})"


def _fraction(node: LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    args = [a for a in _arguments(node, l2tobj) if a] + ["", ""]
    return f"{_grouped(args[0])}/{_grouped(args[1])}"


def _root(node: LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    args = [a for a in _arguments(node, l2tobj) if a]
    if not args:
        return "√"
    radicand = _grouped(args[-1])
    index = {"3": "∛", "4": "∜"}.get(args[0], "") if len(args) > 1 else ""
    return f"{index or '√'}{radicand}"
