"""The kernel of a running bot that every feature shares: the typed container
(``container.Services``, ``context.bot_data``), the run driver, progress, pictures posted with
questions, one writer per key."""
