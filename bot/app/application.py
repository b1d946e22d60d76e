"""The Application: built from Settings, every handler registered here, in one place."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import urlparse

from telegram import LinkPreviewOptions, Update
from telegram.constants import ParseMode
from telegram.error import InvalidToken
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ChatMemberHandler,
    Defaults,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.app import typed
from bot.app.lifecycle import QuizApplication
from bot.app.logs import setup_logging
from bot.app.registry import REGISTRY, Registry
from bot.app.store import Store
from bot.banks.authored import AuthoredCatalog
from bot.banks.catalog import Catalog
from bot.banks.resolver import QuizResolver
from bot.banks.yaml_reader import load_folder
from bot.core.bank import Quiz
from bot.core.engine import PlanMismatch
from bot.core.limits import bank_limits
from bot.core.problems import Problem
from bot.core.settings import Settings, file_url
from bot.features.admin import routes as reload
from bot.features.authoring import routes as authoring
from bot.features.authoring import upload
from bot.features.authoring.saving import Authoring
from bot.features.homework.wiring import open_homework
from bot.features.practice.sessions import PracticeSessions
from bot.features.quiz import routes as quiz
from bot.features.quiz.runs import GroupQuizzes
from bot.features.review import recap_routes as recap
from bot.features.review.recaps import Recaps
from bot.features.review.sessions import Reviews
from bot.routing import guard
from bot.routing.taps import tap_key
from bot.services.container import CONTEXT_TYPES, Context, Services
from bot.services.keyfix import restore_fixes
from bot.tg import webhook
from bot.tg.answering import Answers
from bot.tg.arrivals import ArrivalProcessor, ArrivalQueue, Arrivals
from bot.tg.jobs import QuizJobQueue
from bot.tg.moderators import Moderators
from bot.tg.pacing import PAID_BROADCAST_PER_SECOND, GroupPacer
from bot.tg.transport import AiohttpRequest
from bot.tg.updates import QuizBot

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member", "chat_member"]


def load_quizzes(settings: Settings) -> dict[str, Quiz]:
    """The valid banks of the questions folder; each broken one is logged and skipped."""
    quizzes, problems = load_folder([settings.questions], bank_limits())
    _log_banks(quizzes, problems)
    return quizzes


def _log_banks(quizzes: Mapping[str, Quiz], problems: Sequence[Problem]) -> None:
    for problem in problems:
        log.error("question bank problem, file skipped: %s", problem)
    log.info("serving %d quiz(zes): %s", len(quizzes), ", ".join(sorted(quizzes)) or "none")


def build_application(
    settings: Settings,
    *,
    clock: Callable[[], float] = time.time,
    rng: random.Random | None = None,
    quizzes: Mapping[str, Quiz] | None = None,
    registry: Registry = REGISTRY,
) -> Application[Any, Any, Any, Any, Any, Any]:
    """The bot, ready for ``run_polling``/``run_webhook`` or to be driven by tests."""
    pacer = GroupPacer(
        group_limit=settings.group_limit,
        group_window=settings.group_window,
        paid_per_second=PAID_BROADCAST_PER_SECOND if settings.paid_broadcast else 0,
    )
    # aiohttp, not PTB's default httpx: half the CPU per request (bench/README.md); 64
    # connections, as a class's alerts go out together after each group commit
    transports = (
        AiohttpRequest(
            64, connect_timeout=5.0, read_timeout=10.0, write_timeout=10.0, pool_timeout=10.0
        ),
        AiohttpRequest(1, read_timeout=30.0),
    )
    # every update is stamped with the bot's clock as it arrives: taps are judged by that (the
    # clock is read from the services at each stamp, so a test may swap it)
    arrivals = Arrivals(lambda: app.bot_data.clock(), tap_key)
    # PTB's ExtBot, but the taps of one getUpdates answer share their message (bot/tg/updates.py)
    bot = QuizBot(
        settings.token,
        base_url=settings.api_url,
        base_file_url=file_url(settings.api_url),
        request=transports[0],
        get_updates_request=transports[1],
        defaults=Defaults(
            parse_mode=ParseMode.HTML, link_preview_options=LinkPreviewOptions(is_disabled=True)
        ),
        rate_limiter=pacer,
    )
    app = (
        ApplicationBuilder()
        .application_class(QuizApplication)
        .job_queue(QuizJobQueue())
        .bot(bot)
        .update_queue(ArrivalQueue(arrivals))
        .concurrent_updates(ArrivalProcessor(256, arrivals))
        .context_types(CONTEXT_TYPES)
        .post_init(lambda app: _post_init(app, registry))
        .post_shutdown(_post_shutdown)
        .build()
    )
    svc: Services = app.bot_data
    svc.configure(
        settings,
        Catalog(quizzes if quizzes is not None else load_quizzes(settings)),
        pacer,
        clock=clock,
        rng=rng or random.Random(),
    )
    svc.arrivals, svc.transports = arrivals, transports
    svc.answers = Answers(bot.base_url, transports[0], pacer)
    svc.authored = AuthoredCatalog(svc.catalog, bank_limits())
    svc.resolver = QuizResolver(svc.catalog, svc.authored)
    register_handlers(app, registry)
    return app


def register_handlers(
    app: Application[Any, Any, Any, Any, Any, Any], registry: Registry = REGISTRY
) -> None:
    """Every handler of the bot: the command table's (commands and buttons,
    bot/app/registry.py), then the updates that are not quiz."""
    private = filters.ChatType.PRIVATE & filters.UpdateType.MESSAGE
    app.add_handlers(registry.handlers())
    app.add_handlers(
        [
            # in-chat authoring (bot/features/authoring): what a user sends privately that is not
            # a command, after the commands (a /done is a command, not a draft's text): a quiz
            # poll for the draft, a file of questions, a photo for the draft's last question;
            # plain text is a typed answer when a homework, practice or /review question waits
            # for one, else a draft's title or Aiken text (typed.py)
            MessageHandler(private & filters.POLL, authoring.poll_sent),
            MessageHandler(private & filters.Document.ALL, upload.document_sent),
            MessageHandler(private & filters.PHOTO, upload.photo_sent),
            MessageHandler(private & filters.TEXT & ~filters.COMMAND, typed.text_sent),
            # chat events
            MessageHandler(filters.StatusUpdate.MIGRATE, quiz.migrated),
            ChatMemberHandler(quiz.membership, ChatMemberHandler.MY_CHAT_MEMBER),
            ChatMemberHandler(quiz.admins_changed, ChatMemberHandler.CHAT_MEMBER),
        ]
    )
    # before any feature sees an update (groups run in order, one handler each):
    # names and titles kept current; then who writes privately (recaps may go to them directly)
    app.add_handler(TypeHandler(Update, guard.once), group=-10)  # a redelivered message: dropped
    app.add_handler(TypeHandler(Update, quiz.remember), group=-2)
    app.add_handler(TypeHandler(Update, recap.observe), group=-1)
    app.add_handler(TypeHandler(Update, guard.handled), group=100)  # after every feature's
    app.add_error_handler(quiz.error_handler)


async def _post_init(app: Application[Any, Any, Any, Any, Any, Any], registry: Registry) -> None:
    """Open the database, wire the services, register commands, resume unfinished quizzes."""
    svc: Services = app.bot_data
    svc.store = await Store.open(svc.settings.db_path)
    await svc.authored.load(svc.store)
    await restore_fixes(svc.store, svc.catalog)  # keys re-grades fixed, over the folder's banks
    svc.authored.start_converting(svc.arrivals.quiet_for)  # rows saved before the JSON form
    svc.authoring = Authoring(svc.store, svc.authored, svc.catalog.folder, svc.clock)
    svc.moderators = Moderators(app.bot, svc.settings.admin_ids)
    svc.groups = GroupQuizzes(
        app, svc.store, svc.clock, svc.arrivals, count_interval=svc.settings.count_interval
    )
    svc.practice = PracticeSessions(
        app,
        svc.store,
        svc.catalog,
        svc.clock,
        svc.settings.practice_typed_minutes,
        again_token=svc.authored.again_token,
    )
    svc.recaps = Recaps(app, svc.store, svc.catalog, svc.clock, svc.settings.language)
    svc.groups.on_finish = svc.recaps.run_finished
    svc.reviews = Reviews(
        app, svc.store, svc.catalog, svc.clock, svc.rng, svc.recaps, svc.settings.language
    )
    await svc.reviews.restore()
    await open_homework(app, svc)  # restored before polling, like quizzes
    await registry.set_menus(app.bot, svc.settings.language, svc.settings.admin_ids)
    await _restore(svc)
    if svc.sighup:  # the real process only, not an in-process test harness
        reload.watch_sighup(app)
        # what start-up built (modules, banks, catalogs) lives as long as the process: kept
        # out of the collector's full passes, which then scan only what updates made (each
        # one otherwise walks ~100,000 objects, tens of milliseconds in a class's burst)
        gc.collect()
        gc.freeze()
    assert app.job_queue is not None
    app.job_queue.run_once(_resume, 0, name="resume")
    app.job_queue.run_once(guard.tell_unfinished, 0, name="unfinished")


async def _resume(context: Context) -> None:
    """Carry on the restored quizzes now that the bot runs (timers, pending reveals, practice
    questions a stop caught being posted)."""
    await context.bot_data.groups.continue_resumed()
    await context.bot_data.practice.post_pending()


async def _restore(svc: Services) -> None:
    """Take back every group quiz that was running when the bot stopped."""
    for stored in await svc.store.running_runs("group"):
        quiz = svc.catalog.get(stored.quiz_id)
        if quiz is None:
            await svc.groups.abandon(stored, f"quiz {stored.quiz_id!r} is no longer served")
            continue
        try:
            await svc.groups.resume(stored, quiz)
        except PlanMismatch as exc:
            await svc.groups.abandon(stored, str(exc))


async def _post_shutdown(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Close the database (pending answers are written first) and end the parsing workers."""
    svc: Services = app.bot_data
    await svc.parsing.close()
    if svc.opened():
        await svc.authored.stop_converting()
        await svc.store.close()
    log.info("database closed")


def run(settings: Settings, quizzes: dict[str, Quiz], problems: Sequence[Problem] = ()) -> int:
    """Run until SIGINT/SIGTERM: long polling, or a webhook when QUIZBOT_WEBHOOK_URL is set.
    ``quizzes`` are the banks served, ``problems`` those of the broken banks skipped (logged).

    Returns the exit code: 0 after a stop signal, 2 if Telegram rejects the token, 1 after any
    other error. Errors are logged (token redacted), never left to Python's traceback printer,
    whose output would not be redacted.
    """
    setup_logging(settings.log_level, [settings.token, settings.webhook_secret or ""])
    _log_banks(quizzes, problems)
    try:
        _serve(settings, quizzes)
    except InvalidToken:
        log.critical("TELEGRAM_BOT_TOKEN was rejected by Telegram: check it with @BotFather")
        return 2
    except Exception:
        log.critical("quizbot stopped by an unexpected error", exc_info=True)
        return 1
    log.info("stopped")
    return 0


def _serve(settings: Settings, quizzes: dict[str, Quiz]) -> None:
    secret = settings.webhook_secret
    app = build_application(settings, quizzes=quizzes)
    app.bot_data.sighup = True
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
            svc: Services = app.bot_data
            svc.webhook_replies = webhook.WebhookReplies()
            loop = _new_loop()
            loop.run_until_complete(
                webhook.serve(
                    app,
                    svc.webhook_replies,
                    listen=settings.listen_host,
                    port=settings.listen_port,
                    url_path=urlparse(settings.webhook_url).path.strip("/"),
                    webhook_url=settings.webhook_url,
                    secret=secret,
                    allowed_updates=ALLOWED_UPDATES,
                )
            )
        else:
            log.info("long polling")
            _new_loop()  # run_polling runs on the current loop
            app.run_polling(
                allowed_updates=ALLOWED_UPDATES,
                stop_signals=_signals(),
                timeout=25,
                bootstrap_retries=-1,
                close_loop=False,
            )
    finally:
        _close(app)


def _new_loop() -> asyncio.AbstractEventLoop:
    """A new current event loop: uvloop's where it is installed (Linux, macOS), a tenth less
    CPU per tap than asyncio's (bench/README.md); asyncio's elsewhere."""
    try:
        import uvloop
    except ImportError:
        loop = asyncio.new_event_loop()
    else:
        loop = uvloop.new_event_loop()
    asyncio.set_event_loop(loop)
    return loop


def _close(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Close the HTTP sessions on the loop they ran on (PTB skips this when start-up failed,
    e.g. on a rejected token), then the loop."""
    loop = asyncio.get_event_loop()
    svc: Services = app.bot_data
    for transport in svc.transports:
        loop.run_until_complete(transport.shutdown())
    loop.close()


def _signals() -> Any:
    import signal

    return (signal.SIGINT, signal.SIGTERM)


__all__ = ["Update", "build_application", "load_quizzes", "run"]
