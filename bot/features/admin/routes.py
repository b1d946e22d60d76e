"""``/reload`` (bot administrators, private chat) and SIGHUP: re-read the questions folder."""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

from telegram import Update
from telegram.ext import Application

from bot.banks.reload import ReloadReport, apply_loaded
from bot.banks.yaml_reader import load_folder
from bot.core.limits import bank_limits
from bot.features.admin.views import reload_report
from bot.routing.replies import reply
from bot.routing.routes import Command
from bot.services.container import Context, Services

log = logging.getLogger(__name__)


async def reload_now(svc: Services) -> ReloadReport:
    """Re-read the folder (in a thread) into the catalog (on the loop); log what changed."""
    loaded, problems = await asyncio.to_thread(load_folder, [svc.settings.questions], bank_limits())
    report = apply_loaded(svc.catalog, svc.settings.questions, loaded, problems)
    for line in report.lines():
        level = logging.WARNING if line.startswith(("refused", "  ")) else logging.INFO
        log.log(level, "%s", line)
    return report


async def reload_command(update: Update, context: Context) -> None:
    """Re-read the questions folder and report what changed (bot administrators only)."""
    svc = context.bot_data
    lang = context.lang
    report = await reload_now(svc)
    await reply(update, context, reload_report(report, lang), important=True)


def watch_sighup(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Reload on SIGHUP (``kill -HUP``, ``systemctl reload``); the report goes to the log."""
    svc: Services = app.bot_data

    def reload_in_background() -> None:
        app.create_task(reload_now(svc), name="sighup-reload")

    asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, reload_in_background)


COMMANDS = (
    Command(
        "reload",
        reload_command,
        who="admin",
        where="private",
        help="help_reload",
        menu="cmd_reload",
    ),
)
