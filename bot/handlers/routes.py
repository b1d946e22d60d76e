"""The entries of the command and button tables (the tables themselves: ``bot.handlers.registry``).

A feature module exposes its own entries (``COMMANDS``, ``BUTTONS``); ``bot.handlers.registry``
joins them into the bot's one table, which registers the handlers and writes ``/help``, Telegram's
command menus and the README check. Adding a command is adding one :class:`Command`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Literal

from telegram import Update
from telegram.ext.filters import BaseFilter

from bot.services.container import Context

#: who may use a command: anyone, a group's moderators (in groups; anyone in private), or the
#: bot's operators (``QUIZBOT_ADMIN_IDS``)
Who = Literal["everyone", "moderator", "admin"]
#: where a command works; elsewhere it gets a short "use it there" reply
Where = Literal["group", "private", "both"]
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

    The registry checks ``who`` and ``where`` before the handler runs: a handler is only ever
    called where, and by whom, its entry allows.
    """

    name: str
    callback: CommandCallback
    who: Who = "everyone"
    where: Where = "both"
    help: str | None = None
    menu: str | None = None
    mod_help: str | None = None
    mod_menu: str | None = None
    aliases: tuple[str, ...] = ()
    filters: BaseFilter | None = None
    #: a student's own command: declared ``is_ephemeral`` in the menus, so in a group only its
    #: sender and the bot see it, and the reply (bot/handlers/replies.py) is seen by them alone
    ephemeral: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @property
    def documented(self) -> bool:
        return bool(self.help or self.menu or self.mod_help or self.mod_menu)


@dataclass(frozen=True, slots=True)
class Button:
    """The handler of one kind of callback data (a class of ``bot.render.callbacks``).

    It returns the callback query's answer; the registry sends it, and answers with an apology
    if the handler fails. ``where="private"`` buttons pressed elsewhere get "no longer valid".
    """

    kind: type
    callback: ButtonCallback
    where: Where = "both"
