"""End to end: who may moderate, the cached admin lookup, /lang, and the command lists."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import newest_after, open_question, populate


async def test_moderators_are_looked_up_once_and_anonymous_admins_count(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=3)
    chat = cls.chat_id
    helper = tg.add_user(5555, "Global", username="global_admin")
    async with BotHarness(tg, db_path, env={"QUIZBOT_ADMIN_IDS": "5555, 6666"}) as bot:
        tg.user_says(chat, cls.admin, "/quiz zero 600")
        await tg.wait_for(lambda: open_question(tg, chat, 1))
        # An anonymous administrator (posting as the group) moves the quiz on.
        tg.user_says_as_anonymous_admin(chat, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 2))
        # QUIZBOT_ADMIN_IDS may moderate in any chat, even as a plain member.
        tg.user_says(chat, helper, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 3))
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 4))
        # Many moderator commands, few lookups: the administrators are cached.
        assert tg.admin_lookups(chat) == 1
        # A student's refused command triggers at most one fresh look-up.
        tg.user_says(chat, cls.students[0], "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "Only the group's moderators"))
        assert tg.admin_lookups(chat) <= 2
        assert bot.services.groups.running(chat, 0) is not None
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "🏁"))


async def test_group_language_switch(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=2)
    chat = cls.chat_id
    async with BotHarness(tg, db_path, env={"QUIZBOT_LANGUAGE": "en"}):
        tg.user_says(chat, cls.students[0], "/lang bn")
        await tg.wait_for(lambda: tg.find_message(chat, "Only the group's moderators"))
        tg.user_says(chat, cls.creator, "/lang bengali?")
        await tg.wait_for(lambda: tg.find_message(chat, "Usage: /lang bn or /lang en"))
        tg.user_says(chat, cls.creator, "/lang bn")
        await tg.wait_for(lambda: tg.find_message(chat, "এখন থেকে বাংলায় লিখব"))
        tg.user_says(chat, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        assert q1.text.startswith("❓ প্রশ্ন ১/৮")
        announce = tg.find_message(chat, "৮টি প্রশ্ন")
        assert announce is not None
        assert "প্রতিটিতে ৬০০ সেকেন্ড" in announce.text
        # Switching mid-quiz: the next question comes in English.
        tg.user_says(chat, cls.creator, "/lang en")
        await tg.wait_for(lambda: tg.find_message(chat, "OK, I'll write in English"))
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))
        assert q2.text.startswith("❓ Question 2/8")
        tg.user_says(chat, cls.creator, "/lang bn")
        await tg.wait_for(
            lambda: sum("এখন থেকে বাংলায় লিখব" in m.text for m in tg.messages(chat)) == 2
        )
        tg.user_says(chat, cls.creator, "/stop")
        results = await tg.wait_for(lambda: tg.find_message(chat, "🏁"))
        assert "ফলাফল" in results.text
        assert "কেউ উত্তর দেননি" in results.text


async def test_usage_replies(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=1)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        for text in ("/quiz zero 3", "/quiz zero 601", "/quiz zero ten", "/quiz zero 30 extra"):
            before = len(tg.messages(chat))
            tg.user_says(chat, cls.creator, text)
            usage = await tg.wait_for(partial(newest_after, tg, chat, before))
            assert usage.text.startswith("Usage: /quiz NAME [SECONDS]"), text
        tg.user_says(chat, cls.creator, "/quiz nosuchquiz")
        unknown = await tg.wait_for(lambda: tg.find_message(chat, "no quiz by that name"))
        assert "1. \u2068ZeRO and Sharded Optimizers\u2069 — /quiz zero" in unknown.text
        assert [d for row in unknown.buttons for _, d in row] == ["k:quiz:zero"]
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: tg.find_message(chat, "No quiz is running here."))
        assert bot.services.groups.active() == []
        tg.user_says(chat, cls.creator, "/quiz zero ৩০")  # Bengali digits are understood
        await tg.wait_for(lambda: tg.find_message(chat, "30 seconds each"))


async def test_command_lists_in_both_languages(tg: FakeTelegram, db_path: Path) -> None:
    async with BotHarness(tg, db_path):
        await tg.wait_for(lambda: tg.commands("all_chat_administrators", "bn"))
    for lang in ("", "bn", "en"):
        students = tg.commands("default", lang)
        moderators = tg.commands("all_chat_administrators", lang)
        assert students is not None
        assert moderators is not None
        names = {c["command"] for c in students}
        assert {"quiz", "leaderboard", "me", "help", "lang"} <= names
        assert "next" not in names
        assert {"next", "stop", "resetleaderboard", "export"} <= {c["command"] for c in moderators}
    bn = tg.commands("default", "bn")
    assert bn is not None
    assert any("লিডারবোর্ড" in c["description"] for c in bn)
