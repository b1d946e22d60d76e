"""Quizzes written in Telegram: drafts from quiz polls, uploads, ownership and sharing."""
