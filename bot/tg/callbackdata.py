"""Callback data of inline buttons: small frozen classes that pack and parse themselves.

Telegram gives a button at most 64 bytes of data and hands back whatever a client sends, so
every callback is untrusted. A kind of button data is a frozen dataclass deriving from
:class:`CallbackData`, with its ``prefix`` (the text before the first ``:``), a ``pattern`` for
the rest (one spelling per value, numbers bounded) and three methods: ``body`` (its fields as
text; by default each in order, joined by ``:``), ``build`` (its value from the pattern's match,
or None when out of range) and ``largest`` (the longest value it may carry, which a test packs
against the 64-byte limit). A button naming one stored row by its id derives from
:class:`IdData`, which has all three.
Declaring the class registers its prefix; a prefix declared twice is refused at import.
:func:`unpack` finds the class by the prefix and lets it parse the rest: no chain of patterns.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, ClassVar, Literal, Self

from telegram.constants import InlineKeyboardButtonLimit

MAX_BYTES: int = InlineKeyboardButtonLimit.MAX_CALLBACK_DATA  # 64 bytes
#: the largest id a button may carry (JSON numbers stay exact below it)
MAX_ID = 2**53
_PREFIX = re.compile(r"[a-z]{1,4}")
_KINDS: dict[str, type[CallbackData]] = {}
#: what a button belongs to, which the registry's access check reads from its data: the chat
#: it is in; the run played in that chat (``run_id``); the tapping student's homework attempt
#: (``run_id``); a run they answered in (``run_id``); their review card (``card_id``); a stored
#: quiz (``quiz_id``); the user a link's button was made for (``user_id``); or the group of
#: the run it names (``run_id``)
Belongs = Literal["chat", "run", "attempt", "answers", "card", "quiz", "link", "run_group"]


class CallbackData:
    """The data of one kind of inline button (see the module's docstring)."""

    prefix: ClassVar[str]
    pattern: ClassVar[re.Pattern[str]]
    belongs_to: ClassVar[Belongs] = "chat"

    def __init_subclass__(cls, *, shared: bool = False) -> None:
        """Registers the kind's prefix; ``shared``: a base of several kinds (no prefix)."""
        super().__init_subclass__()
        if shared:
            return
        prefix = cls.__dict__.get("prefix")
        if not isinstance(prefix, str) or not _PREFIX.fullmatch(prefix):
            raise TypeError(f"{cls.__name__}: a prefix of 1 to 4 small letters is required")
        taken = _KINDS.get(prefix)
        if taken is not None:
            raise TypeError(f"{cls.__name__}: prefix {prefix!r} is {taken.__name__}'s already")
        _KINDS[prefix] = cls

    def body(self) -> str:
        """What follows ``prefix:`` on the wire: by default the fields in order, joined by ``:``
        (a flag as ``y``/``n``, trailing fields that are None left off)."""
        if not dataclasses.is_dataclass(self):
            raise NotImplementedError
        values = [getattr(self, f.name) for f in dataclasses.fields(self)]
        while values and values[-1] is None:
            values.pop()
        return ":".join(flag(v) if isinstance(v, bool) else str(v) for v in values)

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        """The value ``pattern`` matched, or None when a part is out of range."""
        raise NotImplementedError

    @classmethod
    def largest(cls) -> Self:
        """The longest value of this kind (the 64-byte limit is tested on it)."""
        raise NotImplementedError

    def pack(self) -> str:
        """The button's data; refused (``ValueError``) if over 64 bytes or not read back."""
        text = f"{self.prefix}:{self.body()}"
        if len(text.encode()) > MAX_BYTES or type(self).parse(text) != self:
            raise ValueError(f"cannot encode {self!r}")
        return text

    @classmethod
    def parse(cls, raw: str) -> Self | None:
        """The value ``raw`` carries if it is exactly of this kind, else None."""
        head, colon, rest = raw.partition(":")
        if head != cls.prefix or not colon or len(raw) > MAX_BYTES:
            return None
        match = cls.pattern.fullmatch(rest)
        return cls.build(match) if match is not None else None


class IdData(CallbackData, shared=True):
    """``PREFIX:ID``: a button naming one stored row by its id, its one field (``card_id``,
    ``homework_id``...), from 1 to below :data:`MAX_ID`."""

    pattern: ClassVar[re.Pattern[str]] = re.compile(r"([1-9][0-9]{0,15})")

    if TYPE_CHECKING:

        def __init__(self, row_id: int, /) -> None: ...

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        row_id = int(match[1])
        return cls(row_id) if row_id < MAX_ID else None

    @classmethod
    def largest(cls) -> Self:
        return cls(MAX_ID - 1)


def kind_of(raw: str | None) -> type[CallbackData] | None:
    """The declared kind ``raw``'s prefix names, or None (an undeclared prefix)."""
    return _KINDS.get(raw.partition(":")[0]) if raw else None


#: button data read before, by their text: a class's taps on one question carry a handful of
#: texts, each read once here rather than on every tap by arrivals and again by the registry
_READ: dict[str, CallbackData] = {}
_READ_MAX = 4096  # forgotten all at once when full; only well-formed data are kept


def unpack(raw: str | None) -> CallbackData | None:
    """The typed meaning of a button's data, or None for anything malformed or out of range."""
    if raw is None:
        return None
    data = _READ.get(raw)
    if data is not None:
        return data
    kind = kind_of(raw)
    data = kind.parse(raw) if kind is not None else None
    if data is not None:  # frozen, so one value serves every tap that carries the same text
        if len(_READ) >= _READ_MAX:
            _READ.clear()
        _READ[raw] = data
    return data


def kinds() -> tuple[type[CallbackData], ...]:
    """Every kind declared so far (those of the modules imported)."""
    return tuple(_KINDS.values())


def flag(confirm: bool) -> str:
    """``y`` or ``n``: a confirm or cancel button's last field."""
    return "y" if confirm else "n"
