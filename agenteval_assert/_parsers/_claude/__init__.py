"""Claude Code parsers: ``claude-stream-json`` and ``claude-session``.

Both formats carry the same Anthropic Messages API objects (``message`` with content blocks
``text``/``thinking``/``tool_use``/``tool_result``) inside different envelopes:

* ``claude-stream-json``: ``claude -p --output-format stream-json --verbose`` events (JSONL or a
  JSON array of them) and the single ``--output-format json`` result object. Envelope fields are
  snake case (``session_id``, ``parent_tool_use_id``); ``system/init`` and ``result`` records.
* ``claude-session``: ``~/.claude/projects/<proj>/<session>.jsonl`` and its
  ``<session>/subagents/agent-*.jsonl`` files. Envelope fields are camel case (``sessionId``,
  ``parentUuid``, ``isSidechain``), plus bookkeeping records (``progress``, ``summary``...).

Lines reduced to ``{"type": "assistant"|"user", "message": {...}}`` (the Storybook
``transcript.txt`` shape) are claimed by ``claude-stream-json``; both parsers accept them.

Every record is handled with plain ``dict`` look-ups (no validation model per line: the reader
already paid for ``json.loads``, and pydantic per record would cost more than the parse itself).
Every look-up checks the type it gets, so that any JSON object is accepted: what does not fit is
counted in ``Health`` (``skipped``/``unknown_types``), never raised.

The package, one concern per module (``docs/architecture.md`` lists what each may import):
``_detect`` (which format a head is: record kinds, other agents' evidence), ``_access`` (typed
accessors, usage helpers), ``_core`` (``_Claude``, the parse both formats share), ``_stream``
(``claude-stream-json``), ``_session`` (``claude-session``) and ``_subagents``
(``find_subagent_files``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from ._detect import amp_evidence
    from ._session import ClaudeSessionParser
    from ._stream import ClaudeStreamJsonParser
    from ._subagents import find_subagent_files

# Start-up: each name's module is imported on first use (a session log needs no stream-json parser).
_WHERE = {"amp_evidence": "._detect", "ClaudeSessionParser": "._session", "ClaudeStreamJsonParser": "._stream",
          "find_subagent_files": "._subagents"}

__getattr__ = lazy_names(__name__, _WHERE)

__all__ = ["ClaudeSessionParser", "ClaudeStreamJsonParser", "amp_evidence", "find_subagent_files"]
