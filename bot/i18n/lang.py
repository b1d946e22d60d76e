"""The two languages of everything a user reads."""

from __future__ import annotations

from typing import Literal, get_args

Lang = Literal["bn", "en"]
LANGS: tuple[Lang, ...] = get_args(Lang)


def as_lang(value: str | None) -> Lang | None:
    """Exactly 'bn' or 'en' as a Lang; anything else None."""
    return "bn" if value == "bn" else "en" if value == "en" else None


def language_name(code: str, lang: Lang) -> str:
    """The name of the language ``code`` (ISO 639-1) in ``lang``, from CLDR ("French",
    "ফরাসি"); the code itself if CLDR has no name for it."""
    from babel import Locale  # CLDR's data, loaded on first use

    name: str = Locale(lang).languages.get(code, code)
    return name
