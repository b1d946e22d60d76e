"""YAML composed safely, and its node tree read field by field with each problem located.

Only ``yaml.compose`` runs on a bank: no Python object is constructed. Nesting deeper than
MAX_DEPTH is refused at once (libyaml's parser: checked on its tree; the pure-Python one: while
composing), anchors and aliases, merge keys and every non-standard tag are refused where they
are met, and the line of every node read is recorded for the validator's problems.
"""

from __future__ import annotations

from collections.abc import Iterable

import yaml

from bot.core.bank import Text
from bot.core.problems import BankError, Part, Problem, Where, whole
from bot.i18n.lang import TEXT_LANGS

MAX_DEPTH = 64  # nesting a bank never needs; deeper is refused at once, not at Python's limit
_STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:timestamp",
}
_NULL = "tag:yaml.org,2002:null"


class _TooDeep(Exception):
    pass


class _Loader(yaml.SafeLoader):
    """The safe loader, refusing nesting deeper than MAX_DEPTH while composing."""

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _TooDeep
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


#: libyaml's parser where PyYAML has it (its wheels do): it composes a bank about ten times
#: faster than the pure-Python one, which matters when hundreds of stored quizzes are read at
#: start-up; it caps nesting at 1,000 levels itself, and MAX_DEPTH is checked on its tree
_FAST_LOADER: type[yaml.CSafeLoader] | None = getattr(yaml, "CSafeLoader", None)


def compose(raw: str, file: str) -> yaml.Node | None:
    """The node tree of ``raw`` (None for an empty document); BankError naming ``file`` if it
    is not YAML or nests deeper than MAX_DEPTH."""
    try:
        return _compose(raw)
    except yaml.YAMLError as exc:
        if "maximum nesting depth" in str(exc):  # libyaml's own cap
            raise BankError([whole(file, "bank_too_deep")]) from None
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise BankError([whole(file, "bank_yaml", line, problem=problem)]) from None
    except (RecursionError, _TooDeep):  # PyYAML composes nested lists and maps recursively
        raise BankError([whole(file, "bank_too_deep")]) from None


def _compose(raw: str) -> yaml.Node | None:
    """The node tree of ``raw``; _TooDeep past MAX_DEPTH levels."""
    if _FAST_LOADER is None:
        return yaml.compose(raw, Loader=_Loader)
    root = yaml.compose(raw, Loader=_FAST_LOADER)
    if root is not None and _deeper_than(root, MAX_DEPTH):
        raise _TooDeep
    return root


def _deeper_than(root: yaml.Node, limit: int) -> bool:
    """Whether the tree nests more than ``limit`` levels (each node once: an alias is the same
    node, so a "billion laughs" tree is walked in its written size)."""
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    seen: set[int] = set()
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack += [(key, depth + 1), (value, depth + 1)]
    return False


class NodeReader:
    """Walks a composed node tree, collecting problems instead of raising at the first, and
    recording the line of each part read and the parts it could not read."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []
        self.lines: dict[Part, int] = {}
        self.unread: set[Part] = set()
        self.held: dict[Part, tuple[Problem, ...]] = {}
        self._seen: set[int] = set()
        self.bilingual = True  # set from the title: a plain-text title makes a one-language bank

    def fail(self, node: yaml.Node | None, where: Where, key: str, /, **values: object) -> None:
        line = node.start_mark.line + 1 if node is not None else None
        self.problems.append(Problem(self.file, line, where, key, values))

    def lost(self, where: Where) -> None:
        """This part could not be read: the model holds a stand-in the validator skips."""
        self.unread.add((where.question, where.path))

    def hold(self, where: Where, since: int) -> None:
        """The problems found since ``since`` belong to a part checked only when the parts it
        depends on are good (``correct`` on the options): kept for the validator to report."""
        if len(self.problems) > since:
            self.held[(where.question, where.path)] = tuple(self.problems[since:])
            del self.problems[since:]

    def check_node(self, node: yaml.Node, where: Where) -> bool:
        self.lines.setdefault((where.question, where.path), node.start_mark.line + 1)
        if id(node) in self._seen:
            self.fail(node, where, "bank_alias", marks="&, *")
            return False
        self._seen.add(id(node))
        if node.tag not in _STANDARD_TAGS:
            self.fail(node, where, "bank_tag", tag=repr(node.tag))
            return False
        return True

    def mapping(
        self, node: yaml.Node, where: Where, allowed: set[str], required: Iterable[str] = ()
    ) -> dict[str, yaml.Node] | None:
        if not self.check_node(node, where):
            return None
        if not isinstance(node, yaml.MappingNode):
            self.fail(node, where, "bank_not_mapping")
            return None
        out: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key == "<<":
                self.fail(key_node, where, "bank_merge_key", marks="<<")
                continue
            if not isinstance(key, str) or key not in allowed:
                allowed_list = ", ".join(sorted(allowed))
                self.fail(key_node, where, "bank_unknown_key", name=repr(key), allowed=allowed_list)
                continue
            if key in out:
                self.fail(key_node, where, "bank_key_twice", name=repr(key))
                continue
            out[key] = value_node
        for key in required:
            if key not in out:
                self.fail(node, where, "bank_missing_key", name=repr(key))
        return out

    def string(self, node: yaml.Node, where: Where) -> str | None:
        """A scalar's text as written, trimmed (empty if it was; the validator says so)."""
        if not self.check_node(node, where):
            return None
        if not isinstance(node, yaml.ScalarNode) or node.tag == _NULL:
            self.fail(node, where, "bank_not_text")
            return None
        return str(node.value).strip()

    def text(self, node: yaml.Node, where: Where) -> Text | None:
        """A text in the bank's form: plain in a one-language bank, ``bn`` and ``en`` in a
        bilingual one (a language that could not be read is marked unread)."""
        if not self.bilingual:  # one-language bank: plain text, the same in every chat
            if isinstance(node, yaml.MappingNode):
                self.fail(node, where, "bank_one_language")
                return None
            value = self.string(node, where)
            return None if value is None else Text(bn=value, en=value)
        if isinstance(node, yaml.ScalarNode) and node.tag != _NULL:
            self.fail(node, where, "bank_bilingual")
            return None
        fields = self.mapping(node, where, set(TEXT_LANGS), required=TEXT_LANGS)
        if fields is None:
            return None
        values: dict[str, str] = {}
        for lang in TEXT_LANGS:
            value = self.string(fields[lang], where.dot(lang)) if lang in fields else None
            if value is None:
                self.lost(where.dot(lang))
            values[lang] = value or ""
        return Text(bn=values["bn"], en=values["en"])

    def integer(self, node: yaml.Node, where: Where, low: int, high: int) -> int | None:
        """A whole number as written (``low``/``high`` only word the problem; the validator
        checks the range)."""
        if not self.check_node(node, where):
            return None
        if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:int":
            self.fail(node, where, "bank_not_whole", low=low, high=high)
            return None
        try:
            return int(str(node.value), 10)
        except ValueError:
            self.fail(node, where, "bank_not_whole", low=low, high=high)
            return None

    def number(self, node: yaml.Node, where: Where) -> float | None:
        """A number as written, whole or not (``3``, ``-0.5``, ``1e-3``)."""
        if not self.check_node(node, where):
            return None
        raw = str(node.value).strip().replace("_", "") if isinstance(node, yaml.ScalarNode) else ""
        if isinstance(node, yaml.ScalarNode) and node.tag in (
            "tag:yaml.org,2002:int",
            "tag:yaml.org,2002:float",
        ):
            try:
                value = float(raw)
            except ValueError:
                value = float("nan")
            if value == value and abs(value) != float("inf"):
                return value
        self.fail(node, where, "bank_not_number")
        return None

    def boolean(self, node: yaml.Node, where: Where) -> bool | None:
        if not self.check_node(node, where):
            return None
        raw = str(node.value) if isinstance(node, yaml.ScalarNode) else ""
        if raw not in ("true", "false"):
            self.fail(node, where, "bank_not_bool")
            return None
        return raw == "true"
