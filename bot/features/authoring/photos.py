"""A photo a user sent (as its own message, or as a quiz poll's media): downloaded and checked.

The largest size is fetched through getFile and the Bot API's file endpoint, the download stopped
at ``MAX_IMAGE_BYTES`` while it streams in, then checked as any picture (bot/core/images.py).
Once its question is kept, the picture's bytes go to SQLite with the user's ``file_id``, which
Telegram accepts for sending it again (so it is never uploaded).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote, urlsplit, urlunsplit

from telegram import PhotoSize, Poll
from telegram import PollMedia as TgPollMedia
from telegram.error import TelegramError

from bot.core.images import MAX_IMAGE_BYTES, Picture, PollExtras, Refused, check
from bot.features.authoring.store import store_of
from bot.services.container import Services

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Photo:
    """A user's photo, checked: the picture and Telegram's id of the size it came from."""

    picture: Picture
    file_id: str

    @property
    def name(self) -> str:
        """Its name in a draft and a stored quiz: ``pictures/<sha256>.<ext>``."""
        return f"pictures/{self.picture.stored_name}"


async def download(svc: Services, sizes: Sequence[PhotoSize]) -> Photo:
    """The largest of a photo's sizes, downloaded and checked. Raises Refused (too big, not a
    picture we take) or telegram.error.TelegramError (the download failed)."""
    size = max(sizes, key=lambda p: p.width * p.height)
    file = await size.get_file()
    data = await svc.transports[0].fetch(encoded(file.file_path or ""), MAX_IMAGE_BYTES)
    if data is None:  # more than the limit came: the download was stopped there
        raise Refused("bank_image_big", size=MAX_IMAGE_BYTES + 1, limit=MAX_IMAGE_BYTES)
    # decoded whole (a few milliseconds to a second for the largest): off the event loop
    return Photo(await asyncio.to_thread(check, data), size.file_id)


async def keep(svc: Services, photos: Sequence[Photo]) -> None:
    """Keep photos' bytes in SQLite, each with the file_id Telegram gave it."""
    await store_of(svc).store_images(
        [(p.picture.sha256, p.picture.mime, p.picture.data) for p in photos]
    )
    for photo in photos:
        await store_of(svc).set_image_file_id(
            photo.picture.sha256, photo.picture.mime, photo.file_id
        )


def encoded(file_path: str) -> str:
    """The download URL getFile gave, its path percent-encoded (as PTB's ``File`` does)."""
    parts = urlsplit(file_path)
    return urlunsplit(parts._replace(path=quote(parts.path)))


#: what a poll's media may be (PTB's telegram.PollMedia), in the order its fields are looked at
MEDIA_KINDS = (
    "photo",
    "video",
    "animation",
    "audio",
    "document",
    "live_photo",
    "location",
    "venue",
    "sticker",
)


def poll_photo(poll: Poll) -> PhotoSize | None:
    """The largest size of a quiz poll's photo, if it has one."""
    if poll.media is None or not poll.media.photo:
        return None
    return max(poll.media.photo, key=lambda p: p.width * p.height)


async def poll_media(
    svc: Services, poll: Poll, refused: tuple[str, dict[str, object]] | None = None
) -> tuple[Photo | None, PollExtras]:
    """A quiz poll's photo, downloaded and checked (unless ``refused`` already: why it is not
    taken, an i18n key and its values), and what else the poll carries."""
    photo: Photo | None = None
    if refused is None and poll.media is not None and poll.media.photo:
        try:
            photo = await download(svc, poll.media.photo)
        except TelegramError as exc:
            log.warning("could not download a poll's photo: %s", exc)
            refused = ("media_failed", {})
        except Refused as exc:
            refused = (exc.key, dict(exc.values))
    return photo, PollExtras(
        photo is not None,
        refused,
        kind(poll.media) if poll.media is not None and not poll.media.photo else None,
        kind(poll.explanation_media) if poll.explanation_media is not None else None,
        any(o.media is not None for o in poll.options),
        bool(poll.description),
    )


def kind(media: TgPollMedia) -> str:
    """What a poll's media is ("video"); "other" for a kind this version does not know."""
    return next((k for k in MEDIA_KINDS if getattr(media, k)), "other")
