"""The bot's event loop (bot/app/application.py): uvloop's where installed, else asyncio's."""

from __future__ import annotations

import asyncio
import builtins
from typing import Any

import pytest
import uvloop

from bot.app import application as app


def test_the_bot_runs_on_uvloop_where_installed() -> None:
    loop = app._new_loop()
    try:
        assert isinstance(loop, uvloop.Loop)
        assert asyncio.get_event_loop() is loop  # run_polling runs on the current loop
    finally:
        asyncio.set_event_loop(None)
        loop.close()


def test_without_uvloop_it_is_asyncios(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_uvloop(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "uvloop":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvloop)
    loop = app._new_loop()
    try:
        assert not isinstance(loop, uvloop.Loop)
        assert isinstance(loop, asyncio.AbstractEventLoop)
    finally:
        asyncio.set_event_loop(None)
        loop.close()
