"""bot/tg/updates.py: updates decoded as PTB decodes them, each distinct message built once."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import button_data, correct_label, populate, run_of, start_quiz
from telegram import Bot, Message, Update

from bot.tg.updates import Messages, QuizBot, decode_update

GROUP = -1001234

QUESTION: dict[str, Any] = {
    "message_id": 41,
    "date": 1_700_000_000,
    "chat": {"id": GROUP, "type": "supergroup", "title": "Study & <friends>", "is_forum": True},
    "from": {"id": 4242, "is_bot": True, "first_name": "Quiz Bot", "username": "quiz_bot"},
    "message_thread_id": 7,
    "is_topic_message": True,
    "text": "Question 1 of 5\nWhat does ZeRO-1 partition?",
    "entities": [{"type": "bold", "offset": 0, "length": 15}],
    "reply_markup": {
        "inline_keyboard": [
            [{"text": label, "callback_data": f"a:run7:0:{i}"}] for i, label in enumerate("ABCD")
        ]
    },
}


def tap(update_id: int, user: int, message: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "update_id": update_id,
        "callback_query": {
            "id": f"q{update_id}",
            "from": {
                "id": user,
                "is_bot": False,
                "first_name": f"Student {user}",
                "language_code": "bn",
            },
            "message": copy.deepcopy(message or QUESTION),
            "chat_instance": "-55",
            "data": f"a:run7:0:{user % 4}",
        },
    }


def ptb(raw: dict[str, Any], bot: Bot) -> Update:
    return Update.de_json(copy.deepcopy(raw), bot)


def same(ours: Update, theirs: Update) -> None:
    """Equal field for field, nested objects and unknown fields (api_kwargs) included."""
    assert type(ours) is type(theirs)
    assert ours.to_dict(recursive=True) == theirs.to_dict(recursive=True)
    assert ours.api_kwargs == theirs.api_kwargs
    if ours.callback_query is not None and theirs.callback_query is not None:
        assert type(ours.callback_query.message) is type(theirs.callback_query.message)
        assert ours.callback_query.api_kwargs == theirs.callback_query.api_kwargs
        assert ours.callback_query.get_bot() is theirs.callback_query.get_bot()


def bot() -> QuizBot:
    return QuizBot("4242:updates-test-token")


def test_taps_on_one_message_share_it_and_equal_ptbs() -> None:
    b = bot()
    raws = [tap(100 + i, 5000 + i) for i in range(5)]
    updates = [b.decode(raw) for raw in raws]
    for raw, update in zip(raws, updates, strict=True):
        same(update, ptb(raw, b))
        assert update.effective_user is not None and update.effective_chat is not None
        assert update.effective_chat.id == GROUP
    messages = {id(u.callback_query.message) for u in updates if u.callback_query}
    assert len(messages) == 1  # built once for the five taps
    message = updates[0].callback_query.message  # type: ignore[union-attr]
    assert isinstance(message, Message) and message.get_bot() is b
    assert message.message_thread_id == 7 and message.reply_markup is not None
    users = {u.effective_user.id for u in updates if u.effective_user}
    assert users == {5000, 5001, 5002, 5003, 5004}


def test_an_edited_message_is_built_again() -> None:
    """Same chat and message id, different JSON (the question closed into its reveal): the
    tap sees the message as Telegram sent it."""
    b = bot()
    first = b.decode(tap(1, 10))
    revealed = {**QUESTION, "text": "Revealed: B", "edit_date": 1_700_000_030}
    revealed.pop("reply_markup")
    second = b.decode(tap(2, 11, revealed))
    same(second, ptb(tap(2, 11, revealed), b))
    assert second.callback_query.message.text == "Revealed: B"  # type: ignore[union-attr]
    assert first.callback_query.message.text != "Revealed: B"  # type: ignore[union-attr]


def test_everything_else_is_ptbs() -> None:
    """Updates the fast path does not know go through Update.de_json, whole."""
    b = bot()
    inaccessible = {"chat": QUESTION["chat"], "message_id": 3, "date": 0}
    unknown = tap(3, 12)
    unknown["callback_query"]["new_field_from_a_later_api"] = {"x": 1}
    extra = tap(4, 13)
    extra["a_later_update_field"] = {"id": "b"}
    inline = tap(5, 14)
    del inline["callback_query"]["message"]
    inline["callback_query"]["inline_message_id"] = "inl-1"
    message = {"update_id": 6, "message": {**QUESTION, "text": "/quiz zero"}}
    no_sender = tap(7, 15)  # a field the Bot API always sends, missing: PTB still decodes it
    del no_sender["callback_query"]["from"]
    others = [tap(2, 11, inaccessible), unknown, extra, inline, message, no_sender]
    for raw in others:
        same(b.decode(copy.deepcopy(raw)), ptb(raw, b))
    assert unknown["callback_query"]["new_field_from_a_later_api"] == {"x": 1}  # input untouched
    quirky = b.decode(copy.deepcopy(unknown)).callback_query
    assert quirky is not None and quirky.api_kwargs == {"new_field_from_a_later_api": {"x": 1}}


def test_the_message_memo_is_bounded() -> None:
    b = bot()
    messages = Messages(size=3)
    built = []
    for message_id in range(5):
        raw = tap(message_id, 1, {**QUESTION, "message_id": message_id})
        built.append(decode_update(raw, b, messages).callback_query.message)  # type: ignore[union-attr]
    assert len(messages._built) == 3
    again = decode_update(tap(9, 2, {**QUESTION, "message_id": 4}), b, messages)
    assert again.callback_query.message is built[4]  # type: ignore[union-attr]
    old = decode_update(tap(10, 2, {**QUESTION, "message_id": 0}), b, messages)
    assert old.callback_query.message is not built[0]  # type: ignore[union-attr]
    assert old.callback_query.message == built[0]  # type: ignore[union-attr]


async def test_a_class_tapping_at_once_builds_the_question_once(
    tg: FakeTelegram, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over real HTTP: forty taps queued at once reach the handlers with one shared question
    message (built once per getUpdates answer at most), and every tap is answered and
    stored."""
    cls = populate(tg, students=40)
    built: list[int] = []
    original = Message.de_json.__func__  # type: ignore[attr-defined]

    def counting(cls_: type[Message], data: dict[str, Any], bot: Bot | None = None) -> Message:
        built.append(data.get("message_id", 0))
        message: Message = original(cls_, data, bot)
        return message

    async with BotHarness(tg, db_path) as bot:
        assert isinstance(bot.app.bot, QuizBot)
        q1 = await start_quiz(tg, cls)
        right = button_data(q1, correct_label(q1))
        monkeypatch.setattr(Message, "de_json", classmethod(counting))
        queries = [tg.tap(cls.chat_id, s, q1.message_id, right) for s in cls.students]
        answers = [await tg.wait_answered(q) for q in queries]
        assert all((a.text or "").startswith("✅") for a in answers)
        monkeypatch.undo()
        assert 1 <= built.count(q1.message_id) < len(cls.students) / 4, built
        assert len(await bot.services.store.answers(run_of(q1))) == 40
