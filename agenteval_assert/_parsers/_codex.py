"""Codex parsers: ``codex-exec`` and ``codex-rollout`` (placeholder, being written)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .._builder import TranscriptBuilder
from .._reader import Record, Shape


class CodexExecParser:
    name = "codex-exec"
    agent = "codex"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        return "not implemented yet"

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        raise NotImplementedError


class CodexRolloutParser:
    name = "codex-rollout"
    agent = "codex"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        return "not implemented yet"

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        raise NotImplementedError
