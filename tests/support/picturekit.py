"""Shared steps of the pictures tests."""

from __future__ import annotations

import struct
import zlib

from fakebot import FakeTelegram, StoredMessage
from quizkit import Class, button_data


def png(width: int = 4, height: int = 3, colour: int = 0) -> bytes:
    """A real (tiny) PNG picture."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    head = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + bytes([colour]) * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", head)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


PICTURE = png()


def photo_messages(tg: FakeTelegram, chat: int) -> list[StoredMessage]:
    return [m for m in tg.messages(chat) if m.photo is not None]


async def run_picture_question(tg: FakeTelegram, cls: Class, name: str) -> None:
    """Start ``name`` in the group, tap the picture question, reveal it with /next."""
    chat = cls.chat_id
    before = len(photo_messages(tg, chat))
    tg.user_says(chat, cls.creator, f"/quiz {name} 600")
    question = await tg.wait_for(
        lambda: next(
            (m for m in photo_messages(tg, chat)[before:] if m.buttons and "Question 1/" in m.text),
            None,
        ),
        what="the question posted as a photo with its keyboard",
    )
    # the question is the photo's caption, with the answer keyboard
    assert "Which layout does this figure show?" in question.text
    assert "Tensor parallel" in question.text and question.html is not None
    tap = tg.tap(chat, cls.students[0], question.message_id, button_data(question, "A"))
    answer = await tg.wait_answered(tap)
    assert answer.show_alert and answer.text
    tg.user_says(chat, cls.creator, "/next")

    def revealed_now() -> StoredMessage | None:
        message = tg.stored_message(chat, question.message_id)
        return message if message is not None and not message.buttons else None

    revealed = await tg.wait_for(revealed_now, what="the reveal edited into the caption")
    assert "✅" in revealed.text and "Which layout" in revealed.text
    assert revealed.photo is not None  # still the photo, its caption edited
