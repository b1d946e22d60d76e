"""Container health check for quizbot: exit 0 if healthy, 1 if not (standard library only).

Healthy means: the database at QUIZBOT_DB exists, opens read-only and carries the bot's schema
(``PRAGMA user_version`` > 0, written when the bot opened it at start-up), and in webhook mode
(QUIZBOT_WEBHOOK_URL set) the webhook server accepts connections on QUIZBOT_LISTEN. A bot that
crashed has ended the container already; this catches one that never got going.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import sys


def check(env: dict[str, str]) -> str | None:
    """None if healthy, else why not."""
    db = env.get("QUIZBOT_DB", "").strip() or "quizbot.sqlite3"
    if not os.path.isfile(db):
        return f"no database at {db}"
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return f"database {db} does not open: {exc}"
    if version < 1:
        return f"database {db} has no schema yet"
    if env.get("QUIZBOT_WEBHOOK_URL", "").strip():
        listen = env.get("QUIZBOT_LISTEN", "").strip() or "0.0.0.0:8080"
        host, _, port = listen.rpartition(":")
        host = host.strip("[]")
        if host in ("", "0.0.0.0", "::"):
            host = "127.0.0.1" if host != "::" else "::1"
        try:
            with socket.create_connection((host, int(port)), timeout=5):
                pass
        except (OSError, ValueError) as exc:
            return f"webhook server on {listen} does not answer: {exc}"
    return None


def main() -> int:
    problem = check(dict(os.environ))
    if problem:
        print(f"unhealthy: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
