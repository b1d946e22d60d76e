"""fakebot: a fake Telegram Bot API server for testing the real PTB Application over HTTP.

Usage::

    server = FakeTelegram()
    await server.start()
    app = ApplicationBuilder().token("123:ABC").base_url(server.base_url).build()
    ...
    await server.stop()
"""

from .ephemeral import EphemeralMessage, IncomingEphemeral
from .faults import Fault
from .html_check import EntityParseError, ParsedText, parse_html
from .models import (
    ANONYMOUS_ADMIN_ID,
    ANY,
    BOT_ID,
    BOT_USERNAME,
    ApiError,
    Call,
    CallbackAnswer,
    CallbackQuery,
    Chat,
    MessageVersion,
    StoredDocument,
    StoredMessage,
    Topic,
    User,
)
from .server import FakeTelegram, WebhookDelivery
from .world import ANONYMOUS_ADMIN, World

__all__ = [
    "ANONYMOUS_ADMIN",
    "ANONYMOUS_ADMIN_ID",
    "ANY",
    "BOT_ID",
    "BOT_USERNAME",
    "ApiError",
    "Call",
    "CallbackAnswer",
    "CallbackQuery",
    "Chat",
    "EntityParseError",
    "EphemeralMessage",
    "FakeTelegram",
    "Fault",
    "IncomingEphemeral",
    "MessageVersion",
    "ParsedText",
    "StoredDocument",
    "StoredMessage",
    "Topic",
    "User",
    "WebhookDelivery",
    "World",
    "parse_html",
]
