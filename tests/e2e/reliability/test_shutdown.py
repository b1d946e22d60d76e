"""Stopping while quizzes run: nothing holds shutdown up, nothing is left running, and the
stored runs pick up after the restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import assert_quiet, is_question, open_question, populate, start_quiz


async def test_stop_does_not_wait_for_the_group_budget(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=2)
    chat = cls.chat_id
    bot = await BotHarness(tg, db_path).start()
    try:
        await start_quiz(tg, cls)
        # Telegram says "wait a minute" when question 2 is posted; then the bot is stopped.
        tg.fail("sendMessage", retry_after=60, match=is_question(2))
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: [c for c in tg.calls_to("sendMessage") if c.status == 429])
    finally:
        await asyncio.wait_for(bot.stop(), 20)  # far less than the minute it was told to wait
    assert open_question(tg, chat, 2) is None
    # after the restart, the stored run posts question 2, once
    async with BotHarness(tg, db_path):
        await tg.wait_for(lambda: open_question(tg, chat, 2), timeout=10)
    posts = [c for c in tg.calls_to("sendMessage") if is_question(2)(c.params)]
    assert [c.status for c in posts] == [429, 200]
    assert_quiet(caplog)


GROUP_RESULTS = {"QUIZBOT_HOMEWORK_RESULTS": "group"}  # the podium in the group


async def test_homework_results_held_up_at_stop_go_out_after_the_restart(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=1)
    chat = cls.chat_id

    def is_results(params: Any) -> bool:
        return "Homework results" in str(params.get("text", ""))

    bot = await BotHarness(tg, db_path, env=GROUP_RESULTS).start()
    try:
        tg.user_says(chat, cls.creator, "/homework zero 90m")
        await tg.wait_for(lambda: tg.find_message(chat, "Homework: ZeRO"))
        # Telegram says "wait a minute" when the results are posted; then the bot is stopped
        tg.fail("sendMessage", retry_after=60, match=is_results)
        tg.user_says(chat, cls.creator, "/homework stop")
        await tg.wait_for(lambda: [c for c in tg.calls_to("sendMessage") if c.status == 429])
    finally:
        await asyncio.wait_for(bot.stop(), 20)
    assert tg.find_message(chat, "Homework results") is None
    # not marked as posted: the restart posts them, once
    async with BotHarness(tg, db_path, env=GROUP_RESULTS):
        results = await tg.wait_for(lambda: tg.find_message(chat, "Homework results"), timeout=10)
        assert "(ended early by a moderator)" in results.text
    posts = [c for c in tg.calls_to("sendMessage") if is_results(c.params)]
    assert [c.status for c in posts] == [429, 200]
    assert_quiet(caplog)
