"""Storybook workflow tool names of every generation, and how names are matched (spec §2, §4.6).

Generation A named the tools ``run-story-tests``, ``display-review``…; generations B and C name
them ``test-run``, ``review-create``… (and reach them as ``storybook tools <toolset> <method>``).
Every name this library reports is in the current (B/C) vocabulary; the original is kept beside
it on each ``WorkflowCall``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal, Protocol

__all__ = [
    "LEGACY_TO_CURRENT",
    "LEGACY_WORKFLOW_TOOL_NAMES",
    "PROFILES",
    "SKILLS_GET",
    "TOOLS_FORMS",
    "WORKFLOW_TOOL_NAMES",
    "Profile",
    "check_profile",
    "current_name",
    "normalize_workflow_name",
    "workflow_call_matches_name",
]

#: A reference generation whose exact behaviour to follow; ``None`` accepts every generation.
Profile = Literal["A", "B", "C"]
PROFILES: tuple[Profile, ...] = ("A", "B", "C")

#: Generation B/C names, in the spec's order (the order matters for matching).
WORKFLOW_TOOL_NAMES: tuple[str, ...] = (
    "docs-list",
    "docs-show",
    "docs-show-story",
    "get-storybook-story-instructions",
    "review-create",
    "stories-changed",
    "stories-find-by-component",
    "stories-preview",
    "test-run",
)

#: Generation A names, in the spec's order.
LEGACY_WORKFLOW_TOOL_NAMES: tuple[str, ...] = (
    "display-review",
    "get-changed-stories",
    "get-documentation",
    "get-documentation-for-story",
    "get-stories-by-component",
    "get-storybook-story-instructions",
    "list-all-documentation",
    "preview-stories",
    "run-story-tests",
)

#: Generation A name → current name.
LEGACY_TO_CURRENT: Mapping[str, str] = MappingProxyType(
    {
        "display-review": "review-create",
        "run-story-tests": "test-run",
        "preview-stories": "stories-preview",
        "get-changed-stories": "stories-changed",
        "get-stories-by-component": "stories-find-by-component",
        "get-documentation": "docs-show",
        "get-documentation-for-story": "docs-show-story",
        "list-all-documentation": "docs-list",
        "get-storybook-story-instructions": "get-storybook-story-instructions",
    }
)

#: Current name → ``(toolset, method)`` of its ``storybook tools`` form.
TOOLS_FORMS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "review-create": ("review", "create"),
        "test-run": ("test", "run"),
        "stories-preview": ("stories", "preview"),
        "stories-changed": ("stories", "changed"),
        "stories-find-by-component": ("stories", "find-by-component"),
        "docs-show": ("docs", "show"),
        "docs-show-story": ("docs", "show-story"),
        "docs-list": ("docs", "list"),
    }
)

#: The pseudo name of ``storybook skills <id>`` / ``--all`` calls.
SKILLS_GET = "skills-get"
_INSTRUCTIONS = "get-storybook-story-instructions"
_ALIAS_IDS = frozenset({"write-story"})


def check_profile(profile: object) -> Profile | None:
    """*profile* itself when it is ``None``, ``"A"``, ``"B"`` or ``"C"``; else ``ValueError``."""
    if profile is None:
        return None
    for p in PROFILES:
        if profile == p:
            return p
    raise ValueError(f"unknown profile {profile!r}: expected one of 'A', 'B', 'C' or None")


def _vocabulary(profile: Profile | None) -> tuple[str, ...]:
    if profile == "A":
        return LEGACY_WORKFLOW_TOOL_NAMES
    if profile in ("B", "C"):
        return WORKFLOW_TOOL_NAMES
    return WORKFLOW_TOOL_NAMES + tuple(
        n for n in LEGACY_WORKFLOW_TOOL_NAMES if n not in WORKFLOW_TOOL_NAMES
    )


def _matches(name: str, tool: str) -> bool:
    if name == tool:
        return True
    if not name.endswith(tool) or len(name) == len(tool):
        return False
    return name[-len(tool) - 1] in "./" or name.endswith("__" + tool)


def normalize_workflow_name(name: str, *, profile: Profile | None = None) -> str | None:
    """The current workflow name that *name* refers to, or ``None``.

    *name* matches a tool ``t`` when it is ``t`` or ends with ``__t``, ``.t`` or ``/t`` (so
    ``mcp__storybook-dev-mcp__test-run`` and Codex's bare ``test-run`` match, and
    ``docs-show-story`` does not match ``docs-show``). The first tool of the spec's order wins.
    ``profile`` restricts the vocabulary: ``"A"`` knows only Gen A names, ``"B"``/``"C"`` only
    current ones, ``None`` both. The result is always a current name
    (``run-story-tests`` → ``test-run``).
    """
    check_profile(profile)
    if not isinstance(name, str) or not name:
        return None
    return _normalized(name, profile)


@functools.lru_cache(maxsize=4096)
def _normalized(name: str, profile: Profile | None) -> str | None:
    # a pure function of two strings, asked for every MCP call of a transcript: the few
    # distinct tool names of a session are matched against the vocabulary once
    for tool in _vocabulary(profile):
        if _matches(name, tool):
            return LEGACY_TO_CURRENT.get(tool, tool)
    return None


def current_name(name: str) -> str:
    """*name* in the current vocabulary when it is a Gen A name; else *name* unchanged."""
    return LEGACY_TO_CURRENT.get(name, name)


class _NamedCall(Protocol):
    """What name matching reads of a call (a ``WorkflowCall`` is one): a name table does not
    need the workflow model."""

    @property
    def name(self) -> str: ...

    @property
    def input(self) -> Any: ...


def workflow_call_matches_name(
    call: _NamedCall | Mapping[str, Any], name: str, *, profile: Profile | None = None
) -> bool:
    """Does *call* (a ``WorkflowCall`` or a ``{"name", "input"}`` mapping) answer to *name*?

    *name* may be in either vocabulary (``run-story-tests`` finds ``test-run`` calls). A
    ``skills-get`` call also answers to ``get-storybook-story-instructions`` when its input is
    ``{"id": "write-story"}`` or ``{"all": true}`` (spec §4.6, as tested by shell-parse.test
    @299333cb: ``stories`` does not count). Profile ``"A"`` has no alias.
    """
    check_profile(profile)
    if isinstance(call, Mapping):
        call_name, call_input = call.get("name"), call.get("input")
    else:
        call_name, call_input = call.name, call.input
    if not isinstance(call_name, str):
        return False
    wanted = current_name(name)
    if current_name(call_name) == wanted:
        return True
    if profile == "A" or wanted != _INSTRUCTIONS or call_name != SKILLS_GET:
        return False
    if not isinstance(call_input, Mapping):
        return False
    return call_input.get("id") in _ALIAS_IDS or call_input.get("all") is True
