"""The "📝 Set as homework" link of a saved quiz's card asks, in the group it lands
in, for how long (1 hour, 1 day, 3 days, 1 week); only the moderator who followed it may pick,
once, and forged or misplaced picks change nothing."""

from __future__ import annotations

from pathlib import Path

from authorkit import write_quiz
from fakebot import FakeTelegram, StoredMessage
from quizkit import populate
from refusalkit import alerts
from teacherkit import FrozenClock, harness

from bot.features.homework.buttons import HOMEWORK_DURATIONS


async def test_the_homework_link_asks_how_long(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=1)
    chat, teacher, other_mod = cls.chat_id, cls.creator, cls.admin
    clock = FrozenClock()
    async with harness(tg, db_path, clock) as bot:
        store = bot.services.store
        await write_quiz(tg, teacher, "Cells", count=2)
        quiz_id = "u.1"
        tg.user_says(chat, cls.outsider, "/start qh-1")  # not a moderator: refused, no buttons
        await tg.wait_for(lambda: tg.find_message(chat, "Only the group's moderators"))
        before = len(tg.messages(chat))
        tg.user_says(chat, teacher, "/start qh-1")
        picker: StoredMessage = await tg.wait_for(
            lambda: next((m for m in tg.messages(chat)[before:] if m.buttons), None)
        )
        assert "Cells" in picker.text and "how long" in picker.text
        labels = [label for row in picker.buttons for label, _ in row]
        assert labels == ["1 hour", "1 day", "3 days", "1 week"]
        datas = [d for row in picker.buttons for _, d in row if d]
        three_days = datas[2]
        assert three_days == f"hd:{quiz_id}:2:{teacher.id}"

        # another moderator, a member, a forged user id, a private chat: refused, nothing set
        for user in (other_mod, cls.outsider):
            refused = await tg.wait_answered(tg.tap(chat, user, picker.message_id, three_days))
            assert refused.show_alert and refused.text in alerts("hw_duration_not_yours")
        forged = f"hd:{quiz_id}:2:{other_mod.id}"  # the other moderator's id: not their quiz
        refused = await tg.wait_answered(tg.tap(chat, other_mod, picker.message_id, forged))
        assert refused.show_alert and refused.text in alerts("alert_invalid")
        refused = await tg.wait_answered(tg.tap(teacher.id, teacher, 1, three_days))
        assert refused.show_alert and refused.text in alerts("alert_invalid")
        assert await store.open_homework() == []

        # the moderator who followed it picks 3 days, then each question's time: the card
        picked = await tg.wait_answered(tg.tap(chat, teacher, picker.message_id, three_days))
        assert picked.text is None
        timer = await tg.wait_for(
            lambda: (
                m
                if (m := tg.stored_message(chat, picker.message_id)) and "each question" in m.text
                else None
            )
        )
        times = {label: d for row in timer.buttons for label, d in row}
        assert list(times) == ["⏱ 30 s (the quiz's)", "⏱ 60 s", "⏱ 120 s", "⏱ 300 s"]
        assert "at least 60 seconds" in timer.text  # a typed answer's time
        assert (await store.open_homework()) == []  # nothing set before the time is picked
        refused = await tg.wait_answered(
            tg.tap(chat, other_mod, picker.message_id, times["⏱ 60 s"])
        )
        assert refused.show_alert and refused.text in alerts("hw_duration_not_yours")
        await tg.wait_answered(tg.tap(chat, teacher, picker.message_id, times["⏱ 60 s"]))
        card = await tg.wait_for(lambda: tg.find_message(chat, "Homework: Cells"))
        assert "Deadline: Thu 4 Mar, 16:00 (UTC+6)" in card.text  # 3 days from 10:00 UTC
        done = tg.stored_message(chat, picker.message_id)
        assert done is not None and not done.buttons
        assert "Homework set for 3 days" in done.text
        (hw,) = await store.open_homework()
        assert hw.deadline - hw.created_at == HOMEWORK_DURATIONS[2] and hw.set_by == teacher.id
        assert hw.seconds == 60
        # a second tap (a stale client, a double tap) sets nothing more
        again = await tg.wait_answered(tg.tap(chat, teacher, picker.message_id, datas[0]))
        assert again.show_alert and again.text in alerts("alert_invalid")
        assert len(await store.open_homework()) == 1
