"""The homework card's "Finished" count is always the one ``/homework`` lists.

The card's refresh is optional traffic, skipped while the group's budget is full. Here the group's
budget is kept full by the bot's own sends (the fake enforces 20 per window, as Telegram does)
while students finish: the card must catch up once the window has room, after a restart too,
and show the final count when the homework closes (deadlines on the injected clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
from collections.abc import AsyncIterator
from pathlib import Path

from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import populate, until
from teacherkit import FrozenClock, answer_hw, harness, start_hw

from bot.i18n.markup import Safe
from bot.tg import outbox

FINISHED = re.compile(r"Finished: ([0-9]+)")
LISTED = re.compile(r"· ([0-9]+) finished")


@contextlib.asynccontextmanager
async def busy_group(bot: BotHarness, chat: int) -> AsyncIterator[None]:
    """The group's window kept full by the bot's own (non-optional) sends, as during a busy
    live quiz; the last of them is still in the window when this ends."""
    stop = asyncio.Event()

    async def fill() -> None:
        while not stop.is_set():
            sent = await outbox.send(bot.app.bot, chat, Safe("…"))
            if sent.status == "stopped":
                return

    pacer = bot.services.pacer
    filler = asyncio.create_task(fill())
    try:
        await until(lambda: pacer.group(chat).free() == 0)
        yield
    finally:
        stop.set()
        await filler


def card_count(tg: FakeTelegram, chat: int, card: StoredMessage) -> int:
    """The "Finished: N" the card shows now."""
    stored = tg.stored_message(chat, card.message_id)
    assert stored is not None
    found = FINISHED.search(stored.text)
    assert found is not None, stored.text
    return int(found[1])


async def listed_count(tg: FakeTelegram, chat: int, moderator: User) -> int:
    """What ``/homework`` lists as finished for the one open homework."""
    before = len(tg.messages(chat))
    tg.user_says(chat, moderator, "/homework")
    listing = await tg.wait_for(
        lambda: next((m for m in tg.messages(chat)[before:] if LISTED.search(m.text)), None),
        what="/homework's list",
    )
    found = LISTED.search(listing.text)
    assert found is not None
    return int(found[1])


def closed_card(tg: FakeTelegram, chat: int, card: StoredMessage) -> StoredMessage | None:
    """The card, once it shows the homework closed."""
    stored = tg.stored_message(chat, card.message_id)
    return stored if stored is not None and "Closed:" in stored.text else None


def done(tg: FakeTelegram, student: User) -> StoredMessage | None:
    """The student's "homework done" message, in either language."""
    return tg.find_message(student.id, "Homework done") or tg.find_message(
        student.id, "হোমওয়ার্ক শেষ!"
    )


async def finish(tg: FakeTelegram, students: list[User]) -> None:
    """Each answers the homework's last question; wait until all were told they are done."""
    for student in students:
        await answer_hw(tg, student, 7, True)
    for student in students:
        await tg.wait_for(functools.partial(done, tg, student), what="homework done")


async def test_the_card_shows_what_homework_lists_while_the_group_is_busy(db_path: Path) -> None:
    async with FakeTelegram(window=BotHarness.WINDOW, group_limit=20, enforce_limit=True) as tg:
        cls = populate(tg, students=10)
        chat, teacher = cls.chat_id, cls.creator
        before_stop, while_open, at_close = cls.students[:5], cls.students[5:8], cls.students[8:]
        clock = FrozenClock()
        bot = harness(tg, db_path, clock, QUIZBOT_HOMEWORK_RESULTS="group")
        async with bot:
            tg.user_says(chat, teacher, "/homework zero 1h")
            card = await tg.wait_for(lambda: tg.find_message(chat, "Homework: ZeRO"))
            for student in cls.students:  # everyone answers all but the last question
                await start_hw(tg, student, 1)
                for q in range(7):
                    await answer_hw(tg, student, q, True)
            # five finish while the group's budget is full; the bot stops before it has room
            async with busy_group(bot, chat):
                await finish(tg, before_stop)
                assert card_count(tg, chat, card) == 0  # the refresh could not go yet
                await bot.stop()
        async with harness(tg, db_path, clock, QUIZBOT_HOMEWORK_RESULTS="group") as bot:
            # after the restart the card catches up by itself: nobody finishes meanwhile
            await tg.wait_for(lambda: card_count(tg, chat, card) == 5, what="card after restart")
            assert await listed_count(tg, chat, teacher) == 5
            # three more finish while the group is busy: the card follows once it has room
            async with busy_group(bot, chat):
                await finish(tg, while_open)
                assert card_count(tg, chat, card) == 5
            await tg.wait_for(lambda: card_count(tg, chat, card) == 8, what="card caught up")
            assert await listed_count(tg, chat, teacher) == 8
            # the last two finish and the deadline passes, all while the group is busy
            async with busy_group(bot, chat):
                await finish(tg, at_close)
                assert await listed_count(tg, chat, teacher) == 10
                clock.advance(3600)
                results = await tg.wait_for(lambda: tg.find_message(chat, "Homework results"))
                closed = await tg.wait_for(
                    functools.partial(closed_card, tg, chat, card), what="card closed"
                )
            assert "👥 10 took it" in results.text
            assert card_count(tg, chat, card) == 10 and not closed.buttons
        assert tg.max_in_window(chat) <= 20
