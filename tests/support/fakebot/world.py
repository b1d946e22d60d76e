"""State of the fake Telegram world and the simulation API used by tests (no I/O here)."""

from __future__ import annotations

import copy
import itertools
import re
import time
from collections.abc import Callable, Iterable, Sequence

from .ephemeral import EphemeralApi, EphemeralMessage, IncomingEphemeral
from .limits import OverallLimit, max_in_window
from .models import (
    ANONYMOUS_ADMIN_ID,
    ANY,
    BOT_ID,
    BOT_USERNAME,
    JSON,
    AnyType,
    Call,
    CallbackAnswer,
    CallbackQuery,
    Chat,
    QueuedUpdate,
    StoredMessage,
    StoredPhoto,
    Topic,
    User,
    buttons_of,
)
from .uploads import FileStore, document_object, poll_media_object, poll_object

ChatRef = Chat | int
UserRef = User | int
MessageRef = StoredMessage | JSON | int

_COMMAND_RE = re.compile(r"/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{1,64})?(?=\s|$)")

ANONYMOUS_ADMIN = User(ANONYMOUS_ADMIN_ID, "Group", username="GroupAnonymousBot", is_bot=True)


class World:
    """Everything the fake server knows. ``FakeTelegram`` subclasses this and adds HTTP."""

    def __init__(
        self,
        *,
        window: float = 60.0,
        group_limit: int = 20,
        enforce_limit: bool = False,
        bot_id: int = BOT_ID,
        bot_username: str = BOT_USERNAME,
        bot_name: str = "Quiz Bot",
        overall_limit: int | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self._clock = clock if clock is not None else time.monotonic
        #: Telegram's ~30/s across all chats; off unless ``overall_limit`` is given
        self.overall = OverallLimit(overall_limit)
        #: (chat id, message id) -> the bot's current reactions (ReactionType dicts)
        self.reactions: dict[tuple[int, int], list[JSON]] = {}
        #: file_id -> photo the bot sent (every PhotoSize's file_id), for reuse by file_id
        self.photos: dict[str, StoredPhoto] = {}
        self.window = window
        self.group_limit = group_limit
        self.enforce_limit = enforce_limit
        self.bot = User(bot_id, bot_name, username=bot_username, is_bot=True)
        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}
        self.started: set[int] = set()
        self.blocked: set[int] = set()
        #: every message of every chat (bot's and users'), as Telegram Message dicts
        self.chat_messages: dict[int, dict[int, JSON]] = {}
        self.deleted_ids: set[tuple[int, int]] = set()
        self._bot_messages: dict[int, list[StoredMessage]] = {}
        self._stored: dict[tuple[int, int], StoredMessage] = {}
        self.queries: dict[str, CallbackQuery] = {}
        self.answers: list[CallbackAnswer] = []
        self.updates: list[QueuedUpdate] = []
        self.next_update_id = 1
        self.traffic: dict[int, list[float]] = {}
        self.calls: list[Call] = []
        self.admin_lookup_counts: dict[int, int] = {}
        self.command_sets: dict[tuple[str, int | None, int | None, str], list[JSON]] = {}
        self._query_ids = itertools.count(5_000_000_001)
        self.files = FileStore()
        #: ephemeral messages the bot sent (each seen by its receiver only), in send order
        self.ephemeral: list[EphemeralMessage] = []
        #: users' ephemeral messages to the bot, by (chat id, ephemeral message id)
        self.incoming_ephemeral: dict[tuple[int, int], IncomingEphemeral] = {}
        self._ephemeral_ids = itertools.count(1)
        #: set by the API while it sends or edits an ephemeral message
        self.ephemeral_api: EphemeralApi | None = None
        self.editing_ephemeral: StoredMessage | None = None

    # ------------------------------------------------------------------ hooks
    def _changed(self) -> None:
        """Called after every state change; the server wakes condition waiters here."""

    def _update_queued(self) -> None:
        """Called after an update was queued; the server wakes pollers / webhook sender."""

    def now(self) -> float:
        """The fake's clock (monotonic seconds unless a ``clock`` was injected)."""
        return self._clock()

    def limit_overall(self, limit: int | None = 30, window: float = 1.0) -> None:
        """Enforce (or with None stop enforcing) the overall sends+edits limit from now on."""
        self.overall.limit, self.overall.window = limit, window

    # ------------------------------------------------------------- lookups
    def chat(self, ref: ChatRef) -> Chat:
        if isinstance(ref, Chat):
            return ref
        chat = self.chats.get(ref)
        if chat is None:
            user = self.users.get(ref)
            if user is not None:
                return self.private_chat(user)
            raise KeyError(f"unknown chat {ref}")
        return chat

    def user(self, ref: UserRef) -> User:
        if isinstance(ref, User):
            return ref
        return self.users[ref]

    # ----------------------------------------------------------- world setup
    def add_user(
        self,
        user_id: int,
        first_name: str,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "en",
        *,
        started: bool = False,
    ) -> User:
        user = User(user_id, first_name, last_name, username, language_code)
        self.users[user_id] = user
        if started:
            self.started.add(user_id)
        return user

    def _new_chat(self, chat: Chat) -> Chat:
        chat.chat_instance = str(abs(hash(("instance", chat.id))) % 10**19)
        self.chats[chat.id] = chat
        self.chat_messages.setdefault(chat.id, {})
        return chat

    def add_group(
        self,
        chat_id: int,
        title: str,
        *,
        creator: UserRef | None = None,
        admins: Iterable[UserRef] = (),
        members: Iterable[UserRef] = (),
        supergroup: bool | None = None,
        forum: bool = False,
        anonymous_admins: Iterable[UserRef] = (),
        bot_admin: bool = False,
        username: str | None = None,
    ) -> Chat:
        """Create a group. ``supergroup=None`` infers it from the id (``-100…`` → supergroup)."""
        if supergroup is None:
            supergroup = str(chat_id).startswith("-100") or forum
        chat = Chat(
            chat_id,
            "supergroup" if supergroup else "group",
            title=title,
            is_forum=forum,
            username=username,
            bot_status="administrator" if bot_admin else "member",
        )
        for ref in members:
            chat.members[self.user(ref).id] = "member"
        for ref in admins:
            chat.members[self.user(ref).id] = "administrator"
        for ref in anonymous_admins:
            uid = self.user(ref).id
            chat.members.setdefault(uid, "administrator")
            chat.anonymous_admins.add(uid)
        if creator is not None:
            chat.members[self.user(creator).id] = "creator"
        return self._new_chat(chat)

    def add_channel(self, chat_id: int, title: str, username: str | None = None) -> Chat:
        return self._new_chat(
            Chat(chat_id, "channel", title=title, username=username, bot_status="administrator")
        )

    def private_chat(self, user: UserRef) -> Chat:
        u = self.user(user)
        chat = self.chats.get(u.id)
        if chat is None:
            chat = self._new_chat(Chat(u.id, "private", user=u))
        return chat

    def start_bot(self, user: UserRef) -> Chat:
        u = self.user(user)
        self.started.add(u.id)
        self.blocked.discard(u.id)
        return self.private_chat(u)

    def block_bot(self, user: UserRef) -> None:
        self.blocked.add(self.user(user).id)

    def unblock_bot(self, user: UserRef) -> None:
        self.blocked.discard(self.user(user).id)

    def kick_bot(self, chat: ChatRef) -> None:
        self.chat(chat).bot_status = "kicked"

    def add_bot(self, chat: ChatRef, *, admin: bool = False) -> None:
        self.chat(chat).bot_status = "administrator" if admin else "member"

    def set_member(self, chat: ChatRef, user: UserRef, status: str) -> None:
        """status: creator | administrator | member | restricted | left | kicked, or
        restricted_left (restricted, then left: ``is_member`` false)."""
        self.chat(chat).members[self.user(user).id] = status

    def add_topic(self, chat: ChatRef, thread_id: int, name: str) -> Topic:
        c = self.chat(chat)
        topic = Topic(thread_id, name)
        c.topics[thread_id] = topic
        c.next_message_id = max(c.next_message_id, thread_id + 1)
        self.chat_messages[c.id][thread_id] = {
            "message_id": thread_id,
            "date": int(time.time()),
            "chat": c.to_dict(),
            "from": self.bot.to_dict(),
            "message_thread_id": thread_id,
            "is_topic_message": True,
            "forum_topic_created": {"name": name, "icon_color": 7322096},
        }
        return topic

    def close_topic(self, chat: ChatRef, thread_id: int) -> None:
        self.chat(chat).topics[thread_id].closed = True

    def reopen_topic(self, chat: ChatRef, thread_id: int) -> None:
        self.chat(chat).topics[thread_id].closed = False

    def delete_topic(self, chat: ChatRef, thread_id: int) -> None:
        self.chat(chat).topics[thread_id].deleted = True

    # ---------------------------------------------------------------- updates
    def raw_update(self, update: JSON) -> int:
        """Queue any update dict; assigns ``update_id`` when missing. Returns the update id."""
        update = dict(update)
        if "update_id" not in update:
            update["update_id"] = self.next_update_id
        uid = int(update["update_id"])
        self.next_update_id = max(self.next_update_id, uid + 1)
        kind = next((k for k in update if k != "update_id"), "unknown")
        self.updates.append(QueuedUpdate(uid, kind, update))
        self._update_queued()
        self._changed()
        return uid

    def _deliverable(self, chat: Chat) -> bool:
        if chat.type == "private":
            return chat.id not in self.blocked
        return chat.bot_status in ("member", "administrator") and chat.migrated_to is None

    def _message_ref_id(self, ref: MessageRef) -> int:
        if isinstance(ref, StoredMessage):
            return ref.message_id
        if isinstance(ref, dict):
            return int(ref["message_id"])
        return ref

    def _reply_dict(self, chat: Chat, ref: MessageRef) -> JSON:
        mid = self._message_ref_id(ref)
        found = self.chat_messages.get(chat.id, {}).get(mid)
        if found is None:
            raise KeyError(f"message {mid} not found in chat {chat.id}")
        reply = copy.deepcopy(found)
        reply.pop("reply_to_message", None)
        return reply

    def _new_user_message(
        self,
        chat: Chat,
        text: str | None,
        *,
        sender: User | None,
        sender_chat: Chat | None = None,
        thread_id: int | None = None,
        reply_to: MessageRef | None = None,
        extra: JSON | None = None,
    ) -> JSON:
        msg: JSON = {"message_id": chat.take_message_id(), "date": int(time.time())}
        if sender is not None:
            msg["from"] = sender.to_dict()
        if sender_chat is not None:
            msg["sender_chat"] = sender_chat.to_dict()
        msg["chat"] = chat.to_dict()
        if thread_id is not None:
            msg["message_thread_id"] = thread_id
            if chat.is_forum:
                msg["is_topic_message"] = True
        if reply_to is not None:
            msg["reply_to_message"] = self._reply_dict(chat, reply_to)
        elif thread_id is not None and chat.is_forum and thread_id in chat.topics:
            msg["reply_to_message"] = self._reply_dict(chat, thread_id)
        if text is not None:
            msg["text"] = text
            match = _COMMAND_RE.match(text)
            if match:
                length = len(match.group(0).encode("utf-16-le")) // 2
                msg["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        if extra:
            msg.update(extra)
        self.chat_messages.setdefault(chat.id, {})[msg["message_id"]] = msg
        return msg

    def _queue_message(self, chat: Chat, msg: JSON, kind: str = "message") -> JSON:
        if self._deliverable(chat):
            self.raw_update({kind: msg})
        else:
            self._changed()
        return msg

    def user_says(
        self,
        chat: ChatRef,
        user: UserRef,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: MessageRef | None = None,
        ephemeral: bool | None = None,
    ) -> JSON:
        """A user writes ``text``; queues a ``message`` update and returns the Message dict.

        ``ephemeral``: the message is seen by the bot alone (``ephemeral_message_id``, message
        id 0); by default, a group command the bot declared ``is_ephemeral`` is (False: a client
        that sends it visibly all the same, as one predating Bot API 10.2 would).

        Writing in a private chat means the user started (and unblocked) the bot. Writing in a
        group makes the user a member if unknown. Nothing is delivered from a group the bot is
        not in (kicked) or that was migrated.
        """
        c = self.chat(chat)
        u = self.user(user)
        if c.type == "private":
            self.started.add(u.id)
            self.blocked.discard(u.id)
        elif u.id not in c.members or c.members[u.id] == "left":
            c.members[u.id] = "member"
        if ephemeral is None:
            ephemeral = self.is_ephemeral_command(c, text)
        if ephemeral:
            return self._ephemeral_from_user(c, u, text, thread_id)
        msg = self._new_user_message(c, text, sender=u, thread_id=thread_id, reply_to=reply_to)
        return self._queue_message(c, msg)

    def _ephemeral_from_user(
        self, chat: Chat, user: User, text: str, thread_id: int | None
    ) -> JSON:
        """A user's ephemeral message: seen by the bot alone, in no chat history."""
        next_id = chat.next_message_id
        msg = self._new_user_message(chat, text, sender=user, thread_id=thread_id)
        chat.next_message_id = next_id
        self.chat_messages[chat.id].pop(msg["message_id"], None)
        ident = self.take_ephemeral_id()
        msg.update(message_id=0, ephemeral_message_id=ident, receiver_user=self.bot.to_dict())
        self.incoming_ephemeral[(chat.id, ident)] = IncomingEphemeral(
            ident, chat.id, user.id, self.now(), copy.deepcopy(msg)
        )
        return self._queue_message(chat, msg)

    def user_sends_poll(
        self,
        user: UserRef,
        question: str,
        options: Sequence[str],
        *,
        correct: Sequence[int] | None = (0,),
        quiz: bool = True,
        allows_multiple: bool | None = None,
        explanation: str | None = None,
        forwarded_from: UserRef | None = None,
        media: bytes | str | None = None,
        explanation_media: bytes | str | None = None,
    ) -> JSON:
        """A user sends a poll to the bot's private chat (attach menu -> Poll).

        Telegram shows the bot the right answers of a quiz made in that chat; of a forwarded
        quiz it shows none (``correct`` is then ignored). A quiz may have several right options
        (Bot API 9.6+: ``correct_option_ids``, monotonically increasing 0-based ids; the voter
        then picks several, so ``allows_multiple`` defaults to whether it has several).
        ``media`` and ``explanation_media`` (Bot API 10.0): a photo's bytes, or another kind of
        media by name (``uploads.poll_media_object``); a photo's sizes are fetched with getFile.
        """
        if quiz:
            ids = list(correct or ())
            if not ids or ids != sorted(set(ids)) or not all(0 <= i < len(options) for i in ids):
                raise ValueError(f"a quiz poll needs increasing right option ids: {ids}")
        if allows_multiple is None:
            allows_multiple = quiz and len(correct or ()) > 1
        u = self.user(user)
        chat = self.private_chat(u)
        self.started.add(u.id)
        self.blocked.discard(u.id)
        extra: JSON = {
            "poll": poll_object(
                question,
                options,
                quiz=quiz,
                correct=None if forwarded_from is not None or not quiz else correct,
                allows_multiple=allows_multiple,
                explanation=explanation,
            )
        }
        if media is not None:
            extra["poll"]["media"] = poll_media_object(self.files, media)
        if explanation_media is not None:
            extra["poll"]["explanation_media"] = poll_media_object(self.files, explanation_media)
        if forwarded_from is not None:
            origin = self.user(forwarded_from)
            extra["forward_origin"] = {
                "type": "user",
                "date": int(time.time()) - 60,
                "sender_user": origin.to_dict(),
            }
        msg = self._new_user_message(chat, None, sender=u, extra=extra)
        return self._queue_message(chat, msg)

    def user_sends_document(
        self,
        user: UserRef,
        file_name: str | None,
        data: bytes,
        *,
        mime_type: str | None = "application/octet-stream",
        announced_size: int | AnyType | None = ANY,
        chat: ChatRef | None = None,
        size_known: bool = True,
        caption: str | None = None,
    ) -> JSON:
        """A user sends a file. ``announced_size``: the Document's ``file_size`` (ANY: the real
        size; None: left out, as Telegram may); ``size_known`` False: getFile leaves it out too;
        ``caption``: the text sent with it."""
        u = self.user(user)
        c = self.private_chat(u) if chat is None else self.chat(chat)
        if c.type == "private":
            self.started.add(u.id)
        stored = self.files.add(data, size_known=size_known)
        size = len(data) if announced_size is ANY else announced_size
        assert not isinstance(size, AnyType)
        extra: JSON = {"document": document_object(stored, file_name, mime_type, size)}
        if caption is not None:
            extra["caption"] = caption
        msg = self._new_user_message(c, None, sender=u, extra=extra)
        return self._queue_message(c, msg)

    def user_sends_photo(self, user: UserRef, data: bytes, *, width: int = 640) -> JSON:
        """A user sends a photo privately (its one size, fetched with getFile like a file)."""
        u = self.user(user)
        c = self.private_chat(u)
        self.started.add(u.id)
        stored = self.files.add(data)
        size: JSON = {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "width": width,
            "height": width * 3 // 4,
            "file_size": len(data),
        }
        msg = self._new_user_message(c, None, sender=u, extra={"photo": [size]})
        return self._queue_message(c, msg)

    def user_says_as_anonymous_admin(
        self,
        chat: ChatRef,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: MessageRef | None = None,
    ) -> JSON:
        """A message by an anonymous group admin: from=GroupAnonymousBot, sender_chat=group."""
        c = self.chat(chat)
        msg = self._new_user_message(
            c, text, sender=ANONYMOUS_ADMIN, sender_chat=c, thread_id=thread_id, reply_to=reply_to
        )
        return self._queue_message(c, msg)

    def message_without_sender(
        self, chat: ChatRef, text: str, *, thread_id: int | None = None
    ) -> JSON:
        """A message with neither ``from`` nor ``sender_chat`` (hostile input)."""
        c = self.chat(chat)
        return self._queue_message(
            c, self._new_user_message(c, text, sender=None, thread_id=thread_id)
        )

    def channel_post(self, chat: ChatRef, text: str) -> JSON:
        """A ``channel_post`` update (no ``from``; ``sender_chat`` = the channel)."""
        c = chat if isinstance(chat, Chat) else self.chats.get(chat)
        if c is None:
            c = self.add_channel(int(chat), "Channel")  # type: ignore[arg-type]
        msg = self._new_user_message(c, text, sender=None, sender_chat=c)
        return self._queue_message(c, msg, kind="channel_post")

    def edit_user_message(
        self, chat: ChatRef, message: MessageRef, text: str, *, user: UserRef | None = None
    ) -> JSON:
        """The author edits an earlier message: queues an ``edited_message`` update."""
        c = self.chat(chat)
        mid = self._message_ref_id(message)
        msg = copy.deepcopy(self.chat_messages[c.id][mid])
        if user is not None:
            msg["from"] = self.user(user).to_dict()
        msg["text"] = text
        msg["edit_date"] = int(time.time())
        msg.pop("entities", None)
        match = _COMMAND_RE.match(text)
        if match:
            length = len(match.group(0).encode("utf-16-le")) // 2
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        self.chat_messages[c.id][mid] = msg
        kind = "edited_channel_post" if c.type == "channel" else "edited_message"
        return self._queue_message(c, msg, kind=kind)

    def tap(
        self,
        chat: ChatRef,
        user: UserRef,
        message_id: MessageRef,
        data: str | None,
        *,
        queue: bool = True,
    ) -> str:
        """``user`` taps an inline button: queues a ``callback_query`` update; returns its id.

        ``data`` may be anything (forged data is allowed). For an unknown or deleted message the
        query carries an InaccessibleMessage (``date`` = 0), as Telegram does.
        """
        c = self.chat(chat)
        u = self.user(user)
        mid = self._message_ref_id(message_id)
        qid = str(next(self._query_ids))
        stored = self.chat_messages.get(c.id, {}).get(mid)
        if stored is None or (c.id, mid) in self.deleted_ids:
            message: JSON = {"chat": c.to_dict(), "message_id": mid, "date": 0}
        else:
            message = copy.deepcopy(stored)
        query: JSON = {
            "id": qid,
            "from": u.to_dict(),
            "message": message,
            "chat_instance": c.chat_instance,
        }
        if data is not None:
            query["data"] = data
        self.queries[qid] = CallbackQuery(qid, u.id, c.id, mid, data, self.now())
        if queue and self._deliverable(c):
            self.raw_update({"callback_query": query})
        return qid

    def migrate_group(self, old: ChatRef, new_id: int) -> Chat:
        """Upgrade a group to a supergroup: queues both service messages, switches state."""
        o = self.chat(old)
        new = Chat(
            new_id,
            "supergroup",
            title=o.title,
            members=dict(o.members),
            anonymous_admins=set(o.anonymous_admins),
            bot_status=o.bot_status,
        )
        self._new_chat(new)
        creator_id = next((uid for uid, st in o.members.items() if st == "creator"), None)
        actor = self.users.get(creator_id) if creator_id is not None else None
        old_msg = self._new_user_message(
            o, None, sender=actor, extra={"migrate_to_chat_id": new_id}
        )
        self._queue_message(o, old_msg)
        new_msg = self._new_user_message(
            new,
            None,
            sender=ANONYMOUS_ADMIN,
            sender_chat=new,
            extra={"migrate_from_chat_id": o.id},
        )
        o.migrated_to = new_id
        self._queue_message(new, new_msg)
        return new

    # ---------------------------------------------------------------- bot side
    def take_ephemeral_id(self) -> int:
        return next(self._ephemeral_ids)

    def _sending_ephemeral(self) -> bool:
        return self.ephemeral_api is not None and self.ephemeral_api.sending

    def _store_bot_message(self, stored: StoredMessage) -> None:
        if self.ephemeral_api is not None and self.ephemeral_api.store(stored):
            return  # seen by its receiver only: not in the group's log
        self._bot_messages.setdefault(stored.chat_id, []).append(stored)
        self._stored[(stored.chat_id, stored.message_id)] = stored
        self.chat_messages.setdefault(stored.chat_id, {})[stored.message_id] = stored.raw

    def stored_message(self, chat_id: int, message_id: int) -> StoredMessage | None:
        if self.editing_ephemeral is not None:
            return self.editing_ephemeral
        return self._stored.get((chat_id, message_id))

    def _record_traffic(self, chat_id: int) -> None:
        if self._sending_ephemeral():
            return  # not part of the group's visible traffic
        now = self.now()
        self.traffic.setdefault(chat_id, []).append(now)

    # ------------------------------------------------------------------ queries
    def messages(
        self,
        chat: ChatRef,
        thread_id: int | AnyType | None = ANY,
        *,
        include_deleted: bool = True,
    ) -> list[StoredMessage]:
        """The bot's messages in ``chat`` in send order (``thread_id=None``: outside topics)."""
        chat_id = chat.id if isinstance(chat, Chat) else chat
        return [
            m
            for m in self._bot_messages.get(chat_id, [])
            if (thread_id is ANY or m.thread_id == thread_id) and (include_deleted or not m.deleted)
        ]

    def last_message(
        self, chat: ChatRef, thread_id: int | AnyType | None = ANY
    ) -> StoredMessage | None:
        """The bot's most recent not-deleted message in ``chat`` (or None)."""
        found = self.messages(chat, thread_id, include_deleted=False)
        return found[-1] if found else None

    def find_message(
        self,
        chat: ChatRef,
        contains: str,
        thread_id: int | AnyType | None = ANY,
        *,
        include_deleted: bool = False,
    ) -> StoredMessage | None:
        """The most recent bot message whose visible text contains ``contains``."""
        for m in reversed(self.messages(chat, thread_id, include_deleted=include_deleted)):
            if contains in m.text:
                return m
        return None

    @staticmethod
    def buttons(message: StoredMessage | JSON | None) -> list[list[tuple[str, str | None]]]:
        """Inline keyboard as rows of (text, callback_data)."""
        if message is None:
            return []
        if isinstance(message, StoredMessage):
            return buttons_of(message.reply_markup)
        return buttons_of(message.get("reply_markup"))

    def alerts_for(self, user: UserRef) -> list[CallbackAnswer]:
        uid = self.user(user).id if isinstance(user, User) else user
        return [a for a in self.answers if a.user_id == uid]

    def answer_for(self, query_id: str) -> CallbackAnswer | None:
        query = self.queries.get(query_id)
        return query.answer if query else None

    def group_traffic(self, chat: ChatRef) -> list[float]:
        """Monotonic times of successful sends + edits in ``chat``."""
        chat_id = chat.id if isinstance(chat, Chat) else chat
        return list(self.traffic.get(chat_id, []))

    def max_in_window(self, chat: ChatRef, window: float | None = None) -> int:
        """Most successful sends+edits in any sliding window of ``window`` seconds."""
        return max_in_window(self.group_traffic(chat), self.window if window is None else window)

    def reaction_on(self, chat: ChatRef, message: MessageRef) -> list[str]:
        """The bot's reaction on a message, as emoji (custom emoji as their id)."""
        chat_id = chat.id if isinstance(chat, Chat) else chat
        found = self.reactions.get((chat_id, self._message_ref_id(message)), [])
        return [str(r.get("emoji") or r.get("custom_emoji_id")) for r in found]

    def ephemeral_for(
        self, chat: ChatRef, user: UserRef, *, include_deleted: bool = False
    ) -> list[EphemeralMessage]:
        """The ephemeral messages ``user`` sees in ``chat`` (no one else sees them), in order."""
        chat_id = chat.id if isinstance(chat, Chat) else chat
        uid = user.id if isinstance(user, User) else user
        return [
            e
            for e in self.ephemeral
            if e.chat_id == chat_id and e.receiver == uid and (include_deleted or not e.deleted)
        ]

    def ephemeral_in(self, chat: ChatRef) -> list[EphemeralMessage]:
        """Every ephemeral message sent in ``chat``, whoever received it."""
        chat_id = chat.id if isinstance(chat, Chat) else chat
        return [e for e in self.ephemeral if e.chat_id == chat_id]

    def is_ephemeral_command(self, chat: Chat, text: str) -> bool:
        """Whether ``text`` is a command the bot declared ``is_ephemeral`` for this group."""
        match = _COMMAND_RE.match(text)
        if match is None or chat.type not in ("group", "supergroup"):
            return False
        name = match.group(0)[1:].split("@", 1)[0].lower()
        for (scope, chat_id, _user, _lang), commands in self.command_sets.items():
            applies = scope in ("default", "all_group_chats") or chat_id == chat.id
            if applies and any(c["command"] == name and c.get("is_ephemeral") for c in commands):
                return True
        return False

    def rich_messages(self, chat: ChatRef) -> list[StoredMessage]:
        """The bot's rich messages in ``chat`` (not deleted), in send order."""
        return [m for m in self.messages(chat, include_deleted=False) if m.rich is not None]

    def commands(
        self,
        scope: str | JSON = "default",
        language_code: str = "",
        *,
        chat_id: int | None = None,
        user_id: int | None = None,
    ) -> list[JSON] | None:
        """What setMyCommands stored for that scope+language (None if never set)."""
        key = self._scope_key(scope, language_code, chat_id, user_id)
        stored = self.command_sets.get(key)
        return copy.deepcopy(stored) if stored is not None else None

    @staticmethod
    def _scope_key(
        scope: str | JSON | None,
        language_code: str | None,
        chat_id: int | None = None,
        user_id: int | None = None,
    ) -> tuple[str, int | None, int | None, str]:
        if isinstance(scope, dict):
            raw_chat = scope.get("chat_id")
            chat_id = int(raw_chat) if isinstance(raw_chat, int | str) and raw_chat else None
            raw_user = scope.get("user_id")
            user_id = int(raw_user) if isinstance(raw_user, int | str) and raw_user else None
            scope = str(scope.get("type", "default"))
        return (scope or "default", chat_id, user_id, language_code or "")

    def admin_lookups(self, chat: ChatRef) -> int:
        """How many getChatAdministrators/getChatMember calls the bot made for ``chat``."""
        chat_id = chat.id if isinstance(chat, Chat) else chat
        return self.admin_lookup_counts.get(chat_id, 0)

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def updates_pending(self) -> int:
        """Queued updates not yet confirmed by the bot (polling) or accepted (webhook)."""
        return len(self.updates)

    def all_updates_consumed(self) -> bool:
        return not self.updates

    def describe(self, *, last_calls: int = 8) -> str:
        """Short state dump used in timeout messages."""
        lines = [f"pending updates: {[u.kind for u in self.updates]}"]
        for call in self.calls[-last_calls:]:
            extra = f" {call.description}" if call.description else ""
            lines.append(f"  {call.method} -> {call.status}{extra} {_short(call.params)}")
        return "\n".join(lines)


def _short(params: JSON) -> str:
    text = repr({k: v for k, v in params.items() if k != "reply_markup"})
    return text if len(text) < 160 else text[:157] + "..."
