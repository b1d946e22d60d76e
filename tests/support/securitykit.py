"""Shared steps of the security tests."""

from __future__ import annotations

AIKEN = b"Which layer holds the handlers?\nA. bot/handlers\nB. bot/core\nANSWER: A\n"
