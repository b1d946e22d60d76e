"""Quizzes run in groups: /quiz, /next, /stop, answer buttons, results."""
