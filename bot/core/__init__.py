"""Pure: the quiz model and engine, analysis, re-grading, deadlines, settings.

No Telegram, no SQL, no clock of its own."""
