"""After a run: recaps, and /review of missed questions (FSRS)."""
