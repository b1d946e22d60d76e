"""End to end: /reload and SIGHUP re-read the questions folder; one-language banks; pick: N.

A running quiz finishes with the questions it started with; a bank that became broken keeps
its last good version served; only QUIZBOT_ADMIN_IDS may reload, and only in private.
"""

from __future__ import annotations

import functools
import shutil
import signal
from pathlib import Path

from botproc import BotProcess
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import ROOT, button_data, correct_label, open_question, populate, until

ADMIN = 5555

EN_ONLY = """\
title: Networks
language: en
questions:
  - id: tcp
    question: How many segments does the TCP handshake exchange?
    options: [Two, Three, Four]
    correct: 2
    explanation: SYN, SYN-ACK, ACK.
  - id: udp
    question: Is UDP connectionless?
    options: ["Yes", "No"]
    correct: 1
"""

BN_PICK = """\
title: নেটওয়ার্কের প্রাথমিক ধারণা
language: bn
settings:
  pick: 2
  shuffle: false
questions:
""" + "".join(
    f"""\
  - id: q{i}
    question: বাংলা প্রশ্ন নম্বর {i}?
    options: [ঠিক {i}, ভুল {i}]
    correct: 1
    explanation: কারণ {i}।
"""
    for i in range(1, 6)
)


def folder(tmp_path: Path) -> Path:
    banks = tmp_path / "banks"
    banks.mkdir()
    shutil.copy(ROOT / "questions" / "zero.yaml", banks / "zero.yaml")
    (banks / "net.yaml").write_text(EN_ONLY, encoding="utf-8")
    (banks / "gone.yaml").write_text(EN_ONLY.replace("Networks", "Gone soon"), encoding="utf-8")
    return banks


async def test_reload_by_admin_only_and_what_it_reports(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    banks = folder(tmp_path)
    cls = populate(tg, students=2)
    admin = tg.add_user(ADMIN, "Root", username="root")
    student = cls.students[0]
    env = {"QUIZBOT_QUESTIONS": str(banks), "QUIZBOT_ADMIN_IDS": str(ADMIN)}
    async with BotHarness(tg, db_path, env=env) as bot:
        catalog = bot.services.catalog
        assert sorted(catalog) == ["gone", "net", "zero"]
        (banks / "fresh.yaml").write_text(EN_ONLY.replace("Networks", "Fresh"), "utf-8")

        # /help shows /reload to the bot's administrators only
        tg.user_says(tg.private_chat(admin), admin, "/help")
        assert "/reload" in (await tg.wait_for_message(ADMIN, "Commands for students")).text
        tg.user_says(tg.private_chat(student), student, "/help")
        assert "/reload" not in (await tg.wait_for_message(student.id, "Commands")).text

        # a student, even a group's creator, may not reload; nothing changes
        for user in (student, cls.creator):
            tg.user_says(tg.private_chat(user), user, "/reload")
            await tg.wait_for_message(user.id, "Only the bot's administrators can do that.")
        # the admin, in a group: only in private
        tg.user_says(cls.chat_id, admin, "/reload")
        await tg.wait_for_message(cls.chat_id, "Use this command in a private chat")
        assert "fresh" not in catalog

        # added, changed, removed, and a broken bank whose last good version stays served
        (banks / "net.yaml").write_text(EN_ONLY.replace("Is UDP", "Is plain UDP"), "utf-8")
        (banks / "gone.yaml").unlink()
        zero_before = catalog["zero"]
        shipped = (ROOT / "questions" / "zero.yaml").read_text("utf-8")
        (banks / "zero.yaml").write_text(shipped.replace("correct: 1", "correct: 9"), "utf-8")
        tg.user_says(tg.private_chat(admin), admin, "/reload")
        report = await tg.wait_for_message(ADMIN, "Questions folder re-read")
        assert "3 quizzes served" in report.text
        assert "➕ Added: fresh" in report.text
        assert "✏️ Changed: net" in report.text
        assert "➖ Removed: gone" in report.text
        assert (
            f"⚠️ Refused: {banks / 'zero.yaml'} its last good version stays served (zero)"
            in report.text
        )
        assert "correct: 9 is out of range (1 to 4)" in report.text
        assert sorted(catalog) == ["fresh", "net", "zero"]
        assert catalog["zero"] is zero_before
        assert catalog["net"].questions[1].text.en == "Is plain UDP connectionless?"

        # students see the new list at once, in practice too
        tg.user_says(tg.private_chat(student), student, "/quiz")
        listing = await tg.wait_for_message(student.id, "Pick a quiz to practise")
        assert [d for row in listing.buttons for _, d in row] == ["s:fresh", "s:net", "s:zero"]

        # a folder gone (unmounted, renamed) takes nothing offline
        banks.rename(tmp_path / "elsewhere")
        tg.user_says(tg.private_chat(admin), admin, "/reload")
        lost = await tg.wait_for(
            lambda: [m for m in tg.messages(ADMIN) if "no such file or folder" in m.text]
        )
        assert f"⚠️ Refused: {banks}" in lost[0].text
        assert sorted(catalog) == ["fresh", "net", "zero"]
        (tmp_path / "elsewhere").rename(banks)

        # nothing changed: said so; in Bengali for a Bengali admin chat, the validator's
        # problems too (a key as written, escaped in the HTML message)
        tg.user_says(tg.private_chat(admin), admin, "/lang bn")
        await tg.wait_for_message(ADMIN, "বাংলা")
        broken = (banks / "zero.yaml").read_text("utf-8")
        (banks / "zero.yaml").write_text(broken + "<b>&x: 1\n", "utf-8")
        tg.user_says(tg.private_chat(admin), admin, "/reload")
        again = await tg.wait_for_message(ADMIN, "প্রশ্নের ফোল্ডার আবার পড়া হয়েছে: ৩টি কুইজ চালু।")
        assert "zero.yaml" in again.text  # still refused, still reported
        assert "Added" not in again.text and "নতুন" not in again.text
        assert ": correct: ৯ সীমার বাইরে (১ থেকে ৪)" in again.text
        assert "• " + f"{banks / 'zero.yaml'}:" in again.text
        assert "অজানা key '<b>&x' (যেগুলো চলে: language, questions, settings, title)" in again.text
        assert "out of range" not in again.text and "প্রশ্ন ১ (id " in again.text


async def test_a_running_quiz_finishes_with_the_questions_it_started_with(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    banks = folder(tmp_path)
    cls = populate(tg, students=4)
    admin = tg.add_user(ADMIN, "Root", username="root")
    env = {"QUIZBOT_QUESTIONS": str(banks), "QUIZBOT_ADMIN_IDS": str(ADMIN)}
    async with BotHarness(tg, db_path, env=env) as bot:
        old = bot.services.catalog["zero"]
        chat = cls.chat_id
        reader = cls.students[1]  # has started the bot: gets a recap of what they missed
        tg.user_says(tg.start_bot(reader), reader, "/start")
        await tg.wait_for_message(reader.id, "quizbot")
        tg.user_says(chat, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        tg.tap(chat, cls.students[0], q1.message_id, button_data(q1, correct_label(q1)))
        tg.tap(
            chat,
            reader,
            q1.message_id,
            button_data(q1, next(label for label in "ABCD" if label != correct_label(q1))),
        )

        # the bank changes under the running quiz: a question reworded, the last one removed
        text = (ROOT / "questions" / "zero.yaml").read_text("utf-8")
        reworded = text.replace(
            old.questions[1].text.en, "Reworded, why does Adam need memory?"
        ).replace(old.questions[1].text.bn, "নতুন করে লেখা প্রশ্ন?")
        cut = reworded[: reworded.index("  - id: stages12-traffic")]
        (banks / "zero.yaml").write_text(cut, "utf-8")
        tg.user_says(tg.private_chat(admin), admin, "/reload")
        report = await tg.wait_for_message(ADMIN, "Questions folder re-read")
        assert "✏️ Changed: zero" in report.text
        new = bot.services.catalog["zero"]
        assert len(new.questions) == 7

        # the run goes on with its own 8 questions, old texts included
        for number in range(2, 9):
            tg.user_says(chat, cls.creator, "/next")
            message = await tg.wait_for(functools.partial(open_question, tg, chat, number))
            assert message.text.startswith(f"❓ Question {number}/8")
            assert old.questions[number - 1].text.en in message.text
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for_message(chat, "results")
        await until(lambda: bot.services.groups.running(chat, 0) is None)

        # the recap shows the questions as they were asked, the removed one included
        await tg.wait_for_message(reader.id, "আপনার সারসংক্ষেপ")  # a Bengali user
        await tg.wait_for_message(reader.id, old.questions[7].text.bn)  # recaps run long
        text = "\n".join(m.text for m in tg.messages(reader.id))
        assert old.questions[1].text.bn in text and "নতুন করে লেখা" not in text
        assert old.questions[7].text.bn in text, text

        # the next run uses the new version
        tg.user_says(chat, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        assert q1.text.startswith("❓ Question 1/7")


async def test_one_language_bank_and_random_draws(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    banks = folder(tmp_path)
    (banks / "bnpick.yaml").write_text(BN_PICK, "utf-8")
    cls = populate(tg, students=2)
    env = {"QUIZBOT_QUESTIONS": str(banks)}
    async with BotHarness(tg, db_path, env=env, seed=11) as bot:
        chat = cls.chat_id  # an English group: the bot's words in English, the bank's in Bengali
        tg.user_says(chat, cls.creator, "/quiz bnpick 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        announce = tg.find_message(chat, "2 questions")
        assert announce is not None and "নেটওয়ার্কের প্রাথমিক ধারণা" in announce.text
        assert q1.text.startswith("❓ Question 1/2")
        assert "বাংলা প্রশ্ন নম্বর" in q1.text
        run = bot.services.groups.running(chat, 0)
        assert run is not None
        drawn = run.engine.plan.question_ids
        stored = await bot.services.store.get_run(run.run_id)
        assert stored is not None and stored.plan.question_ids == drawn  # a restart resumes it
        tg.tap(chat, cls.students[0], q1.message_id, button_data(q1, "A"))  # shuffle off: right
        alert = await tg.wait_for(lambda: tg.alerts_for(cls.students[0]))
        text = alert[0].text or ""
        assert text.startswith("✅ Right!") and f"কারণ {drawn[0][1:]}।" in text
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for_message(chat, "results")
        await until(lambda: bot.services.groups.running(chat, 0) is None)

        # the next run draws afresh; over a few runs more than one pair comes up
        draws = {drawn}
        for _ in range(4):
            tg.user_says(chat, cls.creator, "/quiz bnpick 600")
            live = await until(lambda: bot.services.groups.running(chat, 0))
            draws.add(live.engine.plan.question_ids)
            tg.user_says(chat, cls.creator, "/stop")
            await until(lambda: bot.services.groups.running(chat, 0) is None)
        assert len(draws) > 1 and all(len(d) == 2 for d in draws)

        # private practice draws too
        student = cls.students[1]
        tg.user_says(tg.private_chat(student), student, "/quiz bnpick")
        first = await tg.wait_for_message(student.id, "প্রশ্ন ১/২")  # a Bengali user
        assert "বাংলা প্রশ্ন নম্বর" in first.text


async def test_sighup_reloads_the_running_process(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    banks = folder(tmp_path)
    student = tg.add_user(777, "Mita")
    proc = BotProcess(tg, db_path, QUIZBOT_QUESTIONS=str(banks))
    await proc.start()
    try:
        tg.user_says(tg.private_chat(student), student, "/quiz")
        await tg.wait_for_message(student.id, "Pick a quiz to practise", timeout=30)
        (banks / "fresh.yaml").write_text(EN_ONLY.replace("Networks", "Fresh"), "utf-8")
        assert proc.proc is not None
        proc.proc.send_signal(signal.SIGHUP)
        await until(lambda: "added: fresh" in proc.stderr, timeout=20)
        tg.user_says(tg.private_chat(student), student, "/quiz fresh")
        await tg.wait_for_message(student.id, "How many segments", timeout=20)
        assert await proc.terminate() == 0
    finally:
        await proc.close()


async def test_a_restart_resumes_the_questions_drawn(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    banks = folder(tmp_path)
    (banks / "bnpick.yaml").write_text(BN_PICK.replace("pick: 2", "pick: 3"), "utf-8")
    cls = populate(tg, students=2)
    chat = cls.chat_id
    env = {"QUIZBOT_QUESTIONS": str(banks)}
    async with BotHarness(tg, db_path, env=env, seed=5) as bot:
        tg.user_says(chat, cls.creator, "/quiz bnpick 600")
        await tg.wait_for(lambda: open_question(tg, chat, 1))
        run = bot.services.groups.running(chat, 0)
        assert run is not None
        drawn = run.engine.plan.question_ids
    async with BotHarness(tg, db_path, env=env, seed=99) as bot:  # another seed: no new draw
        resumed = await until(lambda: bot.services.groups.running(chat, 0))
        assert resumed.engine.plan.question_ids == drawn
        for number in (2, 3):
            tg.user_says(chat, cls.creator, "/next")
            message = await tg.wait_for(functools.partial(open_question, tg, chat, number))
            assert f"নম্বর {drawn[number - 1][1:]}?" in message.text
            assert message.text.startswith(f"❓ Question {number}/3")
