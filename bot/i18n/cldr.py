"""What CLDR (through Babel) says about writing in a language: its digits and its dates.

Babel's locale data is read on first use (a language's first number or date), not at import.
"""

from __future__ import annotations

import datetime as dt
from functools import cache

#: the zero of each of CLDR's decimal numbering systems that is some language's default (Unicode
#: puts a script's ten digits in a row from its zero)
_ZEROS = {
    "latn": "0",
    "arab": "\u0660",
    "arabext": "\u06f0",
    "beng": "\u09e6",
    "deva": "\u0966",
    "mymr": "\u1040",
    "tibt": "\u0f20",
    "nkoo": "\u07c0",
    "olck": "\u1c50",
    "mtei": "\uabf0",
    "cakm": "\U00011136",
    "adlm": "\U0001e950",
    "hmnp": "\U0001e140",
}


@cache
def digits(lang: str) -> dict[int, str]:
    """A ``str.translate`` table from ASCII digits to ``lang``'s own (its CLDR default numbering
    system: Bengali ``০১২``, Marathi ``०१२``; none for ASCII-digit languages)."""
    from babel import Locale

    zero = _ZEROS.get(Locale.parse(lang).default_numbering_system, "0")
    return {} if zero == "0" else {ord("0") + i: chr(ord(zero) + i) for i in range(10)}


def format_date(lang: str, when: dt.datetime, pattern: str) -> str:
    """The wall-clock time ``when`` (its zone left as it is) written with the CLDR date
    ``pattern`` (``EEE d MMM, HH:mm``) in ``lang``: its month and day names, ASCII digits (the
    caller writes them in ``lang``'s own)."""
    from babel.dates import format_datetime

    wall = when.replace(tzinfo=dt.UTC)  # Babel would move a time without one to this machine's
    return format_datetime(wall, pattern, tzinfo=dt.UTC, locale=lang)
