"""The quiz model written as a bank file: the one writer of bank YAML (stored quizzes, ``quizbot
import``, ``quizbot export-quiz``). What it writes reads back (bot/banks/yaml_reader.py) to the
same model: texts quoted where YAML would take them for something else, UTF-8 kept as written,
keys in the format's order."""

from __future__ import annotations

import yaml

from bot.core.bank import Quiz

#: libyaml's emitter where PyYAML has it (its wheels do): it writes a 200-question bank about
#: ten times faster than the pure-Python one, which writes the same text
_FAST_DUMPER: type[yaml.CSafeDumper] | None = getattr(yaml, "CSafeDumper", None)


def write_yaml(quiz: Quiz) -> str:
    """``quiz`` as the text of a bank file."""
    return yaml.dump(
        quiz.to_dict(),
        Dumper=_FAST_DUMPER or yaml.SafeDumper,
        allow_unicode=True,
        sort_keys=False,
        width=100,
        default_flow_style=False,
    )
