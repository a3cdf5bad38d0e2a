"""The registry of the built-in Storybook suites: ``suites()``, ``suite_names()``, ``suite(name)``.

The suites themselves are defined in ``_suites_evals`` (over the model of ``_suites``) and loaded
on first use; they do not import this registry.
"""

from __future__ import annotations

from ._suites import Suite

__all__ = ["suite", "suite_names", "suites"]


_REGISTRY: dict[str, Suite] = {}


def _register(s: Suite) -> Suite:
    if s.name in _REGISTRY:
        raise ValueError(f"duplicate suite {s.name}")
    _REGISTRY[s.name] = s
    return s


def suites() -> list[Suite]:
    """Every built-in suite, by name."""
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def suite_names() -> list[str]:
    """The built-in suite names, sorted."""
    return [s.name for s in suites()]


def suite(name: str) -> Suite:
    """The built-in suite *name* (``storybook/`` prefix accepted; a unique number prefix too)."""
    from ..exceptions import UsageError

    _load()
    key = name.removeprefix("storybook/")
    if key in _REGISTRY:
        return _REGISTRY[key]
    matches = [k for k in _REGISTRY if k.startswith(key + "-") or k == key]
    if len(matches) == 1:
        return _REGISTRY[matches[0]]
    hint = f"; did you mean one of: {', '.join(sorted(matches))}" if matches else ""
    raise UsageError(f"unknown Storybook eval {name!r}{hint} (list them with --eval list)")


def _load() -> None:
    if not _REGISTRY:
        from . import _suites_evals

        for s in _suites_evals.ALL:
            _register(s)
