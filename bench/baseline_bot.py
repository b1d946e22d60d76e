"""The baseline: a bare PTB v22 Application whose only handler answers each callback query.

Run as ``python -m bench.baseline_bot`` with the same environment as the bot
(``TELEGRAM_BOT_TOKEN``, ``QUIZBOT_API_URL``). It polls exactly as quizbot does (same
``concurrent_updates``, connection pool and long-polling timeout), so the difference between the
two is what quizbot itself costs per update, not a different framework configuration.
"""

from __future__ import annotations

import os
import signal

from telegram import Update
from telegram.ext import ApplicationBuilder, CallbackQueryHandler, ContextTypes
from telegram.request import HTTPXRequest


async def answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if update.callback_query is not None:
        await update.callback_query.answer()


def main() -> None:
    pool = int(os.environ.get("BENCH_POOL", "128"))
    app = (
        ApplicationBuilder()
        .token(os.environ["TELEGRAM_BOT_TOKEN"])
        .base_url(os.environ["QUIZBOT_API_URL"])
        .concurrent_updates(int(os.environ.get("BENCH_CONCURRENT_UPDATES", "256")))
        .request(HTTPXRequest(connection_pool_size=pool, connect_timeout=5.0, read_timeout=10.0,
                              write_timeout=10.0, pool_timeout=10.0))
        .get_updates_request(HTTPXRequest(connection_pool_size=2, read_timeout=30.0))
        .build()
    )
    app.add_handler(CallbackQueryHandler(answer))
    app.run_polling(allowed_updates=["message", "callback_query"], timeout=25,
                    stop_signals=(signal.SIGINT, signal.SIGTERM), bootstrap_retries=-1)


if __name__ == "__main__":
    main()
