"""The buttons ``g:`` (a saved quiz's card), ``rg:`` (a /regrade preview),
``rr:`` (a re-grade under a student's report) and ``k:`` (a "which quiz?" list) refuse a forged,
wrong-user or wrong-chat tap with a polite alert (the callback answered) and change nothing.
Each test ends with the rightful tap doing what the refused ones would have done."""

from __future__ import annotations

import functools
from pathlib import Path

from authorkit import write_quiz
from fakebot import FakeTelegram
from quizkit import populate
from refusalkit import answers, greeted, played_with_a_wrong_answer, refused
from regradekit import command
from teacherkit import FrozenClock, harness


async def test_a_saved_quiz_card_is_its_authors(tg: FakeTelegram, db_path: Path) -> None:
    """``g:QUIZ:s`` / ``g:QUIZ:h``: the author's, in their private chat."""
    cls = populate(tg, students=1)
    teacher, (student,) = cls.creator, cls.students
    async with harness(tg, db_path, FrozenClock()):
        mine = await greeted(tg, student)
        await greeted(tg, teacher)
        await write_quiz(tg, teacher, "Cells")
        card = next(m for m in reversed(tg.messages(teacher.id)) if "saved as" in m.text)
        share = next(d for row in card.buttons for _, d in row if d and d.startswith("g:"))
        assert share == "g:u.1:s"
        before = {c: len(tg.messages(c)) for c in (student.id, cls.chat_id, teacher.id)}
        # another user, in their own chat (forged) or on the author's message; the author in
        # the group: each refused, nothing sent anywhere
        for data in (share, "g:u.1:h"):
            await refused(tg, student.id, student, mine.message_id, data, "alert_invalid")
        await refused(tg, teacher.id, student, card.message_id, share, "alert_invalid")
        await refused(tg, cls.chat_id, teacher, 1, share, "alert_invalid")
        await refused(tg, cls.chat_id, student, 1, share, "alert_invalid")
        assert {c: len(tg.messages(c)) for c in before} == before
        # the author's own tap sends the share link
        await tg.wait_answered(tg.tap(teacher.id, teacher, card.message_id, share))
        await tg.wait_for(lambda: tg.find_message(teacher.id, "start=sq-"))


async def test_regrade_buttons_are_the_groups_moderators(tg: FakeTelegram, db_path: Path) -> None:
    """``rg:`` (in the group, its moderators, a quiz they may see there) and ``rr:`` (in a
    private chat, a moderator of the run's group)."""
    cls = populate(tg, students=1)
    chat, teacher, (student,) = cls.chat_id, cls.creator, cls.students
    clock = FrozenClock()
    async with harness(tg, db_path, clock) as bot:
        mine, own = await greeted(tg, student), await greeted(tg, teacher)
        await write_quiz(tg, cls.outsider, "Secret")  # u.1: another author's, not shared
        wrong = await played_with_a_wrong_answer(tg, cls, bot)
        preview = await command(tg, chat, teacher, f"/regrade zero 1 {'ABCD'[wrong]}", "✏️", clock)
        apply = f"rg:zero:1:{wrong}:y"
        assert apply in [d for row in preview.buttons for _, d in row]
        stored = answers(db_path)

        # rg: a student in the group; the moderator in a private chat; a forged quiz
        await refused(tg, chat, student, preview.message_id, apply, "alert_mod_only")
        await refused(tg, chat, cls.outsider, preview.message_id, apply, "alert_mod_only")
        await refused(tg, teacher.id, teacher, own.message_id, apply, "alert_invalid")
        for forged in ("rg:u.1:1:0:y", "rg:u.9:1:0:y"):
            await refused(tg, chat, teacher, preview.message_id, forged, "alert_invalid")
        # rr: a student privately (forged); the moderator in the group; no such run
        report_apply = f"rr:1:1:{wrong}:y"
        await refused(tg, student.id, student, mine.message_id, report_apply, "alert_mod_only")
        await refused(tg, chat, teacher, preview.message_id, report_apply, "alert_invalid")
        await refused(tg, teacher.id, teacher, own.message_id, "rr:99:1:0:y", "alert_invalid")
        await refused(tg, teacher.id, student, own.message_id, report_apply, "alert_invalid")
        assert answers(db_path) == stored
        assert not (tg.stored_message(chat, preview.message_id) or preview).edits

        # the moderator's own tap applies it
        await tg.wait_answered(tg.tap(chat, teacher, preview.message_id, apply))
        await tg.wait_for(lambda: answers(db_path) != stored, what="re-graded")


async def test_a_picked_quiz_runs_only_as_the_typed_command_would(
    tg: FakeTelegram, db_path: Path
) -> None:
    """``k:COMMAND:QUIZ``: the command's own who/where checks, as an alert; a real command and
    a real quiz."""
    cls = populate(tg, students=1)
    chat, teacher, (student,) = cls.chat_id, cls.creator, cls.students
    async with harness(tg, db_path, FrozenClock()) as bot:
        own = await greeted(tg, teacher)
        tg.user_says(chat, teacher, "/homework nosuchquiz")
        listing = await tg.wait_for(lambda: tg.find_message(chat, "There is no quiz"))
        pick = "k:homework:zero"
        assert [d for row in listing.buttons for _, d in row] == [pick]
        before = len(tg.messages(chat))
        await refused(tg, chat, student, listing.message_id, pick, "not_moderator")
        await refused(tg, teacher.id, teacher, own.message_id, pick, "alert_invalid")
        for forged in ("k:homework:nosuchquiz", "k:homework:u.7", "k:frobnicate:zero"):
            await refused(tg, chat, teacher, listing.message_id, forged, "alert_invalid")
        assert len(tg.messages(chat)) == before  # not a word in the group
        assert await bot.services.store.open_homework() == []

        await tg.wait_answered(tg.tap(chat, teacher, listing.message_id, pick))
        await tg.wait_for(functools.partial(tg.find_message, chat, "Homework: ZeRO"))
