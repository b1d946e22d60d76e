"""``python -m bot.cli``: the ``quizbot`` command."""

from bot.cli import main

raise SystemExit(main())
