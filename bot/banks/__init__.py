"""Question banks: the served catalog, stored quizzes, reloading, importers and exporters."""
