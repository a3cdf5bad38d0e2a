"""Claude Code parsers: ``claude-stream-json`` and ``claude-session`` (placeholder, being written)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .._builder import TranscriptBuilder
from .._reader import Record, Shape


class ClaudeStreamJsonParser:
    name = "claude-stream-json"
    agent = "claude-code"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        return "not implemented yet"

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        raise NotImplementedError


class ClaudeSessionParser:
    name = "claude-session"
    agent = "claude-code"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        return "not implemented yet"

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        raise NotImplementedError
