"""Bot API methods that only touch state (the HTTP-bound ones live in server.py)."""

from __future__ import annotations

import copy
import hashlib
import math
import re
import time
from collections.abc import Callable
from typing import Any

from .content import ContentApi
from .ephemeral import EphemeralApi
from .html_check import EntityParseError, parse_html, utf16_len
from .limits import COUNTED_METHODS
from .models import (
    JSON,
    ApiError,
    CallbackAnswer,
    Chat,
    MessageVersion,
    StoredDocument,
    StoredMessage,
    StoredPhoto,
    bad_request,
    forbidden,
)
from .rich import RichContent, parse_input_rich_message
from .spec import check_object
from .world import World

__all__ = ["BotApi", "Files", "UploadedFile"]

UploadedFile = tuple[str | None, bytes, str | None]  # filename, content, content type
Files = dict[str, UploadedFile]
Handler = Callable[[JSON, Files], Any]

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_ALERT = 200
MAX_CALLBACK_DATA = 64
_COMMAND_NAME_RE = re.compile(r"[a-z0-9_]{1,32}")
_QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid"

_ADMIN_RIGHTS = {
    "can_be_edited": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_pin_messages": True,
    "can_manage_topics": True,
}
_RESTRICTED_RIGHTS = {
    "is_member": True,
    "can_change_info": False,
    "can_invite_users": False,
    "can_pin_messages": False,
    "can_send_messages": False,
    "can_send_polls": False,
    "can_send_other_messages": False,
    "can_add_web_page_previews": False,
    "can_manage_topics": False,
    "until_date": 0,
    "can_send_audios": False,
    "can_send_documents": False,
    "can_send_photos": False,
    "can_send_videos": False,
    "can_send_video_notes": False,
    "can_send_voice_notes": False,
    "can_edit_tag": False,
    "can_react_to_messages": False,
}


def _as_int(params: JSON, name: str, *, required: bool = True) -> int | None:
    value = params.get(name)
    if value is None or value == "":
        if required:
            raise bad_request(f"{name} is empty")
        return None
    if isinstance(value, bool):
        raise bad_request(f"invalid {name} specified")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise bad_request(f"invalid {name} specified") from None


def _as_bool(value: Any) -> bool:
    return value in (True, "true", "True", "1", 1)


class BotApi:
    """Implements the state-only Bot API methods on a :class:`World`."""

    def __init__(self, world: World) -> None:
        self.w = world
        self.handlers: dict[str, Handler] = {
            "getMe": self.get_me,
            "sendMessage": self.send_message,
            "sendDocument": self.send_document,
            "editMessageText": self.edit_message_text,
            "editMessageReplyMarkup": self.edit_message_reply_markup,
            "deleteMessage": self.delete_message,
            "answerCallbackQuery": self.answer_callback_query,
            "getChatAdministrators": self.get_chat_administrators,
            "getChatMember": self.get_chat_member,
            "getChat": self.get_chat,
            "setMyCommands": self.set_my_commands,
            "getMyCommands": self.get_my_commands,
            "deleteMyCommands": self.delete_my_commands,
            "sendChatAction": self.send_chat_action,
            "getFile": self.get_file,
            "close": self.accept,
            "logOut": self.accept,
            "setChatMenuButton": self.accept,
            "setMyDescription": self.accept,
            "setMyShortDescription": self.accept,
            "setMyName": self.accept,
        }
        #: photos, rich messages and reactions (``photos.uploads``: photos uploaded, not sent by id)
        self.photos = ContentApi(self)
        self.handlers.update(self.photos.handlers())
        #: ephemeral messages: the send methods' ephemeral side and the edit/delete methods
        self.ephemeral = EphemeralApi(self)
        self.ephemeral.install(self.handlers)
        self.w.ephemeral_api = self.ephemeral

    # ------------------------------------------------------------ helpers
    def _chat(self, params: JSON, *, write: bool = True) -> Chat:
        raw = params.get("chat_id")
        if raw is None or raw == "":
            raise bad_request("chat_id is empty")
        chat: Chat | None = None
        if isinstance(raw, str) and raw.startswith("@"):
            chat = next((c for c in self.w.chats.values() if c.username == raw[1:]), None)
        else:
            try:
                chat_id = int(raw)
            except (TypeError, ValueError):
                raise bad_request("chat not found") from None
            chat = self.w.chats.get(chat_id)
            if chat is None and chat_id in self.w.users:
                chat = self.w.private_chat(chat_id)
        if chat is None:
            raise bad_request("chat not found")
        if chat.type == "private":
            if chat.id in self.w.blocked:
                raise forbidden("bot was blocked by the user")
            if write and chat.id not in self.w.started:
                raise forbidden("bot can't initiate conversation with a user")
        elif chat.migrated_to is not None:
            raise bad_request(
                "group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        elif chat.bot_status in ("kicked", "left"):
            kind = {"group": "group chat", "supergroup": "supergroup chat"}.get(
                chat.type, "channel chat"
            )
            raise forbidden(f"bot was kicked from the {kind}")
        return chat

    def _thread(self, chat: Chat, params: JSON) -> int | None:
        thread_id = _as_int(params, "message_thread_id", required=False)
        if thread_id is None or not chat.is_forum:
            return thread_id
        topic = chat.topics.get(thread_id)
        if topic is None or topic.deleted:
            raise bad_request("message thread not found")
        if topic.closed:
            raise bad_request("TOPIC_CLOSED")
        return thread_id

    @staticmethod
    def _text(
        text: Any, parse_mode: Any, *, limit: int, too_long: str
    ) -> tuple[str, str | None, list[JSON]]:
        if not isinstance(text, str):
            text = "" if text is None else str(text)
        html: str | None = None
        entities: list[JSON] = []
        mode = str(parse_mode).lower() if parse_mode else ""
        if mode == "html":
            try:
                parsed = parse_html(text)
            except EntityParseError as exc:
                raise bad_request(f"can't parse entities: {exc}") from None
            html, visible, entities = text, parsed.text, parsed.entities
        elif mode in ("", "markdown", "markdownv2"):
            visible = text
        else:
            raise bad_request(f"unsupported parse_mode {parse_mode}")
        if utf16_len(visible) > limit:  # Telegram counts UTF-16 code units
            raise bad_request(too_long)
        return visible, html, entities

    @staticmethod
    def _markup(markup: Any) -> JSON | None:
        if markup is None or markup == "" or markup == {}:
            return None  # {}: PTB's empty InlineKeyboardMarkup, no keyboard for Telegram
        if not isinstance(markup, dict):
            raise bad_request("can't parse reply keyboard markup JSON object")
        rows = markup.get("inline_keyboard")
        if rows is None:
            return markup  # reply keyboard / remove / force reply: accepted as is
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise bad_request(
                'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
            )
        actions = (
            "callback_data",
            "url",
            "switch_inline_query",
            "web_app",
            "login_url",
            "switch_inline_query_current_chat",
            "switch_inline_query_chosen_chat",
            "copy_text",
            "callback_game",
            "pay",
        )
        for row in rows:
            for button in row:
                if not isinstance(button, dict) or not isinstance(button.get("text"), str):
                    raise bad_request(
                        "can't parse inline keyboard button: Text buttons are "
                        "unallowed in the inline keyboard"
                    )
                if not any(k in button for k in actions):
                    raise bad_request("text buttons are unallowed in the inline keyboard")
                data = button.get("callback_data")
                if data is not None:
                    size = len(str(data).encode("utf-8"))
                    if size < 1 or size > MAX_CALLBACK_DATA:
                        raise bad_request("BUTTON_DATA_INVALID")
                if "url" in button and not str(button["url"]).strip():
                    raise bad_request("BUTTON_URL_INVALID")
        return markup

    def _reply_target(self, chat: Chat, params: JSON) -> JSON | None:
        reply = params.get("reply_parameters")
        allow = _as_bool(params.get("allow_sending_without_reply"))
        mid: int | None
        if isinstance(reply, dict) and reply.get("ephemeral_message_id") is not None:
            return self.ephemeral.reply_target(chat, reply)
        if isinstance(reply, dict):
            mid = _as_int(reply, "message_id")
            allow = allow or _as_bool(reply.get("allow_sending_without_reply"))
        else:
            mid = _as_int(params, "reply_to_message_id", required=False)
        if mid is None:
            return None
        found = self.w.chat_messages.get(chat.id, {}).get(mid)
        if found is None or (chat.id, mid) in self.w.deleted_ids:
            if allow:
                return None
            raise bad_request("message to be replied not found")
        target = copy.deepcopy(found)
        target.pop("reply_to_message", None)
        return target

    def _check_rate(self, chat: Chat) -> None:
        if self.ephemeral.sending:
            return  # an ephemeral message is not part of the group's visible traffic
        if not (self.w.enforce_limit and chat.is_group):
            return
        now = self.w.now()
        recent = [t for t in self.w.traffic.get(chat.id, []) if now - t < self.w.window]
        if len(recent) >= self.w.group_limit:
            wait = max(1, math.ceil(recent[0] + self.w.window - now))
            raise ApiError(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})

    def _base_message(self, chat: Chat, mid: int, thread_id: int | None) -> JSON:
        raw: JSON = {
            "message_id": mid,
            "from": self.w.bot.to_dict(),
            "chat": chat.to_dict(),
            "date": int(time.time()),
        }
        if thread_id is not None:
            raw["message_thread_id"] = thread_id
            if chat.is_forum:
                raw["is_topic_message"] = True
        return raw

    def _deliver(
        self,
        chat: Chat,
        params: JSON,
        thread_id: int | None,
        markup: JSON | None,
        content: JSON,
        text: str,
        html: str | None,
        entities: list[JSON],
        **media: Any,
    ) -> JSON:
        """Finish a send: reply target, rate, a new message id; store the Message, return it.

        ``content`` holds the Message's own fields (text, caption, photo...); ``media`` the
        StoredMessage's (document, photo, rich).
        """
        reply_to = self._reply_target(chat, params)
        self._check_rate(chat)
        mid = chat.take_message_id()
        raw = self._base_message(chat, mid, thread_id)
        raw.update(content)
        if reply_to is not None:
            raw["reply_to_message"] = reply_to
        if markup is not None:
            raw["reply_markup"] = markup
        stored = StoredMessage(mid, chat.id, text, html, markup, thread_id, self.w.now(), **media)
        stored.parse_mode, stored.entities, stored.raw = params.get("parse_mode"), entities, raw
        stored.reply_to = reply_to["message_id"] if reply_to else None
        self.w._store_bot_message(stored)
        self.w._record_traffic(chat.id)
        return copy.deepcopy(raw)

    def _editable(self, params: JSON) -> tuple[Chat, StoredMessage]:
        if params.get("inline_message_id"):
            raise bad_request("MESSAGE_ID_INVALID")
        chat = self._chat(params)
        mid = _as_int(params, "message_id")
        assert mid is not None
        stored = self.w.stored_message(chat.id, mid)
        if stored is None or stored.deleted:
            exists = mid in self.w.chat_messages.get(chat.id, {})
            if exists and (chat.id, mid) not in self.w.deleted_ids:
                raise bad_request("message can't be edited")
            raise bad_request("message to edit not found")
        return chat, stored

    def _apply_edit(
        self,
        chat: Chat,
        stored: StoredMessage,
        *,
        text: str,
        html: str | None,
        entities: list[JSON],
        markup: JSON | None,
        photo: StoredPhoto | None = None,
        rich: RichContent | None = None,
        clear_rich: bool = False,
    ) -> JSON:
        """Replace a message's content (``photo``/``rich`` None: keep the current ones;
        ``clear_rich``: a rich message becomes a text message)."""
        new_photo = photo if photo is not None else stored.photo
        new_rich = None if clear_rich else rich if rich is not None else stored.rich
        if (
            text == stored.text
            and entities == stored.entities
            and markup == stored.reply_markup
            and new_photo is stored.photo
            and (new_rich is stored.rich or new_rich == stored.rich)
        ):
            raise bad_request(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )
        self._check_rate(chat)
        stored.edits.append(
            MessageVersion(
                stored.text,
                stored.html,
                stored.reply_markup,
                self.w.now(),
                stored.photo,
                stored.rich,
            )
        )
        stored.text, stored.html, stored.entities, stored.reply_markup = (
            text,
            html,
            entities,
            markup,
        )
        stored.photo, stored.rich = new_photo, new_rich
        raw = stored.raw
        for key in ("text", "caption", "entities", "caption_entities", "rich_message"):
            raw.pop(key, None)
        if new_photo is not None:
            raw["photo"] = new_photo.sizes()
            raw.pop("document", None)
            stored.document = None
        if new_rich is not None:
            raw["rich_message"] = new_rich.to_dict()
        else:
            key = "caption" if stored.has_caption else "text"
            if text or key == "text":
                raw[key] = text
            if entities:
                raw["entities" if key == "text" else "caption_entities"] = entities
        if markup is not None:
            raw["reply_markup"] = markup
        else:
            raw.pop("reply_markup", None)
        raw["edit_date"] = int(time.time())
        self.w._record_traffic(chat.id)
        return copy.deepcopy(raw)

    # ------------------------------------------------------------ methods
    def get_me(self, params: JSON, files: Files) -> JSON:
        me = self.w.bot.to_dict()
        me.update(
            can_join_groups=True, can_read_all_group_messages=False, supports_inline_queries=False
        )
        return me

    def get_file(self, params: JSON, files: Files) -> JSON:
        return self.w.files.get_file(params)

    def accept(self, params: JSON, files: Files) -> bool:
        return True

    def send_chat_action(self, params: JSON, files: Files) -> bool:
        chat = self._chat(params)
        self._thread(chat, params)
        return True

    def send_message(self, params: JSON, files: Files) -> JSON:
        chat = self._chat(params)
        thread_id = self._thread(chat, params)
        text = params.get("text")
        if text is None or not str(text).strip():
            raise bad_request("message text is empty")
        visible, html, entities = self._text(
            text, params.get("parse_mode"), limit=MAX_TEXT, too_long="message is too long"
        )
        if not visible.strip():
            raise bad_request("message text is empty")
        content: JSON = {"text": visible}
        if entities:
            content["entities"] = entities
        if isinstance(params.get("link_preview_options"), dict):
            content["link_preview_options"] = params["link_preview_options"]
        markup = self._markup(params.get("reply_markup"))
        return self._deliver(chat, params, thread_id, markup, content, visible, html, entities)

    def send_document(self, params: JSON, files: Files) -> JSON:
        chat = self._chat(params)
        thread_id = self._thread(chat, params)
        doc = params.get("document")
        upload: UploadedFile | None = files.get("document")
        if isinstance(doc, str) and doc.startswith("attach://"):
            upload = files.get(doc[len("attach://") :])
            if upload is None:
                raise bad_request("wrong file identifier/HTTP URL specified")
        if upload is None and not (isinstance(doc, str) and doc):
            raise bad_request("there is no document in the request")
        caption, html, entities = self._text(
            params.get("caption") or "",
            params.get("parse_mode"),
            limit=MAX_CAPTION,
            too_long="message caption is too long",
        )
        markup = self._markup(params.get("reply_markup"))
        if upload is not None:
            filename, data, mime = upload
            file_id = "BQAC" + hashlib.sha1(data).hexdigest()
            document = StoredDocument(filename, data, mime, file_id)
        else:
            document = StoredDocument(None, None, None, str(doc))
        doc_obj: JSON = {"file_id": document.file_id, "file_unique_id": document.file_id[-16:]}
        if document.filename:
            doc_obj["file_name"] = document.filename
        if document.mime_type:
            doc_obj["mime_type"] = document.mime_type
        if document.data is not None:
            doc_obj["file_size"] = len(document.data)
        content: JSON = {"document": doc_obj}
        if caption:
            content["caption"] = caption
        if entities:
            content["caption_entities"] = entities
        return self._deliver(
            chat, params, thread_id, markup, content, caption, html, entities, document=document
        )

    def edit_message_text(self, params: JSON, files: Files) -> JSON:
        chat, stored = self._editable(params)
        if stored.has_caption:
            raise bad_request("there is no text in the message to edit")
        text = params.get("text")
        if params.get("rich_message") is not None:
            if text is not None:
                raise bad_request("text and rich_message can't be used together")
            rich = self.rich_content(params["rich_message"])
            markup = self._markup(params.get("reply_markup"))
            return self._apply_edit(
                chat, stored, text=rich.plain, html=None, entities=[], markup=markup, rich=rich
            )
        if text is None or not str(text).strip():
            raise bad_request("message text is empty")
        visible, html, entities = self._text(
            text, params.get("parse_mode"), limit=MAX_TEXT, too_long="message is too long"
        )
        # Like Telegram: no reply_markup in editMessageText removes the inline keyboard.
        markup = self._markup(params.get("reply_markup"))
        return self._apply_edit(
            chat, stored, text=visible, html=html, entities=entities, markup=markup, clear_rich=True
        )

    def rich_content(self, value: Any) -> RichContent:
        """An ``InputRichMessage`` checked against the spec, then parsed (see rich.py)."""
        check_object(value, "InputRichMessage")
        return parse_input_rich_message(value, lambda file_id: file_id in self.w.photos)

    def edit_message_reply_markup(self, params: JSON, files: Files) -> JSON:
        chat, stored = self._editable(params)
        markup = self._markup(params.get("reply_markup"))
        return self._apply_edit(
            chat,
            stored,
            text=stored.text,
            html=stored.html,
            entities=stored.entities,
            markup=markup,
        )

    def delete_message(self, params: JSON, files: Files) -> bool:
        chat = self._chat(params)
        mid = _as_int(params, "message_id")
        assert mid is not None
        key = (chat.id, mid)
        if mid not in self.w.chat_messages.get(chat.id, {}) or key in self.w.deleted_ids:
            raise bad_request("message to delete not found")
        stored = self.w.stored_message(chat.id, mid)
        if stored is None and chat.is_group and chat.bot_status != "administrator":
            raise bad_request("message can't be deleted")
        self.w.deleted_ids.add(key)
        if stored is not None:
            stored.deleted = True
        return True

    def answer_callback_query(self, params: JSON, files: Files) -> bool:
        qid = str(params.get("callback_query_id") or "")
        query = self.w.queries.get(qid)
        if query is None or query.answer is not None:
            raise bad_request(_QUERY_INVALID)
        text = params.get("text")
        if text is not None and utf16_len(str(text)) > MAX_ALERT:
            raise bad_request("MESSAGE_TOO_LONG")
        answer = CallbackAnswer(
            query_id=qid,
            user_id=query.user_id,
            chat_id=query.chat_id,
            message_id=query.message_id,
            data=query.data,
            text=None if text is None else str(text),
            show_alert=_as_bool(params.get("show_alert")),
            url=params.get("url"),
            cache_time=_as_int(params, "cache_time", required=False),
            at=self.w.now(),
        )
        query.answer = answer
        self.w.answers.append(answer)
        return True

    def _member(self, chat: Chat, user_id: int) -> JSON:
        if user_id == self.w.bot.id:
            status = chat.bot_status
            user = self.w.bot.to_dict()
        else:
            known = self.w.users.get(user_id)
            if known is None:
                raise bad_request("user not found")
            user = known.to_dict()
            status = chat.members.get(user_id, "left")
            if chat.type == "private":
                status = "member"
        left_restricted = status == "restricted_left"  # restricted, then left the group
        status = "restricted" if left_restricted else status
        member: JSON = {"status": status, "user": user}
        anonymous = user_id in chat.anonymous_admins
        if status == "creator":
            member["is_anonymous"] = anonymous
        elif status == "administrator":
            member.update(_ADMIN_RIGHTS, is_anonymous=anonymous)
        elif status == "restricted":
            member.update(_RESTRICTED_RIGHTS, is_member=not left_restricted)
        elif status == "kicked":
            member["until_date"] = 0
        return member

    def _count_lookup(self, params: JSON) -> None:
        raw = params.get("chat_id")
        try:
            chat_id = int(raw)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return
        self.w.admin_lookup_counts[chat_id] = self.w.admin_lookup_counts.get(chat_id, 0) + 1

    def get_chat_administrators(self, params: JSON, files: Files) -> list[JSON]:
        self._count_lookup(params)
        chat = self._chat(params, write=False)
        if chat.type == "private":
            raise bad_request("there are no administrators in the private chat")
        ids = [uid for uid, st in chat.members.items() if st == "creator"]
        ids += [uid for uid, st in chat.members.items() if st == "administrator"]
        if chat.bot_status == "administrator":
            ids.append(self.w.bot.id)
        return [self._member(chat, uid) for uid in ids]

    def get_chat_member(self, params: JSON, files: Files) -> JSON:
        self._count_lookup(params)
        chat = self._chat(params, write=False)
        user_id = _as_int(params, "user_id")
        assert user_id is not None
        return self._member(chat, user_id)

    def get_chat(self, params: JSON, files: Files) -> JSON:
        chat = self._chat(params, write=False)
        info = chat.to_dict()
        info.update(
            accent_color_id=0,
            max_reaction_count=11,
            accepted_gift_types={
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        )
        return info

    def set_my_commands(self, params: JSON, files: Files) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request("commands must be an array of at most 100 BotCommand")
        cleaned: list[JSON] = []
        for item in commands:
            if not isinstance(item, dict):
                raise bad_request("BOT_COMMAND_INVALID")
            name = str(item.get("command", ""))
            desc = str(item.get("description", ""))
            if not _COMMAND_NAME_RE.fullmatch(name):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(desc) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
            command: JSON = {"command": name, "description": desc}
            if item.get("is_ephemeral") is True:
                command["is_ephemeral"] = True
            cleaned.append(command)
        key = self._key(params)
        self.w.command_sets[key] = cleaned
        return True

    def _key(self, params: JSON) -> tuple[str, int | None, int | None, str]:
        scope = params.get("scope")
        lang = params.get("language_code") or ""
        if lang and not re.fullmatch(r"[a-z]{2}", str(lang)):
            raise bad_request("LANG_CODE_INVALID")
        return self.w._scope_key(scope if isinstance(scope, dict) else None, str(lang))

    def get_my_commands(self, params: JSON, files: Files) -> list[JSON]:
        return copy.deepcopy(self.w.command_sets.get(self._key(params), []))

    def delete_my_commands(self, params: JSON, files: Files) -> bool:
        self.w.command_sets.pop(self._key(params), None)
        return True

    @staticmethod
    def counts_as_traffic(method: str) -> bool:
        return method in COUNTED_METHODS
