"""A package's names imported on first use (PEP 562), for the parser packages whose modules a
transcript of another format never needs (start-up: a session log imports no stream-json parser).
Imports nothing of ours."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for *package*: the name's module (``where[name]``, relative) is
    imported when the name is first read, and the name kept in the package from then on."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(importlib.import_module(package), name, value)
        return value

    return __getattr__
