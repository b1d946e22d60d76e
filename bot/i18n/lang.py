"""The languages of everything a user reads: Bengali, English, and any language whose catalog
is in the locale folder.

A UI language is registered by its catalog alone: every folder of the locale folder named with a
two-letter ISO 639-1 code (what Telegram's ``language_code`` and ``setMyCommands`` use) that holds
``LC_MESSAGES/quizbot.po`` and that CLDR knows is a language of the bot (:data:`LANGS`, read once
at import). The locale folder is ``bot/i18n/locale``, or the folder ``QUIZBOT_LOCALE_DIR`` names
(a copy with a language added, tried before it is merged).

A bank's texts are in Bengali and English only (:data:`TEXT_LANGS`: ``Text.bn``, ``Text.en``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TypeAlias

#: a UI language code, one of :data:`LANGS` ("bn", "en", "hi"...)
Lang: TypeAlias = str
#: the languages a bank's texts are written in, Bengali first
TEXT_LANGS: tuple[Lang, ...] = ("bn", "en")
#: the gettext catalogs: ``<code>/LC_MESSAGES/quizbot.po`` per language, and ``quizbot.pot``
LOCALE_DIR = Path(
    os.environ.get("QUIZBOT_LOCALE_DIR") or Path(__file__).resolve().parent / "locale"
).resolve()
DOMAIN = "quizbot"
_CODE = re.compile(r"[a-z]{2}")


def po_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    """The .po file of ``lang``."""
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages(locale_dir: Path = LOCALE_DIR) -> tuple[Lang, ...]:
    """Bengali, English, then every other language with a catalog in ``locale_dir`` (by code)."""
    from babel.localedata import exists  # a file check: no locale data is loaded

    found = sorted(
        p.name
        for p in (locale_dir.iterdir() if locale_dir.is_dir() else ())
        if _CODE.fullmatch(p.name) and po_path(p.name, locale_dir).is_file() and exists(p.name)
    )
    return (*TEXT_LANGS, *(code for code in found if code not in TEXT_LANGS))


#: every UI language, Bengali and English first
LANGS: tuple[Lang, ...] = languages()


def as_lang(value: str | None) -> Lang | None:
    """Exactly 'bn' or 'en' (a bank's language) as a Lang; anything else None."""
    return value if value in TEXT_LANGS else None


def language_name(code: str, lang: Lang) -> str:
    """The name of the language ``code`` (ISO 639-1) in ``lang``, from CLDR ("French",
    "ফরাসি"); the code itself if CLDR has no name for it."""
    from babel import Locale  # CLDR's data, loaded on first use

    name: str = Locale(lang).languages.get(code, code)
    return name
