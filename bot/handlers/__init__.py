"""Telegram handlers, one module per feature; the command and button registry; replies."""
