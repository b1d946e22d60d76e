"""A tap is judged by when it reached the bot, not by when the bot got round to it.

The bot's clock is injected; a handler ahead of every other one holds chosen taps, standing in
for a bot that is far behind: the tap has arrived (and was stamped) but is not processed yet.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from fakebot import FakeTelegram, StoredMessage
from harness import BotHarness
from quizkit import (
    button_data,
    correct_label,
    open_question,
    populate,
    run_of,
    start_quiz,
    until,
)
from telegram import Update
from telegram.ext import ContextTypes, TypeHandler

from bot.core.engine import points_for


class Clock:
    """The bot's clock: frozen unless a test moves it."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


class Gate:
    """Holds the taps with the given callback query ids before any handler sees them."""

    def __init__(self) -> None:
        self.held: set[str] = set()
        self.entered: set[str] = set()
        self.open = asyncio.Event()

    async def __call__(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is not None and query.id in self.held:
            self.entered.add(query.id)
            await self.open.wait()


async def started(
    tg: FakeTelegram, db_path: Path, clock: Clock, gate: Gate, students: int = 3
) -> tuple[BotHarness, Any, StoredMessage]:
    cls = populate(tg, students=students)
    bot = BotHarness(tg, db_path)
    bot.services.clock = clock
    bot.app.add_handler(TypeHandler(Update, gate), group=-3)
    await bot.start()
    q1 = await start_quiz(tg, cls, seconds=60)  # its real timer never fires in these tests
    live = bot.services.groups.by_id(run_of(q1))
    assert live is not None
    engine = live.engine
    await until(lambda: engine.phase == "open")  # the bot learnt the message was posted
    return bot, cls, q1


async def test_a_tap_counts_by_its_arrival_time(tg: FakeTelegram, db_path: Path) -> None:
    clock, gate = Clock(), Gate()
    bot, cls, q1 = await started(tg, db_path, clock, gate)
    try:
        live = bot.services.groups.by_id(run_of(q1))
        assert live is not None
        engine = live.engine
        assert engine.posted_at == clock.now and engine.deadline == clock.now + 60
        right = button_data(q1, correct_label(q1))
        # 12 s in, the tap arrives; the bot takes it up only after the deadline
        clock.now += 12
        arrived_at = clock.now
        slow = tg.tap(cls.chat_id, cls.students[0], q1.message_id, right)
        gate.held.add(slow)
        await until(lambda: slow in gate.entered)
        clock.now += 60
        # a tap that arrives now, after the deadline, is refused
        late = tg.tap(cls.chat_id, cls.students[1], q1.message_id, right)
        assert (await tg.wait_answered(late)).text == "⌛ This question is closed."
        gate.open.set()
        points = points_for(12, 60)
        assert points == 900
        assert ((await tg.wait_answered(slow)).text or "").startswith(f"✅ Right! +{points} points")
        stored = await bot.services.store.answers(run_of(q1))
        assert [(a.user_id, a.points, a.answered_at) for a in stored] == [
            (cls.students[0].id, points, arrived_at)
        ]
    finally:
        gate.open.set()
        await bot.stop()


async def test_closing_first_takes_the_taps_already_received(
    tg: FakeTelegram, db_path: Path
) -> None:
    clock, gate = Clock(), Gate()
    bot, cls, q1 = await started(tg, db_path, clock, gate, students=4)
    try:
        run = run_of(q1)
        right = button_data(q1, correct_label(q1))
        clock.now += 5
        first = tg.tap(cls.chat_id, cls.students[0], q1.message_id, right)
        assert ((await tg.wait_answered(first)).text or "").startswith("✅")
        held = [tg.tap(cls.chat_id, s, q1.message_id, right) for s in cls.students[1:3]]
        gate.held.update(held)
        await until(lambda: gate.entered == set(held))
        # the moderator closes the question while two taps that came in time are held up
        clock.now += 5
        tg.user_says(cls.chat_id, cls.creator, "/next")
        await until(lambda: bot.services.arrivals.waiting(run))
        assert "🔒" not in (tg.stored_message(cls.chat_id, q1.message_id) or q1).text
        clock.now += 1  # arrives after the close: refused, and the close does not wait for it
        after = tg.tap(cls.chat_id, cls.students[3], q1.message_id, right)
        gate.open.set()
        for query in held:
            assert ((await tg.wait_answered(query)).text or "").startswith("✅ Right!")
        revealed = await tg.wait_for(
            lambda: (m := tg.stored_message(cls.chat_id, q1.message_id)) and "🔒" in m.text and m
        )
        assert isinstance(revealed, StoredMessage)
        assert "3 answered, 3 right" in revealed.text
        assert (await tg.wait_answered(after)).text == "⌛ This question is closed."
        stored = await bot.services.store.answers(run)
        assert sorted(a.user_id for a in stored) == sorted(s.id for s in cls.students[:3])
    finally:
        gate.open.set()
        await bot.stop()


async def test_updates_in_flight_are_bounded() -> None:
    """Past the limit, putting an update waits for one to be processed: a bot far behind
    leaves the rest at Telegram instead of in its memory."""
    from telegram import Update as U

    from bot.tg.arrivals import ArrivalQueue, Arrivals

    clock = Clock()
    arrivals = Arrivals(clock, lambda u: None)
    queue = ArrivalQueue(arrivals, limit=2)
    updates = [U(update_id=i) for i in range(3)]
    await queue.put(updates[0])
    clock.now += 1
    await queue.put(updates[1])
    third = asyncio.create_task(queue.put(updates[2]))
    await asyncio.sleep(0)
    assert not third.done() and queue.qsize() == 2
    assert arrivals.at(updates[1]) == arrivals.at(updates[0]) + 1
    arrivals.done(await queue.get())
    await asyncio.wait_for(third, 5)
    assert queue.qsize() == 2


async def test_a_tap_on_a_question_still_being_posted_waits_for_it(
    tg: FakeTelegram, db_path: Path
) -> None:
    """Telegram shows question 2 before the bot hears back that it was posted: a tap in that
    moment is judged once the question is open, not refused."""
    cls = populate(tg, students=2)
    async with BotHarness(tg, db_path) as bot:
        await start_quiz(tg, cls)
        slow = tg.fail(
            "sendMessage",
            delay=1.0,
            delay_then_process=False,
            match=lambda p: "Question 2/" in str(p.get("text", "")),
        )
        tg.user_says(cls.chat_id, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, cls.chat_id, 2))
        tap = tg.tap(
            cls.chat_id, cls.students[0], q2.message_id, button_data(q2, correct_label(q2))
        )
        reply = await tg.wait_answered(tap)
        assert slow.hits == 1
        assert (reply.text or "").startswith("✅ Right! +1000 points")
        stored = await bot.services.store.answers(run_of(q2))
        assert [(a.q_index, a.user_id) for a in stored] == [(1, cls.students[0].id)]
