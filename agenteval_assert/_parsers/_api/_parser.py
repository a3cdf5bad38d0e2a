"""The three ``FormatParser`` classes: ``sniff`` through ``_detect``, ``parse`` through the flavour's run.

Imports ``_detect`` and the three flavours (``_chat``, ``_anthropic``, ``_responses``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..._builder import TranscriptBuilder
from ..._reader import Record, Shape
from ._anthropic import _AnthropicRun
from ._chat import _ChatRun
from ._detect import ANTHROPIC, CHAT, RESPONSES, _classify_once
from ._responses import _ResponsesRun
from ._run import _Run


class _ApiParser:
    name: str
    agent: str
    run: type[_Run]

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        fmt, why, fits = _classify_once(head)
        if fmt == self.name:
            return None
        if fmt is None:
            return why
        return f"a {fmt} message list" + (f" (it could also be {self.name}, but {fmt} comes first)"
                                          if self.name in fits else "")

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        self.run(b).feed(records)


class OpenAIChatParser(_ApiParser):
    """OpenAI Chat Completions message lists (``tool_calls`` + ``tool`` messages)."""

    name = CHAT
    agent = "openai-api"
    run = _ChatRun


class AnthropicMessagesParser(_ApiParser):
    """Anthropic Messages lists (``tool_use`` / ``tool_result`` blocks)."""

    name = ANTHROPIC
    agent = "anthropic-api"
    run = _AnthropicRun


class OpenAIResponsesParser(_ApiParser):
    """OpenAI Responses input/output items (``function_call`` / ``function_call_output``)."""

    name = RESPONSES
    agent = "openai-api"
    run = _ResponsesRun
