"""The pacer's sliding window, on a manual clock: exact counts at the window's edges."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from clockkit import ManualClock

from bot.tg.pacing import GroupPacer, Skipped, SlidingWindow, counts_against_group


def test_a_full_window_frees_each_slot_exactly_a_window_after_it_was_used() -> None:
    clock = ManualClock(100.0)
    window = SlidingWindow(3, 60.0, clock)
    assert (window.free(), window.wait_time(), window.idle()) == (3, 0.0, True)
    for _ in range(3):  # events at 100, 110, 120
        window.record()
        clock.advance(10)
    assert window.free() == 0
    assert window.wait_time() == pytest.approx(30.0)  # at 160, 60 s after the first
    assert window.time_until(2) == pytest.approx(40.0)  # at 170 the second leaves too
    clock.now = 159.999
    assert window.free() == 0
    clock.now = 160.0  # an event exactly one window old no longer counts
    assert (window.free(), window.wait_time()) == (1, 0.0)
    window.record()
    assert window.wait_time() == pytest.approx(10.0)  # the one at 110 leaves at 170
    assert not window.idle()
    clock.now = 220.0
    assert (window.free(), window.idle()) == (3, True)


def test_any_sliding_minute_holds_at_most_the_limit() -> None:
    clock = ManualClock(0.0)
    window = SlidingWindow(20, 60.0, clock)
    times = []
    for _ in range(100):  # take every slot as soon as it frees
        clock.advance(window.wait_time())
        times.append(clock())
        window.record()
        clock.advance(0.7)
    for start in times:
        assert sum(1 for t in times if start <= t < start + 60.0) <= 20
    assert times[20] == pytest.approx(times[0] + 60.0)


def test_group_sends_and_edits_count_and_nothing_else() -> None:
    assert counts_against_group("sendMessage", -100)
    assert counts_against_group("editMessageText", -1001234)
    assert not counts_against_group("sendMessage", 42)  # a private chat
    assert not counts_against_group("answerCallbackQuery", -100)
    assert not counts_against_group("getChatAdministrators", -100)
    assert not counts_against_group("sendMessage", "@channel")


async def test_an_optional_send_keeps_the_reserve_for_the_quiz() -> None:
    clock = ManualClock(0.0)
    pacer = GroupPacer(group_limit=6, group_window=60.0, reserve=2, clock=clock)
    sent: list[str] = []

    async def call(text: str) -> dict[str, Any]:
        sent.append(text)
        return {"ok": True}

    async def send(text: str, optional: bool) -> object:
        return await pacer.process_request(
            call,
            (text,),
            {},
            "sendMessage",
            {"chat_id": -5},
            {"optional": True} if optional else None,
        )

    for n in range(3):
        await send(f"q{n}", False)
    await send("count", True)  # 4 used, 2 free = the reserve: the next optional one is skipped
    with pytest.raises(Skipped):
        await send("count again", True)
    await send("q3", False)  # the quiz itself may use the reserve
    await send("q4", False)
    assert sent == ["q0", "q1", "q2", "count", "q3", "q4"]
    assert pacer.group(-5).free() == 0
    clock.advance(60.0)
    await asyncio.wait_for(send("count later", True), 1)  # a minute on, the window is empty
    assert sent[-1] == "count later"
