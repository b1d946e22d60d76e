"""Each feature reaches storage through a narrow Protocol of its own (``store.py``): every method
it names is a method of ``Store`` with the same signature, and the feature's use cases import that
Protocol, never ``Store`` itself (the composition root passes the real one; mypy checks it fits)."""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import pytest

from bot.app.store import Store

BOT = Path(__file__).resolve().parents[3] / "bot"


def ports() -> list[type]:
    """Every Protocol of a feature's ``store.py`` and of the kernel's ``services/runstore.py``."""
    names = [f"bot.features.{p.parent.name}.store" for p in sorted(BOT.glob("features/*/store.py"))]
    found = []
    for name in [*names, "bot.services.runstore"]:
        module = importlib.import_module(name)
        found += [
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and value.__module__ == name
            and getattr(value, "_is_protocol", False)
        ]
    return found


PORTS = ports()

#: modules that may name ``Store``: handlers read it from ``bot_data``, wiring passes the real one
ROUTES_AND_WIRING = ("routes.py", "wiring.py")


def members(port: type) -> dict[str, Callable[..., object]]:
    """The methods a Protocol names, its bases' included."""
    out: dict[str, Callable[..., object]] = {}
    for cls in reversed(port.__mro__):
        if cls in (object, Protocol) or Protocol not in cls.__mro__:
            continue
        out.update(
            (name, value)
            for name, value in vars(cls).items()
            if not name.startswith("_") and inspect.isfunction(value)
        )
    return out


@pytest.mark.parametrize("port", PORTS, ids=lambda p: p.__name__)
def test_a_port_names_store_methods_with_their_signatures(port: type) -> None:
    named = members(port)
    assert named, f"{port.__name__} names no method"
    for name, method in named.items():
        real = getattr(Store, name, None)
        assert real is not None, f"{port.__name__}.{name} is no method of Store"
        assert inspect.iscoroutinefunction(method) == inspect.iscoroutinefunction(real), name
        mine = inspect.signature(method, eval_str=True)
        theirs = inspect.signature(real, eval_str=True)
        assert mine == theirs, f"{port.__name__}.{name}{mine} differs from Store.{name}{theirs}"


def use_case_modules() -> list[Path]:
    """Every feature module but its routes and wiring, and the kernel's run driver and helpers."""
    features = [
        path
        for path in sorted((BOT / "features").glob("*/*.py"))
        if not path.name.endswith(ROUTES_AND_WIRING)
    ]
    return [*features, *(BOT / "services" / n for n in ("driver.py", "progress.py", "pictures.py"))]


def imports_store(tree: ast.AST) -> bool:
    """Whether a module imports ``Store`` (or the module defining it) from ``bot.storage``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names = {a.name for a in node.names}
            if node.module == "bot.storage.store" or (
                node.module == "bot.storage" and "Store" in names
            ):
                return True
        if isinstance(node, ast.Import) and any(a.name == "bot.storage.store" for a in node.names):
            return True
    return False


@pytest.mark.parametrize(
    "path", use_case_modules(), ids=lambda p: p.relative_to(BOT.parent).as_posix()
)
def test_use_cases_reach_storage_through_their_port(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not imports_store(tree), f"{path.name} imports Store: type its store with its Protocol"
