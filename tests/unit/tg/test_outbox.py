"""Telegram's errors turned into outcomes (bot.tg.outbox): what each one means for the caller."""

from __future__ import annotations

import pytest
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from bot.tg.outbox import Outcome, _classify


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (ChatMigrated(-1009), Outcome("moved", new_chat_id=-1009)),
        (Forbidden("Forbidden: bot was blocked by the user"), Outcome("gone")),
        (BadRequest("Bad Request: chat not found"), Outcome("gone")),
        (BadRequest("Bad Request: TOPIC_CLOSED"), Outcome("gone")),
        (BadRequest("Bad Request: message thread not found"), Outcome("gone")),
        (BadRequest("Bad Request: not enough rights to send text messages"), Outcome("gone")),
        (
            BadRequest("Bad Request: message is not modified: specified new message content"),
            Outcome("ok"),
        ),
        (BadRequest("Bad Request: message to edit not found"), Outcome("missing")),
        (BadRequest("Bad Request: MESSAGE_ID_INVALID"), Outcome("missing")),
        (BadRequest("Bad Request: can't parse entities"), Outcome("failed")),
        (TimedOut(), Outcome("unknown")),  # it may have been sent: never repeated
        (NetworkError("connection reset"), Outcome("unknown")),
        (RetryAfter(5), Outcome("failed")),  # the pacer waited it out already; it still failed
        (TelegramError("something else"), Outcome("failed")),
    ],
)
def test_each_error_has_one_outcome(error: TelegramError, expected: Outcome) -> None:
    assert _classify(error) == expected
