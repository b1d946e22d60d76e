"""Turning Bot API updates into PTB ``Update`` objects, each distinct message built once.

When a class taps, every callback query carries the same message: the question, with its text
and its keyboard. PTB builds that ``Message`` (a hundred attributes, its entities, every
button) once per tap; in a burst that was a third of the bot's main thread (bench/README.md).
PTB's objects are immutable, so taps on one message can share one ``Message``:
:func:`decode_update` builds it once per distinct message (:class:`Messages`), and each tap's
``CallbackQuery`` and ``User`` as PTB would, for polled updates and webhook requests alike.
Every other update, and any callback query with a field this fast path does not know, goes
through PTB's own ``Update.de_json``; the objects handlers see are equal, field for field, to
PTB's (tests/e2e/reliability/test_updates.py).
"""

from __future__ import annotations

import datetime as dtm
from collections.abc import Sequence
from typing import Any, Final

from telegram import Bot, CallbackQuery, Message, Update, User
from telegram.ext import ExtBot

from bot.tg.ptb_internals import DEFAULT_NONE, DefaultValue, JSONDict, ODVInput, TimePeriod

_UPDATE_KEYS: Final = frozenset({"update_id", "callback_query"})
_QUERY_KEYS: Final = frozenset({"id", "from", "message", "chat_instance", "data"})
_QUERY_NEEDS: Final = _QUERY_KEYS - {"data"}  # a tap the fast path builds has all of these


class Messages:
    """The messages built lately, each under (chat id, message id) with the JSON it came from:
    a message is reused only for the very same JSON (an edited message is built again)."""

    __slots__ = ("_built", "_size")

    def __init__(self, size: int = 64) -> None:
        self._built: dict[tuple[Any, Any], tuple[JSONDict, Message]] = {}
        self._size = size

    def get(self, raw: JSONDict, bot: Bot | None) -> Message:
        """The ``Message`` of ``raw``, built once."""
        chat = raw.get("chat")
        key = (chat.get("id") if isinstance(chat, dict) else None, raw.get("message_id"))
        known = self._built.get(key)
        if known is not None and known[0] == raw:
            return known[1]
        built = Message.de_json(raw, bot)
        self._built.pop(key, None)
        if len(self._built) >= self._size:  # the oldest goes
            del self._built[next(iter(self._built))]
        self._built[key] = (raw, built)
        return built


def decode_update(item: JSONDict, bot: Bot | None, messages: Messages) -> Update:
    """One update, as ``Update.de_json`` gives it."""
    return _tap(item, bot, messages) or Update.de_json(item, bot)


def _tap(item: JSONDict, bot: Bot | None, messages: Messages) -> Update | None:
    """A plain callback query on a message (a tap), or None for PTB's general path."""
    query = item.get("callback_query")
    if (
        query is None
        or item.keys() != _UPDATE_KEYS
        or not _QUERY_NEEDS <= query.keys() <= _QUERY_KEYS
    ):
        return None
    message = query.get("message")
    if not isinstance(message, dict) or not message.get("date"):
        return None  # no message, or an inaccessible one (date 0): PTB decides its type
    callback = CallbackQuery(
        id=query["id"],
        from_user=User.de_json(query["from"], bot),
        chat_instance=query["chat_instance"],
        message=messages.get(message, bot),
        data=query.get("data"),
    )
    callback.set_bot(bot)
    update = Update(update_id=item["update_id"], callback_query=callback)
    update.set_bot(bot)
    return update


class QuizBot(ExtBot[None]):
    """PTB's ``ExtBot``, decoding updates (polled, or pushed to the webhook) with
    :func:`decode_update`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._messages = Messages()

    def decode(self, item: JSONDict) -> Update:
        """One update from its JSON."""
        update = decode_update(item, self, self._messages)
        self.insert_callback_data(update)
        return update

    async def get_updates(
        self,
        offset: int | None = None,
        limit: int | None = None,
        timeout: TimePeriod | None = None,  # noqa: ASYNC109 (PTB's signature)
        allowed_updates: Sequence[str] | None = None,
        *,
        read_timeout: ODVInput[float] = DEFAULT_NONE,
        write_timeout: ODVInput[float] = DEFAULT_NONE,
        connect_timeout: ODVInput[float] = DEFAULT_NONE,
        pool_timeout: ODVInput[float] = DEFAULT_NONE,
        api_kwargs: JSONDict | None = None,
    ) -> tuple[Update, ...]:
        """As PTB's: long polling waits ``timeout`` on top of the read timeout."""
        data: JSONDict = {
            "timeout": timeout,
            "offset": offset,
            "limit": limit,
            "allowed_updates": allowed_updates,
        }
        if isinstance(read_timeout, DefaultValue):
            waited: float = self._request[0].read_timeout or 0
        else:
            waited = read_timeout or 0
        if isinstance(timeout, dtm.timedelta):
            waited += timeout.total_seconds()
        elif timeout:
            waited += timeout
        result = await self._post(
            "getUpdates",
            data,
            read_timeout=waited,
            write_timeout=write_timeout,
            connect_timeout=connect_timeout,
            pool_timeout=pool_timeout,
            api_kwargs=api_kwargs,
        )
        try:
            return tuple(self.decode(item) for item in result)
        except Exception as exc:
            self._LOGGER.critical("Error while parsing updates", exc_info=exc)
            raise
