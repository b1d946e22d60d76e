"""An authored quiz poll with a photo: the poll's photo (Bot API 10.0
``Poll.media``) becomes its question's picture, kept in SQLite as a photo sent on its own is, and
goes with the question when the quiz runs in a group; any other media on the poll, and media in
its explanation, is named in the reply as not kept, never dropped silently."""

from __future__ import annotations

from pathlib import Path

import pytest
from authorkit import draft_count, poll, say
from fakebot import FakeTelegram
from harness import BotHarness
from picturekit import PICTURE, photo_messages, run_picture_question
from quizkit import populate

from bot.core.images import PollExtras, check
from bot.features.authoring import drafts
from bot.features.authoring.views import poll_notes


async def test_a_quiz_polls_photo_goes_with_its_question_in_a_group(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=2)
    teacher = cls.creator
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        await say(tg, teacher, "/newquiz Layouts", "Now send the questions")
        added = await poll(
            tg,
            teacher,
            "Question 1 added",
            "Which layout does this figure show?",
            ["Tensor parallel", "Pipeline parallel"],
            correct=[0],
            explanation="Each layer is split across the devices.",
            media=PICTURE,
            explanation_media="video",
        )
        assert "The poll's photo goes with this question." in added.text
        assert "The video in this quiz's explanation was not kept" in added.text
        assert added.buttons  # Undo, as for every question
        # the largest size was downloaded (the thumbnail is not the picture), once
        [download] = tg.files.downloads
        assert tg.files.by_path[download].data == PICTURE
        current = await store.draft(teacher.id)
        assert current is not None
        [question] = drafts.from_json(current.questions)
        assert question.image == f"pictures/{check(PICTURE).stored_name}"
        stored = await store.image_data(check(PICTURE).sha256)
        assert stored is not None and stored[0] == PICTURE
        await say(tg, teacher, "/done", "saved as")
        [row] = await store.authored_by(teacher.id)
        text = await store.authored_text(row.quiz_no) or ""
        assert f"pictures/{check(PICTURE).stored_name}" in text
        # in the group: the question is the photo's caption, with its keyboard; taps work
        await run_picture_question(tg, cls, row.name)
    [send] = tg.calls_to("sendPhoto")
    assert send.status == 200 and not send.files  # by the file_id the poll's photo came with
    assert tg.api.photos.uploads == 0
    [posted] = photo_messages(tg, cls.chat_id)
    assert posted.photo is not None and posted.photo.data == PICTURE


@pytest.mark.parametrize(
    ("kind", "named"),
    [
        ("video", "⚠️ এই পোলের ভিডিও রাখা হয়নি: একটি প্রশ্নে শুধু ছবি দেখানো যায়।"),
        ("document", "⚠️ এই পোলের ফাইল রাখা হয়নি"),
    ],
    ids=["video", "document"],
)
async def test_a_polls_video_is_named_not_kept_and_the_question_added(
    tg: FakeTelegram, db_path: Path, kind: str, named: str
) -> None:
    teacher = tg.add_user(73, "Rina", language_code="bn")
    async with BotHarness(tg, db_path) as bot:
        await say(tg, teacher, "/newquiz ভিডিও", "এবার প্রশ্ন পাঠান")
        added = await poll(tg, teacher, "প্রশ্ন ১ যোগ হলো", "কোন গ্রহ?", ["মঙ্গল", "শুক্র"], media=kind)
        assert named in added.text
        assert not tg.files.downloads  # nothing of it fetched
        current = await bot.services.store.draft(teacher.id)
        assert current is not None
        [question] = drafts.from_json(current.questions)
        assert question.image is None
        assert await draft_count(bot.services.store, teacher) == 1


async def test_a_polls_photo_that_cannot_be_used_is_named_and_the_question_added(
    tg: FakeTelegram, db_path: Path
) -> None:
    teacher = tg.add_user(74, "Ann")
    async with BotHarness(tg, db_path) as bot:
        await say(tg, teacher, "/newquiz Odd", "Now send the questions")
        added = await poll(
            tg, teacher, "Question 1 added", "Which?", ["a", "b"], media=b"GIF89a but not really"
        )
        assert "The photo on this poll was not kept: " in added.text
        current = await bot.services.store.draft(teacher.id)
        assert current is not None
        [question] = drafts.from_json(current.questions)
        assert question.image is None


def test_options_media_and_a_description_are_named_in_both_languages() -> None:
    extras = PollExtras(option_media=True, description=True, media="other")
    assert [str(n) for n in poll_notes("en", extras)] == [
        "⚠️ The media on this poll was not kept: a question can show only a photo.",
        "⚠️ The media on this poll's options were not kept: options are shown as text.",
        "⚠️ This poll's description was not kept: put what students need in the question or "
        "the explanation.",
    ]
    assert len(poll_notes("bn", extras)) == 3
    assert "মিডিয়া" in str(poll_notes("bn", extras)[0])
