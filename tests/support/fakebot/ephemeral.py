"""Ephemeral messages (Bot API 10.2, as 10.3 words them): one user's private view of a group.

* ``ephemeral_message_parameters`` (``EphemeralMessageParameters``: ``receiver_user_id``,
  ``callback_query_id``, ``replace_callback_query_message``) on ``sendMessage``, ``sendPhoto``,
  ``sendRichMessage`` and ``sendDocument``: the message is kept in ``World.ephemeral``, seen only
  by its receiver (``World.ephemeral_for``), never in the group's log (``World.messages``),
  never counted in the group's 20-a-minute traffic (the overall 30/s limit counts it, as it
  counts every message). The returned Message carries ``ephemeral_message_id`` and
  ``receiver_user``; its ``message_id`` is 0 (it has no place in the chat's history).
* ``editEphemeralMessageText`` (text or ``rich_message``), ``editEphemeralMessageCaption``,
  ``editEphemeralMessageMedia``, ``editEphemeralMessageReplyMarkup``: True on success.
* ``deleteEphemeralMessage``.
* A user's ephemeral command (``World.user_says`` of a command declared ``is_ephemeral`` in
  setMyCommands): the update's Message has ``ephemeral_message_id`` (``message_id`` 0) and is
  in no one else's view; the bot replies to it with ``reply_parameters.ephemeral_message_id``.

Refused, as the spec's texts say: ephemeral messages outside groups and supergroups (the edit
methods name "the target supergroup"; a private chat has only one user besides the bot); a
receiver who is not in the group; a ``callback_query_id`` unknown, from another user or another
chat, or older than ``QUERY_WINDOW`` seconds on the fake's clock (libraries quote about 15 s);
``replace_callback_query_message`` without a callback query; a reply to an ephemeral message
that is not itself ephemeral, to another user's or to one older than 15 s (the spec:
"A reply to an ephemeral message must itself be an ephemeral message. An ephemeral message may
only be replied to within 15 seconds of being sent."). Telegram's wording of these refusals is
not published: the descriptions below are the fake's own, one per cause.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .models import JSON, Chat, StoredMessage, bad_request
from .spec import check_object

if TYPE_CHECKING:
    from .api import BotApi, Files

__all__ = ["QUERY_WINDOW", "EphemeralApi", "EphemeralMessage", "IncomingEphemeral"]

#: how long after a tap its callback query may carry an ephemeral message (seconds)
QUERY_WINDOW = 15.0
#: how long after a user's ephemeral message the bot may reply to it (the spec: 15 seconds)
REPLY_WINDOW = 15.0
SEND_METHODS = ("sendMessage", "sendPhoto", "sendRichMessage", "sendDocument")
QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid"
NOT_IN_GROUP = "ephemeral messages can be sent only to groups and supergroups"
OTHER_USER = "the callback query was sent by another user"
OTHER_CHAT = "the callback query was sent from another chat"
NOT_MEMBER = "the receiver of an ephemeral message is not a member of the chat"
NEEDS_QUERY = "replace_callback_query_message needs a callback_query_id"
REPLY_NOT_EPHEMERAL = "a reply to an ephemeral message must itself be an ephemeral message"
REPLY_NOT_FOUND = "ephemeral message to be replied not found"
REPLY_TOO_OLD = "an ephemeral message may only be replied to within 15 seconds"
NOT_FOUND = "ephemeral message to edit not found"
_MEMBER = ("member", "administrator", "creator", "restricted")


@dataclass
class EphemeralMessage:
    """A message the bot sent for one user's eyes."""

    ephemeral_id: int
    chat_id: int
    receiver: int
    message: StoredMessage  # its content, edits and deletion, as for any message
    query_id: str | None = None
    replaces_query_message: bool = False

    @property
    def text(self) -> str:
        return self.message.text

    @property
    def deleted(self) -> bool:
        return self.message.deleted


@dataclass(frozen=True)
class IncomingEphemeral:
    """A user's ephemeral message to the bot (an ``is_ephemeral`` command)."""

    ephemeral_id: int
    chat_id: int
    user_id: int
    at: float
    raw: JSON


class EphemeralApi:
    """The ephemeral side of the send methods, and the ``*EphemeralMessage*`` methods."""

    def __init__(self, api: BotApi) -> None:
        self.api = api
        self.w = api.w
        self._sending: EphemeralMessage | None = None

    def install(self, handlers: dict[str, Any]) -> None:
        """Wrap the send methods and add the ephemeral ones to ``handlers``."""
        for method in SEND_METHODS:
            handlers[method] = self._sender(handlers[method])
        handlers.update(
            {
                "editEphemeralMessageText": self.edit_text,
                "editEphemeralMessageCaption": self.edit_caption,
                "editEphemeralMessageMedia": self.edit_media,
                "editEphemeralMessageReplyMarkup": self.edit_reply_markup,
                "deleteEphemeralMessage": self.delete,
            }
        )
        self._originals = {m: handlers[m] for m in ("editMessageText", "editMessageCaption")}
        self._originals["editMessageMedia"] = handlers["editMessageMedia"]
        self._originals["editMessageReplyMarkup"] = handlers["editMessageReplyMarkup"]

    @property
    def sending(self) -> bool:
        """True while an ephemeral message is being stored (no group log, no group traffic)."""
        return self._sending is not None

    def store(self, stored: StoredMessage) -> bool:
        """Keep ``stored`` as the ephemeral message being sent (False: not sending one)."""
        target = self._sending
        if target is None:
            return False
        target.message = stored
        stored.chat_id = target.chat_id
        self.w.ephemeral.append(target)
        return True

    # ------------------------------------------------------------ sends
    def _sender(self, original: Callable[[JSON, Files], Any]) -> Callable[[JSON, Files], Any]:
        def send(params: JSON, files: Files) -> Any:
            options = params.get("ephemeral_message_parameters")
            if options is None:
                return original(params, files)
            check_object(options, "EphemeralMessageParameters")
            chat = self.api._chat(params)
            receiver, query_id = self._check(chat, options)
            target = EphemeralMessage(
                ephemeral_id=self.w.take_ephemeral_id(),
                chat_id=chat.id,
                receiver=receiver,
                message=StoredMessage(0, chat.id, "", None, None, None, self.w.now()),
                query_id=query_id,
                replaces_query_message=options.get("replace_callback_query_message") is True,
            )
            next_id = chat.next_message_id
            self._sending = target
            try:
                raw = original(params, files)
            finally:
                self._sending = None
                chat.next_message_id = next_id  # the chat's history has no place for it
            raw["message_id"] = target.message.message_id = 0
            raw["ephemeral_message_id"] = target.ephemeral_id
            raw["receiver_user"] = self.w.users[receiver].to_dict()
            target.message.raw = copy.deepcopy(raw)
            self.w._changed()
            return raw

        return send

    def _check(self, chat: Chat, options: JSON) -> tuple[int, str | None]:
        if chat.type not in ("group", "supergroup"):
            raise bad_request(NOT_IN_GROUP)
        receiver = int(options["receiver_user_id"])
        if chat.members.get(receiver) not in _MEMBER:
            raise bad_request(NOT_MEMBER)
        raw_query = options.get("callback_query_id")
        if raw_query is None:
            if options.get("replace_callback_query_message") is True:
                raise bad_request(NEEDS_QUERY)
            return receiver, None
        query = self.w.queries.get(str(raw_query))
        if query is None or self.w.now() - query.at > QUERY_WINDOW:
            raise bad_request(QUERY_INVALID)
        if query.user_id != receiver:
            raise bad_request(OTHER_USER)
        if query.chat_id != chat.id:
            raise bad_request(OTHER_CHAT)
        return receiver, str(raw_query)

    def reply_target(self, chat: Chat, reply: JSON) -> JSON:
        """The user's ephemeral message that ``reply_parameters.ephemeral_message_id`` names."""
        target = self._sending
        if target is None:
            raise bad_request(REPLY_NOT_EPHEMERAL)
        ident = reply.get("ephemeral_message_id")
        found = self.w.incoming_ephemeral.get((chat.id, int(ident) if ident is not None else 0))
        if found is None or found.user_id != target.receiver:
            raise bad_request(REPLY_NOT_FOUND)
        if self.w.now() - found.at > REPLY_WINDOW:
            raise bad_request(REPLY_TOO_OLD)
        return copy.deepcopy(found.raw)

    # ------------------------------------------------------------ edits
    def _find(self, params: JSON) -> EphemeralMessage:
        chat = self.api._chat(params)
        receiver = int(params["receiver_user_id"])
        ident = int(params["ephemeral_message_id"])
        for sent in self.w.ephemeral:
            if (sent.chat_id, sent.receiver, sent.ephemeral_id) == (chat.id, receiver, ident):
                if sent.deleted:
                    break
                return sent
        raise bad_request(NOT_FOUND)

    @contextmanager
    def _editing(self, params: JSON) -> Iterator[JSON]:
        """Run a regular edit handler on the ephemeral message ``params`` name."""
        sent = self._find(params)
        self._sending = sent
        self.w.editing_ephemeral = sent.message
        try:
            yield {**params, "message_id": 0}
        finally:
            self._sending = None
            self.w.editing_ephemeral = None
        self.w._changed()

    def _edit(self, method: str, params: JSON, files: Files) -> bool:
        inner = {
            k: v for k, v in params.items() if k not in ("receiver_user_id", "ephemeral_message_id")
        }
        with self._editing(params) as named:
            inner["message_id"] = named["message_id"]
            self._originals[method](inner, files)
        return True

    def edit_text(self, params: JSON, files: Files) -> bool:
        return self._edit("editMessageText", params, files)

    def edit_caption(self, params: JSON, files: Files) -> bool:
        return self._edit("editMessageCaption", params, files)

    def edit_media(self, params: JSON, files: Files) -> bool:
        return self._edit("editMessageMedia", params, files)

    def edit_reply_markup(self, params: JSON, files: Files) -> bool:
        return self._edit("editMessageReplyMarkup", params, files)

    def delete(self, params: JSON, files: Files) -> bool:
        sent = self._find(params)
        sent.message.deleted = True
        self.w._changed()
        return True
