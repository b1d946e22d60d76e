"""Open Trivia DB JSON: ``{"results": [{"type", "category", "question", "correct_answer",
"incorrect_answers"}]}`` with HTML entities in the texts (the API's default encoding)."""

from __future__ import annotations

import json
from html import unescape
from typing import Any

from bot.banks.importers.model import FALSE, TRUE, Draft, Parsed, Place, Problem, clean


def _text(value: Any) -> str | None:
    return clean(unescape(value)) if isinstance(value, str) else None


def parse(name: str, text: str) -> Parsed:
    """Every result of an Open Trivia DB response."""
    out = Parsed()
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        line = getattr(exc, "lineno", 0)
        out.fatal = Problem(f"{name}:{line}" if line else name, "imp_json_invalid", {})
        return out
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        out.fatal = Problem(name, "imp_opentdb_shape", {})
        return out
    for index, item in enumerate(results, start=1):
        where = Place(name, "result", index)
        if not isinstance(item, dict):
            out.skip(where, "imp_opentdb_shape_item")
            continue
        kind = item.get("type", "multiple")
        question = _text(item.get("question"))
        right = _text(item.get("correct_answer"))
        wrong_raw = item.get("incorrect_answers")
        wrong = [_text(w) for w in wrong_raw] if isinstance(wrong_raw, list) else None
        if question is None or right is None or wrong is None or None in wrong:
            out.skip(where, "imp_opentdb_shape_item")
            continue
        category = _text(item.get("category"))
        if kind == "boolean":
            correct = 0 if right.casefold() == "true" else 1
            out.drafts.append(
                Draft(
                    where, question, (TRUE, FALSE), correct, None, None, category, true_false=True
                )
            )
            continue
        if kind != "multiple":
            out.skip(where, "imp_not_mcq", kind=str(kind)[:40])
            continue
        options = (right, *(w for w in wrong if w is not None))
        out.drafts.append(Draft(where, question, options, 0, None, None, category))
    return out
