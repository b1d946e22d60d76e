"""bot/services/driver.py: ``RunDriver.commit`` stores an accepted answer, then applies it."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from telegram.ext import ApplicationBuilder

from bot.banks.yaml_reader import load_quiz
from bot.core.engine import QuizEngine, make_plan
from bot.i18n.lang import Lang
from bot.services.driver import RunDriver
from bot.services.runstore import RunStore
from bot.storage import Answer

ZERO = load_quiz(Path(__file__).resolve().parents[3] / "questions" / "zero.yaml")
T0 = 1_700_000_000.0


@dataclass
class LiveRun:
    """The driver's view of a run (``bot.services.driver.Run``)."""

    run_id: int
    lang: Lang
    engine: QuizEngine
    message_id: int | None = None


class GatedStore:
    """Records each answer, then holds its write until ``release`` is set."""

    def __init__(self) -> None:
        self.stored: list[Answer] = []
        self.entered = asyncio.Event()  # set on every write begun
        self.release = asyncio.Event()

    async def record_answer(self, answer: Answer) -> bool:
        self.stored.append(answer)
        self.entered.set()
        await self.release.wait()
        return True


async def test_a_second_answer_while_the_first_is_stored_is_told_again() -> None:
    store = GatedStore()
    app = ApplicationBuilder().token("1:test").build()
    driver = RunDriver(app, cast(RunStore, store), lambda: T0)  # only its writes are used
    engine = QuizEngine(ZERO, make_plan(ZERO, random.Random(3)), 30)
    engine.open(T0)
    run = LiveRun(7, "en", engine)
    first = engine.judge(42, 0, 0, T0 + 1)
    assert first.status == "accepted" and first.answer is not None
    storing = asyncio.create_task(driver.commit(run, first))
    await store.entered.wait()  # the first answer is being written
    store.entered.clear()
    # the engine has not applied the first answer yet: its judge accepts the second tap too
    second = engine.judge(42, 0, 1, T0 + 2)
    assert second.status == "accepted"
    told = asyncio.create_task(driver.commit(run, second))
    written_again = asyncio.create_task(store.entered.wait())
    await asyncio.wait({told, written_again}, return_when=asyncio.FIRST_COMPLETED)
    assert told.done(), "the second answer was written while the first was being stored"
    written_again.cancel()
    again = told.result()
    assert again is not None and again.status == "again"
    assert again.answer == first.answer  # the first stands
    assert again.shown == 0
    # a close waits for the answer being stored: it counts in the reveal
    settling = asyncio.create_task(driver.settled(run))
    for _ in range(5):  # let it run (no time passes): it waits on the write
        await asyncio.sleep(0)
    assert not settling.done()
    store.release.set()
    await settling
    assert engine.answers_of(42) == {0: first.answer}  # stored, then applied
    assert await storing == first
    assert [a.option for a in store.stored] == [first.answer.option]
    assert engine.answers_of(42) == {0: first.answer}
