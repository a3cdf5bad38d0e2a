"""Message lists of the raw model APIs: ``openai-chat``, ``anthropic-messages``, ``openai-responses``.

Users who build their own agent on a model API keep its conversation as the API's own message
list. Three shapes are read, for each API:

* a list of messages (items): a JSON array, or JSONL with one message per line;
* a request body (``{"model", "messages": [...]}``, Responses ``{"model", "input": [...]}``),
  optionally with the API's answer under ``"response"``, or a ``{"request": ..., "response": ...}``
  dump; several dumps (one per line, or a JSON array of them) are read as one conversation, each
  request's history being a prefix of the next one's;
* an API response alone (``chat.completion``, a Messages ``message``, a Responses ``response``).

What each API calls a tool call and its answer:

* OpenAI Chat Completions: assistant ``tool_calls[{id, function{name, arguments}}]`` answered by
  ``{"role": "tool", "tool_call_id"}`` messages; the legacy ``function_call`` is answered by the next
  ``{"role": "function"}`` message. The API has **no error flag** on tool messages: no result is
  marked as an error (a note in ``health`` says so).
* Anthropic Messages: ``tool_use`` / ``server_tool_use`` / ``mcp_tool_use`` blocks answered by
  ``tool_result`` / ``*_tool_result`` / ``mcp_tool_result`` blocks (``tool_use_id``); errors are
  ``is_error: true`` or a server tool's ``*_error`` content.
* OpenAI Responses: ``function_call`` / ``custom_tool_call`` / ``local_shell_call`` / ``shell_call``
  / ``apply_patch_call`` / ``computer_call`` items answered by their ``*_output`` items
  (``call_id``); hosted tools (``mcp_call``, ``web_search_call``, ``file_search_call``,
  ``code_interpreter_call``, ``image_generation_call``) carry their own outcome. Errors:
  ``mcp_call.error``, a failed status, ``apply_patch_call_output`` ``failed``, a non-zero
  ``shell_call_output`` exit code; function outputs have no error flag.

The three APIs' plain text messages (``{"role": "user", "content": "hi"}``) look the same: a file
of only such messages is read as ``openai-chat``, and ``health.notes`` says that nothing told the
APIs apart.

The package, one concern per module (``docs/architecture.md`` lists what each may import):
``_detect`` (which API a record or a head is), ``_locate`` (lines inside one JSON document),
``_run`` (the parse the flavours share: records, dumps, usage, calls), ``_chat``, ``_anthropic``
and ``_responses`` (each API's messages), ``_parser`` (the ``FormatParser`` classes) and
``_memory`` (``from_messages``).
"""

from __future__ import annotations

from ._detect import ANTHROPIC, API_FORMATS, CHAT, RESPONSES, classify, compat, dump_parts
from ._memory import MESSAGES_PATH, from_messages
from ._parser import AnthropicMessagesParser, OpenAIChatParser, OpenAIResponsesParser
from ._run import api_kind, fingerprint

__all__ = [
    "ANTHROPIC",
    "API_FORMATS",
    "CHAT",
    "MESSAGES_PATH",
    "RESPONSES",
    "AnthropicMessagesParser",
    "OpenAIChatParser",
    "OpenAIResponsesParser",
    "api_kind",
    "classify",
    "compat",
    "dump_parts",
    "fingerprint",
    "from_messages",
]
