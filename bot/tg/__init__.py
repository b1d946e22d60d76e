"""Telegram I/O.

Transport, update decoding, answering, arrivals, webhook, pacing, outbox, moderators."""
