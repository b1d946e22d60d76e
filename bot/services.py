"""The services a running bot shares, opened in ``post_init`` and closed in ``post_shutdown``."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from telegram.ext import Application, CallbackContext, ExtBot, JobQueue

from bot.bank import Lang, Quiz
from bot.i18n import parse_lang
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.arrivals import Arrivals
    from bot.moderators import Moderators
    from bot.practice import PracticeSessions
    from bot.quiz_group import GroupQuizzes
    from bot.storage import Store
    from bot.webhook import WebhookReplies


class AppBound:
    """A service that acts through the running Application: its bot and its job queue."""

    _app: Application[Any, Any, Any, Any, Any, Any]

    @property
    def _bot(self) -> ExtBot[Any]:
        bot: ExtBot[Any] = self._app.bot
        return bot

    @property
    def _jobs(self) -> JobQueue[Any]:
        assert self._app.job_queue is not None
        return self._app.job_queue


@dataclass(slots=True)
class Services:
    """Everything handlers need, passed in explicitly rather than imported as globals."""

    settings: Settings
    quizzes: dict[str, Quiz]
    clock: Callable[[], float] = time.time
    rng: random.Random = field(default_factory=random.Random)
    arrivals: Arrivals = field(init=False)
    store: Store = field(init=False)
    moderators: Moderators = field(init=False)
    groups: GroupQuizzes = field(init=False)
    practice: PracticeSessions = field(init=False)
    chat_languages: dict[int, Lang] = field(default_factory=dict)
    #: in webhook mode: taps answered in the reply to their webhook request
    webhook_replies: WebhookReplies | None = None

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


def services(context: CallbackContext[Any, Any, Any, Any]) -> Services:
    """The services of the application a handler runs in."""
    found = context.application.bot_data["services"]
    assert isinstance(found, Services)
    return found
