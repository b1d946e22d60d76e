"""Photos: sendPhoto (an upload, or a file_id the server gave), editMessageCaption and
editMessageMedia, per the Bot API spec (shared/reference/botapi_spec.json): a caption is at
most 1,024 characters after entities parsing; a photo message has no text to edit and a text
message no caption; a file_id must be one the server issued."""

from __future__ import annotations

import copy
import hashlib
from typing import TYPE_CHECKING

from .models import JSON, StoredDocument, StoredMessage, bad_request

if TYPE_CHECKING:
    from .api import BotApi, Files

MAX_PHOTO_BYTES = 10 * 1024 * 1024
_WRONG_FILE = "wrong file identifier/HTTP URL specified"


class Photos:
    """The photo methods of one fake server; ``uploads`` counts photos uploaded (not sent by
    file_id), ``known`` maps each file_id issued to its bytes."""

    def __init__(self, api: BotApi) -> None:
        self.api = api
        self.known: dict[str, bytes] = {}
        self.uploads = 0

    def _photo(self, value: object, files: Files, *, field: str = "photo") -> StoredDocument:
        upload = files.get(field)
        if isinstance(value, str) and value.startswith("attach://"):
            upload = files.get(value[len("attach://") :])
            if upload is None:
                raise bad_request(_WRONG_FILE)
        if upload is not None:
            filename, content, mime = upload
            if not content:
                raise bad_request("IMAGE_PROCESS_FAILED")
            if len(content) > MAX_PHOTO_BYTES:
                raise bad_request("PHOTO_INVALID_DIMENSIONS")
            file_id = "AgAC" + hashlib.sha1(content).hexdigest()
            self.known[file_id] = content
            self.uploads += 1
            return StoredDocument(filename, content, mime, file_id)
        if not isinstance(value, str) or not value:
            raise bad_request("there is no photo in the request")
        sent = self.api.w.files.by_id.get(value)  # a photo a user sent the bot
        if value not in self.known and sent is None:
            raise bad_request(_WRONG_FILE)
        data = self.known[value] if sent is None else sent.data
        return StoredDocument(None, data, None, value)

    @staticmethod
    def _sizes(photo: StoredDocument) -> list[JSON]:
        size = len(photo.data or b"")
        return [
            {
                "file_id": photo.file_id,
                "file_unique_id": photo.file_id[-16:],
                "width": 320,
                "height": 240,
                "file_size": size,
            }
        ]

    def send_photo(self, params: JSON, files: Files) -> JSON:
        api = self.api
        chat = api._chat(params)
        thread_id = api._thread(chat, params)
        photo = self._photo(params.get("photo"), files)
        caption, html, entities = api._text(
            params.get("caption") or "",
            params.get("parse_mode"),
            limit=1024,
            too_long="message caption is too long",
        )
        markup = api._markup(params.get("reply_markup"))
        reply_to = api._reply_target(chat, params)
        api._check_rate(chat)
        mid = chat.take_message_id()
        raw = api._base_message(chat, mid, thread_id)
        raw["photo"] = self._sizes(photo)
        if caption:
            raw["caption"] = caption
        if entities:
            raw["caption_entities"] = entities
        if reply_to is not None:
            raw["reply_to_message"] = reply_to
        if markup is not None:
            raw["reply_markup"] = markup
        stored = StoredMessage(
            message_id=mid,
            chat_id=chat.id,
            text=caption,
            html=html,
            reply_markup=markup,
            thread_id=thread_id,
            sent_at=api.w.now(),
            parse_mode=params.get("parse_mode"),
            entities=entities,
            photo=photo,
            reply_to=reply_to["message_id"] if reply_to else None,
            raw=raw,
        )
        api.w._store_bot_message(stored)
        api.w._record_traffic(chat.id)
        return copy.deepcopy(raw)

    def edit_message_caption(self, params: JSON, files: Files) -> JSON:
        api = self.api
        chat, stored = api._editable(params)
        if stored.photo is None and stored.document is None:
            raise bad_request("there is no caption in the message to edit")
        caption, html, entities = api._text(
            params.get("caption") or "",
            params.get("parse_mode"),
            limit=1024,
            too_long="message caption is too long",
        )
        markup = api._markup(params.get("reply_markup"))
        return api._apply_edit(
            chat, stored, text=caption, html=html, entities=entities, markup=markup
        )

    def edit_message_media(self, params: JSON, files: Files) -> JSON:
        api = self.api
        chat, stored = api._editable(params)
        media = params.get("media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise bad_request("can't parse InputMedia: only photos are faked")
        photo = self._photo(media.get("media"), files, field="media")
        caption, html, entities = api._text(
            media.get("caption") or "",
            media.get("parse_mode"),
            limit=1024,
            too_long="message caption is too long",
        )
        markup = api._markup(params.get("reply_markup"))
        stored.photo, stored.document = photo, None
        stored.raw.pop("text", None)
        stored.raw.pop("entities", None)
        stored.raw["photo"] = self._sizes(photo)
        stored.text = ""  # the edit below compares and records the new caption
        return api._apply_edit(
            chat, stored, text=caption, html=html, entities=entities, markup=markup
        )
