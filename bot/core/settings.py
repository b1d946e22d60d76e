"""Settings, read from a passed-in environment mapping (``os.environ`` in production)."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from bot.core.bank import MAX_SECONDS, MIN_SECONDS
from bot.i18n import parse_lang
from bot.i18n.lang import Lang

DEFAULT_API_URL = "https://api.telegram.org/bot"
_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


def shipped_questions() -> Path:
    """The question banks shipped with quizbot: package data (``bot/_questions``) in an installed
    wheel, the top-level ``questions/`` folder in a source checkout (editable install)."""
    package = Path(str(resources.files("bot")))
    packaged = package / "_questions"
    return packaged if packaged.is_dir() else package.parent / "questions"


SHIPPED_QUESTIONS = shipped_questions()


class SettingsError(ValueError):
    """A setting is missing or malformed; the message is one line meant for the operator."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot is configured with. ``token`` never appears in ``repr``."""

    token: str = field(repr=False)
    api_url: str = DEFAULT_API_URL
    db_path: Path = Path("quizbot.sqlite3")
    questions: Path = SHIPPED_QUESTIONS
    admin_ids: frozenset[int] = frozenset()
    language: Lang = "bn"
    question_seconds: int = 30
    log_level: str = "INFO"
    webhook_url: str | None = None
    webhook_secret: str | None = field(default=None, repr=False)
    listen_host: str = "0.0.0.0"
    listen_port: int = 8080
    # Telegram's per-group budget: sends and edits in any sliding window. Tests shrink the window.
    group_limit: int = 20  # Telegram: 20 messages a minute in a group
    group_window: float = 60.0
    count_interval: float = 5.0  # at most one "N answered" refresh per this many seconds
    homework_sweep: float = 30.0  # how often open homework is checked for passed deadlines
    # homework is private work unless the operator says otherwise: its points stay off the
    # group's /leaderboard and /me there, and its podium goes to the teacher who set it
    homework_in_group: bool = False
    # what one user may upload in 24 hours (hostile uploads): files of questions, and their bytes
    uploads_per_day: int = 20
    upload_bytes_per_day: int = 5 * 1024 * 1024
    # what one user may keep stored: their quizzes' text and pictures
    user_storage_bytes: int = 50 * 1024 * 1024
    # photos one quiz being written may hold (a replaced picture no longer counts)
    draft_photos: int = 50
    # uploads are refused while the database's disk has less free space than this
    disk_reserve_bytes: int = 500 * 1024 * 1024
    # a typed practice question older than this gives way to a draft or /review waiting for text
    practice_typed_minutes: int = 30
    # sends beyond Telegram's free 30 a second go with allow_paid_broadcast (0.1 Stars each)
    paid_broadcast: bool = False


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, got {raw!r}") from None
    if not low <= value <= high:
        raise SettingsError(f"{name} must be from {low} to {high}, got {value}")
    return value


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        raise SettingsError(f"{name} must be a number, got {raw!r}") from None
    if value <= 0:
        raise SettingsError(f"{name} must be positive, got {raw!r}")
    return value


def _flag(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in ("", "0", "off", "false", "no"):
        return False
    if raw in ("1", "on", "true", "yes"):
        return True
    raise SettingsError(f"{name} must be 0 or 1, got {raw!r}")


def load_settings(env: Mapping[str, str], *, require_token: bool = True) -> Settings:
    """Build Settings from ``env``; raise SettingsError with a one-line reason."""
    token = env.get("TELEGRAM_BOT_TOKEN", "").strip()
    if require_token and not token:
        raise SettingsError(
            "TELEGRAM_BOT_TOKEN is not set: get a token from @BotFather and "
            "put it in the environment (or in a .env file)"
        )
    admin_ids: set[int] = set()
    for part in env.get("QUIZBOT_ADMIN_IDS", "").replace(" ", "").split(","):
        if part:
            try:
                admin_ids.add(int(part))
            except ValueError:
                raise SettingsError(
                    f"QUIZBOT_ADMIN_IDS must be comma-separated user ids, got {part!r}"
                ) from None
    lang_raw = env.get("QUIZBOT_LANGUAGE", "").strip()
    language = parse_lang(lang_raw) if lang_raw else "bn"
    if language is None:
        raise SettingsError(f"QUIZBOT_LANGUAGE must be bn or en, got {lang_raw!r}")
    level = env.get("QUIZBOT_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if not isinstance(logging.getLevelName(level), int):
        raise SettingsError(
            f"QUIZBOT_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {level!r}"
        )
    listen = env.get("QUIZBOT_LISTEN", "").strip() or "0.0.0.0:8080"
    host, _, port_raw = listen.rpartition(":")
    try:
        port = int(port_raw)
    except ValueError:
        raise SettingsError(f"QUIZBOT_LISTEN must be HOST:PORT, got {listen!r}") from None
    if not 1 <= port <= 65535:
        raise SettingsError(f"QUIZBOT_LISTEN: the port must be from 1 to 65535, got {listen!r}")
    webhook = env.get("QUIZBOT_WEBHOOK_URL", "").strip() or None
    if webhook is not None:
        _check_webhook_url(webhook)
    webhook_secret = env.get("QUIZBOT_WEBHOOK_SECRET", "").strip() or None
    if webhook_secret is not None and not _WEBHOOK_SECRET.fullmatch(webhook_secret):
        raise SettingsError(
            "QUIZBOT_WEBHOOK_SECRET must be 1 to 256 characters, each a letter "
            "A-Z or a-z, a digit, '_' or '-'"
        )  # Telegram's rule; not shown
    results = env.get("QUIZBOT_HOMEWORK_RESULTS", "").strip().lower() or "private"
    if results not in ("private", "group"):
        raise SettingsError(f"QUIZBOT_HOMEWORK_RESULTS must be private or group, got {results!r}")
    return Settings(
        token=token,
        api_url=env.get("QUIZBOT_API_URL", "").strip() or DEFAULT_API_URL,
        db_path=Path(env.get("QUIZBOT_DB", "").strip() or "quizbot.sqlite3"),
        questions=Path(env.get("QUIZBOT_QUESTIONS", "").strip() or SHIPPED_QUESTIONS),
        admin_ids=frozenset(admin_ids),
        language=language,
        question_seconds=_int(env, "QUIZBOT_QUESTION_SECONDS", 30, MIN_SECONDS, MAX_SECONDS),
        uploads_per_day=_int(env, "QUIZBOT_UPLOADS_PER_DAY", 20, 0, 10_000),
        upload_bytes_per_day=_int(env, "QUIZBOT_UPLOAD_MB_PER_DAY", 5, 0, 1_000) * 1024 * 1024,
        user_storage_bytes=_int(env, "QUIZBOT_USER_STORAGE_MB", 50, 0, 100_000) * 1024 * 1024,
        draft_photos=_int(env, "QUIZBOT_DRAFT_PHOTOS", 50, 0, 1_000),
        disk_reserve_bytes=_int(env, "QUIZBOT_DISK_RESERVE_MB", 500, 0, 1_000_000) * 1024 * 1024,
        practice_typed_minutes=_int(env, "QUIZBOT_PRACTICE_TYPED_MINUTES", 30, 1, 10_080),
        log_level=level,
        homework_in_group=results == "group",
        webhook_url=webhook,
        webhook_secret=webhook_secret,
        listen_host=host.strip("[]") or "0.0.0.0",
        listen_port=port,
        group_window=_float(env, "QUIZBOT_GROUP_WINDOW", 60.0),
        count_interval=_float(env, "QUIZBOT_COUNT_INTERVAL", 5.0),
        paid_broadcast=_flag(env, "QUIZBOT_PAID_BROADCAST"),
    )


def file_url(api_url: str) -> str:
    """The Bot API's file endpoint for an API URL: ``https://host/bot`` -> ``https://host/file/bot``
    (so a self-hosted Bot API server serves downloads too)."""
    base = api_url.rstrip("/")
    head, sep, tail = base.rpartition("/bot")
    return f"{head}/file/bot" if sep and not tail else f"{base}/file/bot"


def _check_webhook_url(url: str) -> None:
    """Telegram only calls https:// webhooks; plain http is allowed to this machine, for tests."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 -- raises ValueError on a malformed port
    except ValueError:
        host = None
    if not host or not (
        parts.scheme == "https" or (parts.scheme == "http" and host in ("127.0.0.1", "localhost"))
    ):
        raise SettingsError(f"QUIZBOT_WEBHOOK_URL must be an https:// URL, got {url!r}")


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines of a .env file (comments and blank lines skipped; quotes removed)."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values
