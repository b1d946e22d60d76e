"""The homework services built and wired (in ``post_init``): the card and deadline sweep in the
group (:class:`Homeworks`) and the attempts in private chats (:class:`Attempts`)."""

from __future__ import annotations

from typing import Any

from telegram.ext import Application

from bot.core.bank import Quiz
from bot.features.homework.attempts import Attempts
from bot.features.homework.cards import Homeworks
from bot.features.homework.store import store_of
from bot.i18n.lang import Lang
from bot.render import teacher as render_teacher
from bot.services.container import Context, Services


async def open_homework(app: Application[Any, Any, Any, Any, Any, Any], svc: Services) -> None:
    """In ``post_init``: the homework services, wired to each other and restored from storage."""

    def lookup(quiz_id: str) -> Quiz | None:
        return svc.catalog.get(quiz_id)  # at call time: a reloaded catalog is seen at once

    hws = Homeworks(
        app,
        store_of(svc),
        lookup,
        svc.clock,
        count_interval=svc.settings.count_interval,
        sweep_every=svc.settings.homework_sweep,
        spare_in=svc.pacer.spare_in,
        podium_in_group=svc.settings.homework_in_group,
    )
    att = Attempts(app, store_of(svc), lookup, svc.clock, svc.rng)
    hws.on_end = att.homework_ended
    att.on_finish = hws.refresh_card

    async def deadline_text(homework_id: int, lang: Lang) -> str:
        hw = await store_of(svc).homework(homework_id)
        if hw is None:
            return ""
        return render_teacher.show_deadline(lang, hw.deadline, await hws.timezone(hw.chat_id))

    att.deadline_text = deadline_text
    att.podium_in_group = svc.settings.homework_in_group
    svc.homeworks, svc.attempts = hws, att
    await att.restore()
    await hws.restore()
    assert app.job_queue is not None
    app.job_queue.run_once(_resume, 0, name="homework-resume")


async def _resume(context: Context) -> None:
    """Once the bot runs: end homework whose deadline passed meanwhile, then carry on the
    attempts that are still open."""
    await context.bot_data.homeworks.sweep()
    await context.bot_data.attempts.continue_resumed()
