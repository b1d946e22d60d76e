"""Pictures: a question carries one image, from a file beside its bank, a
Moodle XML ``<file>``, or a GIFT ``<img>`` with its file beside; it is posted with the question
(sendPhoto with caption and keyboard, the reveal an editMessageCaption), uploaded once and sent
by its file_id after that; stored quizzes keep it in SQLite; what cannot be used, and every
sound or video, is named in the import's report."""

from __future__ import annotations

import asyncio
import base64
import os
from pathlib import Path

import pytest
from authorkit import photo, poll, say
from fakebot import FakeTelegram
from harness import BotHarness
from importkit import run_import
from picturekit import PICTURE, photo_messages, png, run_picture_question
from quizkit import open_question, populate
from uploadkit import upload

from bot.banks.export import export_quiz
from bot.banks.yaml_reader import load_quiz
from bot.core.images import check
from bot.core.problems import BankError
from bot.render import bank_limits


def moodle_xml(picture: bytes = PICTURE) -> bytes:
    data = base64.b64encode(picture).decode()
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <name><text>Layout</text></name>
    <questiontext format="html">
      <text><![CDATA[<p>Which layout does this figure show?</p>
<p><img src="@@PLUGINFILE@@/lay%20out.png" alt="layout"></p>]]></text>
      <file name="lay out.png" path="/" encoding="base64">{data}</file>
    </questiontext>
    <single>true</single>
    <answer fraction="100" format="html"><text>Tensor parallel</text></answer>
    <answer fraction="0" format="html"><text>Pipeline parallel</text></answer>
  </question>
  <question type="multichoice">
    <name><text>Greeting</text></name>
    <questiontext format="html">
      <text><![CDATA[<p>Listen to this greeting.</p>
<audio controls><source src="@@PLUGINFILE@@/hello.mp3"></audio>]]></text>
      <file name="hello.mp3" path="/" encoding="base64">SUQz</file>
    </questiontext>
    <single>true</single>
    <answer fraction="100" format="html"><text>Good morning</text></answer>
    <answer fraction="0" format="html"><text>Good night</text></answer>
  </question>
</quiz>
""".encode()


async def test_a_moodle_picture_is_posted_with_its_question_and_uploaded_once(
    tg: FakeTelegram,
    db_path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "layouts.xml"
    source.write_bytes(moodle_xml())
    code, lines, _ = run_import(tmp_path, capsys, str(source), "--id", "layouts")
    # the sound is named in the report, never dropped silently
    assert lines == [
        "layouts.xml question #2: sound or video hello.mp3 dropped (a question can show only a "
        "picture)."
    ]
    assert code == 1
    quiz = load_quiz(tmp_path / "out" / "layouts.yaml", bank_limits())
    image = quiz.questions[0].image
    assert image is not None and quiz.questions[1].image is None
    assert image.sha256 == check(PICTURE).sha256
    assert (tmp_path / "out" / image.file).read_bytes() == PICTURE

    cls = populate(tg, students=3)
    chat = cls.chat_id
    env = {"QUIZBOT_QUESTIONS": str(tmp_path / "out")}
    async with BotHarness(tg, db_path, env=env):
        await run_picture_question(tg, cls, "layouts")
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "— results") is not None)
    # a second run, after a restart: the picture goes by its file_id, not uploaded again
    async with BotHarness(tg, db_path, env=env):
        await run_picture_question(tg, cls, "layouts")
    sends = tg.calls_to("sendPhoto")
    assert len(sends) == 2 and all(c.status == 200 for c in sends)
    assert sends[0].files and not sends[1].files
    assert sends[1].params["photo"] == photo_messages(tg, chat)[0].photo.file_id  # type: ignore[union-attr]
    assert tg.api.photos.uploads == 1
    assert tg.calls_to("editMessageCaption")


async def test_a_stored_quiz_keeps_its_picture_in_sqlite_after_a_restart(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    cls = populate(tg, students=2)
    teacher = cls.creator
    async with BotHarness(tg, db_path) as bot:
        reply = await upload(tg, teacher, "layouts.xml", moodle_xml(), "saved as")
        assert "hello.mp3" in reply.text  # the sound named to the teacher
        [row] = await bot.services.store.authored_by(teacher.id)
        assert "pictures/" in (await bot.services.store.authored_text(row.quiz_no) or "")
    async with BotHarness(tg, db_path):  # restarted: the picture comes from SQLite
        await run_picture_question(tg, cls, row.name)
    [send] = tg.calls_to("sendPhoto")
    assert send.files and next(iter(send.files.values()))[1] == len(PICTURE)
    # exported as a bank file with its picture beside it, which validates
    target = tmp_path / "export" / "layouts.yaml"
    target.parent.mkdir()
    code = await asyncio.to_thread(export_quiz, tmp_path, db_path, row.name, target, "en")
    assert code == 0
    exported = load_quiz(target, bank_limits())
    assert exported.questions[0].image == check(PICTURE).image(
        f"pictures/{check(PICTURE).stored_name}"
    )


def test_a_gift_picture_beside_the_file_and_a_missing_one_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "src"
    (folder / "pics").mkdir(parents=True)
    (folder / "pics" / "cat.png").write_bytes(PICTURE)
    gift = folder / "animals.gift"
    gift.write_text(
        '::Cat:: [html]<p>This picture represents…</p><img src="pics/cat.png"> '
        "{=a cat ~a dog}\n\n"
        '::Gone:: [html]What is this? <img src="pics/gone.png"> {=a bird ~a fish}\n\n'
        '::Hello:: [html]Listen: <a href="media/hello.mp3">greeting</a> {=Hello ~Bye}\n',
        encoding="utf-8",
    )
    code, lines, _ = run_import(tmp_path, capsys, str(gift), "--id", "animals")
    assert code == 1
    assert sorted(lines) == [
        "animals.gift:3: picture pics/gone.png was not found (give its file beside the question "
        "file, or send a .zip with both); the question is imported without it.",
        "animals.gift:5: sound or video media/hello.mp3 dropped (a question can show only a "
        "picture).",
    ]
    quiz = load_quiz(tmp_path / "out" / "animals.yaml", bank_limits())
    cat, gone, hello = quiz.questions
    assert cat.text.en == "This picture represents…"  # the tag is not text
    assert cat.image is not None and cat.image.sha256 == check(PICTURE).sha256
    assert gone.image is None and hello.image is None


BANK = """\
title: Pictures
language: en
questions:
  - id: q1
    question: What is shown?
    options: [A cat, A dog]
    correct: 1
    image: {image}
"""


def test_a_bank_names_a_picture_beside_it_and_never_outside(tmp_path: Path) -> None:
    folder = tmp_path / "banks"
    (folder / "pics").mkdir(parents=True)
    (folder / "pics" / "q1.png").write_bytes(PICTURE)
    bank = folder / "pets.yaml"
    bank.write_text(BANK.format(image="pics/q1.png"), encoding="utf-8")
    quiz = load_quiz(bank, bank_limits())
    assert quiz.questions[0].image is not None
    assert quiz.questions[0].image.sha256 == check(PICTURE).sha256
    assert quiz.to_dict()["questions"][0]["image"] == "pics/q1.png"

    (tmp_path / "secret.png").write_bytes(PICTURE)
    os.symlink(tmp_path / "secret.png", folder / "pics" / "link.png")
    (folder / "pics" / "notes.png").write_bytes(b"not a picture")
    (folder / "pics" / "thin.png").write_bytes(png(400, 10))
    refused = {
        "../secret.png": "must be a path inside the bank's folder",
        str(tmp_path / "secret.png"): "must be a path inside the bank's folder",
        "pics/link.png": "must be a path inside the bank's folder",
        "pics/none.png": "was not found beside the bank file",
        "pics/notes.png": "not a JPEG, PNG, GIF or WebP picture",
        "pics/thin.png": "400×10 pixels",
    }
    for name, said in refused.items():
        bank.write_text(BANK.format(image=name), encoding="utf-8")
        with pytest.raises(BankError) as caught:
            load_quiz(bank, bank_limits())
        [problem] = caught.value.problems
        assert said in str(problem) and problem.line == 8, (name, str(problem))


LONG = """\
title: Long
language: en
questions:
  - id: q1
    question: "{long}"
    options: [A cat, A dog]
    correct: 1
    image: pics/q1.png
  - id: q2
    question: What is shown here?
    options: [A cat, A dog]
    correct: 1
    image: pics/q1.png
"""


async def test_a_question_too_long_for_a_caption_follows_its_photo_and_practice_too(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "banks"
    (folder / "pics").mkdir(parents=True)
    (folder / "pics" / "q1.png").write_bytes(PICTURE)
    (folder / "long.yaml").write_text(LONG.format(long="Look closely. " * 80), encoding="utf-8")
    cls = populate(tg, students=2)
    chat = cls.chat_id
    async with BotHarness(tg, db_path, env={"QUIZBOT_QUESTIONS": str(folder)}):
        tg.user_says(chat, cls.creator, "/quiz long 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1), what="question 1 as text")
        # 1,120 characters: the photo first, without a caption, then the question as text
        [photo] = photo_messages(tg, chat)
        assert photo.text == "" and not photo.buttons
        assert q1.photo is None and q1.message_id == photo.message_id + 1
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2), what="question 2")
        revealed = tg.stored_message(chat, q1.message_id)
        assert revealed is not None and "✅" in revealed.text and not revealed.buttons
        assert q2.photo is not None and "What is shown here?" in q2.text  # fits: a caption
        assert q2.photo.file_id == photo.photo.file_id  # type: ignore[union-attr]
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "— results") is not None)

        # practice in private: the picture first, the question after it (edited as text)
        student = cls.students[0]
        tg.user_says(student.id, student, "/quiz long")
        await tg.wait_for(lambda: open_question(tg, student.id, 1), what="practice question")
        assert len(photo_messages(tg, student.id)) == 1
    assert tg.api.photos.uploads == 1  # one picture, uploaded once for every chat


async def test_a_photo_sent_while_writing_goes_with_the_question_before_it(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=2)
    teacher = cls.creator
    async with BotHarness(tg, db_path) as bot:
        await say(tg, teacher, "/newquiz Layouts", "Now send the questions")
        await photo(tg, teacher, PICTURE, "send the question first")  # nothing to attach it to yet
        await poll(
            tg,
            teacher,
            "Question 1 added",
            "Which layout does this figure show?",
            ["Tensor parallel", "Pipeline parallel"],
            correct=[0],
        )
        await photo(
            tg, teacher, b"GIF89a but not really", "cannot be used"
        )  # refused, named, no change
        await photo(tg, teacher, PICTURE, "Picture added to question 1")
        await say(tg, teacher, "/done", "saved as")
        [row] = await bot.services.store.authored_by(teacher.id)
        text = await bot.services.store.authored_text(row.quiz_no) or ""
        assert f"pictures/{check(PICTURE).stored_name}" in text
    async with BotHarness(tg, db_path):  # after a restart, from SQLite, by the author's file_id
        await run_picture_question(tg, cls, row.name)
    [send] = tg.calls_to("sendPhoto")
    assert not send.files and tg.api.photos.uploads == 0  # the photo Telegram already has
