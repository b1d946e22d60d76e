"""Shared steps of the webhook tests."""

from __future__ import annotations

import socket
from pathlib import Path

from fakebot import FakeTelegram
from shipkit import quizbot_env

SECRET = "webhook-secret-for-tests_42"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def webhook_env(tg: FakeTelegram, tmp_path: Path, **extra: str) -> tuple[dict[str, str], str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram"
    env = quizbot_env(
        tg,
        tmp_path / "quizbot.sqlite3",
        QUIZBOT_WEBHOOK_URL=url,
        QUIZBOT_LISTEN=f"127.0.0.1:{port}",
        **extra,
    )
    return env, url
