"""Sending and editing messages, with Telegram's failure modes turned into plain outcomes.

Callers learn one of: sent (with the message id), ``gone`` (the bot was removed, the chat or
topic no longer exists: the run should end), ``moved`` (the group became a supergroup, with the
new id), ``unknown`` (a network failure after which the message may or may not exist, never
retried for sends so nothing is posted twice), ``skipped`` (an optional message the group's
budget could not afford) or ``stopped`` (not sent: the bot is stopping; a stored run picks up
from there after the restart).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from telegram import InlineKeyboardMarkup, InputFile, Message, ReactionTypeEmoji, ReplyParameters
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, TelegramError
from telegram.ext import ExtBot

from bot.i18n.markup import Safe
from bot.tg import pacing
from bot.tg.pacing import OPTIONAL, URGENT, Skipped, Stopped

log = logging.getLogger(__name__)
T = TypeVar("T")

Status = Literal["ok", "gone", "moved", "unknown", "skipped", "failed", "missing", "stopped"]

_GONE = (
    "chat not found",
    "topic_closed",
    "topic_deleted",
    "message thread not found",
    "not enough rights",
    "have no rights",
    "chat_write_forbidden",
    "bot was kicked",
    "group chat was deactivated",
    "need administrator rights",
)


@dataclass(frozen=True, slots=True)
class Outcome:
    status: Status
    message_id: int | None = None
    new_chat_id: int | None = None
    file_id: str | None = None  # a photo sent: Telegram's id of its largest size

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def _classify(exc: TelegramError) -> Outcome:
    if isinstance(exc, ChatMigrated):
        return Outcome("moved", new_chat_id=exc.new_chat_id)
    if isinstance(exc, Forbidden):
        return Outcome("gone")
    if isinstance(exc, BadRequest):
        text = exc.message.lower()
        if "message is not modified" in text:
            return Outcome("ok")
        if "message to edit not found" in text or "message_id_invalid" in text:
            return Outcome("missing")
        if any(marker in text for marker in _GONE):
            return Outcome("gone")
        return Outcome("failed")
    if isinstance(exc, NetworkError):
        return Outcome("unknown")
    return Outcome("failed")


async def send(
    bot: ExtBot[Any],
    chat_id: int,
    text: Safe,
    *,
    thread_id: int = 0,
    markup: InlineKeyboardMarkup | None = None,
    optional: bool = False,
    reply_to: int | None = None,
    max_wait: float = 0.0,
    urgent: bool = False,
) -> Outcome:
    """Send an HTML message (``Safe``, see ``bot.i18n.markup``) into a chat (and topic);
    ``urgent``: a question or its reveal, first in line when the bot's budget is short."""
    return await _sent(
        "send",
        chat_id,
        bot.send_message(
            chat_id,
            text,
            reply_markup=markup,
            message_thread_id=thread_id or None,
            reply_parameters=(
                ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
            ),
            rate_limit_args=_limit_args(optional, urgent, max_wait),
        ),
    )


async def edit(
    bot: ExtBot[Any],
    chat_id: int,
    message_id: int,
    text: Safe,
    *,
    markup: InlineKeyboardMarkup | None = None,
    optional: bool = False,
    urgent: bool = False,
) -> Outcome:
    """Replace a message's text (and keyboard: None removes it)."""
    return await _edited(
        "edit",
        chat_id,
        message_id,
        bot.edit_message_text(
            text,
            chat_id=chat_id,
            message_id=message_id,
            reply_markup=markup,
            rate_limit_args=OPTIONAL if optional else URGENT if urgent else None,
        ),
    )


def _limit_args(optional: bool, urgent: bool, max_wait: float) -> dict[str, object] | None:
    if optional:
        return pacing.optional(max_wait)
    return URGENT if urgent else None


async def send_photo(
    bot: ExtBot[Any],
    chat_id: int,
    photo: InputFile | str,
    caption: Safe | None = None,
    *,
    thread_id: int = 0,
    markup: InlineKeyboardMarkup | None = None,
    urgent: bool = False,
) -> Outcome:
    """Send a photo (uploaded, or Telegram's ``file_id``) with an HTML caption (at most
    1,024 characters as shown) and keyboard; ``urgent`` as for :func:`send`."""
    message = await _attempt(
        "send photo",
        chat_id,
        bot.send_photo(
            chat_id,
            photo,
            caption=caption,
            reply_markup=markup,
            message_thread_id=thread_id or None,
            rate_limit_args=URGENT if urgent else None,
        ),
    )
    if isinstance(message, Outcome):
        return message
    largest = max(message.photo, key=lambda size: size.width * size.height, default=None)
    return Outcome("ok", message.message_id, file_id=largest.file_id if largest else None)


async def edit_caption(
    bot: ExtBot[Any],
    chat_id: int,
    message_id: int,
    caption: Safe,
    *,
    markup: InlineKeyboardMarkup | None = None,
    optional: bool = False,
    urgent: bool = False,
) -> Outcome:
    """Replace a photo's caption (and keyboard: None removes it); as :func:`edit`."""
    return await _edited(
        "edit caption",
        chat_id,
        message_id,
        bot.edit_message_caption(
            chat_id=chat_id,
            message_id=message_id,
            caption=caption,
            reply_markup=markup,
            rate_limit_args=OPTIONAL if optional else URGENT if urgent else None,
        ),
    )


async def send_rich(
    bot: ExtBot[Any],
    chat_id: int,
    html: Safe,
    *,
    thread_id: int = 0,
    markup: InlineKeyboardMarkup | None = None,
    optional: bool = False,
    max_wait: float = 0.0,
    urgent: bool = False,
) -> Outcome:
    """Send a rich message (Bot API 10.1 ``sendRichMessage``; ``html`` in its rich HTML form,
    bot/render/rich.py): paced (``urgent`` too) and its failures mapped as ``send``'s. PTB 22.8
    predates the method, so it goes through ``Bot.do_api_request`` (which the rate limiter still
    sees)."""
    kwargs: dict[str, Any] = {"chat_id": chat_id, "rich_message": {"html": str(html)}}
    if thread_id:
        kwargs["message_thread_id"] = thread_id
    if markup is not None:
        kwargs["reply_markup"] = markup
    return await _sent(
        "send rich",
        chat_id,
        bot.do_api_request(
            "sendRichMessage",
            api_kwargs=kwargs,
            return_type=Message,
            rate_limit_args=_limit_args(optional, urgent, max_wait),
        ),
    )


async def edit_rich(
    bot: ExtBot[Any],
    chat_id: int,
    message_id: int,
    html: Safe,
    *,
    markup: InlineKeyboardMarkup | None = None,
    optional: bool = False,
    urgent: bool = False,
) -> Outcome:
    """Replace a rich message's content (``editMessageText`` with ``rich_message``) and
    keyboard (None removes it), as ``edit`` does for a text message."""
    # PTB 22.8's edit_message_text knows no rich_message: it goes in api_kwargs, which PTB
    # merges last, and its text and parse_mode are set to None there, which PTB drops, so
    # the request carries rich_message instead of text (do_api_request would warn to use
    # edit_message_text)
    rich: dict[str, Any] = {"text": None, "parse_mode": None, "rich_message": {"html": str(html)}}
    return await _edited(
        "edit rich",
        chat_id,
        message_id,
        bot.edit_message_text(
            "",
            chat_id=chat_id,
            message_id=message_id,
            reply_markup=markup,
            api_kwargs=rich,
            rate_limit_args=OPTIONAL if optional else URGENT if urgent else None,
        ),
    )


@dataclass(frozen=True, slots=True)
class Ephemeral:
    """Whom an ephemeral message is for, and what it answers: a tap (``query_id``, within
    Telegram's callback window) or the user's own ephemeral command (``reply_to``, its
    ``ephemeral_message_id``). ``max_wait``: how long it may wait for the bot's budget."""

    receiver: int
    query_id: str | None = None
    reply_to: int | None = None
    max_wait: float = 0.0

    def parameters(self) -> dict[str, Any]:
        """``ephemeral_message_parameters`` (and ``reply_parameters``) of the send."""
        options: dict[str, Any] = {"receiver_user_id": self.receiver}
        if self.query_id is not None:
            options["callback_query_id"] = self.query_id
        params: dict[str, Any] = {"ephemeral_message_parameters": options}
        if self.reply_to is not None:
            params["reply_parameters"] = {"ephemeral_message_id": self.reply_to}
        return params


#: the ``id`` of a picture in an ephemeral rich message's ``media`` list
PICTURE_ID = "picture"
#: how long an ephemeral message's edit or deletion may wait for the bot's budget (seconds)
EDIT_WAIT = 5.0


async def send_ephemeral(
    bot: ExtBot[Any],
    chat_id: int,
    to: Ephemeral,
    html: Safe,
    *,
    rich: bool = False,
    photo_id: str | None = None,
    thread_id: int = 0,
) -> Outcome:
    """Send a message only ``to.receiver`` sees in a group (Bot API 10.3's
    ``ephemeral_message_parameters``): an HTML text message, or with ``rich`` a rich message
    (``html`` in its rich form) that may show a picture already on Telegram (``photo_id``, named
    ``tg://photo?id=PICTURE_ID`` in ``html``). The lowest priority of the bot's budget, and none
    of the group's: :class:`Skipped` (as ``skipped``) when no slot came within ``to.max_wait``.
    The outcome's ``message_id`` is the ``ephemeral_message_id``."""
    limit = pacing.ephemeral(to.max_wait)
    request: Awaitable[Message]
    if rich:
        content: dict[str, Any] = {"html": str(html)}
        if photo_id is not None:
            content["media"] = [{"id": PICTURE_ID, "media": {"type": "photo", "media": photo_id}}]
        kwargs: dict[str, Any] = {"chat_id": chat_id, "rich_message": content, **to.parameters()}
        if thread_id:
            kwargs["message_thread_id"] = thread_id
        request = bot.do_api_request(
            "sendRichMessage", api_kwargs=kwargs, return_type=Message, rate_limit_args=limit
        )
    else:  # PTB's send_message, the new parameters merged last (api_kwargs)
        request = bot.send_message(
            chat_id,
            html,
            message_thread_id=thread_id or None,
            api_kwargs=to.parameters(),
            rate_limit_args=limit,
        )
    message = await _attempt("send ephemeral", chat_id, request)
    if isinstance(message, Outcome):
        return message
    ident = message.api_kwargs.get("ephemeral_message_id")
    return Outcome("ok", ident if isinstance(ident, int) else None)


async def delete_ephemeral(
    bot: ExtBot[Any], chat_id: int, receiver: int, ephemeral_id: int
) -> Outcome:
    """Delete an ephemeral message (``deleteEphemeralMessage``)."""
    done = await _attempt(
        "delete ephemeral",
        chat_id,
        bot.do_api_request(
            "deleteEphemeralMessage",
            api_kwargs={
                "chat_id": chat_id,
                "receiver_user_id": receiver,
                "ephemeral_message_id": ephemeral_id,
            },
            rate_limit_args=pacing.ephemeral(EDIT_WAIT),
        ),
    )
    return done if isinstance(done, Outcome) else Outcome("ok", ephemeral_id)


async def edit_ephemeral(
    bot: ExtBot[Any], chat_id: int, receiver: int, ephemeral_id: int, html: Safe
) -> Outcome:
    """Replace an ephemeral message's HTML text (``editEphemeralMessageText``)."""
    done = await _attempt(
        "edit ephemeral",
        chat_id,
        bot.do_api_request(
            "editEphemeralMessageText",
            api_kwargs={
                "chat_id": chat_id,
                "receiver_user_id": receiver,
                "ephemeral_message_id": ephemeral_id,
                "text": str(html),
                "parse_mode": "HTML",
            },
            rate_limit_args=pacing.ephemeral(EDIT_WAIT),
        ),
    )
    return done if isinstance(done, Outcome) else Outcome("ok", ephemeral_id)


async def react(bot: ExtBot[Any], chat_id: int, message_id: int, emoji: str) -> Outcome:
    """Put a reaction on a message (counts against no group's budget of sends and edits). A
    group may have reactions off: that is logged at INFO, nothing more."""
    try:
        await bot.set_message_reaction(chat_id, message_id, reaction=[ReactionTypeEmoji(emoji)])
    except (TelegramError, Skipped, Stopped) as exc:
        outcome = _outcome(exc)
        log.info("reaction in chat %s: %s (%s)", chat_id, outcome.status, exc)
        return outcome
    return Outcome("ok", message_id)


async def _attempt(what: str, chat_id: int, request: Awaitable[T]) -> T | Outcome:
    """Await one Bot API request: its result, or Telegram's failure (or the pacer's refusal)
    as an :class:`Outcome`, logged as ``what``."""
    try:
        return await request
    except (TelegramError, Skipped, Stopped) as exc:
        outcome = _outcome(exc)
        _log(outcome, what, chat_id, exc)
        return outcome


async def _sent(what: str, chat_id: int, request: Awaitable[Message]) -> Outcome:
    """:func:`_attempt` of a send: ok with the new message's id, or the failure."""
    message = await _attempt(what, chat_id, request)
    return message if isinstance(message, Outcome) else Outcome("ok", message.message_id)


async def _edited(what: str, chat_id: int, message_id: int, request: Awaitable[object]) -> Outcome:
    """:func:`_attempt` of an edit of ``message_id``: ok, or the failure."""
    done = await _attempt(what, chat_id, request)
    return done if isinstance(done, Outcome) else Outcome("ok", message_id)


def _outcome(exc: Exception) -> Outcome:
    if isinstance(exc, TelegramError):
        return _classify(exc)
    return Outcome("stopped" if isinstance(exc, Stopped) else "skipped")


def _log(outcome: Outcome, what: str, chat_id: int, exc: Exception) -> None:
    if outcome.status in ("ok", "skipped", "stopped"):
        return
    level = logging.WARNING if outcome.status != "failed" else logging.ERROR
    log.log(level, "%s in chat %s: %s (%s)", what, chat_id, outcome.status, exc)
