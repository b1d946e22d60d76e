"""Telegram HTML that is safe to send, and the one way to make it.

A :class:`Safe` string is valid Telegram HTML whose every user-supplied or bank-supplied part
was escaped. It is made only by :func:`escape`, :func:`join`, :func:`html` and ``bot.i18n.t``
(which escapes the values it fills in), and inside the rendering layer (``bot/render/``).
Everything that sends a message (``bot.tg.outbox``, ``bot.routing.replies.reply``) takes
``Safe`` text, so mypy refuses a plain ``str`` there: raw text can only reach Telegram escaped.

Escaping twice shows entities to the user (``&amp;lt;b&amp;gt;``). Callers therefore pass raw
text and never call ``html.escape`` themselves. With ``QUIZBOT_STRICT_HTML=1`` (the tests set
it), a plain value that looks escaped already (entities, and no raw ``<``, ``>`` or ``&``) makes
:func:`bot.i18n.t` raise :class:`DoubleEscape`, so a pre-escaped value is caught in tests.
"""

from __future__ import annotations

import html as _html
import os
import re
from collections.abc import Iterable

#: raise on values that look escaped already (tests); off in production
STRICT = os.environ.get("QUIZBOT_STRICT_HTML", "") == "1"
_ENTITY = re.compile(r"&(?:[a-zA-Z]+|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")


class Safe(str):
    """Text that is valid Telegram HTML as it is: inserted into messages unchanged."""

    __slots__ = ()


class DoubleEscape(ValueError):
    """A value handed to ``t()`` was escaped already: pass raw text instead."""


def escape(value: object) -> Safe:
    """``value`` as HTML text: a :class:`Safe` value as it is, anything else with ``<``, ``>``
    and ``&`` escaped."""
    if isinstance(value, Safe):
        return value
    return Safe(_html.escape(str(value), quote=False))


def join(sep: str, parts: Iterable[object]) -> Safe:
    """``sep.join(parts)``, each part escaped unless it is :class:`Safe` (``sep`` is ours)."""
    return Safe(sep.join(escape(part) for part in parts))


def html(template: str, *args: object, **kwargs: object) -> Safe:
    """``template`` (trusted markup, written in our code) with its fields escaped."""
    return Safe(
        template.format(*(escape(a) for a in args), **{k: escape(v) for k, v in kwargs.items()})
    )


def looks_escaped(text: str) -> bool:
    """True for text that has entities and no raw ``<``, ``>`` or ``&``: most likely escaped
    already (a user's name can look like that too, which is why only tests check it)."""
    return (
        _ENTITY.search(text) is not None
        and "<" not in text
        and ">" not in text
        and "&" not in _ENTITY.sub("", text)
    )


def check_value(key: str, name: str, value: object) -> None:
    """In strict mode, refuse a plain value for ``t(..., name=value)`` that looks escaped."""
    if STRICT and isinstance(value, str) and not isinstance(value, Safe) and looks_escaped(value):
        raise DoubleEscape(
            f"t({key!r}): {name}={value!r} looks HTML-escaped already; pass raw "
            f"text (t() escapes it) or a Safe value from the rendering layer"
        )
