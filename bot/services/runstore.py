"""The kernel's narrow view of the store: what the run driver, its pictures and progress call."""

from __future__ import annotations

from typing import Protocol

from bot.core.engine import Phase
from bot.storage import Answer, EndStatus


class PictureStore(Protocol):
    """A question's picture: its bytes kept in SQLite, its Telegram file id once uploaded."""

    async def image_data(self, sha256: str) -> tuple[bytes, str] | None: ...
    async def image_file_id(self, sha256: str) -> str | None: ...
    async def set_image_file_id(self, sha256: str, mime: str, file_id: str | None) -> None: ...


class ProgressStore(Protocol):
    """A run's progress, answers and selections, as the engine saves and restores them."""

    async def answers(self, run_id: int) -> list[Answer]: ...
    async def save_progress(
        self,
        run_id: int,
        *,
        current: int,
        phase: Phase,
        message_id: int | None,
        posted_at: float | None,
        deadline: float | None,
    ) -> None: ...
    async def save_selection(
        self, run_id: int, q_index: int, user_id: int, picked: str
    ) -> None: ...
    async def selections(self, run_id: int, q_index: int) -> dict[int, str]: ...


class RunStore(PictureStore, ProgressStore, Protocol):
    """Everything ``RunDriver`` stores: answers as they come, a run's progress and end."""

    async def finish_run(self, run_id: int, status: EndStatus) -> None: ...
    async def record_answer(self, answer: Answer) -> bool: ...
