"""Small in-memory transcripts for the checks' tests, built through the real TranscriptBuilder."""

from __future__ import annotations

from typing import Any

from agenteval_assert._builder import TranscriptBuilder
from agenteval_assert._reader import ReadStats
from agenteval_assert.model import Transcript


class T:
    """Fluent builder: ``T().user("hi").call("Bash", command="ls").done()``.

    Every step takes one line; a call's result takes the next line unless ``answered=False``.
    """

    def __init__(self, path: str = "run.jsonl", fmt: str = "claude-session", agent: str = "claude-code",
                 **metadata: Any) -> None:
        self.b = TranscriptBuilder(path, fmt, agent)
        self.b.metadata.update(metadata)
        self.line = 0
        self.n = 0
        self.truncated = False

    def _next(self) -> int:
        self.line += 1
        return self.line

    def user(self, text: str, *, meta: bool = False) -> T:
        self.b.message("user", text, self._next(), meta=meta)
        return self

    def say(self, text: str) -> T:
        self.b.message("assistant", text, self._next())
        return self

    def think(self, text: str) -> T:
        self.b.thinking(text, self._next())
        return self

    def call(
        self,
        name: str,
        *,
        kind: str | None = None,
        output: str = "ok",
        error: bool = False,
        exit_code: int | None = None,
        answered: bool = True,
        status: str | None = None,
        agent: str | None = None,
        server: str | None = None,
        tool: str | None = None,
        raw_arguments: str | None = None,
        args: dict[str, Any] | None = None,
        **arguments: Any,
    ) -> T:
        from agenteval_assert._parsers._common import tool_kind

        self.n += 1
        key = f"k{self.n}"
        if name.startswith("mcp__") and server is None:
            server, _, tool = name[len("mcp__"):].rpartition("__")
        self.b.call(
            key,
            id=f"toolu_{self.n:02d}",
            name=name,
            kind=kind or tool_kind(name),
            arguments=dict(args if args is not None else arguments),
            line=self._next(),
            agent_id=agent,
            server=server,
            tool=tool,
            raw_arguments=raw_arguments,
        )
        if answered:
            self.b.result(
                key, text=output, line=self._next(), is_error=error, exit_code=exit_code, status=status
            )
        return self

    def torn(self) -> T:
        self.truncated = True
        return self

    def done(self) -> Transcript:
        stats = ReadStats(path=self.b.path, lines=self.line, records=self.line)
        if self.truncated:
            stats.truncated_tail = True
            stats.lines += 1
        return self.b.build(stats)


def calls(*names: str, **kw: Any) -> Transcript:
    """A complete transcript with one answered call per name (and a user prompt)."""
    t = T().user("go")
    for n in names:
        t.call(n, **kw)
    return t.say("done").done()
