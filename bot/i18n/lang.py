"""The two languages of everything a user reads."""

from __future__ import annotations

from typing import Literal, get_args

Lang = Literal["bn", "en"]
LANGS: tuple[Lang, ...] = get_args(Lang)


def as_lang(value: str | None) -> Lang | None:
    """Exactly 'bn' or 'en' as a Lang; anything else None."""
    return "bn" if value == "bn" else "en" if value == "en" else None
