"""Red team: what a user uploads is counted before it is downloaded, as the bytes it stores.

Uploads sent at once are reserved one after the other against the daily limits (a burst cannot
pass them all on the same reading of the day's usage); a refused one is released. A picture is
decoded whole, and one carrying filler (zeros a .zip packs almost for free) is refused. Each user
keeps at most their storage, a quiz being written at most its photos, and below the disk's
reserve every upload is refused while answers go on. A picture is dropped with its quiz and when
a draft's picture is replaced."""

from __future__ import annotations

import os
import sqlite3
import struct
import zipfile
import zlib
from pathlib import Path

from authorkit import photo, poll, say
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from picturekit import PICTURE, png
from quizkit import open_question
from uploadkit import upload
from zipkit import zip_of

from bot.core.images import check

AIKEN = "Which layer holds the handlers?\nA. bot/handlers\nB. bot/core\nANSWER: A\n"
LIMIT = "enough files for today"


def noisy_png(side: int) -> bytes:
    """A real PNG of random pixels (``side`` x ``side``, RGB): it does not squeeze."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + os.urandom(side * 3) for _ in range(side))
    head = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    idat = zlib.compress(rows, 1)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def gift_zip(picture: bytes, *, stored: bool = False) -> bytes:
    gift = '::Fig:: [html]Which figure? <img src="pics/fig.png"> {=this ~that}\n'
    method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    return zip_of({"quiz.gift": gift.encode(), "pics/fig.png": picture}, method=method)


def replies(tg: FakeTelegram, user: User) -> list[StoredMessage]:
    return tg.messages(user.id)


def kept_pictures(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT COUNT(*) FROM images WHERE data IS NOT NULL").fetchone()
    return int(row[0])


async def test_twelve_uploads_at_once_save_only_the_days_three(
    tg: FakeTelegram, db_path: Path
) -> None:
    teacher = tg.add_user(5101, "Teacher", language_code="en")
    async with BotHarness(tg, db_path, env={"QUIZBOT_UPLOADS_PER_DAY": "3"}) as bot:
        for n in range(12):
            tg.user_sends_document(teacher, f"layers{n}.txt", AIKEN.encode())
        await tg.wait_for(lambda: len(replies(tg, teacher)) == 12, timeout=60)
        refused = [m for m in replies(tg, teacher) if LIMIT in m.text]
        assert len(refused) == 9
        assert len(await bot.services.store.authored_by(teacher.id)) == 3
        assert len(tg.calls_to("getFile")) == 3  # the refused ones were never downloaded


async def test_three_600_kb_files_at_once_keep_within_one_mb(
    tg: FakeTelegram, db_path: Path
) -> None:
    teacher = tg.add_user(5102, "Teacher", language_code="en")
    files = [gift_zip(noisy_png(450), stored=True) for _ in range(3)]
    assert all(600_000 < len(f) < 1024 * 1024 for f in files)
    async with BotHarness(tg, db_path, env={"QUIZBOT_UPLOAD_MB_PER_DAY": "1"}) as bot:
        for n, data in enumerate(files):
            tg.user_sends_document(teacher, f"week{n}.zip", data)
        await tg.wait_for(lambda: len(replies(tg, teacher)) == 3, timeout=60)
        assert len([m for m in replies(tg, teacher) if LIMIT in m.text]) == 2
        assert len(await bot.services.store.authored_by(teacher.id)) == 1
        # a refused upload does not count: a small file still fits the day
        await upload(tg, teacher, "small.txt", AIKEN.encode(), "saved as")


async def test_zero_padded_pictures_in_a_small_zip_are_refused(
    tg: FakeTelegram, db_path: Path
) -> None:
    teacher = tg.add_user(5103, "Teacher", language_code="en")
    padded = PICTURE + bytes(4 * 1024 * 1024)  # after the picture's end: zeros
    data = gift_zip(padded)
    assert len(data) < 60_000
    async with BotHarness(tg, db_path) as bot:
        reply = await upload(tg, teacher, "week1.zip", data, "much larger than its picture needs")
        assert "saved as" not in reply.text or "pics/fig.png" in reply.text
        assert kept_pictures(db_path) == 0
        for row in await bot.services.store.authored_by(teacher.id):
            assert "pictures/" not in (await bot.services.store.authored_text(row.quiz_no) or "")
        # a header that lies about the picture (a PNG cut short) is refused too
        broken = png(40, 30)[:-20]
        await upload(tg, teacher, "week2.zip", gift_zip(broken), "damaged")
        assert kept_pictures(db_path) == 0


async def test_what_a_user_keeps_is_capped_as_stored(tg: FakeTelegram, db_path: Path) -> None:
    teacher = tg.add_user(5104, "Teacher", language_code="en")
    env = {"QUIZBOT_USER_STORAGE_MB": "1"}
    async with BotHarness(tg, db_path, env=env) as bot:
        await upload(tg, teacher, "a.zip", gift_zip(noisy_png(450), stored=True), "saved as")
        said = await upload(
            tg, teacher, "b.zip", gift_zip(noisy_png(450), stored=True), "1 MB each person"
        )
        assert "/deletequiz" in said.text
        assert len(await bot.services.store.authored_by(teacher.id)) == 1
        assert kept_pictures(db_path) == 1


async def test_a_draft_holds_at_most_its_photos_and_a_replaced_one_is_dropped(
    tg: FakeTelegram, db_path: Path
) -> None:
    teacher = tg.add_user(5105, "Teacher", language_code="en")
    async with BotHarness(tg, db_path, env={"QUIZBOT_DRAFT_PHOTOS": "2"}):
        await say(tg, teacher, "/newquiz Figures", "Now send the questions")
        for n in range(1, 4):
            await poll(tg, teacher, f"Question {n} added", f"Figure {n}?", ["a", "b"])
            if n < 3:
                await photo(tg, teacher, png(4 + n, 3), f"Picture added to question {n}")
        await photo(tg, teacher, png(9, 3), "as many as a quiz being written may hold")
        assert kept_pictures(db_path) == 2
        await poll(tg, teacher, "Question 4 added", "Figure 4?", ["a", "b"])
        await photo(tg, teacher, png(8, 3), "as many as a quiz being written may hold")
        assert kept_pictures(db_path) == 2
        await say(tg, teacher, "/cancel", "")  # given up: its pictures go
        await tg.wait_for(lambda: kept_pictures(db_path) == 0)


async def test_a_replaced_draft_picture_and_a_deleted_quiz_drop_their_pictures(
    tg: FakeTelegram, db_path: Path
) -> None:
    teacher = tg.add_user(5106, "Teacher", language_code="en")
    first, second = png(5, 4, colour=10), png(5, 4, colour=200)
    async with BotHarness(tg, db_path) as bot:
        await say(tg, teacher, "/newquiz Figures", "Now send the questions")
        await poll(tg, teacher, "Question 1 added", "Figure?", ["a", "b"])
        await photo(tg, teacher, first, "Picture added to question 1")
        await photo(tg, teacher, second, "Picture added to question 1")  # replaces the first
        with sqlite3.connect(db_path) as conn:
            kept = {r[0] for r in conn.execute("SELECT sha256 FROM images WHERE data IS NOT NULL")}
        assert kept == {check(second).sha256}
        await say(tg, teacher, "/done", "saved as")
        [row] = await bot.services.store.authored_by(teacher.id)
        assert kept_pictures(db_path) == 1
        asked = await say(tg, teacher, f"/deletequiz {row.name}", row.name)
        confirm = next(d for r in asked.buttons for label, d in r if d and "Delete" in label)
        await tg.wait_answered(tg.tap(teacher.id, teacher, asked.message_id, confirm))
        await tg.wait_for(lambda: kept_pictures(db_path) == 0)


async def test_below_the_disk_reserve_uploads_are_refused_and_answers_go_on(
    tg: FakeTelegram, db_path: Path
) -> None:
    teacher = tg.add_user(5107, "Teacher", language_code="en")
    env = {"QUIZBOT_DISK_RESERVE_MB": "1000000"}  # a terabyte kept free: never here
    async with BotHarness(tg, db_path, env=env) as bot:
        await upload(tg, teacher, "layers.txt", AIKEN.encode(), "storage is nearly full")
        assert not tg.calls_to("getFile")
        assert await bot.services.store.authored_by(teacher.id) == []
        tg.user_says(teacher.id, teacher, "/quiz")
        await tg.wait_for(lambda: tg.messages(teacher.id)[-1].buttons)
        listed = tg.messages(teacher.id)[-1]
        tg.tap(teacher.id, teacher, listed.message_id, listed.buttons[0][0][1] or "")
        question = await tg.wait_for(lambda: open_question(tg, teacher.id, 1))
        answer = await tg.wait_answered(
            tg.tap(teacher.id, teacher, question.message_id, question.buttons[0][0][1] or "")
        )
        assert answer.text is not None and "Sorry" not in answer.text


async def test_a_quiz_poll_s_photo_counts_as_a_photo_sent(tg: FakeTelegram, db_path: Path) -> None:
    teacher = tg.add_user(5108, "Teacher", language_code="en")
    env = {"QUIZBOT_DRAFT_PHOTOS": "1", "QUIZBOT_UPLOADS_PER_DAY": "2"}
    async with BotHarness(tg, db_path, env=env):
        await say(tg, teacher, "/newquiz Figures", "Now send the questions")
        await poll(tg, teacher, "Question 1 added", "Figure 1?", ["a", "b"], media=png(5, 3))
        said = await poll(tg, teacher, "Question 2 added", "Figure 2?", ["a", "b"], media=png(6, 3))
        assert "as many as a quiz being written may" in said.text
        assert kept_pictures(db_path) == 1
        # a new draft: the photo limit is free again; the day's uploads are not
        await say(tg, teacher, "/cancel", "")
        await say(tg, teacher, "/newquiz Others", "Now send the questions")
        await poll(tg, teacher, "Question 1 added", "Figure 1?", ["a", "b"], media=png(7, 3))
        await say(tg, teacher, "/cancel", "")
        await say(tg, teacher, "/newquiz Third", "Now send the questions")
        said = await poll(tg, teacher, "Question 1 added", "F?", ["a", "b"], media=png(8, 3))
        assert "no room for it now" in said.text
        assert len(tg.calls_to("getFile")) == 2  # the refused photos were never downloaded
