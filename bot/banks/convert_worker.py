"""What the stored-quiz conversion's worker process runs (bot/banks/authored_convert.py): kept
apart so the worker imports only the bank reader, not the bot's storage and services."""

from __future__ import annotations

import contextlib
import os

from bot.banks.yaml_reader import parse_quiz
from bot.core.bank import Limits
from bot.core.problems import BankError

NICE = 19  # the worker's CPU priority (the lowest): the bot's own work always goes first

Converted = tuple[int, str | None, str]  # quiz_no, model JSON (None: invalid), why invalid


def convert_rows(rows: list[tuple[int, str]], limits: Limits) -> list[Converted]:
    """In the worker: each (quiz_no, bank text) validated and turned into the model's JSON."""
    with contextlib.suppress(OSError):
        current = os.getpriority(os.PRIO_PROCESS, 0)
        os.setpriority(os.PRIO_PROCESS, 0, max(current, NICE))
    out: list[Converted] = []
    for quiz_no, bank_yaml in rows:
        try:
            quiz = parse_quiz(bank_yaml, f"stored quiz u.{quiz_no}", "stored", limits)
        except BankError as exc:
            out.append((quiz_no, None, str(exc)))
            continue
        out.append((quiz_no, quiz.to_json(), ""))
    return out
