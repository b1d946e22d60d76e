"""Every command and button declares who may use it where, and the registry refuses the rest
before any handler runs: a test per kind of rule, the wrong user and the wrong place, each
answered by a short polite alert (or reply) that changes nothing. The kinds the other files
show: a moderator's buttons (tests/e2e/security/test_hostile.py ``r:``, ``s:``;
test_button_refusals.py
``rg:``, and ``rr:`` for the moderator of a run's group), an author's card (``g:``, there too),
a run one answered in (tests/e2e/security/test_security.py ``p:``), a practice run of one's own chat
(test_security.py), the homework setter (test_homework_link.py) and the operators' commands
(test_registry.py)."""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import pytest
from authorkit import write_quiz
from fakebot import FakeTelegram, StoredMessage
from harness import BotHarness
from quizkit import populate
from refusalkit import alerts, greeted, refused
from reportkit import review_question
from teacherkit import FrozenClock, harness, hw_question, start_hw, take_hw
from telegram import Update

from bot.app.application import build_application
from bot.app.registry import BUTTONS, COMMANDS, Registry
from bot.i18n import t
from bot.i18n.markup import html
from bot.routing.replies import reply
from bot.routing.routes import Command
from bot.services.container import Context

DAY = 86_400.0


def datas(message: StoredMessage) -> list[str]:
    return [d for row in message.buttons for _, d in row if d]


async def test_an_attempt_and_a_review_card_are_their_students(
    tg: FakeTelegram, db_path: Path
) -> None:
    """``participant``: a homework answer (``h:``) only in the student's own attempt, in
    private; a review answer (``v:``) and its report (``pc:``) only on the student's own card."""
    cls = populate(tg, students=2)
    ana, ben = cls.students
    clock = FrozenClock()
    async with harness(tg, db_path, clock):
        ben_chat = await greeted(tg, ben)
        await greeted(tg, ana)
        tg.user_says(cls.chat_id, cls.admin, "/homework zero 7d")
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "ZeRO"), what="card")
        await take_hw(tg, ana, 1, [False] + [True] * 7)  # a missed question: a review card
        await start_hw(tg, ben, 1)
        first = await tg.wait_for(functools.partial(hw_question, tg, ben, 0))
        ben_answer = datas(first)[0]
        # Ana taps Ben's attempt in her chat; Ben taps his own in the group: refused, unstored
        await refused(tg, ana.id, ana, ben_chat.message_id, ben_answer, "alert_invalid")
        await refused(tg, cls.chat_id, ben, 1, ben_answer, "alert_invalid")
        assert hw_question(tg, ben, 1) is None
        assert not (tg.stored_message(ben.id, first.message_id) or first).edits
        answered = await tg.wait_answered(tg.tap(ben.id, ben, first.message_id, ben_answer))
        assert answered.text not in alerts("alert_invalid")

        clock.advance(DAY + 60)
        tg.user_says(tg.private_chat(ana), ana, "/review")
        asked = await tg.wait_for(functools.partial(review_question, tg, ana), what="/review")
        card_answer = datas(asked)[0]
        card_id = card_answer.split(":")[1]
        for forged in (card_answer, f"pc:{card_id}"):  # Ben, in his own chat
            await refused(tg, ben.id, ben, ben_chat.message_id, forged, "alert_invalid")
        await refused(tg, cls.chat_id, ana, 1, card_answer, "alert_invalid")  # in the group
        assert not (tg.stored_message(ana.id, asked.message_id) or asked).edits
        answered = await tg.wait_answered(tg.tap(ana.id, ana, asked.message_id, card_answer))
        assert answered.text not in alerts("alert_invalid")
        reported = await tg.wait_answered(tg.tap(ana.id, ana, asked.message_id, f"pc:{card_id}"))
        assert reported.text not in alerts("alert_invalid")


async def test_deleting_a_quiz_is_its_authors_or_an_operators(
    tg: FakeTelegram, db_path: Path
) -> None:
    """``author`` or ``admin`` (``dq:``): another user is refused; an operator may."""
    cls = populate(tg, students=1)
    teacher, (student,), operator = cls.creator, cls.students, cls.outsider
    env = {"QUIZBOT_ADMIN_IDS": str(operator.id)}
    async with harness(tg, db_path, FrozenClock(), **env):
        mine = await greeted(tg, student)
        theirs = await greeted(tg, operator)
        await greeted(tg, teacher)
        await write_quiz(tg, teacher, "Cells")
        await refused(tg, student.id, student, mine.message_id, "dq:1:y", "alert_invalid")
        await refused(tg, cls.chat_id, teacher, 1, "dq:1:y", "alert_invalid")  # not private
        kept = await tg.wait_answered(tg.tap(operator.id, operator, theirs.message_id, "dq:1:n"))
        assert not kept.show_alert
        await tg.wait_for(
            lambda: (tg.stored_message(operator.id, theirs.message_id) or theirs).edits
        )


async def test_a_private_chat_is_its_users(tg: FakeTelegram, db_path: Path) -> None:
    """Any button (even ``anyone``'s: ``tz:``) tapped in a private chat by another user."""
    cls = populate(tg, students=2)
    ana, ben = cls.students
    async with harness(tg, db_path, FrozenClock()):
        hers = await greeted(tg, ana)
        await greeted(tg, ben)
        await refused(tg, ana.id, ben, hers.message_id, "tz:360", "alert_invalid")
        assert not (tg.stored_message(ana.id, hers.message_id) or hers).edits
        mine = await tg.wait_answered(tg.tap(ana.id, ana, hers.message_id, "tz:360"))
        assert not mine.show_alert


async def test_an_undeclared_button_is_refused_and_logged(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A prefix no kind of button declares: the "no longer valid" alert, one log line naming
    the data, no traceback."""
    cls = populate(tg, students=1)
    (student,) = cls.students
    async with harness(tg, db_path, FrozenClock()):
        with caplog.at_level(logging.INFO, logger="bot.app.registry"):
            await refused(tg, cls.chat_id, student, 1, "zz:forged", "alert_invalid")
        assert [r.getMessage() for r in caplog.records if "zz:forged" in r.getMessage()] == [
            "button of no declared kind refused: 'zz:forged'"
        ]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


PONGED: list[int] = []


async def pong(update: Update, context: Context) -> None:
    """A command of forum topics, added for this test."""
    PONGED.append(context.caller.chat.id)
    await reply(update, context, html(f"pong {context.lang}"), important=True)


async def test_a_topic_command_works_only_in_a_topic(tg: FakeTelegram, db_path: Path) -> None:
    """``where="topic"``: in a group outside its topics, or in private, a short reply; in a
    topic, the handler runs with the caller and language worked out once."""
    registry = Registry((*COMMANDS, Command("ping", pong, who="anyone", where="topic")), BUTTONS)
    cls = populate(tg, students=1, forum=True)
    tg.add_topic(cls.chat_id, 50, "Lectures")
    (student,) = cls.students
    bot = BotHarness(tg, db_path, env={"QUIZBOT_LANGUAGE": "en"})
    bot.app = build_application(bot.settings, registry=registry)
    PONGED.clear()
    async with bot:
        tg.user_says(cls.chat_id, student, "/ping")
        await tg.wait_for_message(cls.chat_id, t("en", "topic_only"))
        tg.user_says(tg.private_chat(student), student, "/ping")
        await tg.wait_for_message(student.id, t("en", "group_only"))
        assert PONGED == []
        tg.user_says(cls.chat_id, student, "/ping", thread_id=50)
        await tg.wait_for_message(cls.chat_id, "pong en", thread_id=50)
        assert [cls.chat_id] == PONGED


async def test_a_homework_links_duration_is_its_setters_while_a_moderator(
    tg: FakeTelegram, db_path: Path
) -> None:
    """``setter`` (``hd:``): the moderator who followed the link, and only while still a
    moderator of the group (other users and places: tests/e2e/homework/test_homework_link.py)."""
    cls = populate(tg, students=1)
    chat, setter = cls.chat_id, cls.creator
    clock = FrozenClock()
    async with harness(tg, db_path, clock) as bot:
        await write_quiz(tg, setter, "Cells")
        tg.user_says(chat, setter, "/start qh-1")
        picker = await tg.wait_for(lambda: next((m for m in tg.messages(chat) if m.buttons), None))
        one_day = datas(picker)[1]
        tg.set_member(chat, setter, "member")  # no longer a moderator of the group
        bot.services.moderators.forget(chat)  # as when Telegram reports the change
        await refused(tg, chat, setter, picker.message_id, one_day, "alert_mod_only")
        assert await bot.services.store.open_homework() == []
        tg.set_member(chat, setter, "creator")
        bot.services.moderators.forget(chat)
        picked = await tg.wait_answered(tg.tap(chat, setter, picker.message_id, one_day))
        assert picked.text is None
        # then each question's time, on the same message: the quiz's own
        seconds = await tg.wait_for(
            lambda: next(
                (m for m in [tg.stored_message(chat, picker.message_id)] if m and m.buttons), None
            )
        )
        picked = await tg.wait_answered(tg.tap(chat, setter, picker.message_id, datas(seconds)[-1]))
        assert picked.text is None
        await tg.wait_for(lambda: tg.find_message(chat, "Homework: Cells"))
