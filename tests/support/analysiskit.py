"""Shared steps of the e2e_analysis_kinds tests."""

from __future__ import annotations

import csv
import io

from fakebot import FakeTelegram, User


def documents(tg: FakeTelegram, user: User) -> list[tuple[str, list[dict[str, str]]]]:
    """The CSV files sent to ``user``: (file name, rows)."""
    out = []
    for m in tg.messages(user.id):
        if m.document is not None and m.document.data is not None:
            text = m.document.data.decode("utf-8-sig")
            out.append((m.document.filename or "", list(csv.DictReader(io.StringIO(text)))))
    return out


async def export_to(tg: FakeTelegram, chat: int, moderator: User) -> list[
    tuple[str, list[dict[str, str]]]
]:  # fmt: skip
    """``/export`` in the group: "sent privately" there, and the two files in private."""
    before = len(documents(tg, moderator))
    tg.user_says(chat, moderator, "/export")
    await tg.wait_for(lambda: len(documents(tg, moderator)) >= before + 2, what="two CSV files")
    files = documents(tg, moderator)[before:]
    assert not any(m.document for m in tg.messages(chat))
    return files
