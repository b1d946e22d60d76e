"""The one table of commands and buttons drives the handlers, /help, the menus and the docs.

A command added to the table is handled, checked (who may use it, where), listed in /help and in
the right menu, with no other change; buttons are routed by their data's type.
"""

from __future__ import annotations

import re
from pathlib import Path

import docskit
import pytest
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import populate
from telegram import Update
from telegram.ext import CommandHandler

from bot.app.application import build_application
from bot.app.registry import BUTTONS, COMMANDS, REGISTRY, TEACHER_HELP, Registry
from bot.core.settings import load_settings
from bot.features.quiz import routes as commands
from bot.features.stats.buttons import ResetData
from bot.i18n import t
from bot.i18n.markup import html
from bot.render import callbacks
from bot.routing.replies import reply
from bot.routing.routes import Button, Command, Notice
from bot.services.container import Context


def handled_commands(registry: Registry) -> set[str]:
    settings = load_settings({"TELEGRAM_BOT_TOKEN": "1:x", "QUIZBOT_LANGUAGE": "en"})
    app = build_application(settings, quizzes={}, registry=registry)
    return {
        name
        for group in app.handlers.values()
        for h in group
        if isinstance(h, CommandHandler)
        for name in h.commands
    }


def test_every_command_of_the_table_is_handled_and_only_those() -> None:
    names = {n for c in REGISTRY.commands for n in c.names}
    assert {"quiz", "next", "stop", "start", "help", "top", "recap", "remind"} <= names
    assert handled_commands(REGISTRY) == names


def test_docs_document_every_command_of_the_table() -> None:
    """The Commands sections of the students' and teachers' pages name every documented
    command, moderators' ones in the teachers' moderators' table, and name no command the bot
    does not have."""
    students = docskit.section(docskit.read("docs/students.md"), "Commands")
    teachers = docskit.section(docskit.read("docs/teachers.md"), "Commands")
    assert students and teachers, "docs/students.md or docs/teachers.md has no Commands section"
    moderators = teachers.split("For moderators", 1)[1]
    for command in REGISTRY.commands:
        if not command.documented:
            continue
        for name in command.names:
            if command.who == "moderator":
                where, page = moderators, "docs/teachers.md's moderators' table"
            elif command.who == "anyone":
                where, page = students, "the Commands of docs/students.md"
            else:  # the bot's administrators: in either page's tables
                where, page = students + moderators, "the Commands of students.md or teachers.md"
            assert f"`/{name}" in where, f"/{name} is not in {page}"
    for text in (students, teachers):
        listed = set(re.findall(r"^\| `/([a-z0-9_]+)", text, re.MULTILINE))
        listed |= set(re.findall(r", `/([a-z0-9_]+)", text))
        assert listed <= {n for c in REGISTRY.commands for n in c.names}, listed


def test_help_and_menus_come_from_the_table() -> None:
    for lang in ("bn", "en"):
        text = REGISTRY.help_text(lang)
        students, teachers, moderators = text.split("\n\n")
        assert t(lang, "help_teacher_flow") in teachers  # how a teacher goes about it
        for command in REGISTRY.commands:
            for key, section in (
                (command.help if command.who == "anyone" else None, students),
                (command.help if command.who == "moderator" else None, moderators),
                (command.mod_help, moderators),
            ):
                if key:  # a teacher's line (write, share, homework, analysis) in theirs only
                    assert t(lang, key) in (teachers if key in TEACHER_HELP else section), key
                    assert key in TEACHER_HELP or t(lang, key) not in teachers, key
        for key in ("help_newquiz", "help_share", "help_homework_mod", "help_analysis"):
            assert t(lang, key) in teachers and t(lang, key) not in students + moderators
        everyone = [c.command for c in REGISTRY.menu(lang, admins=False)]
        admins = [c.command for c in REGISTRY.menu(lang, admins=True)]
        # an ephemeral command is listed under each of its names (/leaderboard and /top)
        assert everyone == [
            name
            for c in REGISTRY.commands
            if c.who == "anyone" and c.menu
            for name in (c.names if c.ephemeral else (c.name,))
        ]
        assert "next" not in everyone and "review" not in admins
        assert {"quiz", "next", "stop", "resetleaderboard", "export", "help"} <= set(admins)


def test_a_broken_table_is_refused() -> None:
    async def noop(update: Update, context: Context) -> None:
        """Nothing."""

    async def tap(update: Update, context: Context, data: object) -> Notice:
        return None, False

    with pytest.raises(ValueError, match="/quiz has two handlers"):
        Registry((*COMMANDS, Command("quiz", noop, who="anyone", where="both")), BUTTONS)
    with pytest.raises(ValueError, match="no text 'help_nope'"):
        Registry(
            (*COMMANDS, Command("nope", noop, who="anyone", where="both", help="help_nope")),
            BUTTONS,
        )
    with pytest.raises(ValueError, match="bad command name"):
        Registry((*COMMANDS, Command("Nope", noop, who="anyone", where="both")), BUTTONS)
    with pytest.raises(ValueError, match="two handlers for one kind"):
        Registry(COMMANDS, (*BUTTONS, Button(callbacks.StartData, tap, who="anyone", where="both")))
    # a payload route may share its name with the generic command
    route = next(c for c in COMMANDS if c.filters is not None)
    Registry(
        (*COMMANDS, Command("start", noop, who="anyone", where="both", filters=route.filters)),
        BUTTONS,
    )


def test_an_entry_without_its_access_rule_is_refused_by_name() -> None:
    """No defaults: a command or a button without ``who`` or ``where`` stops the build, and
    the message names it; a rule the button's data cannot be checked against too."""

    async def noop(update: Update, context: Context) -> None:
        """Nothing."""

    async def tap(update: Update, context: Context, data: object) -> Notice:
        return None, False

    for command in (
        Command("nope", noop),
        Command("nope", noop, who="anyone"),
        Command("nope", noop, where="group"),
    ):
        with pytest.raises(ValueError, match=r"/nope \(.*noop\): no access rule"):
            Registry((*COMMANDS, command), BUTTONS)
    with pytest.raises(ValueError, match="/nope: who='author' is a button's rule"):
        Registry((*COMMANDS, Command("nope", noop, who="author", where="both")), BUTTONS)
    others = tuple(b for b in BUTTONS if b.kind is not ResetData)
    for button in (
        Button(ResetData, tap),
        Button(ResetData, tap, who="moderator"),
        Button(ResetData, tap, where="group"),
        Button(ResetData, tap, who=(), where="group"),
    ):
        with pytest.raises(ValueError, match=r"button ResetData \(.*tap\): no access rule"):
            Registry(COMMANDS, (*others, button))
    # an author's button must name a quiz; a setter's, the user the link was made for
    with pytest.raises(ValueError, match="ResetData: who='author' needs data naming quiz"):
        Registry(COMMANDS, (*others, Button(ResetData, tap, who="author", where="group")))
    with pytest.raises(ValueError, match="ResetData: who='setter' needs data naming link"):
        Registry(COMMANDS, (*others, Button(ResetData, tap, who="setter", where="group")))
    # and the application is never built from such a table
    broken = (*COMMANDS, Command("nope", noop, help="help_next"))
    with pytest.raises(ValueError, match="/nope"):
        handled_commands(Registry(broken, BUTTONS))


# --- one entry is all a new command needs ----------------------------------------------------

PINGED: list[int] = []  # chats where /ping ran


async def ping(update: Update, context: Context) -> None:
    """A moderators' group command added for this test."""
    assert update.effective_chat is not None
    PINGED.append(update.effective_chat.id)
    await reply(update, context, html("pong"), important=True)


async def operator_ping(update: Update, context: Context) -> None:
    """An operators' command added for this test."""
    await reply(update, context, html("operator pong"), important=True)


async def test_one_entry_adds_a_checked_listed_command(tg: FakeTelegram, db_path: Path) -> None:
    registry = Registry(
        (
            *COMMANDS,
            Command(
                "ping", ping, who="moderator", where="group", help="help_next", menu="cmd_next"
            ),
            Command("op", operator_ping, who="admin", where="both", help="help_export"),
        ),
        BUTTONS,
    )
    cls = populate(tg, students=1)
    chat = cls.chat_id
    bot = BotHarness(tg, db_path, env={"QUIZBOT_ADMIN_IDS": str(cls.outsider.id)})
    bot.app = build_application(bot.settings, registry=registry)
    PINGED.clear()
    async with bot:
        await tg.wait_for(lambda: tg.commands("all_chat_administrators", "en"))
        admins = tg.commands("all_chat_administrators", "en")
        assert admins is not None and "ping" in [c["command"] for c in admins]
        everyone = tg.commands("default", "en")
        assert everyone is not None
        assert not {"ping", "op", "reload"} & {c["command"] for c in everyone}
        # the operator's own chat: everyone's commands and the operators' (/reload has a menu
        # line; /op, without one, is in /help only)
        for lang in ("", "en", "bn"):
            mine = tg.commands("chat", lang, chat_id=cls.outsider.id)
            assert mine is not None
            names = [c["command"] for c in mine]
            assert sorted(names) == sorted([c["command"] for c in everyone] + ["reload"]), lang
        assert tg.commands("chat", "en", chat_id=cls.creator.id) is None  # not an operator

        tg.user_says(chat, cls.students[0], "/ping")  # a student: refused, handler not run
        await tg.wait_for_message(chat, "Only the group's moderators can do that.")
        private = tg.private_chat(cls.creator)
        tg.user_says(private, cls.creator, "/ping")  # a group command in private: refused
        await tg.wait_for_message(private, "Use this command in a group.")
        tg.user_says(chat, cls.admin, "/ping")
        await tg.wait_for_message(chat, "pong")
        assert [chat] == PINGED

        tg.user_says(chat, cls.admin, "/op")  # a group admin is not an operator
        await tg.wait_for_message(chat, "Only the bot's administrators can do that.")
        tg.user_says(chat, cls.outsider, "/op")
        await tg.wait_for_message(chat, "operator pong")

        operator = tg.private_chat(cls.outsider)
        tg.user_says(operator, cls.outsider, "/help")
        shown = await tg.wait_for_message(operator, "Commands for the bot's administrators")
        assert shown.text.count(t("en", "help_next")) == 2  # /next and the new /ping
        assert t("en", "help_export") in shown.text.split("administrators", 1)[1]  # /op
        tg.user_says(private, cls.creator, "/help")  # not an operator: no operators' section
        shown = await tg.wait_for_message(private, "Commands for students")
        assert "administrators" not in shown.text


def test_start_payloads_have_their_own_handlers_before_the_generic_start() -> None:
    starts = [
        h for h in REGISTRY.handlers() if isinstance(h, CommandHandler) and "start" in h.commands
    ]
    assert len(starts) >= 2
    generic = [
        i
        for i, h in enumerate(starts)
        if getattr(h.callback, "__wrapped__", None) is commands.start
    ]
    assert generic == [len(starts) - 1]  # routes with a payload filter come first
    assert callbacks.recap_payload(12) == "recap_12"
    assert re.fullmatch(callbacks.RECAP_START, "/start@quizbot recap_12")
    assert not re.fullmatch(callbacks.RECAP_START, "/start recap_012")


async def test_each_deep_link_reaches_its_own_handler(tg: FakeTelegram, db_path: Path) -> None:
    """Homework, analysis, share and recap links each get their feature's answer, forged ones
    a short "not found"; a plain /start and a /start with an unknown payload get the greeting."""
    student = tg.add_user(501, "Mina")
    dm = tg.private_chat(student)
    async with BotHarness(tg, db_path, env={"QUIZBOT_LANGUAGE": "en"}):
        for payload, answer in (
            ("hw-99", "This homework could not be found."),
            ("hw-forged", "This homework could not be found."),
            ("an-5_zero", "Only the group's moderators can do that."),
            ("an-forged", "No quiz has been answered in this group"),
            ("sq-forged", "This link no longer works"),
            ("recap_7", t("en", "recap_none")),
            ("other", "quizbot"),
        ):
            before = len(tg.messages(dm.id))
            tg.user_says(dm, student, f"/start {payload}")
            await tg.wait_for(lambda b=before: len(tg.messages(dm.id)) > b)  # type: ignore[misc]
            assert answer in tg.messages(dm.id)[-1].text, payload
