"""The services a running bot shares, as the typed ``bot_data`` of a custom PTB context.

PTB creates ``bot_data`` itself (``ContextTypes`` calls ``Services()`` with no arguments);
``app.build_application`` then fills in the settings, the quizzes, the clock and the RNG, and
``post_init`` opens the rest (the database and the services built on it). Handlers reach them as
``context.bot_data``, typed, with no lookups by string key.

This module imports the services it holds; none of them imports it back. Handlers (feature
modules) import it for :data:`Context`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from telegram import Chat, User
from telegram.ext import CallbackContext, ContextTypes, ExtBot

from bot.banks.authored import AuthoredCatalog
from bot.banks.catalog import Catalog
from bot.banks.importers.sandbox import ParsePool
from bot.banks.resolver import QuizResolver
from bot.core.settings import Settings
from bot.i18n import parse_lang
from bot.i18n.lang import Lang
from bot.services.serial import KeyedLocks
from bot.tg.answering import Answers
from bot.tg.arrivals import Arrivals
from bot.tg.moderators import Moderators
from bot.tg.pacing import GroupPacer
from bot.tg.transport import AiohttpRequest
from bot.tg.webhook import WebhookReplies

if TYPE_CHECKING:
    from bot.app.store import Store
    from bot.features.authoring.saving import Authoring
    from bot.features.homework.attempts import Attempts
    from bot.features.homework.cards import Homeworks
    from bot.features.practice.sessions import PracticeSessions
    from bot.features.quiz.runs import GroupQuizzes
    from bot.features.review.recaps import Recaps
    from bot.features.review.sessions import Reviews


@dataclass(slots=True, eq=False)
class Services:
    """Everything handlers need, passed in explicitly rather than imported as globals."""

    settings: Settings = field(init=False)
    catalog: Catalog = field(init=False)
    pacer: GroupPacer = field(init=False)
    clock: Callable[[], float] = time.time
    rng: random.Random = field(default_factory=random.Random)
    #: when each update arrived (bot.tg.arrivals): taps are judged by it
    arrivals: Arrivals = field(init=False)
    #: answers callback queries (bot.tg.answering)
    answers: Answers = field(init=False)
    #: worker processes reading uploads and typed questions (closed as the bot begins to stop:
    #: ``QuizApplication.stop``; again, with no effect, in ``post_shutdown``)
    parsing: ParsePool = field(default_factory=ParsePool)
    #: the HTTP transports (requests, getUpdates), closed by ``app._close``
    transports: tuple[AiohttpRequest, AiohttpRequest] = field(init=False)
    # opened in post_init
    store: Store = field(init=False)
    moderators: Moderators = field(init=False)
    groups: GroupQuizzes = field(init=False)
    practice: PracticeSessions = field(init=False)
    authored: AuthoredCatalog = field(init=False)  # stored quizzes (bot.banks.authored)
    authoring: Authoring = field(init=False)
    #: finds a quiz by name, title or listed number (bot.banks.resolver)
    resolver: QuizResolver = field(init=False)
    recaps: Recaps = field(init=False)
    reviews: Reviews = field(init=False)
    homeworks: Homeworks = field(init=False)  # bot.features.homework.cards, .attempts
    attempts: Attempts = field(init=False)
    #: whether SIGHUP reloads the banks (the real process only, not an in-process test harness)
    sighup: bool = False
    # state shared by handlers
    chat_languages: dict[int, Lang] = field(default_factory=dict)
    #: groups whose first reply (since the start) was checked for the language hint
    language_hinted: set[int] = field(default_factory=set)
    #: one writer per draft (user id): questions sent together all join it
    draft_locks: KeyedLocks = field(default_factory=KeyedLocks)
    #: (chat, user) -> when that user last got an optional reply in that group
    cooldowns: dict[tuple[int, int], float] = field(default_factory=dict)
    #: in webhook mode: taps answered in the reply to their webhook request
    webhook_replies: WebhookReplies | None = None

    def configure(
        self,
        settings: Settings,
        catalog: Catalog,
        pacer: GroupPacer,
        *,
        clock: Callable[[], float],
        rng: random.Random,
    ) -> None:
        """What ``build_application`` knows before the bot starts."""
        self.settings, self.catalog, self.pacer = settings, catalog, pacer
        self.clock, self.rng = clock, rng

    def opened(self) -> bool:
        """Whether ``post_init`` opened the database (False in ``post_shutdown`` after a failed
        start)."""
        return hasattr(self, "store")

    async def chat_language(self, chat_id: int) -> Lang:
        """The language a chat chose (cached), else the configured default."""
        lang = self.chat_languages.get(chat_id)
        if lang is None:
            stored = await self.store.chat_language(chat_id)
            lang = parse_lang(stored) or self.settings.language
            self.chat_languages[chat_id] = lang
        return lang

    async def set_chat_language(self, chat_id: int, lang: Lang) -> None:
        await self.store.set_chat_language(chat_id, lang)
        self.chat_languages[chat_id] = lang


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sent the update being handled, in which chat, and the language to answer in: worked
    out once per update by the registry, before a command's or a button's handler runs."""

    chat: Chat
    user: User
    lang: Lang

    @property
    def private(self) -> bool:
        """Sent in a private chat."""
        return self.chat.type == Chat.PRIVATE


class Context(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], Services]):
    """The ``context`` every handler and job gets: ``context.bot_data`` is the :class:`Services`;
    for a command or a button, ``caller`` (and ``lang``) is set by the registry."""

    _caller: Caller | None = None

    @property
    def caller(self) -> Caller:
        """The update's sender, chat and language (for handlers the registry runs)."""
        if self._caller is None:
            raise LookupError("no caller: a handler the registry did not run")
        return self._caller

    @caller.setter
    def caller(self, caller: Caller) -> None:
        self._caller = caller

    @property
    def lang(self) -> Lang:
        """The language to answer the update in."""
        return self.caller.lang


CONTEXT_TYPES: ContextTypes[Context, dict[Any, Any], dict[Any, Any], Services] = ContextTypes(
    context=Context, bot_data=Services
)
