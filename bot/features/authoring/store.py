"""The authoring feature's narrow view of the store: what saving a quiz calls."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from bot.features.authoring.queries import NewAuthored
from bot.storage import AuthoredQuiz, NewVersion


class AuthoringStore(Protocol):
    """What ``Authoring`` (saving a quiz) reads and writes."""

    async def add_authored(self, new: NewAuthored, *, limit: int) -> AuthoredQuiz | None: ...
    async def authored(self, quiz_no: int) -> AuthoredQuiz | None: ...
    async def replace_authored(self, new: NewVersion, at: float) -> int: ...
    async def store_images(self, pictures: Iterable[tuple[str, str, bytes]]) -> None: ...
