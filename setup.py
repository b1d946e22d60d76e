"""Package layout only (everything else is in pyproject.toml): the top-level ``questions/``
banks ship inside the wheel as the data package ``bot._questions`` (read by
``bot.core.settings.shipped_questions``), beside every package found under ``bot/``; the
message catalogs (``bot/i18n/locale``) ship as package data."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["bot", "bot.*"]), "bot._questions"],
    package_dir={"bot._questions": "questions"},
    package_data={
        "bot": ["py.typed"],
        "bot._questions": ["*.yaml", "*.yml", "README.md"],
        # the message catalogs (gettext), read at import by bot.i18n.messages
        "bot.i18n": ["locale/*.pot", "locale/*/LC_MESSAGES/*.po"],
    },
)
