"""Fault injection: scripted errors, dropped connections and slow answers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .models import JSON, ApiError

__all__ = ["Fault", "FaultPlan"]

_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request: injected fault",
    401: "Unauthorized",
    403: "Forbidden: injected fault",
    404: "Not Found",
    409: "Conflict: injected fault",
    500: "Internal Server Error",
    502: "Bad Gateway",
}


@dataclass
class Fault:
    method: str  # canonical method name, or "*" for any method
    times: int
    error_code: int = 429
    description: str | None = None
    retry_after: int | None = None
    drop_connection: bool = False
    delay: float | None = None
    delay_then_process: bool = True
    migrate_to_chat_id: int | None = None
    perform: bool = False
    match: Callable[[JSON], bool] = field(default=lambda params: True)
    hits: int = 0

    @property
    def kind(self) -> str:
        if self.drop_connection:
            return "drop"
        if self.delay is not None and not self.is_error:
            return "delay"
        return "error"

    @property
    def is_error(self) -> bool:
        return not self.drop_connection and (
            self.error_code != 200 or self.migrate_to_chat_id is not None
        )

    def error(self) -> ApiError:
        parameters: JSON = {}
        code = self.error_code
        if self.migrate_to_chat_id is not None:
            parameters["migrate_to_chat_id"] = self.migrate_to_chat_id
            code = 400 if code in (200, 429) else code
        retry_after = self.retry_after
        if code == 429 and retry_after is None:
            retry_after = 1
        if retry_after:
            parameters["retry_after"] = retry_after
        description = self.description
        if description is None:
            if code == 429:
                description = f"Too Many Requests: retry after {retry_after or 0}"
            elif self.migrate_to_chat_id is not None:
                description = "Bad Request: group chat was upgraded to a supergroup chat"
            else:
                description = _DEFAULT_DESCRIPTIONS.get(code, f"Error {code}")
        return ApiError(code, description, parameters or None)


class FaultPlan:
    """The queue of pending faults, consulted for every incoming call."""

    def __init__(self) -> None:
        self._faults: list[Fault] = []

    def add(self, fault: Fault) -> Fault:
        self._faults.append(fault)
        return fault

    def take(self, method: str, params: JSON) -> Fault | None:
        for fault in self._faults:
            if fault.method not in ("*", method):
                continue
            try:
                matched = fault.match(params)
            except Exception:  # a sloppy predicate must not kill the server
                matched = False
            if not matched:
                continue
            fault.hits += 1
            if fault.hits >= fault.times:
                self._faults.remove(fault)
            return fault
        return None

    def pending(self) -> list[Fault]:
        return list(self._faults)

    def clear(self) -> None:
        self._faults.clear()

    def __len__(self) -> int:
        return len(self._faults)

    def describe(self) -> list[dict[str, Any]]:
        return [
            {"method": f.method, "kind": f.kind, "left": f.times - f.hits} for f in self._faults
        ]
