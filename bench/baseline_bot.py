"""The bare PTB bots quizbot is measured against: one handler that answers each callback query.

Run as ``python -m bench.baseline_bot`` with ``TELEGRAM_BOT_TOKEN``, ``QUIZBOT_API_URL`` and
``BENCH_VARIANT``:

* ``defaults``: PTB exactly as a user gets it: ``ApplicationBuilder().token(...).build()`` and
  ``run_polling()`` with its defaults (httpx, one update at a time). The baseline.
* ``httpx-concurrent``: the same with ``concurrent_updates(256)``, PTB's own switch for
  handling updates concurrently (still httpx).
* ``ceiling``: bare PTB with quizbot's transport (bot/tg/transport.py) and concurrent updates:
  the issue's "bare aiohttp ceiling", quizbot's own logic left out.
* ``ceiling-uvloop``: the ceiling on uvloop's event loop, as quizbot runs: the best bare PTB
  setup on this machine.

With ``QUIZBOT_WEBHOOK_URL`` (and ``QUIZBOT_LISTEN``) it serves a webhook instead of polling.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

from telegram import Update
from telegram.ext import ApplicationBuilder, CallbackQueryHandler, ContextTypes

from bot.tg.transport import AiohttpRequest

VARIANTS = ("defaults", "httpx-concurrent", "ceiling", "ceiling-uvloop")


async def answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if update.callback_query is not None:
        await update.callback_query.answer()


def main() -> None:
    variant = os.environ.get("BENCH_VARIANT", "defaults")
    if variant not in VARIANTS:
        raise SystemExit(f"BENCH_VARIANT must be one of {VARIANTS}")
    builder = (
        ApplicationBuilder()
        .token(os.environ["TELEGRAM_BOT_TOKEN"])
        .base_url(os.environ["QUIZBOT_API_URL"])
    )
    if variant != "defaults":
        builder = builder.concurrent_updates(256)
    if variant.startswith("ceiling"):
        pool = int(os.environ.get("BENCH_POOL", "64"))  # quizbot's pool size
        builder = builder.request(AiohttpRequest(pool)).get_updates_request(AiohttpRequest(1))
    app = builder.build()
    if variant == "ceiling-uvloop":
        import asyncio

        import uvloop

        asyncio.set_event_loop(uvloop.new_event_loop())  # run_polling runs on the current loop
    app.add_handler(CallbackQueryHandler(answer))
    webhook = os.environ.get("QUIZBOT_WEBHOOK_URL")
    if webhook:
        host, _, port = os.environ["QUIZBOT_LISTEN"].rpartition(":")
        app.run_webhook(
            listen=host,
            port=int(port),
            url_path=urlparse(webhook).path.strip("/"),
            webhook_url=webhook,
        )
    else:
        app.run_polling()


if __name__ == "__main__":
    main()
