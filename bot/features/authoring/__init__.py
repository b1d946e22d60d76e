"""Teachers' own quizzes: drafts, quiz polls, uploads, /myquizzes."""
