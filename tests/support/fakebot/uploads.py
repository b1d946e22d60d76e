"""What users send besides text: quiz polls and documents, and the file storage behind getFile.

Objects follow the Bot API (10.1): a Poll carries ``correct_option_ids`` only when Telegram
shows the bot the right answer (a quiz sent to the bot's private chat, not forwarded); a Document
carries ``file_size`` when known; ``getFile`` returns a File whose ``file_path`` is downloaded
from ``/file/bot<token>/<file_path>``.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .models import JSON, bad_request

MAX_DOWNLOAD = 20 * 1024 * 1024  # bots may download files of up to 20 MB


@dataclass
class UserFile:
    file_id: str
    file_unique_id: str
    file_path: str
    data: bytes
    size_known: bool = True  # getFile tells the size (Telegram may leave it out)


class FileStore:
    """Files users uploaded, by file_id; the download route serves them by file_path."""

    def __init__(self) -> None:
        self.by_id: dict[str, UserFile] = {}
        self.by_path: dict[str, UserFile] = {}
        self.downloads: list[str] = []  # file_paths fetched, in order
        self.finished: list[str] = []  # ... whose whole body was sent
        self.unfinished: list[str] = []  # ... whose client went away before the end
        self._numbers = itertools.count(1)

    def add(self, data: bytes, *, size_known: bool = True) -> UserFile:
        digest = hashlib.sha1(data).hexdigest()
        n = next(self._numbers)
        stored = UserFile(
            f"BQACAgIAAx{digest[:20]}{n}",
            f"AgAD{digest[:12]}",
            f"documents/file_{n}",
            data,
            size_known,
        )
        self.by_id[stored.file_id] = stored
        self.by_path[stored.file_path] = stored
        return stored

    def get_file(self, params: JSON) -> JSON:
        """``getFile``."""
        file_id = params.get("file_id")
        stored = self.by_id.get(file_id) if isinstance(file_id, str) else None
        if stored is None:
            raise bad_request("invalid file_id")
        if len(stored.data) > MAX_DOWNLOAD:
            raise bad_request("file is too big")
        found: JSON = {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_path": stored.file_path,
        }
        if stored.size_known:
            found["file_size"] = len(stored.data)
        return found


def poll_object(
    question: str,
    options: Sequence[str],
    *,
    quiz: bool,
    correct: Sequence[int] | None,
    allows_multiple: bool,
    explanation: str | None,
) -> JSON:
    """A Poll as the sender's own private chat with the bot receives it."""
    poll: JSON = {
        "id": str(5_000_000_000_000 + int(time.monotonic_ns() % 10**12)),
        "question": question,
        "options": [
            {"persistent_id": str(i), "text": text, "voter_count": 0}
            for i, text in enumerate(options)
        ],
        "total_voter_count": 0,
        "is_closed": False,
        "is_anonymous": True,
        "type": "quiz" if quiz else "regular",
        "allows_multiple_answers": allows_multiple,
        "allows_revoting": False,  # required since Bot API 9.6
        "members_only": False,  # required since Bot API 10.0
    }
    if correct is not None:
        poll["correct_option_ids"] = list(correct)
    if explanation:
        poll["explanation"] = explanation
    return poll


def document_object(
    stored: UserFile, file_name: str | None, mime_type: str | None, file_size: int | None
) -> JSON:
    doc: JSON = {"file_id": stored.file_id, "file_unique_id": stored.file_unique_id}
    if file_name is not None:
        doc["file_name"] = file_name
    if mime_type is not None:
        doc["mime_type"] = mime_type
    if file_size is not None:
        doc["file_size"] = file_size
    return doc


#: a poll's media other than a photo, as ``user_sends_poll`` takes it (PTB's telegram.PollMedia)
MEDIA_KINDS = ("video", "animation", "audio", "document", "live_photo", "location", "venue")


def poll_media_object(files: FileStore, media: bytes | str) -> JSON:
    """A PollMedia (Bot API 10.0; the shape of PTB 22.8's ``telegram.PollMedia``): ``bytes``, a
    photo with that content, in two sizes as Telegram gives them (a small thumbnail, whose
    content is not a picture, then the photo itself: a bot must take the largest); a kind's
    name (``MEDIA_KINDS``), that media, its file stored for getFile."""
    if isinstance(media, bytes):
        thumb = files.add(b"not the photo: its 90 px thumbnail")
        full = files.add(media)
        return {
            "photo": [
                _size(thumb, 90, 67),
                _size(full, 640, 480),
            ]
        }
    if media not in MEDIA_KINDS:
        raise ValueError(f"a poll's media is a photo or one of {MEDIA_KINDS}: {media!r}")
    location = {"latitude": 23.7104, "longitude": 90.4074}
    if media == "location":
        return {"location": location}
    if media == "venue":
        return {"venue": {"location": location, "title": "Curzon Hall", "address": "Dhaka"}}
    stored = files.add(f"the {media} itself".encode())
    found: JSON = {"file_id": stored.file_id, "file_unique_id": stored.file_unique_id}
    if media in ("video", "animation", "live_photo"):
        found |= {"width": 640, "height": 360, "duration": 12}
    elif media == "audio":
        found["duration"] = 12
    else:
        found["file_name"] = "notes.pdf"
    return {media: found}


def _size(stored: UserFile, width: int, height: int) -> JSON:
    return {
        "file_id": stored.file_id,
        "file_unique_id": stored.file_unique_id,
        "width": width,
        "height": height,
        "file_size": len(stored.data),
    }
