"""Homework durations and local times: parsing what moderators type, and clock arithmetic.

Pure: no Telegram, no database.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from bot.i18n import ascii_digits, num
from bot.i18n.lang import Lang

MINUTE = 60
TZ_RANGE = (-720, 840)  # UTC-12:00 .. UTC+14:00, in minutes
HOUR = 3600
DAY = 86_400
DEFAULT_DURATION = 24 * HOUR
MIN_DURATION = MINUTE
MAX_DURATION = 14 * DAY
DEFAULT_TZ = 360  # UTC+6 (Bangladesh), minutes east of UTC

# units in both languages: m/min/মি/মিনিট, h/hr/ঘ/ঘণ্টা, d/day/দি/দিন
_UNITS = {
    "m": MINUTE,
    "min": MINUTE,
    "mins": MINUTE,
    "মি": MINUTE,
    "মিনিট": MINUTE,
    "h": HOUR,
    "hr": HOUR,
    "hrs": HOUR,
    "ঘ": HOUR,
    "ঘণ্টা": HOUR,
    "ঘন্টা": HOUR,
    "d": DAY,
    "day": DAY,
    "days": DAY,
    "দি": DAY,
    "দিন": DAY,
}
_DURATION = re.compile(r"([0-9]{1,5})\s*([^\s0-9]+)")


def parse_duration(text: str) -> int | None:
    """``2m``, ``90m``, ``24h``, ``3d`` (Bengali digits and units too) → seconds, or None when
    malformed or outside 1 minute … 14 days."""
    m = _DURATION.fullmatch(ascii_digits(text.strip()).casefold())
    if m is None or m[2] not in _UNITS:
        return None
    seconds = int(m[1]) * _UNITS[m[2]]
    return seconds if MIN_DURATION <= seconds <= MAX_DURATION else None


def local_time(when: float, tz_minutes: int) -> datetime:
    """The wall-clock time at ``when`` in a zone ``tz_minutes`` east of UTC."""
    return datetime.fromtimestamp(when, UTC) + timedelta(minutes=tz_minutes)


def show_offset(lang: Lang, minutes: int) -> str:
    """``+6``, ``+5:30``, ``-3:30``: a UTC offset as people write it."""
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    return num(lang, f"{sign}{hours}" + (f":{rest:02d}" if rest else ""))


_OFFSET = re.compile(r"(?:utc|gmt)?([+-])([0-9]{1,2})(?::?([0-5][0-9]))?")


def parse_offset(text: str) -> int | None:
    """``+6``, ``+06:00``, ``-3:30``, ``UTC+5:45`` → minutes east of UTC (−12:00…+14:00)."""
    m = _OFFSET.fullmatch(ascii_digits(text).strip().casefold())
    if not m:
        return None
    minutes = int(m[2]) * 60 + int(m[3] or 0)
    minutes = -minutes if m[1] == "-" else minutes
    return minutes if TZ_RANGE[0] <= minutes <= TZ_RANGE[1] else None
