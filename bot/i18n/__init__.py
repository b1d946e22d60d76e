"""Every user-facing string, in Bengali, English and any other language with a catalog.

The texts live in gettext ``.po`` files (``bot/i18n/locale/<lang>/LC_MESSAGES/quizbot.po``, read
once at import: :mod:`bot.i18n.messages`; checked by ``python -m bot.i18n.check``). Texts are
``str.format`` templates of Telegram HTML (they may hold tags). ``t()`` picks the language,
writes numbers in the language's own digits (CLDR's: Bengali digits in Bengali), puts counted
nouns in the plural form the language's CLDR rule asks for (``{count:n_questions}``: the plural
entry ``n_questions`` with ``n=count``), and escapes every value it fills in unless the value is
:class:`bot.i18n.markup.Safe` (rendered by ``bot.render``). Callers pass raw text, never escaped
text. Alerts (callback answers) are plain text: ``t_plain()``.
"""

from __future__ import annotations

import string
from typing import Any

from bot.i18n.cldr import digits
from bot.i18n.lang import LANGS, Lang
from bot.i18n.markup import Safe, check_value, escape
from bot.i18n.messages import load

_CATALOG = load()
#: every key's template per language (plural entries are in PLURALS)
MESSAGES = _CATALOG.texts
#: every counted noun's forms per language, in the order of the language's CLDR plural rule
PLURALS = _CATALOG.plurals
#: every key's message context (the feature it is filed under in the .po files)
CONTEXTS = _CATALOG.contexts
_PLURAL_INDEX = _CATALOG.plural_index
#: every CLDR pattern per language (msgctxt ``cldr``: ``date_pattern``)
PATTERNS = _CATALOG.patterns

_ASCII_DIGITS = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")


def num(lang: Lang, value: int | float | str) -> str:
    """A number as a reader of ``lang`` writes it (in CLDR's digits: Bengali ones in Bengali)."""
    return str(value).translate(digits(lang))


def ascii_digits(text: str) -> str:
    """Bengali digits a user typed (``৩০``) as ASCII digits (``30``)."""
    return text.translate(_ASCII_DIGITS)


def whole_number(text: str, low: int, high: int) -> int | None:
    """A whole number a user typed, in either digit system (``30``, ``৩০``), if it is from
    ``low`` to ``high``; None for anything else (signs, spaces, other scripts' digits)."""
    digits = ascii_digits(text)
    if not digits.isascii() or not digits.isdigit() or len(digits) > len(str(high)):
        return None
    value = int(digits)
    return value if low <= value <= high else None


def parse_lang(value: str | None) -> Lang | None:
    """'bn', 'en', 'bn-BD', 'English', 'বাংলা', 'hi' ... → a language of :data:`LANGS`, or None."""
    if not value:
        return None
    v = value.strip().casefold()
    if v in ("বাংলা", "bangla", "bengali"):
        return "bn"
    if v in ("english", "ইংরেজি"):
        return "en"
    code = v.replace("_", "-").partition("-")[0]
    return code if code in LANGS else None


def pattern(lang: Lang, key: str) -> str:
    """The CLDR pattern ``key`` of ``lang`` (``date_pattern``: ``EEE d MMM, HH:mm``)."""
    return PATTERNS[key][lang]


def plural(lang: Lang, key: str, n: int) -> str:
    """The form of the counted noun ``key`` that ``lang`` uses for ``n`` (a template of ``{n}``)."""
    forms = PLURALS[key][lang]
    return forms[min(_PLURAL_INDEX[lang](n), len(forms) - 1)]


class _Formatter(string.Formatter):
    """``str.format`` with whole numbers written in ``lang``'s digits, ``{count:n_questions}``
    for a counted noun (the plural entry ``n_questions`` in the form ``count`` asks for: "1
    question", "2 questions"), and (``html``) every other value escaped unless it is ``Safe``."""

    def __init__(self, lang: Lang, html: bool) -> None:
        self.lang, self.html = lang, html

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            if format_spec:
                return self.vformat(plural(self.lang, format_spec, value), (), {"n": value})
            return num(self.lang, value)
        if self.html and isinstance(value, Safe):
            return value
        text = str(super().format_field(value, format_spec))
        return escape(text) if self.html else text


_HTML = {lang: _Formatter(lang, html=True) for lang in LANGS}
_PLAIN = {lang: _Formatter(lang, html=False) for lang in LANGS}


def _template(lang: Lang, key: str, values: dict[str, Any]) -> str:
    """``key``'s template in ``lang``; for a counted noun, the form ``values["n"]`` asks for."""
    texts = MESSAGES.get(key)
    if texts is None and key in PLURALS:
        return plural(lang, key, values["n"])
    return MESSAGES[key][lang]


def t(lang: Lang, key: str, **values: Any) -> Safe:
    """The HTML text ``key`` in ``lang``, with ``values`` filled in: numbers localised (counted
    nouns in the right number), every other value escaped unless it is ``Safe``."""
    template = _template(lang, key, values)
    if not values:
        return Safe(template)
    for name, value in values.items():
        check_value(key, name, value)
    return Safe(_HTML[lang].vformat(template, (), values))


def t_plain(lang: Lang, key: str, **values: Any) -> str:
    """The plain text ``key`` in ``lang`` (a callback alert: no HTML), values as they are."""
    return _PLAIN[lang].vformat(_template(lang, key, values), (), values)
