"""A key fixed by a re-grade is the quiz's key from then on, in English and in Bengali: a student's
report on an open homework leads the teacher to fix the key from their private chat; the answers
given are re-scored, the group gets one line without names, the homework still open, the share
link's practice and a restart judge by the new key, the report is resolved in /analysis, and
the no-argument /regrade offers nothing that would undo the fix."""

from __future__ import annotations

import asyncio
import functools
import re
import sqlite3
from pathlib import Path

import pytest
from authorkit import say, write_quiz
from fakebot import BOT_USERNAME, FakeTelegram, StoredMessage, User
from harness import BotHarness
from homeworkkit import totals_match_answers
from quizkit import ROOT, Class, open_question, options_shown, populate, run_of, start_quiz, until
from regradekit import command, tap_bank
from reportkit import regrade_offers, report_from_review, take
from teacherkit import FrozenClock, harness

from bot.cli import main
from bot.core.bank import Quiz
from bot.i18n import num, t_plain
from bot.i18n.lang import Lang

NOTICE = {
    "en": "the right answer of question 1 was corrected",
    "bn": "প্রশ্ন ১-এর সঠিক উত্তর সংশোধন করে পয়েন্ট আবার গোনা",
}
NOTHING = {"en": "Nothing to change", "bn": "কিছু বদলানোর নেই"}
RESOLVED = {"en": "reports resolved by a key fix: 1", "bn": "মীমাংসিত রিপোর্ট: ১"}
ANALYSIS = {"en": "Question analysis", "bn": "প্রশ্ন বিশ্লেষণ"}


def stored(db: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute(sql, args))


def rights(db: Path, user: User, mode: str) -> tuple[int, int]:
    """(right answers, points) of the user's answers in runs of ``mode``, as stored."""
    ((right, points),) = stored(
        db,
        "SELECT COALESCE(SUM(a.correct), 0), COALESCE(SUM(a.points), 0) FROM answers AS a"
        " JOIN runs AS r ON r.run_id = a.run_id WHERE a.user_id = ? AND r.mode = ?",
        user.id,
        mode,
    )
    return int(str(right)), int(str(points))


def newest_with(tg: FakeTelegram, user: User, prefix: str, end: str) -> StoredMessage | None:
    """The newest private message to ``user`` with a button ``prefix…end``."""
    for message in reversed(tg.messages(user.id)):
        for row in message.buttons:
            for _, data in row:
                if data and data.startswith(prefix) and data.endswith(end):
                    return message
    return None


def button(message: StoredMessage, prefix: str, end: str) -> str:
    return next(
        d
        for row in message.buttons
        for _, d in row
        if d and d.startswith(prefix) and d.endswith(end)
    )


async def practise_wrong(tg: FakeTelegram, student: User, payload: str) -> None:
    """The student opens the share link and picks "wrong" on both questions."""
    tg.user_says(tg.private_chat(student), student, f"/start {payload}")
    for n in (1, 2):
        shown = await tg.wait_for(functools.partial(open_question, tg, student.id, n))
        pick = next(label for label, text in options_shown(shown).items() if text == "wrong")
        data = next(d for row in shown.buttons for t, d in row if t.startswith(pick) and d)
        await tg.wait_answered(tg.tap(student.id, student, shown.message_id, data))


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_a_key_fixed_from_a_report_stays_the_quizs_key(
    tg: FakeTelegram, db_path: Path, lang: Lang
) -> None:
    cls = populate(tg, students=4)
    chat = cls.chat_id
    teacher = cls.creator
    reporter, _, later, _ = cls.students  # the even ones read English
    practiser = tg.add_user(5000, "Rumi", language_code=lang)  # not in the group: the link
    clock = FrozenClock()
    # homework counts in the group's standings here (``/me`` after the fix is checked)
    async with harness(tg, db_path, clock, QUIZBOT_HOMEWORK_RESULTS="group") as bot:
        for user in (teacher, reporter, later, practiser):
            tg.user_says(tg.private_chat(user), user, "/start")
            await tg.wait_for(functools.partial(tg.messages, user.id))
        name = await write_quiz(tg, teacher, "Cells", count=2)  # key: "right" (A)
        shared = await say(tg, teacher, f"/share {name}", "Anyone who opens this link")
        link = re.search(rf"https://t\.me/{BOT_USERNAME}\?start=(sq-[A-Za-z0-9_-]+)", shared.text)
        assert link is not None
        await say(tg, teacher, f"/lang {lang}", t_plain(lang, "lang_set"))
        await command(tg, chat, teacher, f"/lang {lang}", t_plain(lang, "lang_set"), clock)
        tg.user_says(chat, teacher, f"/homework {name} 3d")
        await tg.wait_for(lambda: tg.find_message(chat, "Cells"), what="card")

        # the reporter took "wrong" for question 1, and says the key is wrong
        await take(tg, reporter, 2, wrong={0})
        assert rights(db_path, reporter, "homework")[0] == 1
        await report_from_review(tg, clock, reporter)  # a day later: the homework is open
        (told,) = await tg.wait_for(lambda: regrade_offers(tg, teacher) or None, what="told")
        make_wrong = button(told, "rr:", ":1:1:p")  # question 1's key becomes option B
        await tg.wait_answered(tg.tap(teacher.id, teacher, told.message_id, make_wrong))
        preview = await tg.wait_for(
            lambda: newest_with(tg, teacher, "rr:", ":1:1:y"), what="preview"
        )
        apply = button(preview, "rr:", ":1:1:y")
        tapped = await tg.wait_answered(tg.tap(teacher.id, teacher, preview.message_id, apply))
        assert not tapped.show_alert  # not refused because the homework is open
        await tg.wait_for(
            lambda: (
                "/leaderboard"
                in (tg.stored_message(teacher.id, preview.message_id) or preview).text
            ),
            what="applied",
        )
        # the answers given are re-scored; the group is told in one line, without names
        assert rights(db_path, reporter, "homework")[0] == 2
        notice = await tg.wait_for(lambda: tg.find_message(chat, NOTICE[lang]), what="notice")
        assert "/me" in notice.text
        assert all(s.first_name not in notice.text for s in cls.students)
        points = rights(db_path, reporter, "homework")[1]
        clock.advance(21)
        tg.user_says(
            chat, reporter, "/me", ephemeral=False
        )  # the group's budget is spent: answered privately
        shown = f"{num(lang, '1')} · {num(lang, str(points))}"
        me = await tg.wait_for(lambda: tg.find_message(reporter.id, shown), what="/me")
        assert me is not None  # /me counts by the new verdicts

        # the homework still open judges by the new key: "wrong" is right now
        await take(tg, later, 2, wrong={0})
        assert rights(db_path, later, "homework")[0] == 2
        # and so does the share link's practice
        await practise_wrong(tg, practiser, link[1])
        await tg.wait_for(
            lambda: stored(
                db_path,
                "SELECT 1 FROM answers AS a JOIN runs AS r ON r.run_id = a.run_id"
                " WHERE a.user_id = ? AND r.mode = 'practice' AND a.q_index = 1",
                practiser.id,
            ),
            what="practice answered",
        )
        # practice keeps no points; its verdict is what counts: question 1 right, 2 wrong
        verdicts = stored(
            db_path,
            "SELECT a.question_id, a.correct FROM answers AS a JOIN runs AS r"
            " ON r.run_id = a.run_id WHERE a.user_id = ? AND r.mode = 'practice'",
            practiser.id,
        )
        assert sorted(int(str(c)) for _, c in verdicts) == [0, 1]

        # nothing offers to undo the fix unnamed: the current keys change nothing
        await command(tg, chat, teacher, f"/regrade {name}", NOTHING[lang], clock)
        # the report is resolved by the fix, and the analysis speaks of one key
        await command(tg, chat, teacher, f"/analysis {name}", "", clock)
        report = await tg.wait_for(lambda: tg.find_message(teacher.id, ANALYSIS[lang]))
        assert RESOLVED[lang] in report.text
        # question 1 by one key: both "wrong" answers, before and after the fix, are right
        q1 = report.text.split("Cells question 2?")[0]
        stats = t_plain(lang, "an_item_stats", answered=2, right=2, percent=num(lang, "100%"))
        assert stats in q1
        # who fixed what, when
        ((question_id, key, old_key, by, where),) = stored(
            db_path, "SELECT question_id, key, old_key, user_id, chat_id FROM key_fixes"
        )
        assert (key, old_key, by, where) == (
            '{"options": [1]}',
            '{"options": [0]}',
            teacher.id,
            chat,
        )
        ((resolved,),) = stored(db_path, "SELECT resolved_by FROM reports")
        assert resolved is not None
        quiz_id = bot.services.authored.by_name(name)
        assert quiz_id is not None
        text = await bot.services.store.authored_text(quiz_id.quiz_no)
        assert text is not None  # the stored quiz itself changed: question 1's key is option 2
        assert text.index("correct: 2") < text.index("- id: q2") < text.index("correct: 1")
    totals_match_answers(db_path)
    # after a restart the stored quiz still has the fixed key
    async with harness(tg, db_path, clock) as bot:
        row = bot.services.authored.by_name(name)
        assert row is not None
        quiz = bot.services.catalog[row.quiz_id]
        assert quiz.questions[0].id == question_id and quiz.questions[0].correct == 1


LOCALE = {"en": "C.UTF-8", "bn": "bn_BD.UTF-8"}
VALIDATE = {
    "en": "fixed: zero: question 1 is answered by {letter} since",
    "bn": "সংশোধিত: zero: প্রশ্ন ১-এর উত্তর",
}


async def zero_in(
    tg: FakeTelegram, bot: BotHarness, cls: Class, lang: Lang, clock: FrozenClock
) -> tuple[Quiz, int, int]:
    """The group speaks ``lang``; the zero bank, question 1's right option and a wrong one."""
    quiz = bot.services.catalog["zero"]
    right = quiz.questions[0].correct
    await command(tg, cls.chat_id, cls.creator, f"/lang {lang}", t_plain(lang, "lang_set"), clock)
    return quiz, right, (right + 1) % len(quiz.questions[0].options)


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_a_folder_banks_fixed_key_is_kept_over_its_file(
    tg: FakeTelegram,
    db_path: Path,
    lang: Lang,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``/regrade zero 1 X`` on a shipped bank file: the file is not written, the fix is laid
    over it after a restart and a /reload, and ``quizbot validate`` names it."""
    cls = populate(tg, students=2)
    chat = cls.chat_id
    clock = FrozenClock()
    async with harness(tg, db_path, clock) as bot:
        quiz, right, wrong = await zero_in(tg, bot, cls, lang, clock)
        # nobody answered yet: the key alone changes, and that is offered as such
        only = t_plain(lang, "regrade_preview_key_only")
        regrade = f"/regrade zero 1 {'ABCD'[wrong]}"
        preview = await command(tg, chat, cls.creator, regrade, only, clock)
        assert t_plain(lang, "regrade_preview_key_only") in preview.text
        apply = f"rg:zero:1:{wrong}:y"
        await tg.wait_answered(tg.tap(chat, cls.creator, preview.message_id, apply))
        await tg.wait_for(
            lambda: (
                t_plain(lang, "regrade_kept")
                in (tg.stored_message(chat, preview.message_id) or preview).text
            ),
            what="kept",
        )
        assert bot.services.catalog["zero"].questions[0].correct == wrong
        # no points changed: no notice in the group
        assert not tg.find_message(chat, NOTICE[lang])
        # putting the file's key back is offered only as an undo of the fix
        undo = await command(tg, chat, cls.creator, f"/regrade zero 1 {'ABCD'[right]}", only, clock)
        undoes = re.sub("<[^>]+>", "", t_plain(lang, "regrade_undoes", n=1, when="X"))
        assert all(part[:20] in undo.text for part in undoes.split("X"))
    async with harness(tg, db_path, clock) as bot:  # a restart reads the file again
        assert bot.services.catalog["zero"].questions[0].correct == wrong
        await command(tg, chat, cls.creator, "/reload", "", clock)
        await until(lambda: bot.services.catalog["zero"] is not quiz)
        assert bot.services.catalog["zero"].questions[0].correct == wrong
    questions = ROOT / "questions"
    capsys.readouterr()
    env = {"QUIZBOT_DB": str(db_path), "QUIZBOT_QUESTIONS": str(questions), "LANG": LOCALE[lang]}
    assert await asyncio.to_thread(main, ["validate"], env) == 0
    err = capsys.readouterr().err
    assert VALIDATE[lang].format(letter="ABCD"[wrong]) in err


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_recaps_after_a_fix_follow_the_new_verdicts(
    tg: FakeTelegram, db_path: Path, lang: Lang
) -> None:
    """A live run's student asks for their recap after a re-grade made their answer right: the
    recap counts it right; the group was told in one line."""
    cls = populate(tg, students=2)
    chat = cls.chat_id
    student = cls.students[0]
    clock = FrozenClock()
    async with harness(tg, db_path, clock) as bot:
        *_, wrong = await zero_in(tg, bot, cls, lang, clock)
        tg.user_says(tg.private_chat(student), student, f"/lang {lang}")
        first = await start_quiz(tg, cls)
        run_id = run_of(first)
        await tap_bank(tg, bot, cls, student, first, wrong)
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: not bot.services.groups.active(), what="ended")
        clock.advance(21)
        tg.user_says(chat, cls.creator, f"/regrade zero 1 {'ABCD'[wrong]}")
        apply = f"rg:zero:1:{wrong}:y"
        offer = await tg.wait_for(
            lambda: next(
                (m for m in tg.messages(chat) if any(d == apply for r in m.buttons for _, d in r)),
                None,
            ),
            what="preview",
        )
        await tg.wait_answered(tg.tap(chat, cls.creator, offer.message_id, apply))
        await tg.wait_for(lambda: tg.find_message(chat, NOTICE[lang]), what="notice")
        # the recap asked for now: question 1 right, nothing missed
        tg.user_says(tg.private_chat(student), student, f"/start recap_{run_id}")
        perfect = re.sub("<[^>]+>", "", t_plain(lang, "recap_perfect"))
        await tg.wait_for(lambda: tg.find_message(student.id, perfect), what="recap")
