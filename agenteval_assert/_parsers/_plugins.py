"""Third-party formats: parsers registered under the entry-point group ``agenteval_assert.formats``.

A distribution declares, in its packaging metadata::

    [project.entry-points."agenteval_assert.formats"]
    my-agent = "my_package.transcripts:MyAgentParser"

The entry-point **name** is the format name. Plugins are discovered from installed metadata
(nothing of theirs is imported) and loaded one by one only when needed: when ``format=`` names
one, or when auto-detection found no built-in format. A plugin that cannot be imported, or whose
object is not a parser, raises ``FormatPluginError`` naming it when it is asked for by name; during
detection it is reported among the formats tried, and never affects the built-in formats.
"""

from __future__ import annotations

from importlib import metadata
from typing import Any, cast

from ..exceptions import FormatPluginError
from ._common import FormatParser

__all__ = ["ENTRY_POINT_GROUP", "load_plugin", "plugin_entry_points"]

ENTRY_POINT_GROUP = "agenteval_assert.formats"

#: Loaded plugins by ``name = value`` of their entry point (a reinstalled plugin is loaded anew).
_LOADED: dict[str, FormatParser] = {}


def plugin_entry_points(builtin: frozenset[str] | set[str] = frozenset()) -> list[metadata.EntryPoint]:
    """The plugins installed now, sorted by name; names of built-in formats are left out."""
    seen: set[str] = set()
    out = []
    for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        if ep.name in builtin or ep.name in seen:
            continue
        seen.add(ep.name)
        out.append(ep)
    return out


def _describe(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    by = f" of {dist.name} {dist.version}" if dist is not None else ""
    return f"format plugin {ep.name!r} ({ep.value}{by})"


def load_plugin(ep: metadata.EntryPoint) -> FormatParser:
    """Import the plugin's parser (a class is instantiated without arguments) and check its shape."""
    key = f"{ep.name} = {ep.value}"
    if key in _LOADED:
        return _LOADED[key]
    try:
        obj: Any = ep.load()
        parser: Any = obj() if isinstance(obj, type) else obj
    except Exception as exc:
        what = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        raise FormatPluginError(f"{_describe(ep)} could not be loaded: {what}", plugin=ep.name) from exc
    missing = [a for a in ("name", "agent", "sniff", "parse") if not hasattr(parser, a)]
    if missing:
        raise FormatPluginError(
            f"{_describe(ep)} is not a format parser: it has no {', '.join(missing)} "
            "(see the FormatParser protocol in agenteval_assert.formats)",
            plugin=ep.name,
        )
    if parser.name != ep.name:
        raise FormatPluginError(
            f"{_describe(ep)} declares the format {parser.name!r}: the entry point must be named after it",
            plugin=ep.name,
        )
    _LOADED[key] = parser
    return cast(FormatParser, parser)


def parse_failed(parser: Any, exc: Exception, path: str) -> FormatPluginError:
    """The error for a plugin whose ``parse`` raised while reading *path*: it names the plugin (a
    bug of the plugin, or input it does not expect), never the library's internal-error exit."""
    name = getattr(parser, "name", "?")
    cls = type(parser)
    what = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
    return FormatPluginError(
        f"{path}: format plugin {name!r} ({cls.__module__}:{cls.__qualname__}) failed while reading it: {what} "
        "(an error of the plugin or of input it does not expect; report it to the plugin's authors)",
        plugin=str(name), path=path,
    )
