"""``/reload`` (bot administrators, private chat) and SIGHUP: re-read the questions folder."""

from __future__ import annotations

import asyncio
import html
import logging
import signal
from typing import Any

from telegram import Chat, Update
from telegram.ext import Application, ContextTypes

from bot.bank import Lang, load_folder
from bot.i18n import t
from bot.limits import MESSAGE_LIMIT, bank_limits
from bot.reload import ReloadReport, apply_loaded
from bot.replies import language, reply
from bot.services import Services, services

log = logging.getLogger(__name__)


async def reload_now(svc: Services) -> ReloadReport:
    """Re-read the folder (in a thread) into the catalog (on the loop); log what changed."""
    loaded, problems = await asyncio.to_thread(load_folder, [svc.settings.questions],
                                               bank_limits())
    report = apply_loaded(svc.catalog, svc.settings.questions, loaded, problems)
    for line in report.lines():
        level = logging.WARNING if line.startswith(("refused", "  ")) else logging.INFO
        log.log(level, "%s", line)
    return report


def report_message(report: ReloadReport, lang: Lang) -> str:
    """The report for the administrator, as HTML; the validator's messages (English) are cut
    to what fits one message."""
    lines = [t(lang, "reload_head", count=report.served)]
    for key, ids in (("reload_added", report.added), ("reload_changed", report.changed),
                     ("reload_removed", report.removed)):
        if ids:
            lines.append(t(lang, key, names=", ".join(f"<code>{html.escape(i)}</code>"
                                                       for i in ids)))
    for refused in report.refused:
        head = t(lang, "reload_refused", file=f"<code>{html.escape(refused.file)}</code>")
        if refused.kept:
            head += " " + t(lang, "reload_kept", id=f"<code>{html.escape(refused.kept)}</code>")
        lines.append(head)
        lines += [f"• {html.escape(p)}" for p in refused.problems]
    if report.unchanged:
        lines.append(t(lang, "reload_same"))
    lines.append(t(lang, "reload_running"))
    text = ""
    for line in lines:
        if len(text) + len(line) + 2 > MESSAGE_LIMIT:
            return text + "\n…"
        text = f"{text}\n{line}" if text else line
    return text


async def reload_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Re-read the questions folder and report what changed (bot administrators only)."""
    svc = services(context)
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    lang = await language(update, svc)
    if user.id not in svc.settings.admin_ids:
        await reply(update, context, t(lang, "reload_not_admin"))
        return
    if chat.type != Chat.PRIVATE:
        await reply(update, context, t(lang, "reload_private"))
        return
    report = await reload_now(svc)
    await reply(update, context, report_message(report, lang), important=True)


def watch_sighup(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Reload on SIGHUP (``kill -HUP``, ``systemctl reload``); the report goes to the log."""
    svc: Services = app.bot_data["services"]

    def reload_in_background() -> None:
        app.create_task(reload_now(svc), name="sighup-reload")

    asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, reload_in_background)
