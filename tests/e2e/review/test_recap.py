"""After a group quiz: private recaps, directly or through the results' deep link."""

from __future__ import annotations

from pathlib import Path

from fakebot import BOT_USERNAME, FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import (
    ZERO,
    button_data,
    correct_label,
    explained,
    open_question,
    populate,
    until,
)
from reviewkit import say

from bot.features.review.recaps import Recaps


def recaps_of(bot: BotHarness) -> Recaps:
    found = bot.app.bot_data.recaps
    assert isinstance(found, Recaps)
    return found


async def tap(
    tg: FakeTelegram, chat: int, question: StoredMessage, student: User, right: bool
) -> str:
    label = correct_label(question)
    if not right:
        label = next(x for x in "ABCD" if x != label)
    answer = await tg.wait_answered(
        tg.tap(chat, student, question.message_id, button_data(question, label))
    )
    assert answer.text is not None
    return answer.text


async def start_privately(tg: FakeTelegram, student: User, text: str = "/start") -> None:
    await say(tg, student, text)


async def test_recaps_direct_deep_link_and_blocked(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=4)
    chat = cls.chat_id
    s0, s1, s2, s3 = cls.students  # s1 and s3 use Telegram in Bengali
    async with BotHarness(tg, db_path) as bot:
        await start_privately(tg, s0)  # started: gets the recap directly
        await start_privately(tg, s2)  # started, then blocks the bot
        tg.block_bot(s2)
        await start_privately(tg, s3, "/recap off")  # started, but wants no recaps
        assert "আর সারসংক্ষেপ পাঠাব না" in (tg.last_message(s3.id) or q_none()).text
        # s1 never started the bot

        tg.user_says(chat, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        run_id = int(button_data(q1, "A").split(":")[1])
        await tap(tg, chat, q1, s2, True)
        await tap(tg, chat, q1, s0, True)
        await tap(tg, chat, q1, s3, True)
        await tap(tg, chat, q1, s1, False)
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))
        await tap(tg, chat, q2, s2, True)
        await tap(tg, chat, q2, s0, False)
        alert = await tap(tg, chat, q2, s3, True)
        assert "streak 2 (+100)" in alert
        tg.user_says(chat, cls.creator, "/stop")  # s1 lets question 2 pass

        results = await tg.wait_for(lambda: tg.find_message(chat, "results"))
        url = results.reply_markup["inline_keyboard"][0][0]["url"]  # type: ignore[index]
        assert url == f"https://t.me/{BOT_USERNAME}?start=recap_{run_id}"

        # s0 gets the recap privately: score, rank, the missed question with its answer.
        rc = recaps_of(bot)
        await tg.wait_for(lambda: rc.sent == 1 and rc.blocked == 1, what="recaps out")
        await rc.wait_idle()
        recap = tg.find_message(s0.id, "your recap")
        assert recap is not None
        assert "rank 3 of 4" in recap.text
        # stopped after question 2: counted out of the 2 asked, and said so
        assert "1000 points · 1/2 right · rank 3 of 4" in recap.text
        assert "⏹ A moderator ended the quiz early: 2 of 8 questions were asked." in recap.text
        assert "Questions to go over (1)" in recap.text
        q2_bank = next(q for q in ZERO.questions if q.text.en in q2.text)
        assert "Question 2 — you chose" in recap.text
        assert q2_bank.text.en in recap.text
        assert (
            f"Right answer: {correct_label(q2)}) {q2_bank.options[q2_bank.correct].en}"
            in recap.text
        )
        assert explained(q2_bank).en in recap.text
        assert q2_bank.note is not None
        assert f"📖 {q2_bank.note.en}" in recap.text  # the note, as the reveal showed it
        assert "come back in /review" in recap.text

        # The blocked student was skipped quietly and is no longer written to first; the
        # student who turned recaps off got nothing; s1 has no private chat yet.
        student2 = await bot.services.store.student(s2.id)
        assert student2 is not None
        assert not student2.started
        assert all("আপনার সারসংক্ষেপ" not in m.text for m in tg.messages(s3.id))
        assert tg.messages(s1.id) == []

        # s1 follows the deep link: their recap, in Bengali, with the question they skipped.
        tg.user_says(tg.private_chat(s1), s1, f"/start recap_{run_id}")
        linked = await tg.wait_for(lambda: tg.find_message(s1.id, "আপনার সারসংক্ষেপ"))
        assert "৪ জনের মধ্যে ৪ নম্বরে" in linked.text
        assert "প্রশ্ন ১</b>" not in linked.text  # visible text has no tags
        assert "প্রশ্ন ১ — আপনার উত্তর ছিল" in linked.text
        assert "প্রশ্ন ২ — উত্তর দেননি" in linked.text
        assert "০/২ সঠিক" in linked.text
        assert "৮টির মধ্যে ২টি প্রশ্ন করা হয়েছিল" in linked.text
        assert explained(q2_bank).bn in linked.text
        assert f"📖 {q2_bank.note.bn}" in linked.text
        student1 = await bot.services.store.student(s1.id)
        assert student1 is not None
        assert student1.started  # from now on they get recaps directly

        # Someone who did not play gets a polite no; a forged payload is just /start.
        tg.user_says(tg.private_chat(cls.outsider), cls.outsider, f"/start recap_{run_id}")
        await tg.wait_for(lambda: tg.find_message(cls.outsider.id, "no recap for you"))
        tg.user_says(tg.private_chat(cls.outsider), cls.outsider, "/start recap_x")
        await tg.wait_for(lambda: tg.find_message(cls.outsider.id, "Hello!"))

        # Every participant's missed questions went into review, due in a day.
        store = bot.services.store
        now = bot.services.clock()
        assert await store.due_count(s1.id, now + 86_401) == 2
        assert await store.due_count(s0.id, now + 86_401) == 1
        assert await store.due_count(s2.id, now + 86_401) == 0
        assert await store.due_count(s1.id, now) == 0


def q_none() -> StoredMessage:
    raise AssertionError("no message")


async def test_recap_on_off_and_private_only(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=1)
    s0 = cls.students[0]  # English
    async with BotHarness(tg, db_path) as bot:
        await start_privately(tg, s0, "/recap")
        assert "You'll get a private recap" in (tg.last_message(s0.id) or q_none()).text
        await start_privately(tg, s0, "/recap off")
        student = await bot.services.store.student(s0.id)
        assert student is not None
        assert not student.recaps
        await start_privately(tg, s0, "/recap on")
        assert "You'll get a private recap" in (tg.last_message(s0.id) or q_none()).text
        student = await bot.services.store.student(s0.id)
        assert student is not None
        assert student.recaps
        tg.user_says(cls.chat_id, cls.creator, "/recap off")
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "private chat with me"))


async def test_a_changed_telegram_language_is_stored(tg: FakeTelegram, db_path: Path) -> None:
    """A known user's updates cost no write (``remember``'s fast path), except when their
    Telegram language changed: the new one is stored."""
    cls = populate(tg, students=1)
    s0 = cls.students[0]  # Telegram in English
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        await start_privately(tg, s0)
        await until(lambda: store.knows_user(s0.id, s0.first_name, s0.username, "en"))
        assert await store.user_language(s0.id) == "en"
        s0.language_code = "bn"  # switched Telegram to Bengali
        await start_privately(tg, s0)
        await until(lambda: store.knows_user(s0.id, s0.first_name, s0.username, "bn"))
        assert await store.user_language(s0.id) == "bn"


async def test_a_users_telegram_language_survives_a_restart(
    tg: FakeTelegram, db_path: Path
) -> None:
    """The recap goes out in the student's Telegram language, learnt before a restart: after
    it, the student sends nothing, yet the recap is not in the group's English."""
    cls = populate(tg, students=2)
    chat = cls.chat_id
    s1 = cls.students[1]  # Telegram in Bengali
    async with BotHarness(tg, db_path) as bot:
        await start_privately(tg, s1)
        tg.user_says(chat, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        await tap(tg, chat, q1, s1, False)
    async with BotHarness(tg, db_path) as bot:
        assert await bot.services.store.user_language(s1.id) == "bn"
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "results"))
        rc = recaps_of(bot)
        await tg.wait_for(lambda: rc.sent == 1, what="the recap")
        recap = tg.find_message(s1.id, "আপনার সারসংক্ষেপ")
        assert recap is not None
        assert "প্রশ্ন ১ — আপনার উত্তর ছিল" in recap.text
