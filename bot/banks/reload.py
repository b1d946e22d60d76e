"""Re-reading the questions folder while the bot runs (pure: no telegram, no SQL).

A reload swaps the folder's banks in the Catalog at once. A bank that became broken keeps its
last good version served (its problems are reported); a run keeps the Quiz it started with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.banks.catalog import Catalog
from bot.core.bank import Quiz
from bot.core.problems import Problem


@dataclass(frozen=True, slots=True)
class Refused:
    """A bank file the validator refused: its problems, and the quiz id whose last good
    version stays served because of it (None if there was none)."""

    file: str
    kept: str | None
    problems: tuple[Problem, ...]  # worded where shown: the log in English, /reload in the chat's


@dataclass(frozen=True, slots=True)
class ReloadReport:
    """What a reload changed."""

    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]
    refused: tuple[Refused, ...]
    served: int

    @property
    def unchanged(self) -> bool:
        return not (self.added or self.changed or self.removed or self.refused)

    def lines(self) -> list[str]:
        """The report in English, for the log."""
        out = [f"questions folder re-read: {self.served} quiz(zes) served"]
        for label, ids in (
            ("added", self.added),
            ("changed", self.changed),
            ("removed", self.removed),
        ):
            if ids:
                out.append(f"{label}: {', '.join(ids)}")
        for refused in self.refused:
            kept = f" (its last good version, {refused.kept}, stays served)" if refused.kept else ""
            out.append(f"refused: {refused.file}{kept}")
            out += [f"  {p}" for p in refused.problems]
        return out


def apply_loaded(
    catalog: Catalog, folder: Path, loaded: Mapping[str, Quiz], problems: list[Problem]
) -> ReloadReport:
    """Serve what ``load_folder`` returned (read off the event loop), keeping the last good
    version of each bank that became broken. A folder that is gone (unmounted, renamed)
    changes nothing: every quiz stays served."""
    old = catalog.folder()
    lost = [p for p in problems if p.file == str(folder)]
    if lost:
        return ReloadReport((), (), (), (Refused(str(folder), None, tuple(lost)),), len(old))
    served, refused = _keep_last_good(loaded, problems, old)
    catalog.replace_folder(served)
    return ReloadReport(
        added=tuple(sorted(served.keys() - old.keys())),
        changed=tuple(sorted(k for k in served.keys() & old.keys() if served[k] != old[k])),
        removed=tuple(sorted(old.keys() - served.keys())),
        refused=refused,
        served=len(served),
    )


def _keep_last_good(
    loaded: Mapping[str, Quiz], problems: list[Problem], old: Mapping[str, Quiz]
) -> tuple[dict[str, Quiz], tuple[Refused, ...]]:
    served = dict(loaded)
    by_file: dict[str, list[Problem]] = {}
    for problem in problems:
        by_file.setdefault(problem.file, []).append(problem)
    refused: list[Refused] = []
    for file, found in by_file.items():
        quiz_id = Path(file).stem
        previous = old.get(quiz_id)
        kept = None
        if previous is not None and quiz_id not in served and previous.source == file:
            served[quiz_id] = previous
            kept = quiz_id
        refused.append(Refused(file, kept, tuple(found)))
    return served, tuple(refused)
