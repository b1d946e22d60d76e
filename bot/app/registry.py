"""The bot's one table of commands and buttons, and everything it drives.

Each feature module exposes its entries (``COMMANDS``, ``BUTTONS``: see ``bot.routing.routes``);
this module joins them. From the table come the command handlers (with the ``who``/``where`` check
in front of each), ``/help``, Telegram's command menus in both languages (everyone's, and group
administrators'), the routing of inline buttons by their data's type, and the docs check
(docs/students.md and docs/teachers.md: tests/e2e/house/test_registry.py). Adding a command is
adding one ``Command`` to a feature's ``COMMANDS``; a
new feature module adds its tuples to :data:`COMMANDS` / :data:`BUTTONS` here.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeChat,
    BotCommandScopeDefault,
    Message,
    Update,
)
from telegram.constants import BotCommandLimit
from telegram.error import TelegramError
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, filters

from bot.features.admin import routes as reload
from bot.features.authoring import edit_routes as quiz_edit
from bot.features.authoring import myquizzes
from bot.features.authoring import routes as authoring
from bot.features.homework import routes as homework
from bot.features.quiz import routes as quiz
from bot.features.review import recap_routes as recap
from bot.features.review import routes as review
from bot.features.stats import routes as stats
from bot.features.teacher import regrade
from bot.features.teacher import routes as teacher
from bot.i18n import MESSAGES, t, t_plain
from bot.i18n.lang import LANGS, Lang
from bot.i18n.markup import Safe, join
from bot.render import callbacks
from bot.routing.access import (
    COMMAND_WHO,
    INVALID,
    NEEDS,
    button_refusal,
    command_refusal,
    place_refusal,
)
from bot.routing.replies import answer_query, language, reply
from bot.routing.routes import Button, Command, CommandCallback, Notice
from bot.services.container import Caller, Context
from bot.tg.callbackdata import CallbackData, kind_of, unpack

log = logging.getLogger(__name__)

#: in /help and the menus, in this order
COMMANDS: tuple[Command, ...] = (
    *quiz.COMMANDS,
    *stats.COMMANDS,
    *review.COMMANDS,
    *recap.COMMANDS,
    *homework.COMMANDS,  # homework, /timezone
    *teacher.COMMANDS,  # /analysis
    *regrade.COMMANDS,  # /regrade (its buttons: reports too)
    *authoring.COMMANDS,  # writing quizzes in the chat
    *myquizzes.COMMANDS,
    *quiz.GENERAL_COMMANDS,
    *reload.COMMANDS,  # the bot's administrators
)
BUTTONS: tuple[Button, ...] = (
    *quiz_edit.BUTTONS,
    *quiz.BUTTONS,
    *stats.BUTTONS,
    *review.BUTTONS,
    *homework.BUTTONS,
    *regrade.BUTTONS,  # re-grading, students' reports
    *authoring.BUTTONS,
    *myquizzes.BUTTONS,
)
_NAME = re.compile(r"[a-z0-9_]{1,32}")  # what setMyCommands accepts


#: /help lines shown in the teachers' section (write, share, homework, analysis), wherever the
#: command's entry is
TEACHER_HELP = frozenset(
    {
        "help_newquiz",
        "help_done",
        "help_cancel",
        "help_myquizzes",
        "help_share",
        "help_rename",
        "help_deletequiz",
        "help_homework_mod",
        "help_analysis",
        "help_regrade",
    }
)


class Registry:
    """A table of commands and buttons (``/help`` and the "which quiz?" lists' buttons are
    added to it), checked when built: an entry without its access rule is refused by name."""

    def __init__(self, commands: Sequence[Command], buttons: Sequence[Button]) -> None:
        self.commands: tuple[Command, ...] = (
            *commands,
            Command(
                "help",
                self.help_command,
                who="anyone",
                where="both",
                help="help_help",
                menu="cmd_help",
                mod_menu="cmd_help",
                ephemeral=True,
            ),
        )
        # a picked quiz runs its command, which checks its own rule as when typed
        buttons = (*buttons, Button(callbacks.PickData, self.picked, who="anyone", where="both"))
        self.buttons: dict[type[CallbackData], Button] = {b.kind: b for b in buttons}
        problems = self._problems(buttons)
        if problems:
            raise ValueError("command table: " + "; ".join(problems))

    def _problems(self, buttons: Sequence[Button]) -> list[str]:
        problems = [
            f"/{c.name} ({c.callback.__qualname__}): no access rule (who and where)"
            for c in self.commands
            if c.who is None or c.where is None
        ]
        problems += [
            f"/{c.name}: who={c.who!r} is a button's rule"
            for c in self.commands
            if c.who is not None and c.who not in COMMAND_WHO
        ]
        problems += [
            f"button {b.kind.__name__} ({b.callback.__qualname__}): no access rule (who and where)"
            for b in buttons
            if not b.kinds or b.where is None
        ]
        problems += [
            f"button {b.kind.__name__}: who={who!r} needs data naming "
            + " or ".join(sorted(NEEDS[who]))
            for b in buttons
            for who in b.kinds
            if who in NEEDS and b.kind.belongs_to not in NEEDS[who]
        ]
        plain = [n for c in self.commands if c.filters is None for n in c.names]
        problems += [f"/{n} has two handlers" for n in sorted(set(plain)) if plain.count(n) > 1]
        problems += [
            f"bad command name {n!r}"
            for c in self.commands
            for n in c.names
            if not _NAME.fullmatch(n)
        ]
        problems += [
            f"/{c.name}: no text {key!r}"
            for c in self.commands
            for key in (c.help, c.menu, c.mod_help, c.mod_menu)
            if key is not None and key not in MESSAGES
        ]
        if len(self.buttons) != len(buttons):
            problems.append("two handlers for one kind of button")
        return problems

    # --- handlers -----------------------------------------------------------------------------

    def handlers(self) -> list[BaseHandler[Any, Any, Any]]:
        """A CommandHandler per entry, routes with filters first (a ``/start`` payload's own
        handler before the generic ``/start``), then the button router. Only new messages
        carry commands: edited messages and channel posts are ignored (a command edited after
        the fact must not start a second quiz)."""
        new_messages = filters.UpdateType.MESSAGE
        ordered = sorted(self.commands, key=lambda c: c.filters is None)
        found: list[BaseHandler[Any, Any, Any]] = [
            CommandHandler(
                list(c.names),
                _checked(c),
                filters=new_messages & c.filters if c.filters else new_messages,
            )
            for c in ordered
        ]
        found.append(CallbackQueryHandler(self.button))
        return found

    async def help_command(self, update: Update, context: Context) -> None:
        """List the commands for students and moderators (and the bot's administrators, to
        them)."""
        caller = context.caller
        admin = caller.user.id in context.bot_data.settings.admin_ids
        await reply(update, context, self.help_text(caller.lang, admin=admin))

    async def button(self, update: Update, context: Context) -> None:
        """Every inline button, routed by the kind of its data after its entry's access check.
        Each callback query is answered, forged ones included."""
        query = update.callback_query
        if query is None:
            return
        svc = context.bot_data
        lang = await language(update, svc)
        try:
            text, alert = await self._route(update, context, lang)
        except Exception:
            svc.groups.explanations.drop(query.id)
            await answer_query(query, t(lang, "apology"), True, svc)
            raise
        await answer_query(query, text, alert, svc)
        svc.groups.explanations.release(query.id)  # the whole explanation, after the alert

    async def _route(self, update: Update, context: Context, lang: Lang) -> Notice:
        query = update.callback_query
        assert query is not None
        kind = kind_of(query.data)
        if kind is None:  # not a button of this bot: forged, or of a version long gone
            log.info("button of no declared kind refused: %r", (query.data or "")[:64])
            return t_plain(lang, INVALID), True
        entry = self.buttons.get(kind)
        data = unpack(query.data)  # read once: arrivals read the same text before
        message = query.message
        if entry is None or data is None or message is None or entry.where is None:
            return t_plain(lang, INVALID), True
        context.caller = caller = Caller(message.chat, query.from_user, lang)
        where = place_refusal(
            entry.where, caller, message if isinstance(message, Message) else None, tap=True
        )
        refused = where or await button_refusal(context.bot_data, caller, entry.kinds, data)
        if refused is not None and where is None and entry.refused is not None:
            refused = entry.refused  # the entry's own words for who may press it
        if refused is not None:
            return t_plain(lang, refused), True
        return await entry.callback(update, context, data)

    async def picked(self, update: Update, context: Context, data: callbacks.PickData) -> Notice:
        """A quiz picked from a "which quiz?" list: run its command with it, after the same
        who/where checks as the typed command."""
        caller = context.caller
        svc = context.bot_data
        command = next(
            (c for c in self.commands if c.filters is None and data.command in c.names), None
        )
        if command is None or command.where is None or svc.resolver.choice(data.quiz_id) is None:
            return t_plain(caller.lang, INVALID), True
        message = update.effective_message
        if place_refusal(command.where, caller, message, tap=True) is not None:
            return t_plain(caller.lang, INVALID), True
        # naming a quiz to a command moderators use differently (/quiz, /homework) starts or
        # sets it: in a group, a moderator's (as the typed command's handler decides)
        who = "moderator" if command.mod_help is not None else command.who or "anyone"
        refused = await command_refusal(update, svc, caller, who)
        if refused is not None:  # a tap is answered with an alert, not a message in the chat
            return t_plain(caller.lang, refused), True
        context.args = [data.quiz_id]
        await command.callback(update, context)
        return None, False

    # --- texts ----------------------------------------------------------------------------------

    def help_text(self, lang: Lang, *, admin: bool = False) -> Safe:
        """``/help``: a section per role (student, teacher, moderator in a group, and the bot's
        operators, only for an ``admin``), a line per command in table order."""
        students = [c.help for c in self.commands if c.who == "anyone"]
        moderators = [
            c.help if c.who == "moderator" else c.mod_help
            for c in self.commands
            if c.who != "admin"
        ]
        teachers = [k for k in [*students, *moderators] if k in TEACHER_HELP]
        sections = (
            ("help_students", [k for k in students if k not in TEACHER_HELP]),
            ("help_teachers", ["help_teacher_flow", *teachers] if teachers else []),
            ("help_moderators", [k for k in moderators if k not in TEACHER_HELP]),
            ("help_admins", [c.help for c in self.commands if c.who == "admin" and admin]),
        )
        return join(
            "\n\n",
            [
                join("\n", [t(lang, head), *(t(lang, key) for key in keys if key)])
                for head, keys in sections
                if any(keys)
            ],
        )

    def menu(self, lang: Lang, *, admins: bool, operator: bool = False) -> list[BotCommand]:
        """Telegram's command menu: everyone's, group administrators' (``admins``), or the
        bot's administrators' in their private chat (``operator``: everyone's and theirs)."""
        out = []
        for c in self.commands:
            if admins:
                key = c.mod_menu if c.who == "anyone" else c.menu if c.who == "moderator" else None
            elif operator:
                key = c.menu if c.who in ("anyone", "admin") else None
            else:
                key = c.menu if c.who == "anyone" else None
            if key:
                # Bot API 10.2's BotCommand.is_ephemeral, which PTB 22.8 predates: its api_kwargs
                # go into the request as they are; an ephemeral command's other names are
                # listed too, so Telegram keeps them from the group whichever is typed
                extra = {"is_ephemeral": True} if c.ephemeral else None
                description = t_plain(lang, key)[: BotCommandLimit.MAX_DESCRIPTION]
                names = c.names if c.ephemeral else (c.name,)
                out += [BotCommand(name, description, api_kwargs=extra) for name in names]
        return out

    async def set_menus(self, bot: Bot, default: Lang, operators: Iterable[int] = ()) -> None:
        """Students' commands for everyone, moderators' for group administrators, and the
        bot's administrators' in each one's private chat; both languages (and ``default`` for
        users of other languages)."""
        scopes: list[tuple[BotCommandScope, bool, bool]] = [
            (BotCommandScopeDefault(), False, False),
            (BotCommandScopeAllChatAdministrators(), True, False),
        ]
        scopes += [(BotCommandScopeChat(user_id), False, True) for user_id in sorted(operators)]
        for scope, admins, operator in scopes:
            try:  # an operator who never opened the bot has no chat yet: the others still go
                await bot.set_my_commands(
                    self.menu(default, admins=admins, operator=operator), scope=scope
                )
                for lang in LANGS:
                    await bot.set_my_commands(
                        self.menu(lang, admins=admins, operator=operator),
                        scope=scope,
                        language_code=lang,
                    )
            except TelegramError as exc:
                log.warning("could not register the command list (%s): %s", scope.type, exc)


def _checked(command: Command) -> CommandCallback:
    """The entry's handler, behind its ``who``/``where`` check; the caller (sender, chat and
    language) worked out once and set on the context."""
    who, where = command.who or "anyone", command.where or "both"

    @functools.wraps(command.callback)
    async def checked(update: Update, context: Context) -> None:
        """Run the command if this sender may use it here; else say why not."""
        chat, user, message = update.effective_chat, update.effective_user, update.message
        if chat is None or user is None or message is None:
            return
        svc = context.bot_data
        context.caller = caller = Caller(chat, user, await language(update, svc))
        refused = place_refusal(where, caller, message, tap=False) or await command_refusal(
            update, svc, caller, who
        )
        if refused is not None:
            await reply(update, context, t(caller.lang, refused))
            return
        await command.callback(update, context)

    return checked


REGISTRY = Registry(COMMANDS, BUTTONS)
