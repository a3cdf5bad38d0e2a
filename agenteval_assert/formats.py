"""Write a parser for your own agent's transcripts: what a format plugin implements and uses.

A plugin is an object (or a class instantiated without arguments) that satisfies
``FormatParser``: a ``name`` (the format name), an ``agent``, ``sniff(head, shape)`` and
``parse(records, builder)``. It is registered under the entry-point group ``ENTRY_POINT_GROUP``,
named after its format; ``load()`` then detects and parses the agent's files like any built-in
format (built-in formats are tried first). See ``docs/plugins.md`` for a complete example.

Every name here is public and stable: ``TranscriptBuilder`` is the one way to make a
``Transcript`` (it pairs results with calls by key, keeps file order, and counts what was skipped).
"""

from __future__ import annotations

from ._builder import TranscriptBuilder
from ._parsers import FORMATS, available_formats
from ._parsers._common import (
    FormatParser,
    as_int,
    content_text,
    decode_arguments,
    split_mcp_name,
    tool_kind,
)
from ._parsers._plugins import ENTRY_POINT_GROUP
from ._reader import Record, Shape
from .exceptions import FormatPluginError

__all__ = [
    "ENTRY_POINT_GROUP",
    "FORMATS",
    "FormatParser",
    "FormatPluginError",
    "Record",
    "Shape",
    "TranscriptBuilder",
    "as_int",
    "available_formats",
    "content_text",
    "decode_arguments",
    "split_mcp_name",
    "tool_kind",
]
