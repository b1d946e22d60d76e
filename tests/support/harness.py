"""The real quizbot Application, run in-process over real HTTP against the fake server."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from clockkit import ManualClock
from fakebot import FakeTelegram

from bot.app.application import ALLOWED_UPDATES, build_application
from bot.core.settings import Settings, load_settings
from bot.services.container import Services

TOKEN = "4242:fake-test-token-for-quizbot-tests"


class BotHarness:
    """Start and stop the bot exactly as ``run_polling`` does, minus signal handling."""

    WINDOW = 3.0  # seconds standing in for Telegram's 60-second group window

    def __init__(
        self,
        tg: FakeTelegram,
        db: Path,
        *,
        env: Mapping[str, str] | None = None,
        seed: int = 7,
        clock: ManualClock | None = None,
    ) -> None:
        # The bot's wall clock: frozen at the real time of the start unless the test moves it,
        # so points and podiums do not depend on how fast this machine processed each tap.
        self.clock = clock if clock is not None else ManualClock(time.time())
        values = {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "QUIZBOT_API_URL": tg.base_url,
            "QUIZBOT_DB": str(db),
            "QUIZBOT_GROUP_WINDOW": str(self.WINDOW),
            "QUIZBOT_COUNT_INTERVAL": "0.3",
            "QUIZBOT_LANGUAGE": "en",
        }
        values.update(env or {})
        self.settings: Settings = load_settings(values)
        self.app: Any = build_application(self.settings, clock=self.clock, rng=random.Random(seed))
        self.running = False

    @property
    def services(self) -> Services:
        svc: Services = self.app.bot_data
        return svc

    async def start(self) -> BotHarness:
        await self.app.initialize()
        await self.app.post_init(self.app)
        await self.app.updater.start_polling(
            poll_interval=0.0, timeout=1, allowed_updates=ALLOWED_UPDATES
        )
        await self.app.start()
        self.running = True
        return self

    async def stop(self) -> None:
        if not self.running:
            return
        self.running = False
        await self.app.updater.stop()
        await self.app.stop()
        await self.app.shutdown()
        await self.app.post_shutdown(self.app)

    async def __aenter__(self) -> BotHarness:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
