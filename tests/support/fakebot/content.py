"""Bot API methods of photos, rich messages and reactions (the rest is in api.py).

* ``sendPhoto``: a photo uploaded (multipart ``photo`` or ``attach://<name>``), by http(s) URL
  or by a file_id the fake returned earlier (any of its PhotoSizes); caption <= 1024 UTF-16
  units; inline keyboard. Every sent photo's file_ids are kept in ``World.photos``.
* ``editMessageCaption`` / ``editMessageMedia`` (InputMediaPhoto; a text or rich message may
  become a photo, as the spec says).
* ``sendRichMessage``: ``rich_message`` parsed by rich.py; the stored message's ``text`` is the
  rich message's plain text, ``rich`` its content (math, tables, photos, blocks).
* ``setMessageReaction``: ReactionTypeEmoji from the spec's list, at most one, kept in
  ``World.reactions``.
"""

from __future__ import annotations

import copy
import hashlib
import re
from typing import TYPE_CHECKING, Any

from .models import JSON, StoredPhoto, bad_request
from .spec import reaction_emoji

if TYPE_CHECKING:
    from .api import BotApi, Files

__all__ = ["ContentApi"]

MAX_CAPTION = 1024
_WRONG_FILE = "wrong file identifier/HTTP URL specified"


class ContentApi:
    """The handlers; they reuse BotApi's chat, markup, rate and edit helpers."""

    def __init__(self, api: BotApi) -> None:
        self.api = api
        self.w = api.w
        self.uploads = 0  # photos uploaded (not sent by file_id or URL)

    def handlers(self) -> dict[str, Any]:
        return {
            "sendPhoto": self.send_photo,
            "sendRichMessage": self.send_rich_message,
            "editMessageCaption": self.edit_message_caption,
            "editMessageMedia": self.edit_message_media,
            "setMessageReaction": self.set_message_reaction,
        }

    # ------------------------------------------------------------ helpers
    def _photo(self, value: Any, files: Files, field: str) -> StoredPhoto:
        """Resolve an InputFile-or-String photo: upload, attach://, URL or known file_id."""
        upload = files.get(field) if value is None or value == "" else None
        if isinstance(value, str) and value.startswith("attach://"):
            upload = files.get(value[len("attach://") :])
            if upload is None:
                raise bad_request(_WRONG_FILE)
        if upload is not None:
            content = upload[1]
            if not content:
                raise bad_request("file must be non-empty")
            photo = StoredPhoto("AgACAgIAAx" + hashlib.sha1(content).hexdigest(), data=content)
            self.uploads += 1
        elif isinstance(value, str) and re.fullmatch(r"https?://\S+", value):
            digest = hashlib.sha1(value.encode()).hexdigest()
            photo = StoredPhoto("AgACAgUAAx" + digest, url=value)
        elif isinstance(value, str) and value in self.w.photos:
            return self.w.photos[value]
        elif isinstance(value, str) and value in self.w.files.by_id:  # a photo a user sent
            photo = StoredPhoto(value, data=self.w.files.by_id[value].data)
        elif value is None or value == "":
            raise bad_request("there is no photo in the request")
        else:
            raise bad_request(_WRONG_FILE)
        for size in photo.sizes():
            self.w.photos[str(size["file_id"])] = photo
        return photo

    def _caption(self, params: JSON) -> tuple[str, str | None, list[JSON]]:
        return self.api._text(
            params.get("caption") or "",
            params.get("parse_mode"),
            limit=MAX_CAPTION,
            too_long="message caption is too long",
        )

    # ------------------------------------------------------------ methods
    def send_photo(self, params: JSON, files: Files) -> JSON:
        chat = self.api._chat(params)
        caption, html, entities = self._caption(params)
        markup = self.api._markup(params.get("reply_markup"))
        photo = self._photo(params.get("photo"), files, "photo")
        thread_id = self.api._thread(chat, params)
        content: JSON = {"photo": photo.sizes()}
        if caption:
            content["caption"] = caption
        if entities:
            content["caption_entities"] = entities
        return self.api._deliver(
            chat, params, thread_id, markup, content, caption, html, entities, photo=photo
        )

    def send_rich_message(self, params: JSON, files: Files) -> JSON:
        chat = self.api._chat(params)
        rich = self.api.rich_content(params.get("rich_message"))
        markup = self.api._markup(params.get("reply_markup"))
        thread_id = self.api._thread(chat, params)
        content: JSON = {"rich_message": rich.to_dict()}
        return self.api._deliver(
            chat, params, thread_id, markup, content, rich.plain, None, [], rich=rich
        )

    def edit_message_caption(self, params: JSON, files: Files) -> JSON:
        chat, stored = self.api._editable(params)
        if not stored.has_caption:
            raise bad_request("there is no caption in the message to edit")
        caption, html, entities = self._caption(params)
        markup = self.api._markup(params.get("reply_markup"))
        return self.api._apply_edit(
            chat, stored, text=caption, html=html, entities=entities, markup=markup
        )

    def edit_message_media(self, params: JSON, files: Files) -> JSON:
        chat, stored = self.api._editable(params)
        media = params.get("media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise bad_request("can't parse InputMedia: the fake edits photos only")
        photo = self._photo(media.get("media"), files, "media")
        caption, html, entities = self._caption(media)
        markup = self.api._markup(params.get("reply_markup"))
        return self.api._apply_edit(
            chat,
            stored,
            text=caption,
            html=html,
            entities=entities,
            markup=markup,
            photo=photo,
            clear_rich=True,
        )

    def set_message_reaction(self, params: JSON, files: Files) -> bool:
        chat = self.api._chat(params)
        mid = params.get("message_id")
        key = (chat.id, int(mid) if isinstance(mid, int | str) else 0)
        if key[1] not in self.w.chat_messages.get(chat.id, {}) or key in self.w.deleted_ids:
            raise bad_request("MESSAGE_ID_INVALID")
        reactions = params.get("reaction") or []
        if not isinstance(reactions, list):
            raise bad_request("can't parse reaction types JSON object")
        allowed = reaction_emoji()
        for reaction in reactions:
            if not isinstance(reaction, dict) or reaction.get("type") != "emoji":
                raise bad_request("REACTION_INVALID")  # paid: never for bots; custom: not here
            if allowed is not None and reaction.get("emoji") not in allowed:
                raise bad_request("REACTION_INVALID")
        if len(reactions) > 1:
            raise bad_request("REACTIONS_TOO_MANY")  # bots, like non-premium users: one
        if reactions:
            self.w.reactions[key] = copy.deepcopy(reactions)
        else:
            self.w.reactions.pop(key, None)
        self.w._changed()
        return True
