"""Every request checked against the Bot API spec JSON (``shared/reference/botapi_spec.json``).

The file is looked up as ``shared/reference/botapi_spec.json`` beside the clone (CI copies it to
``../shared``), then beside each further ancestor (a worktree under ``/work/wt/`` finds
``/work/shared``), and last as the copy kept in this package (``botapi_spec.json``, Bot API
10.3), so a fresh clone on any machine checks every request too. ``FAKEBOT_BOTAPI_SPEC`` names
another file. When none exists the check is skipped (``SPEC is None``).

Stricter than Telegram on one point, on purpose: Telegram ignores unknown parameters, the fake
refuses them (400), so a typo or a field the spec does not have fails a test instead of being
silently dropped in production.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

from .models import JSON, bad_request

__all__ = ["SPEC", "check_call", "check_object", "reaction_emoji", "spec_path"]

_RELATIVE = Path("shared") / "reference" / "botapi_spec.json"
#: parameters whose absence Telegram words differently from "<name> is empty"
_MISSING = {"text": "message text is empty"}


def spec_path() -> Path | None:
    """Where the spec JSON is, or None when it is absent."""
    override = os.environ.get("FAKEBOT_BOTAPI_SPEC")
    if override:
        return Path(override) if Path(override).is_file() else None
    root = Path(__file__).resolve().parents[3]  # the clone: tests/support/fakebot/spec.py
    for ancestor in root.parents:
        candidate = ancestor / _RELATIVE
        if candidate.is_file():
            return candidate
    kept = Path(__file__).with_name("botapi_spec.json")
    return kept if kept.is_file() else None


def _load() -> JSON | None:
    path = spec_path()
    if path is None:
        return None
    data: JSON = json.loads(path.read_text(encoding="utf-8"))
    return data


SPEC: JSON | None = _load()


@cache
def reaction_emoji() -> frozenset[str] | None:
    """The emoji ReactionTypeEmoji allows, read from the spec's description (None: no spec)."""
    if SPEC is None:
        return None
    fields = SPEC["types"]["ReactionTypeEmoji"]["fields"]
    text = next(f["description"] for f in fields if f["name"] == "emoji")
    return frozenset(re.findall(r'"([^"]+)"', text.split("one of", 1)[1]))


def _is_int(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, str) and re.fullmatch(r"-?\d+", value) is not None


def _problem(value: Any, kind: str, files: set[str], *, top: bool = False) -> str | None:
    """Why ``value`` is not of spec type ``kind`` ("Integer", "Array of X", a type...), or None.

    ``top``: a method parameter, which may come as a form field (numbers arrive decoded)."""
    if kind.startswith("Array of "):
        if not isinstance(value, list):
            return f"must be of type {kind}"
        inner = kind[len("Array of ") :]
        return next((p for p in (_problem(v, inner, files) for v in value) if p), None)
    if kind == "Integer":
        ok = _is_int(value) if top else isinstance(value, int) and not isinstance(value, bool)
    elif kind == "Float":
        ok = _is_int(value) or isinstance(value, float)
    elif kind == "Boolean":
        ok = isinstance(value, bool) or (top and value in ("true", "false", "True", "False"))
    elif kind == "String":
        ok = isinstance(value, str) or (
            top and isinstance(value, int | float) and value is not True
        )
    elif kind == "InputFile":
        ok = isinstance(value, str) and value.startswith("attach://")
    elif isinstance(value, dict):
        return _object_problem(value, kind, files)
    else:
        ok = False
    return None if ok else f"must be of type {kind}"


def _object_problem(value: JSON, kind: str, files: set[str]) -> str | None:
    """Why ``value`` is not a valid object of spec type ``kind`` (None when it is)."""
    assert SPEC is not None
    spec = SPEC["types"].get(kind)
    if spec is None:
        return None  # a type the spec subset leaves out: not checked
    subtypes = spec.get("subtypes")
    if subtypes:
        tagged = {_discriminator(sub): sub for sub in subtypes}
        if None not in tagged:  # every subtype names its "type": that value picks one
            chosen = tagged.get(value.get("type"))
            if chosen is None:
                return f'can\'t parse {kind}: unsupported type "{value.get("type")}"'
            return _object_problem(value, chosen, files)
        problems = [_object_problem(value, sub, files) for sub in subtypes]
        if any(p is None for p in problems):
            return None
        for sub, problem in zip(subtypes, problems, strict=True):
            if value.get("type") == _discriminator(sub):
                return problem
        return f'can\'t parse {kind}: unsupported type "{value.get("type")}"'
    return _fields_problem(value, spec.get("fields", []), kind, files)


def _discriminator(kind: str) -> str | None:
    """The value of the ``type`` field a subtype requires ('always "emoji"', 'must be photo')."""
    assert SPEC is not None
    for field in SPEC["types"].get(kind, {}).get("fields", []):
        if field["name"] == "type":
            match = re.search(r'(?:always|must be) "?([a-z_]+)"?', field["description"])
            return match.group(1) if match else None
    return None


def _fields_problem(value: JSON, fields: list[JSON], where: str, files: set[str]) -> str | None:
    known = {f["name"]: f for f in fields}
    for name in value:
        if name not in known:
            return f'can\'t parse {where}: unknown field "{name}"'
    for name, field in known.items():
        if name not in value or value[name] is None:
            if field["required"]:
                return f'can\'t parse {where}: field "{name}" is required'
            continue
        problems = [_problem(value[name], t, files) for t in field["types"]]
        if all(problems):
            nested = next((p for p in problems if p and p.startswith("can't")), None)
            types = " or ".join(field["types"])
            return nested or f'can\'t parse {where}: field "{name}" must be of type {types}'
    return None


def check_object(value: Any, kind: str) -> None:
    """Refuse (400) ``value`` unless it is a valid object of spec type ``kind``."""
    if SPEC is None:
        return
    if not isinstance(value, dict):
        raise bad_request(f"can't parse {kind} JSON object")
    problem = _object_problem(value, kind, set())
    if problem is not None:
        raise bad_request(problem)


def check_call(method: str, params: JSON, files: set[str]) -> None:
    """Refuse (400) a call with a parameter the spec does not list for ``method``, a missing
    required one, or one of the wrong type. ``files``: names of the uploaded multipart files."""
    if SPEC is None:
        return
    spec = SPEC["methods"].get(method)
    if spec is None:
        return
    fields = {f["name"]: f for f in spec.get("fields", [])}
    for name in params:
        if name not in fields:
            raise bad_request(f'unknown parameter "{name}" of {method} ({SPEC["version"]})')
    for name, field in fields.items():
        value = params.get(name)
        if value is None or value == "":
            if field["required"] and name not in files:
                raise bad_request(_MISSING.get(name, f"{name} is empty"))
            continue
        types: list[str] = field["types"]
        if name == "reply_markup" and value == {}:
            continue  # Telegram reads {} (PTB's empty InlineKeyboardMarkup) as no keyboard
        if "InputFile" in types and isinstance(value, str):
            continue  # a file_id, a URL or attach://<name>
        problems = [_problem(value, t, files, top=True) for t in types]
        if all(problems):
            nested = next((p for p in problems if p and p.startswith("can't")), None)
            raise bad_request(nested or f'field "{name}" must be of type {" or ".join(types)}')
