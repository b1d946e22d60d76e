"""Logging: one line per event on standard error, with the bot token never written out.

httpx logs every request URL at INFO/DEBUG, and Telegram's URLs contain the token, as may an
exception's text. The formatter redacts the token from the whole formatted line, traceback
included, at every level.
"""

from __future__ import annotations

import logging
import sys
from urllib.parse import quote

REDACTED = "<token>"


class RedactingFormatter(logging.Formatter):
    """A formatter that removes secrets from everything it formats."""

    def __init__(self, secrets: list[str], fmt: str) -> None:
        super().__init__(fmt)
        variants = {s for secret in secrets if secret for s in (secret, quote(secret, safe=""))}
        self._secrets = sorted(variants, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return " ⏎ ".join(text.splitlines())  # one line per event, tracebacks included


def setup_logging(level: str, secrets: list[str]) -> None:
    """Send all logs to stderr at ``level``, redacting ``secrets``."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        RedactingFormatter(secrets, "%(asctime)s %(levelname)s %(name)s: %(message)s")
    )
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)  # warnings too: one redacted line each, not raw stderr
    # Request lines are noise below DEBUG; at DEBUG they are shown, redacted.
    noisy = logging.DEBUG if level == "DEBUG" else logging.WARNING
    for name in ("httpx", "httpcore", "apscheduler", "telegram.ext.ExtBot"):
        logging.getLogger(name).setLevel(max(noisy, logging.getLevelName(level)))
    # aiosqlite logs every statement twice at DEBUG: useless to an operator, and it holds data.
    logging.getLogger("aiosqlite").setLevel(max(logging.INFO, logging.getLevelName(level)))
