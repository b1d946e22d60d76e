"""The Application: built from Settings, every handler registered here, in one place."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

from telegram import (
    BotCommand,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeDefault,
    LinkPreviewOptions,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import InvalidToken, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    Defaults,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import commands, recap, review, stats, webhook
from bot.arrivals import ArrivalProcessor, ArrivalQueue, Arrivals
from bot.bank import LANGS, Lang, Quiz, load_folder
from bot.engine import PlanMismatch
from bot.i18n import t
from bot.lifecycle import QuizApplication
from bot.logs import setup_logging
from bot.moderators import Moderators
from bot.pacing import GroupPacer
from bot.practice import PracticeSessions
from bot.quiz_group import GroupQuizzes, tap_key
from bot.recap import Recaps
from bot.render import bank_limits
from bot.review import Reviews
from bot.services import Services
from bot.settings import Settings
from bot.storage import Store
from bot.transport import AiohttpRequest

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member", "chat_member"]


def load_quizzes(settings: Settings) -> dict[str, Quiz]:
    """The valid banks of the questions folder; each broken one is logged and skipped."""
    quizzes, problems = load_folder([settings.questions], bank_limits())
    for problem in problems:
        log.error("question bank problem, file skipped: %s", problem)
    log.info("serving %d quiz(zes): %s", len(quizzes), ", ".join(sorted(quizzes)) or "none")
    return quizzes


def build_application(settings: Settings, *, clock: Callable[[], float] = time.time,
                      rng: random.Random | None = None,
                      quizzes: dict[str, Quiz] | None = None) -> Application[Any, Any, Any, Any,
                                                                            Any, Any]:
    """The bot, ready for ``run_polling``/``run_webhook`` or to be driven by tests."""
    pacer = GroupPacer(group_limit=settings.group_limit, group_window=settings.group_window)
    # aiohttp, not PTB's default httpx: half the CPU per request (bench/README.md); 64
    # connections, as a class's alerts go out together after each group commit
    transports = (AiohttpRequest(64, connect_timeout=5.0, read_timeout=10.0, write_timeout=10.0,
                                 pool_timeout=10.0),
                  AiohttpRequest(1, read_timeout=30.0))
    svc = Services(settings=settings,
                   quizzes=quizzes if quizzes is not None else load_quizzes(settings),
                   clock=clock, rng=rng or random.Random())
    # every update is stamped with the bot's clock as it arrives: taps are judged by that
    svc.arrivals = Arrivals(lambda: svc.clock(), tap_key)
    app = (
        ApplicationBuilder()
        .application_class(QuizApplication)
        .token(settings.token)
        .base_url(settings.api_url)
        .defaults(Defaults(parse_mode=ParseMode.HTML,
                           link_preview_options=LinkPreviewOptions(is_disabled=True)))
        .rate_limiter(pacer)
        .update_queue(ArrivalQueue(svc.arrivals))
        .concurrent_updates(ArrivalProcessor(256, svc.arrivals))
        .request(transports[0])
        .get_updates_request(transports[1])
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
        .build()
    )
    app.bot_data["services"] = svc
    app.bot_data["pacer"] = pacer
    app.bot_data["transports"] = transports
    register_handlers(app)
    return app


def register_handlers(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Every handler of the bot. Only new messages carry commands: edited messages and channel
    posts are ignored (a command edited after the fact must not start a second quiz)."""
    new_messages = filters.UpdateType.MESSAGE
    handlers = [
        CommandHandler("start", commands.start, filters=new_messages),
        CommandHandler("help", commands.help_command, filters=new_messages),
        CommandHandler("quiz", commands.quiz, filters=new_messages),
        CommandHandler("next", commands.next_question, filters=new_messages),
        CommandHandler("stop", commands.stop, filters=new_messages),
        CommandHandler("lang", commands.set_language, filters=new_messages),
        CommandHandler(["leaderboard", "top"], stats.leaderboard, filters=new_messages),
        CommandHandler("me", stats.me, filters=new_messages),
        CommandHandler("resetleaderboard", stats.reset, filters=new_messages),
        CommandHandler("export", stats.export, filters=new_messages),
        CommandHandler("review", review.review_command, filters=new_messages),
        CommandHandler("recap", recap.recap_command, filters=new_messages),
        CommandHandler("remind", review.remind_command, filters=new_messages),
        CallbackQueryHandler(commands.button),
        MessageHandler(filters.StatusUpdate.MIGRATE, commands.migrated),
        ChatMemberHandler(commands.membership, ChatMemberHandler.MY_CHAT_MEMBER),
        ChatMemberHandler(commands.admins_changed, ChatMemberHandler.CHAT_MEMBER),
    ]
    app.add_handlers(handlers)
    # before any feature sees an update (groups run in order, one handler each):
    # names and titles kept current; then who writes privately (recaps may go to them directly)
    app.add_handler(TypeHandler(Update, commands.remember), group=-2)
    app.add_handler(TypeHandler(Update, recap.observe), group=-1)
    app.add_error_handler(commands.error_handler)


async def _post_init(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Open the database, wire the services, register commands, resume unfinished quizzes."""
    svc: Services = app.bot_data["services"]
    svc.store = await Store.open(svc.settings.db_path)
    svc.moderators = Moderators(app.bot, svc.settings.admin_ids)
    svc.groups = GroupQuizzes(app, svc.store, svc.clock, svc.arrivals,
                              count_interval=svc.settings.count_interval)
    svc.practice = PracticeSessions(app.bot, svc.store, svc.quizzes, svc.clock)
    recaps = app.bot_data["recaps"] = Recaps(app, svc.store, svc.quizzes, svc.clock,
                                             svc.settings.language)
    svc.groups.on_finish = recaps.run_finished
    reviews = app.bot_data["reviews"] = Reviews(app, svc.store, svc.quizzes, svc.clock, svc.rng,
                                                recaps, svc.settings.language)
    await reviews.restore()
    await _register_commands(app, svc.settings.language)
    await _restore(svc)
    assert app.job_queue is not None
    app.job_queue.run_once(_resume, 0, name="resume")


async def _resume(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Carry on the restored quizzes now that the bot runs (timers, pending reveals)."""
    svc: Services = context.application.bot_data["services"]
    await svc.groups.continue_resumed()


async def _restore(svc: Services) -> None:
    """Take back every group quiz that was running when the bot stopped."""
    for stored in await svc.store.running_runs("group"):
        quiz = svc.quizzes.get(stored.quiz_id)
        if quiz is None:
            await svc.groups.abandon(stored, f"quiz {stored.quiz_id!r} is no longer served")
            continue
        try:
            await svc.groups.resume(stored, quiz)
        except PlanMismatch as exc:
            await svc.groups.abandon(stored, str(exc))


async def _post_shutdown(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Close the database (pending answers are written first)."""
    svc: Services = app.bot_data["services"]
    store = getattr(svc, "store", None)
    if store is not None:
        await store.close()
    log.info("database closed")


def _commands(lang: Lang, moderator: bool) -> list[BotCommand]:
    student = [("quiz", "cmd_quiz"), ("leaderboard", "cmd_top"), ("top", "cmd_top"),
               ("me", "cmd_me"), ("review", "cmd_review"), ("recap", "cmd_recap"),
               ("remind", "cmd_remind"), ("lang", "cmd_lang"), ("help", "cmd_help"),
               ("start", "cmd_start")]
    mod = [("quiz", "cmd_quiz_mod"), ("next", "cmd_next"), ("stop", "cmd_stop"),
           ("lang", "cmd_lang"), ("leaderboard", "cmd_top"), ("me", "cmd_me"),
           ("resetleaderboard", "cmd_reset"), ("export", "cmd_export"), ("help", "cmd_help")]
    return [BotCommand(name, t(lang, key)) for name, key in (mod if moderator else student)]


async def _register_commands(app: Application[Any, Any, Any, Any, Any, Any],
                             default: Lang) -> None:
    """Students' commands for everyone, moderators' for group administrators, both languages."""
    try:
        for scope, moderator in ((BotCommandScopeDefault(), False),
                                 (BotCommandScopeAllChatAdministrators(), True)):
            await app.bot.set_my_commands(_commands(default, moderator), scope=scope)
            for lang in LANGS:
                await app.bot.set_my_commands(_commands(lang, moderator), scope=scope,
                                              language_code=lang)
    except TelegramError as exc:
        log.warning("could not register the command list: %s", exc)


def run(settings: Settings) -> int:
    """Run until SIGINT/SIGTERM: long polling, or a webhook when QUIZBOT_WEBHOOK_URL is set.

    Returns the exit code: 0 after a stop signal, 2 if Telegram rejects the token, 1 after any
    other error. Errors are logged (token redacted), never left to Python's traceback printer,
    whose output would not be redacted.
    """
    setup_logging(settings.log_level, [settings.token, settings.webhook_secret or ""])
    try:
        _serve(settings)
    except InvalidToken:
        log.critical("TELEGRAM_BOT_TOKEN was rejected by Telegram: check it with @BotFather")
        return 2
    except Exception:
        log.critical("quizbot stopped by an unexpected error", exc_info=True)
        return 1
    log.info("stopped")
    return 0


def _serve(settings: Settings) -> None:
    secret = settings.webhook_secret
    app = build_application(settings)
    if settings.webhook_url:
        if secret is None:
            secret = secrets.token_urlsafe(32)
            setup_logging(settings.log_level, [settings.token, secret])
            log.info("QUIZBOT_WEBHOOK_SECRET not given: a random secret is set for this run")
        else:
            log.info("webhook secret set")
    try:
        if settings.webhook_url:
            log.info("serving the webhook on %s:%s", settings.listen_host, settings.listen_port)
            assert secret is not None
            svc: Services = app.bot_data["services"]
            svc.webhook_replies = webhook.WebhookReplies()
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            loop.run_until_complete(webhook.serve(
                app, svc.webhook_replies, listen=settings.listen_host,
                port=settings.listen_port,
                url_path=urlparse(settings.webhook_url).path.strip("/"),
                webhook_url=settings.webhook_url, secret=secret,
                allowed_updates=ALLOWED_UPDATES))
        else:
            log.info("long polling")
            app.run_polling(allowed_updates=ALLOWED_UPDATES, stop_signals=_signals(),
                            timeout=25, bootstrap_retries=-1, close_loop=False)
    finally:
        _close(app)


def _close(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Close the HTTP sessions on the loop they ran on (PTB skips this when start-up failed,
    e.g. on a rejected token), then the loop."""
    loop = asyncio.get_event_loop()
    for transport in app.bot_data["transports"]:
        loop.run_until_complete(transport.shutdown())
    loop.close()


def _signals() -> Any:
    import signal

    return (signal.SIGINT, signal.SIGTERM)


__all__ = ["Update", "build_application", "run"]
