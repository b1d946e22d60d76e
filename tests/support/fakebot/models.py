"""Plain data objects of the fake Telegram world."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rich import RichContent

JSON = dict[str, Any]

ANONYMOUS_ADMIN_ID = 1087968824
BOT_ID = 7000000001
BOT_USERNAME = "quizbot_test_bot"


class _Any(enum.Enum):
    ANY = "ANY"

    def __repr__(self) -> str:
        return "ANY"


#: Wildcard for ``thread_id`` filters (``None`` means "no thread / General").
ANY = _Any.ANY
AnyType = _Any


class ApiError(Exception):
    """An error answer of the Bot API: ``{"ok": false, "error_code", "description", ...}``."""

    def __init__(self, error_code: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(f"{error_code} {description}")
        self.error_code = error_code
        self.description = description
        self.parameters = parameters
        #: why the fake refused, when the description is a bare Telegram code (not sent)
        self.detail: str | None = None

    def payload(self) -> JSON:
        body: JSON = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(text: str, parameters: JSON | None = None) -> ApiError:
    return ApiError(400, f"Bad Request: {text}", parameters)


def forbidden(text: str) -> ApiError:
    return ApiError(403, f"Forbidden: {text}")


@dataclass
class User:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False

    def to_dict(self) -> JSON:
        data: JSON = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name is not None:
            data["last_name"] = self.last_name
        if self.username is not None:
            data["username"] = self.username
        if self.language_code is not None:
            data["language_code"] = self.language_code
        return data


@dataclass
class Topic:
    thread_id: int
    name: str
    closed: bool = False
    deleted: bool = False


@dataclass
class Chat:
    id: int
    type: str  # private | group | supergroup | channel
    title: str | None = None
    user: User | None = None  # for private chats
    is_forum: bool = False
    username: str | None = None
    #: user id -> creator | administrator | member | left | kicked | restricted
    members: dict[int, str] = field(default_factory=dict)
    anonymous_admins: set[int] = field(default_factory=set)
    bot_status: str = "member"  # member | administrator | left | kicked
    migrated_to: int | None = None
    topics: dict[int, Topic] = field(default_factory=dict)
    next_message_id: int = 1
    chat_instance: str = ""

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")

    def to_dict(self) -> JSON:
        data: JSON = {"id": self.id, "type": self.type}
        if self.type == "private" and self.user is not None:
            data["first_name"] = self.user.first_name
            if self.user.last_name is not None:
                data["last_name"] = self.user.last_name
            if self.user.username is not None:
                data["username"] = self.user.username
        else:
            data["title"] = self.title or ""
            if self.username is not None:
                data["username"] = self.username
        if self.is_forum:
            data["is_forum"] = True
        return data

    def take_message_id(self) -> int:
        mid = self.next_message_id
        self.next_message_id += 1
        return mid


@dataclass
class MessageVersion:
    """A previous version of an edited bot message."""

    text: str
    html: str | None
    reply_markup: JSON | None
    at: float
    photo: StoredPhoto | None = None
    rich: RichContent | None = None


@dataclass
class StoredDocument:
    filename: str | None
    data: bytes | None  # None when sent by file_id / URL
    mime_type: str | None
    file_id: str


@dataclass
class StoredPhoto:
    """A photo the bot sent: uploaded (``data``), by URL (``url``) or by an earlier file_id."""

    file_id: str
    data: bytes | None = None
    url: str | None = None

    def sizes(self) -> list[JSON]:
        """The ``photo`` field of a Message: PhotoSize objects, largest last."""
        unique = self.file_id[-16:]
        return [
            {
                "file_id": self.file_id + "-s",
                "file_unique_id": unique + "s",
                "width": 90,
                "height": 60,
            },
            {"file_id": self.file_id, "file_unique_id": unique, "width": 1280, "height": 853},
        ]


@dataclass
class StoredMessage:
    """A message the bot sent (current state plus edit history)."""

    message_id: int
    chat_id: int
    text: str  # visible text (tags stripped, entities decoded); caption for documents
    html: str | None  # raw text as sent when parse_mode was HTML
    reply_markup: JSON | None
    thread_id: int | None
    sent_at: float
    parse_mode: str | None = None
    entities: list[JSON] = field(default_factory=list)
    edits: list[MessageVersion] = field(default_factory=list)
    deleted: bool = False
    document: StoredDocument | None = None
    reply_to: int | None = None
    raw: JSON = field(default_factory=dict)  # the Message object as returned to the bot
    photo: StoredPhoto | None = None
    rich: RichContent | None = None  # sendRichMessage / editMessageText with rich_message

    @property
    def has_caption(self) -> bool:
        """A media message: its ``text`` is the caption."""
        return self.document is not None or self.photo is not None

    @property
    def math(self) -> list[str]:
        """LaTeX of the rich message's <tg-math> / <tg-math-block> (empty when not rich)."""
        return list(self.rich.math) if self.rich is not None else []

    @property
    def buttons(self) -> list[list[tuple[str, str | None]]]:
        return buttons_of(self.reply_markup)


def buttons_of(markup: JSON | None) -> list[list[tuple[str, str | None]]]:
    if not markup or "inline_keyboard" not in markup:
        return []
    return [
        [(str(b.get("text", "")), b.get("callback_data")) for b in row]
        for row in markup["inline_keyboard"]
    ]


@dataclass
class CallbackQuery:
    id: str
    user_id: int
    chat_id: int | None
    message_id: int | None
    data: str | None
    at: float
    answer: CallbackAnswer | None = None


@dataclass
class CallbackAnswer:
    query_id: str
    user_id: int
    chat_id: int | None
    message_id: int | None
    data: str | None
    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int | None
    at: float


@dataclass
class Call:
    """One HTTP request to the Bot API, with the status we answered."""

    at: float
    method: str
    params: JSON
    status: int
    token: str = ""
    fault: str | None = None  # "error" | "drop" | "delay" when injected
    result: Any = None
    description: str | None = None
    files: dict[str, tuple[str | None, int]] = field(default_factory=dict)  # name, size
    in_webhook_reply: bool = False  # made in the bot's answer to a webhook request
    detail: str | None = None  # the fake's reason behind a bare Telegram error code


@dataclass
class QueuedUpdate:
    update_id: int
    kind: str
    data: JSON
    delivered: bool = False
