"""Optional dependencies, imported only when a feature needs them, with an install hint."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["MissingExtraError", "require"]


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message says which extra brings it."""


def require(module: str, *, extra: str, feature: str) -> ModuleType:
    """Import *module*, or raise ``MissingExtraError`` naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"{feature} needs the '{module}' package, which is not installed: "
            f"pip install 'agenteval-assert[{extra}]'"
        ) from exc
