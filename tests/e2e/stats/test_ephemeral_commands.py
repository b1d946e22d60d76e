"""A student's own commands in a group (``/me``, ``/top``, ``/leaderboard``, ``/help``) are
declared ``is_ephemeral`` (Bot API 10.2): only the sender and the bot see them, and the bot
answers with an ephemeral reply, costing nothing of the group's budget; a refused reply goes to
the student's private chat; moderators' commands stay visible. English and Bengali."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import populate

from bot.app.registry import REGISTRY

STUDENT_COMMANDS = {"me", "leaderboard", "top", "help"}


async def test_the_menus_declare_the_students_own_commands_ephemeral(
    tg: FakeTelegram, db_path: Path
) -> None:
    populate(tg, students=1)
    async with BotHarness(tg, db_path):
        await tg.wait_for(lambda: tg.commands("all_chat_administrators", "bn"))
        for scope in ("default", "all_chat_administrators"):
            for lang in ("", "en", "bn"):
                menu = tg.commands(scope, lang)
                assert menu is not None
                ephemeral = {c["command"] for c in menu if c.get("is_ephemeral")}
                assert ephemeral == STUDENT_COMMANDS & {c["command"] for c in menu}, (scope, lang)
                assert {"me", "top", "leaderboard", "help"} <= ephemeral
    # every command a moderator uses (their own, or differently from students) stays visible
    for command in REGISTRY.commands:
        if command.who != "anyone" or command.mod_help is not None:
            assert not command.ephemeral, command.name


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_me_in_a_group_is_answered_to_the_sender_alone(
    tg: FakeTelegram, db_path: Path, lang: str
) -> None:
    cls = populate(tg, students=2)
    chat = cls.chat_id
    ann, ben = cls.students
    async with BotHarness(tg, db_path, env={"QUIZBOT_LANGUAGE": lang}):
        await tg.wait_for(lambda: tg.commands("default", lang))
        said = tg.user_says(chat, ann, "/me")
        assert said["message_id"] == 0  # ephemeral: in no one's view of the group
        (answer,) = await tg.wait_for(lambda: tg.ephemeral_for(chat, ann) or None)
        replied = answer.message.raw["reply_to_message"]
        assert replied["ephemeral_message_id"] == said["ephemeral_message_id"]
        assert answer.text.strip()
        tg.user_says(chat, ann, "/help")
        await tg.wait_for(lambda: len(tg.ephemeral_for(chat, ann)) == 2 or None)
        tg.user_says(chat, ben, "/top")
        await tg.wait_for(lambda: tg.ephemeral_for(chat, ben) or None)
        # no visible message in the group, nothing of its budget spent
        assert tg.messages(chat) == [] and tg.group_traffic(chat) == []
        assert len(tg.ephemeral_for(chat, ann)) == 2 and len(tg.ephemeral_for(chat, ben)) == 1
        # a moderator's command stays visible
        tg.user_says(chat, cls.creator, "/quiz")
        await tg.wait_for(lambda: tg.messages(chat) or None)
        assert all(c.status == 200 for c in tg.calls if c.method != "getUpdates")


async def test_a_refused_ephemeral_reply_goes_to_the_private_chat(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=1)
    chat = cls.chat_id
    (ann,) = cls.students
    tg.user_says(tg.private_chat(ann), ann, "/start")
    async with BotHarness(tg, db_path):
        await tg.wait_for(lambda: tg.find_message(ann.id, "") or None)
        await tg.wait_for(lambda: tg.commands("default", "en"))
        tg.fail(
            "sendMessage",
            error_code=400,
            description="Bad Request: an ephemeral message may only be replied to within 15 "
            "seconds",
            match=lambda params: "ephemeral_message_parameters" in params,
        )
        tg.user_says(chat, ann, "/me")
        private = await tg.wait_for(lambda: tg.find_message(ann.id, cls_title(tg, chat)))
        assert private is not None
        assert tg.messages(chat) == [] and tg.ephemeral_for(chat, ann) == []


def cls_title(tg: FakeTelegram, chat: int) -> str:
    title = tg.chat(chat).title
    assert title is not None
    return title
