"""The message catalog as the bot reads it: gettext ``.po`` files, one domain (``quizbot``), one
file per language (``bot/i18n/locale/<lang>/LC_MESSAGES/quizbot.po``), read once at import.

Each msgid is a key the code names (``t(lang, "quiz_usage")``); its msgctxt is the feature it
belongs to (``quiz``, ``review``, ``cli``...), for translators only: a key is unique across the
contexts, which :func:`load` enforces. An entry with ``msgid_plural`` is a counted noun
(``n_questions``: ``{n} question`` / ``{n} questions``); a template puts one in with
``{count:n_questions}``. Its form for a number comes from the file's ``Plural-Forms``, which
``python -m bot.i18n.check`` holds to the language's CLDR rule as Babel gives it
(``babel.plural.to_gettext(babel.Locale.parse(lang).plural_form)``). An entry filed under msgctxt
``cldr`` is not a template but a CLDR pattern Babel formats with (``date_pattern``: how a
deadline's date is written, ``EEE d MMM, HH:mm``): it is in ``patterns``, not ``texts``.

The files are read by :func:`read_po` below, not by Babel's reader: the bot starts in a fifth of
the time (Babel's reader and locale data cost about 80 ms; this reader about 10 ms), and
``tests/unit/i18n/test_po.py`` checks that both readers find the same entries in every file.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.i18n.lang import DOMAIN as DOMAIN
from bot.i18n.lang import LOCALE_DIR as LOCALE_DIR
from bot.i18n.lang import Lang, languages
from bot.i18n.lang import po_path as po_path

PATTERNS = "cldr"  # the msgctxt of CLDR patterns
_LINE = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)?\s*"(.*)"')
_ESCAPE = re.compile(r"\\(.)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}
_PLURAL_FORMS = re.compile(r"^Plural-Forms:\s*nplurals=\s*\d+;\s*plural=(.*?);?\s*$", re.M)


class CatalogError(ValueError):
    """The .po files cannot serve as the catalog (a key in two message contexts)."""


@dataclass(frozen=True)
class Messages:
    """Every message: ``texts[key][lang]`` a template, ``plurals[key][lang]`` the forms of a
    counted noun (``msgstr[0..]``), ``contexts[key]`` the msgctxt it is filed under,
    ``plural_index[lang](n)`` the index of the form for ``n``, ``patterns[key][lang]`` a CLDR
    pattern (msgctxt ``cldr``)."""

    texts: dict[str, dict[Lang, str]]
    plurals: dict[str, dict[Lang, tuple[str, ...]]]
    contexts: dict[str, str]
    plural_index: dict[Lang, Callable[[int], int]]
    patterns: dict[str, dict[Lang, str]]


@dataclass(frozen=True)
class Entry:
    """One entry of a .po file: its msgctxt, msgid, msgstr (a tuple for a plural entry's
    ``msgstr[i]``) and whether it is marked fuzzy."""

    context: str
    key: str
    string: str | tuple[str, ...]
    fuzzy: bool


def _unescape(text: str) -> str:
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


def read_po(text: str) -> Iterator[Entry]:
    """The entries of a .po file (the header included, obsolete ``#~`` ones left out)."""
    fields: dict[str, str] = {}
    current, fuzzy = "", False
    for raw in [*text.splitlines(), ""]:
        line = raw.strip()
        match = _LINE.fullmatch(line)
        keyword = match.group(1) if match else None
        if current.startswith("msgstr") and (match is None or keyword in ("msgctxt", "msgid")):
            forms = tuple(v for k, v in sorted(fields.items()) if k.startswith("msgstr["))
            string = forms if "msgid_plural" in fields else fields.get("msgstr", "")
            yield Entry(fields.get("msgctxt", ""), fields.get("msgid", ""), string, fuzzy)
            fields, current, fuzzy = {}, "", False
        if line.startswith("#,") and "fuzzy" in line[2:].replace(",", " ").split():
            fuzzy = True
        elif match is not None and keyword is None and current:
            fields[current] += _unescape(match.group(2))
        elif match is not None and keyword is not None:
            current = keyword
            fields[keyword] = _unescape(match.group(2))


def plural_index(header: str) -> Callable[[int], int]:
    """``n`` -> the index of the plural form (``msgstr[i]``) for it, from a .po header's
    ``Plural-Forms`` (English's rule if it has none)."""
    found = _PLURAL_FORMS.search(header)
    return gettext.c2py(found.group(1) if found else "n != 1")


def load(locale_dir: Path = LOCALE_DIR) -> Messages:
    """Read every language's .po file (:func:`bot.i18n.lang.languages`). An untranslated (empty)
    or fuzzy entry falls back to the English text (``python -m bot.i18n.check`` refuses both, so
    none ships)."""
    langs = languages(locale_dir)
    texts: dict[str, dict[Lang, str]] = {}
    plurals: dict[str, dict[Lang, tuple[str, ...]]] = {}
    patterns: dict[str, dict[Lang, str]] = {}
    contexts: dict[str, str] = {}
    rules: dict[Lang, Callable[[int], int]] = {}
    for lang in sorted(langs, key=lambda lang: lang != "en"):  # English first: the fallback
        for message in read_po(po_path(lang, locale_dir).read_text(encoding="utf-8")):
            key, context = message.key, message.context
            if not key:
                rules[lang] = plural_index(str(message.string))
                continue
            if contexts.setdefault(key, context) != context:
                raise CatalogError(f"{key}: in two message contexts, {contexts[key]} and {context}")
            if isinstance(message.string, tuple):
                if (not message.fuzzy and all(message.string)) or lang == "en":
                    plurals.setdefault(key, {})[lang] = message.string
            elif (not message.fuzzy and message.string) or lang == "en":
                (patterns if context == PATTERNS else texts).setdefault(key, {})[lang] = (
                    message.string
                )
    for text in [*texts.values(), *patterns.values()]:
        for lang in langs:
            text.setdefault(lang, text["en"])
    for forms in plurals.values():
        for lang in langs:
            forms.setdefault(lang, forms["en"])
    return Messages(texts, plurals, contexts, rules, patterns)
