"""The entries of the command and button tables (the tables themselves: ``bot.app.registry``).

A feature module exposes its own entries (``COMMANDS``, ``BUTTONS``); ``bot.app.registry``
joins them into the bot's one table, which registers the handlers and writes ``/help``, Telegram's
command menus and the docs check (every command in docs/students.md or docs/teachers.md). Adding
a command is adding one :class:`Command`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Literal

from telegram import Update
from telegram.ext.filters import BaseFilter

from bot.services.container import Context
from bot.tg.callbackdata import CallbackData

#: who may press a button or use a command (checked by the registry before the handler runs):
#: ``anyone``; ``participant``, a student of the run, attempt or review card the button belongs
#: to (in a group: anyone there); ``moderator``, a group's creator and administrators (in a
#: group; for a button naming a run, of the run's group; a command in private: anyone);
#: ``author``, of the stored quiz the button names; ``setter``, the moderator a homework link's
#: button names; ``admin``, the bot's operators (``QUIZBOT_ADMIN_IDS``). Several kinds: any one.
Who = Literal["anyone", "participant", "moderator", "author", "setter", "admin"]
#: where: a group, a private chat (a button: the tapping user's own), a forum topic of a group,
#: or both a group and a private chat; elsewhere a command gets a short "use it there" reply and
#: a button a polite alert
Where = Literal["group", "private", "topic", "both"]
#: a callback query's answer: (text or None, shown as an alert)
Notice = tuple[str | None, bool]
CommandCallback = Callable[[Update, Context], Coroutine[Any, Any, None]]
ButtonCallback = Callable[[Update, Context, Any], Awaitable[Notice]]


@dataclass(frozen=True, slots=True)
class Command:
    """One command: its handler, who may use it where, and its texts.

    ``help`` is the i18n key of its line in ``/help`` (in the section of ``who``) and ``menu``
    of its description in Telegram's command menu (everyone's menu for ``everyone``, group
    administrators' menu for ``moderator``, each operator's private chat for ``admin``). An
    ``everyone`` command that moderators use differently also gets a line in the moderators'
    section (``mod_help``) and a place in their menu (``mod_menu``). ``filters`` narrows which
    messages reach it (a ``/start`` payload's own handler); without ``help`` and ``menu`` an
    entry is a route, not a documented command.

    ``who`` and ``where`` have no default: the registry refuses to build without them, and
    checks them before the handler runs, so a handler is only ever called where, and by whom,
    its entry allows (it reads the caller and the language from ``context.caller``).
    """

    name: str
    callback: CommandCallback
    who: Who | None = None
    where: Where | None = None
    help: str | None = None
    menu: str | None = None
    mod_help: str | None = None
    mod_menu: str | None = None
    aliases: tuple[str, ...] = ()
    filters: BaseFilter | None = None
    #: a student's own command: declared ``is_ephemeral`` in the menus, so in a group only its
    #: sender and the bot see it, and the reply (bot/routing/replies.py) is seen by them alone
    ephemeral: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        """Its name and aliases."""
        return (self.name, *self.aliases)

    @property
    def documented(self) -> bool:
        return bool(self.help or self.menu or self.mod_help or self.mod_menu)


@dataclass(frozen=True, slots=True)
class Button:
    """The handler of one kind of callback data (a ``CallbackData`` class of its feature's
    module in ``bot/render/buttondata/``), and who may press it where.

    It returns the callback query's answer; the registry sends it, and answers with an apology
    if the handler fails. ``who`` (one kind or several, any of which may) and ``where`` have no
    default: the registry refuses to build without them, and refuses a tap they do not allow
    with a polite alert before the handler runs. ``participant``, ``author`` and ``setter``
    find what the button belongs to from its data's ``belongs_to``.
    """

    kind: type[CallbackData]
    callback: ButtonCallback
    who: Who | tuple[Who, ...] | None = None
    where: Where | None = None
    #: the i18n key of the alert when ``who`` refuses, where the kind's own words would
    #: mislead (a group's start button: "moderators start quizzes here")
    refused: str | None = None

    @property
    def kinds(self) -> tuple[Who, ...]:
        """The kinds of user who may press it."""
        return (self.who,) if isinstance(self.who, str) else self.who or ()
