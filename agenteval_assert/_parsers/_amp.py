"""Amp parser: ``amp`` (``amp -x --stream-json``).

Amp writes Claude Code's stream-json events (``system/init``, ``assistant`` messages with
``tool_use`` blocks, ``user`` messages with ``tool_result`` blocks and ``is_error``,
``parent_tool_use_id`` on a subagent's events, a closing ``result``). It is a variant of
``claude-stream-json``, not a family of its own: the records are parsed by the Claude stream-json
parser, and this module holds only what differs:

* detection: the ``session_id`` is an Amp thread id (``T-`` and a UUID); Claude's are bare
  UUIDs, so the Claude stream-json detection refuses these files;
* the agent name (``amp``) and Amp's tool names (``edit_file``, ``create_file``, ``glob``...);
* an error ``result`` says what went wrong in ``error`` (a string) rather than Claude's
  ``errors`` list (read by the shared parser).

See ``docs/formats-amp.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._reader import Record, Shape
from ._claude import ClaudeStreamJsonParser, amp_evidence
from ._common import tool_kind

__all__ = ["AmpStreamJsonParser"]

#: Amp's own tool names (Claude-named ones, Bash/Read/Grep/Task, are known to ``tool_kind``).
_AMP_KINDS = {
    "create_file": "file_write",
    "edit_file": "file_edit",
    "undo_edit": "file_edit",
    "format_file": "file_edit",
    "glob": "search",
    "grep": "search",
    "list_directory": "search",
    "finder": "search",
    "codebase_search_agent": "search",
    "read_web_page": "web_fetch",
    "web_search": "web_search",
    "oracle": "subagent",
    "librarian": "subagent",
    "todo_read": "todo",
    "todo_write": "todo",
    "skill": "skill",
}


def amp_kind(name: str) -> str:
    """What an Amp tool does, from its name."""
    return _AMP_KINDS.get(name) or tool_kind(name)


class AmpStreamJsonParser(ClaudeStreamJsonParser):
    """``amp -x --stream-json``: Claude Code's stream-json events, written by Amp."""

    name = "amp"
    agent = "amp"
    kind_of = staticmethod(amp_kind)

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        if amp_evidence(head) is None:
            return "no stream-json event whose session_id is an Amp thread id (T-<uuid>) in the first records"
        return None
