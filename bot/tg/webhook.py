"""Webhook mode: the bot's own aiohttp server in place of PTB's, answering taps in the reply.

Telegram allows one Bot API call in the HTTP answer to a webhook request. For a tap, that call
is the answerCallbackQuery: the request waits (at most ``REPLY_WAIT`` seconds) until the tap's
handler has its alert, which it gives only once the answer is committed to the database, as
ever, and the alert goes back in the reply: one request less per tap. A tap that takes longer
is answered the usual way, by its own request. Every other update is acknowledged at once.

Lifecycle as PTB's ``run_webhook``: initialize, ``post_init``, serve, ``setWebhook``, start;
on SIGINT/SIGTERM stop serving, then stop and shut down the application.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import signal
from collections.abc import Sequence
from typing import Any

import orjson
from aiohttp import web
from telegram.ext import Application

from bot.tg import answering
from bot.tg.updates import QuizBot

log = logging.getLogger(__name__)

REPLY_WAIT = 5.0  # seconds a webhook request may wait for its tap's alert
MAX_BODY = 1 << 20  # bytes; an update is a few KB
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class WebhookReplies:
    """Taps whose alert can still go in the reply to their webhook request."""

    def __init__(self) -> None:
        self._slots: dict[str, asyncio.Future[dict[str, Any]]] = {}

    def expect(self, query_id: str) -> asyncio.Future[dict[str, Any]]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._slots[query_id] = future
        return future

    def offer(self, query_id: str, text: str | None, show_alert: bool) -> bool:
        """Hand a tap's alert to its waiting webhook request; False if none waits for it (then
        answer by a request of its own)."""
        future = self._slots.pop(query_id, None)
        if future is None or future.done():
            return False
        future.set_result(answering.parameters(query_id, text, show_alert))
        return True

    def drop(self, query_id: str) -> None:
        self._slots.pop(query_id, None)


def _handler(
    app: Application[Any, Any, Any, Any, Any, Any],
    secret: str,
    replies: WebhookReplies,
    reply_wait: float = REPLY_WAIT,
) -> Any:
    bot = app.bot
    if not isinstance(bot, QuizBot):
        raise TypeError("the webhook serves quizbot's own bot (bot.tg.updates.QuizBot)")
    decode = bot.decode
    expected = secret.encode()

    async def handle(request: web.Request) -> web.StreamResponse:
        # the header as the bytes that came (aiohttp keeps undecodable ones as surrogates)
        given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "surrogateescape")
        if not hmac.compare_digest(given, expected):
            return web.Response(status=403)
        try:
            update = decode(orjson.loads(await request.read()))
        except Exception:  # anything unreadable: refused, nothing happens
            update = None
        if update is None:
            return web.Response(status=400)
        query = update.callback_query
        reply = replies.expect(query.id) if query is not None else None
        await app.update_queue.put(update)
        if reply is None or query is None:
            return web.Response()
        try:
            answer = await asyncio.wait_for(asyncio.shield(reply), reply_wait)
        except TimeoutError:
            replies.drop(query.id)  # its handler answers with a request of its own
            return web.Response()
        body = orjson.dumps({"method": answering.METHOD, **answer})
        return web.Response(body=body, content_type="application/json")

    return handle


async def serve(
    app: Application[Any, Any, Any, Any, Any, Any],
    replies: WebhookReplies,
    *,
    listen: str,
    port: int,
    url_path: str,
    webhook_url: str,
    secret: str,
    allowed_updates: Sequence[str],
) -> None:
    """Run the bot on a webhook until SIGINT or SIGTERM."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await app.initialize()
    try:
        if app.post_init is not None:
            await app.post_init(app)
        server = web.Application(client_max_size=MAX_BODY)
        server.router.add_post(f"/{url_path.strip('/')}", _handler(app, secret, replies))
        runner = web.AppRunner(
            server, access_log=None, handle_signals=False, shutdown_timeout=REPLY_WAIT
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, listen, port).start()
            await app.bot.set_webhook(
                webhook_url,
                secret_token=secret,
                allowed_updates=list(allowed_updates),
                drop_pending_updates=False,
            )
            await app.start()
            await stop.wait()
        finally:
            # no new requests; those in flight get their replies (their taps are handled)
            await runner.cleanup()
            if app.running:
                await app.stop()
                if app.post_stop is not None:
                    await app.post_stop(app)
    finally:
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
