"""quizbot: multiple-choice quizzes for Telegram study groups, in Bengali and English."""

__version__ = "0.1.0"
