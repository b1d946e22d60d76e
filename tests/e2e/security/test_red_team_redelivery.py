"""Red team, exactly once under redelivery: Telegram hands a tap out again when the webhook's
answer never came back (a crash after the effect was stored, before the reply) or after a
restart. A state-changing button acts once: the homework a duration button or a "which quiz?"
pick sets is one homework, its card posted even when the bot died before posting it."""

from __future__ import annotations

import asyncio
import copy
import sqlite3
from pathlib import Path
from typing import Any

from authorkit import write_quiz
from botproc import BotProcess
from fakebot import FakeTelegram, StoredMessage
from quizkit import populate
from refusalkit import answers, played_with_a_wrong_answer
from regradekit import command
from securitykit import AIKEN
from teacherkit import FrozenClock, harness
from webhookkit import SECRET, webhook_env


def homework_rows(db: Path) -> list[tuple[int, str, int | None]]:
    """Every homework: (chat, quiz, card message)."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT chat_id, quiz_id, card_message_id FROM homework ORDER BY homework_id"
        ).fetchall()
    finally:
        conn.close()


def tapped(tg: FakeTelegram, *args: Any) -> tuple[str, dict[str, Any]]:
    """A tap queued now: its query id and its update, to deliver again later."""
    query_id = tg.tap(*args)
    return query_id, copy.deepcopy(tg.updates[-1].data)


def first_button(message: StoredMessage) -> str:
    return next(d for row in message.buttons for _, d in row if d)


async def picker(tg: FakeTelegram, chat: int, teacher: Any) -> StoredMessage:
    """The teacher follows a saved quiz's "set as homework" link in the group and picks how
    long it runs: the picker, now asking each question's time (its taps set the homework)."""
    tg.user_says(chat, teacher, "/start qh-1")
    offer = await tg.wait_for(lambda: tg.find_message(chat, "for how long?"), timeout=20)
    await tg.wait_answered(tg.tap(chat, teacher, offer.message_id, first_button(offer)))

    def seconds() -> StoredMessage | None:
        message = tg.stored_message(chat, offer.message_id)
        ready = message is not None and first_button(message).count(":") == 4  # hd:Q:D:U:S
        return message if ready else None

    return await tg.wait_for(seconds, timeout=20, what="each question's time asked")


async def test_a_duration_tap_delivered_again_sets_one_homework(
    tg: FakeTelegram, db_path: Path
) -> None:
    """In process: the tap is handed out again after a restart, and tapped twice at once."""
    cls = populate(tg, students=1)
    chat, teacher = cls.chat_id, cls.creator
    clock = FrozenClock()
    async with harness(tg, db_path, clock):
        await write_quiz(tg, teacher, "Cells")
        offer = await picker(tg, chat, teacher)
        data = first_button(offer)
        first, update = tapped(tg, chat, teacher, offer.message_id, data)
        second = tg.tap(chat, teacher, offer.message_id, data)  # a double tap
        await tg.wait_answered(first)
        again = await tg.wait_answered(second)
        assert again.show_alert and again.text == "This button is no longer valid."
        await tg.wait_for(lambda: tg.find_message(chat, "Homework: Cells"))
        assert len(homework_rows(db_path)) == 1
    async with harness(tg, db_path, clock):
        before = len(tg.messages(chat))
        answered = len(tg.calls_to("answerCallbackQuery"))
        tg.raw_update(update)  # Telegram hands the tap out again after the restart
        await tg.wait_for(lambda: len(tg.calls_to("answerCallbackQuery")) > answered)
        assert len(homework_rows(db_path)) == 1
        assert len(tg.messages(chat)) == before  # no second card


async def test_a_pick_delivered_again_sets_one_homework(tg: FakeTelegram, db_path: Path) -> None:
    """``k:homework:QUIZ``: one homework per pick of a "which quiz?" list."""
    cls = populate(tg, students=1)
    chat, teacher = cls.chat_id, cls.creator
    clock = FrozenClock()
    async with harness(tg, db_path, clock):
        tg.user_says(chat, teacher, "/homework nosuchquiz")
        listing = await tg.wait_for(lambda: tg.find_message(chat, "There is no quiz"))
        pick = "k:homework:zero"
        first, update = tapped(tg, chat, teacher, listing.message_id, pick)
        await tg.wait_answered(first)
        await tg.wait_for(lambda: tg.find_message(chat, "Homework: ZeRO"))
        await tg.wait_answered(tg.tap(chat, teacher, listing.message_id, pick))
        await tg.wait_for(lambda: tg.find_message(chat, "set already"))
        assert len(homework_rows(db_path)) == 1
    async with harness(tg, db_path, clock):
        tg.raw_update(update)
        await tg.wait_for(tg.all_updates_consumed)
        await tg.wait_for(lambda: sum("set already" in m.text for m in tg.messages(chat)) == 2)
        assert len(homework_rows(db_path)) == 1


async def test_kill_9_before_the_webhook_reply_sets_one_homework(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Webhook mode, the real process: the homework is stored, the bot is killed while posting
    its card (the tap's webhook request never answered); Telegram delivers the tap again to the
    restarted bot, which posts the card of the one homework."""
    env, url = webhook_env(tg, tmp_path, QUIZBOT_WEBHOOK_SECRET=SECRET)
    db = Path(env["QUIZBOT_DB"])
    cls = populate(tg, students=1)
    chat, teacher = cls.chat_id, cls.creator
    extra = {k: v for k, v in env.items() if k.startswith(("QUIZBOT_WEBHOOK", "QUIZBOT_LISTEN"))}
    bot = await BotProcess(tg, db, **extra).start()
    try:
        await tg.wait_for(lambda: tg.webhook_url == url, timeout=30, what="setWebhook")
        await write_quiz(tg, teacher, "Cells")
        offer = await picker(tg, chat, teacher)
        posting = asyncio.Event()  # the card is being posted: the homework is stored

        def card(params: dict[str, Any]) -> bool:
            if str(params.get("chat_id")) != str(chat):
                return False
            posting.set()
            return True

        tg.fail("sendMessage", delay=60, match=card)
        tg.tap(chat, teacher, offer.message_id, first_button(offer))
        await asyncio.wait_for(posting.wait(), 20)
        assert len(homework_rows(db)) == 1 and tg.updates  # stored; the tap not yet confirmed
        await bot.kill()
        tg.faults.clear()
        bot = await BotProcess(tg, db, **extra).start()
        await tg.wait_for(lambda: tg.find_message(chat, "Homework: Cells"), timeout=30)
        await tg.wait_for(tg.all_updates_consumed, timeout=30)
        rows = homework_rows(db)
        assert len(rows) == 1 and rows[0][2] is not None
    finally:
        await bot.close()


def season_of(db: Path, chat: int) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(
            conn.execute("SELECT season FROM chats WHERE chat_id = ?", (chat,)).fetchone()[0]
        )
    finally:
        conn.close()


async def test_a_reset_tapped_twice_or_delivered_again_ends_one_season(
    tg: FakeTelegram, db_path: Path
) -> None:
    """``r:SEASON:y``: two taps at once, and the tap handed out again after a restart, end
    season 1 once."""
    cls = populate(tg, students=1)
    chat, teacher = cls.chat_id, cls.creator
    clock = FrozenClock()
    async with harness(tg, db_path, clock):
        tg.user_says(chat, teacher, "/resetleaderboard")
        confirm = await tg.wait_for(lambda: tg.find_message(chat, "End season 1"))
        yes = first_button(confirm)
        first, update = tapped(tg, chat, teacher, confirm.message_id, yes)
        second = tg.tap(chat, cls.admin, confirm.message_id, yes)
        answers = [await tg.wait_answered(first), await tg.wait_answered(second)]
        assert sum(a.show_alert for a in answers) == 1  # the other: "already reset"
        assert season_of(db_path, chat) == 2
    async with harness(tg, db_path, clock):
        answered = len(tg.calls_to("answerCallbackQuery"))
        tg.raw_update(update)
        await tg.wait_for(lambda: len(tg.calls_to("answerCallbackQuery")) > answered)
        assert season_of(db_path, chat) == 2


def uploads(db: Path) -> tuple[int, int]:
    """(stored quizzes, uploads counted)."""
    conn = sqlite3.connect(db)
    try:
        quizzes = conn.execute("SELECT COUNT(*) FROM authored_quizzes").fetchone()[0]
        counted = conn.execute("SELECT COUNT(*) FROM uploads").fetchone()[0]
        return int(quizzes), int(counted)
    finally:
        conn.close()


async def test_an_upload_saved_before_kill_9_is_named_after_the_restart(
    tg: FakeTelegram, db_path: Path
) -> None:
    """The bot dies (SIGKILL) after saving an upload's quiz, before its "saved as" reply: after
    the restart its sender reads that it is already saved, under which name, and is not asked
    to send it again (which would save a second copy and count a second upload)."""
    teacher = tg.add_user(4242, "Teacher", language_code="en")
    bot = await BotProcess(tg, db_path).start()
    try:
        replying = asyncio.Event()

        def saved_reply(params: dict[str, Any]) -> bool:
            if "saved as" not in str(params.get("text", "")):
                return False
            replying.set()
            return True

        tg.fail("sendMessage", delay=60, match=saved_reply)
        tg.user_sends_document(teacher, "layers.txt", AIKEN)
        await asyncio.wait_for(replying.wait(), 20)
        assert uploads(db_path) == (1, 1)
        await bot.kill()
        tg.faults.clear()
        bot = await BotProcess(tg, db_path).start()
        told = await tg.wait_for(
            lambda: tg.find_message(teacher.id, "already saved as"), timeout=20
        )
        assert "layers" in told.text
        assert not any("Please send it again" in m.text for m in tg.messages(teacher.id))
        assert uploads(db_path) == (1, 1)
    finally:
        await bot.close()


async def test_a_regrade_apply_delivered_again_changes_nothing_more(
    tg: FakeTelegram, db_path: Path
) -> None:
    """``rg:…:y`` handed out again after a restart: the answers stay as the first apply left
    them (a re-grade with one key is the same state however often it is applied)."""
    cls = populate(tg, students=1)
    chat, teacher = cls.chat_id, cls.creator
    clock = FrozenClock()
    async with harness(tg, db_path, clock) as bot:
        wrong = await played_with_a_wrong_answer(tg, cls, bot)
        preview = await command(tg, chat, teacher, f"/regrade zero 1 {'ABCD'[wrong]}", "✏️", clock)
        apply = f"rg:zero:1:{wrong}:y"
        stored = answers(db_path)
        first, update = tapped(tg, chat, teacher, preview.message_id, apply)
        await tg.wait_answered(first)
        await tg.wait_for(lambda: answers(db_path) != stored, what="re-graded")
        regraded = answers(db_path)
    async with harness(tg, db_path, clock):
        answered = len(tg.calls_to("answerCallbackQuery"))
        tg.raw_update(update)
        await tg.wait_for(lambda: len(tg.calls_to("answerCallbackQuery")) > answered)
        assert answers(db_path) == regraded
