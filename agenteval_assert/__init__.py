"""agenteval-assert: parse coding-agent transcripts into one typed model and assert on what the agent did.

Start with ``load(path)`` (auto-detects the format) and read the ``Transcript`` it returns.
"""

from __future__ import annotations

from ._parsers import FORMATS, detect_format, load, parse
from ._parsers._claude import find_subagent_files
from ._version import __version__
from .exceptions import (
    AgentEvalError,
    TranscriptError,
    TranscriptParseError,
    UnknownFormatError,
    UsageError,
)
from .model import (
    Health,
    LineIssue,
    Location,
    Message,
    Step,
    Subagent,
    Thinking,
    ToolCall,
    ToolResult,
    Transcript,
    Usage,
)

__all__ = [
    "FORMATS",
    "AgentEvalError",
    "Health",
    "LineIssue",
    "Location",
    "Message",
    "Step",
    "Subagent",
    "Thinking",
    "ToolCall",
    "ToolResult",
    "Transcript",
    "TranscriptError",
    "TranscriptParseError",
    "UnknownFormatError",
    "Usage",
    "UsageError",
    "__version__",
    "detect_format",
    "find_subagent_files",
    "load",
    "parse",
]
