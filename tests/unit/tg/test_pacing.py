"""The pacer's sliding window, on a manual clock: exact counts at the window's edges."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from clockkit import ManualClock

from bot.tg import pacing
from bot.tg.overall import NORMAL, QUIZ, OverallBudget
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


async def test_the_overall_budget_counts_a_request_until_a_window_after_it_completed() -> None:
    clock = ManualClock(0.0)
    budget = OverallBudget(3, clock, window=1.0, margin=0.1)
    for chat in (1, 2, 3):
        await budget.take(NORMAL, chat)
    assert (budget.free(), budget.in_flight) == (0, 3)
    clock.advance(5.0)  # still in flight: Telegram may not have it yet, so it still counts
    assert budget.free() == 0
    budget.give_back()
    clock.advance(1.05)
    assert budget.free() == 0  # completed 1.05 s ago: within the window and its margin
    clock.advance(0.1)
    assert budget.free() == 1


async def test_the_overall_budget_serves_the_quiz_first_then_chats_in_turn() -> None:
    clock = ManualClock(0.0)
    budget = OverallBudget(1, clock, window=1.0, margin=0.0)
    await budget.take(NORMAL, "busy")
    order: list[str] = []

    async def wait(priority: int, chat: str) -> None:
        await budget.take(priority, chat)
        order.append(chat)
        budget.give_back(sent=False)

    tasks = [asyncio.create_task(wait(NORMAL, "busy")) for _ in range(3)]
    await asyncio.sleep(0)
    tasks += [asyncio.create_task(wait(NORMAL, "quiet"))]
    tasks += [asyncio.create_task(wait(QUIZ, "question"))]
    await asyncio.sleep(0)
    budget.give_back(sent=False)
    await asyncio.gather(*tasks)
    # the question first; the quiet chat before the busy chat's second and third requests
    assert order == ["question", "busy", "quiet", "busy", "busy"]


async def test_a_429_pauses_and_slows_every_chat_and_optional_requests_are_skipped() -> None:
    clock = ManualClock(0.0)
    budget = OverallBudget(30, clock, reserve=3)
    assert budget.try_take()
    budget.give_back()
    budget.refused(2.0)
    assert budget.free() == 0 and not budget.try_take()  # paused for everyone
    clock.advance(2.5)
    assert budget.current_limit() == 20  # a third lower for a while
    assert budget.free() == 20  # the one before the 429 has left the window
    clock.advance(budget.penalty_seconds)
    assert budget.current_limit() == 30
    for chat in range(27):
        await budget.take(NORMAL, chat)
    assert budget.free() == 3 and not budget.try_take()  # the reserve is not for optional ones


async def test_a_send_over_the_free_limit_is_paid_for_only_when_paid_broadcasts_are_on() -> None:
    clock = ManualClock(0.0)
    pacer = GroupPacer(overall_per_second=1, paid_per_second=1000, clock=clock)
    bodies: list[dict[str, Any]] = []

    async def call(endpoint: str, data: dict[str, Any]) -> dict[str, Any]:
        bodies.append(dict(data))
        return {"ok": True}

    for n in range(2):
        data: dict[str, Any] = {"chat_id": 42, "text": f"m{n}"}
        await pacer.process_request(call, ("sendMessage", data), {}, "sendMessage", data, None)
    assert [b.get("allow_paid_broadcast") for b in bodies] == [None, True]


async def test_ephemeral_messages_spend_no_group_budget_and_come_last_overall() -> None:
    """An ephemeral send (one student's explanation) leaves the group's window alone, takes
    the overall budget only beyond its reserve, after every other waiter, and is skipped when
    no slot comes within its wait."""
    clock = ManualClock(0.0)
    pacer = GroupPacer(group_limit=2, reserve=1, overall_per_second=6, clock=clock)
    sent: list[str] = []

    async def call(text: str) -> dict[str, Any]:
        sent.append(text)
        return {"ok": True}

    async def send(text: str, ephemeral: bool, wait: float = 0.05) -> object:
        data: dict[str, Any] = {"chat_id": -5}
        if ephemeral:
            data["ephemeral_message_parameters"] = {"receiver_user_id": 7}
        return await pacer.process_request(
            call, (text,), {}, "sendMessage", data, pacing.ephemeral(wait) if ephemeral else None
        )

    for n in range(3):  # more than the group's 2: ephemeral ones are not in its window
        await send(f"e{n}", True)
    assert pacer.group(-5).free() == 2
    assert pacer.overall.free() == 3  # 3 of 6 taken: only the overall reserve is left
    with pytest.raises(Skipped):  # the reserve is not for ephemeral messages
        await send("e3", True)
    await send("q0", False)  # the quiz itself goes at once
    waiting = asyncio.create_task(send("e5", True, wait=5.0))
    await asyncio.sleep(0.01)
    assert "e5" not in sent
    clock.advance(1.2)  # the window has passed: slots free again
    pacer.overall._pump()
    await asyncio.wait_for(waiting, 1)
    assert sent == ["e0", "e1", "e2", "q0", "e5"]
    assert pacing.is_ephemeral("editEphemeralMessageText", {})
    assert not pacing.is_ephemeral("sendMessage", {"chat_id": -5})
