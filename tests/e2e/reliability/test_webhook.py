"""Webhook mode, end to end: the real ``quizbot run`` serves a webhook on 127.0.0.1.

The fake server registers the webhook on setWebhook and POSTs its queued updates there with
Telegram's secret header. Requests without that header, or with another secret, are refused.
"""

from __future__ import annotations

import re
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

from fakebot import FakeTelegram, User
from quizkit import button_data, correct_label, populate, start_quiz
from shipkit import TOKEN, QuizbotProcess, healthcheck, quizbot_env
from webhookkit import SECRET, webhook_env


def private_command(tg: FakeTelegram, user: User, text: str) -> dict[str, Any]:
    """A ``message`` update as Telegram would send it, not queued in the fake server."""
    return {
        "message": {
            "message_id": 900_000 + tg.next_update_id,
            "date": int(time.time()),
            "chat": tg.private_chat(user).to_dict(),
            "from": user.to_dict(),
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
        }
    }


def greetings(tg: FakeTelegram, user: User) -> int:
    return len(
        [
            m
            for m in tg.messages(user.id)
            if "I'm <b>quizbot</b>" in m.text or "I'm quizbot" in m.text
        ]
    )


async def test_webhook_serves_updates_and_refuses_requests_without_the_secret(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    env, url = webhook_env(tg, tmp_path, QUIZBOT_WEBHOOK_SECRET=SECRET, QUIZBOT_LOG_LEVEL="DEBUG")
    student = tg.add_user(5001, "Rina", language_code="en")
    bot = await QuizbotProcess(env, tmp_path).start()
    try:
        # The bot registers its webhook with the secret and only the updates it handles.
        await tg.wait_for(lambda: tg.webhook_url == url, timeout=30, what="setWebhook")
        assert tg.webhook_secret == SECRET
        assert tg.allowed_updates is not None
        assert "callback_query" in tg.allowed_updates

        # /start in a private chat: delivered by POST to the webhook, answered with the greeting.
        tg.user_says(tg.start_bot(student), student, "/start")
        await tg.wait_for_message(student.id, "Hello", timeout=20)
        await tg.wait_consumed(timeout=20)
        assert any(d.status == 200 for d in tg.webhook_deliveries)
        assert tg.calls_to("getUpdates") == []  # no polling in webhook mode
        assert greetings(tg, student) == 1

        # Without the secret header, or with another secret: refused, and nothing happens.
        assert await tg.post_update_raw(private_command(tg, student, "/start"), None) == 403
        assert await tg.post_update_raw(private_command(tg, student, "/start"), "wrong") == 403
        assert await tg.post_update_raw(private_command(tg, student, "/start"), SECRET + "x") == 403
        # With it: accepted. Its reply (to /help) is the barrier after which the refused
        # updates would have been answered too, had they been taken.
        assert await tg.post_update_raw(private_command(tg, student, "/help"), SECRET) == 200
        await tg.wait_for_message(student.id, "Commands for students", timeout=20)
        assert greetings(tg, student) == 1

        assert await healthcheck(env, tmp_path) == (0, "")  # the container's HEALTHCHECK
        assert await bot.stop(signal.SIGTERM, timeout=10) == 0
    finally:
        await bot.close()
    code, err = await healthcheck(env, tmp_path)
    assert code == 1
    assert "webhook server on 127.0.0.1:" in err
    logs = bot.stderr
    assert SECRET not in logs
    assert TOKEN not in logs
    assert "webhook secret set" in logs
    assert "database closed" in logs


async def test_webhook_secret_is_generated_when_not_given(tg: FakeTelegram, tmp_path: Path) -> None:
    env, url = webhook_env(tg, tmp_path, QUIZBOT_LOG_LEVEL="DEBUG")
    student = tg.add_user(5002, "Tanvir", language_code="en")
    bot = await QuizbotProcess(env, tmp_path).start()
    try:
        await tg.wait_for(lambda: tg.webhook_url == url, timeout=30, what="setWebhook")
        secret = tg.webhook_secret
        assert secret is not None
        assert re.fullmatch(r"[A-Za-z0-9_-]{32,256}", secret)
        tg.user_says(tg.start_bot(student), student, "/start")
        await tg.wait_for_message(student.id, "Hello", timeout=20)
        assert await tg.post_update_raw(private_command(tg, student, "/start"), None) == 403
        assert await bot.stop(signal.SIGINT, timeout=10) == 0
    finally:
        await bot.close()
    logs = bot.stderr
    assert secret not in logs  # logged as set, never shown
    assert "a random secret is set" in logs
    assert greetings(tg, student) == 1


async def test_plain_http_webhook_elsewhere_is_refused(tmp_path: Path) -> None:
    env = quizbot_env(
        None,
        tmp_path / "q.sqlite3",
        TELEGRAM_BOT_TOKEN=TOKEN,
        QUIZBOT_WEBHOOK_URL="http://bot.example.org/telegram",
    )
    bot = await QuizbotProcess(env, tmp_path).start()
    try:
        assert await bot.wait(timeout=30) == 2
    finally:
        await bot.close()
    assert bot.stderr.strip() == (
        "quizbot: QUIZBOT_WEBHOOK_URL must be an https:// URL, "
        "got 'http://bot.example.org/telegram'"
    )


async def test_a_tap_is_answered_in_the_webhook_reply(tg: FakeTelegram, tmp_path: Path) -> None:
    """The alert goes back in the HTTP answer to Telegram's request (one request less per
    tap), once the answer is stored."""
    env, url = webhook_env(tg, tmp_path, QUIZBOT_WEBHOOK_SECRET=SECRET)
    cls = populate(tg, students=3)
    bot = await QuizbotProcess(env, tmp_path).start()
    try:
        await tg.wait_for(lambda: tg.webhook_url == url, timeout=30, what="setWebhook")
        q1 = await start_quiz(tg, cls)
        right = button_data(q1, correct_label(q1))
        queries = [tg.tap(cls.chat_id, s, q1.message_id, right) for s in cls.students]
        answers = [await tg.wait_answered(q, timeout=20) for q in queries]
        assert all((a.text or "").startswith("✅ Right!") and a.show_alert for a in answers)
        calls = tg.calls_to("answerCallbackQuery")
        assert len(calls) == 3 and all(c.in_webhook_reply and c.status == 200 for c in calls)
        assert await bot.stop(signal.SIGTERM, timeout=10) == 0
    finally:
        await bot.close()
    conn = sqlite3.connect(env["QUIZBOT_DB"])
    try:
        stored = conn.execute("SELECT COUNT(*) FROM answers WHERE correct = 1").fetchone()[0]
    finally:
        conn.close()
    assert stored == 3
