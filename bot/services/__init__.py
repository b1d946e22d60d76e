"""Stateful services of a running bot.

Group runs, practice, homework attempts, recaps, review, drafts; the typed container
(``container.Services``) that handlers reach as ``context.bot_data``."""
