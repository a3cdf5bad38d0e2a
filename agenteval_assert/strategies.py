"""Hypothesis strategies that generate valid raw transcripts together with what they contain.

Use them to property-test code that consumes transcripts: each strategy draws a ``Generated``
whose ``text`` is a transcript file's content and whose ``calls``/``final_response`` say what a
correct parser must find in it. Requires the ``hypothesis`` extra
(``pip install 'agenteval-assert[hypothesis]'``).

Example::

    from hypothesis import given
    import agenteval_assert as aa
    from agenteval_assert.strategies import claude_session

    @given(claude_session())
    def test_parser_finds_every_call(g):
        t = aa.parse(g.text)
        assert [c.id for c in t.tool_calls] == [c.id for c in g.calls]
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from ._optional import require

require("hypothesis", extra="hypothesis", feature="agenteval_assert.strategies")

from hypothesis import strategies as st  # after the install hint above

__all__ = ["Generated", "GeneratedCall", "claude_session", "codex_exec"]


@attrs.define(frozen=True)
class GeneratedCall:
    """A call the generated transcript contains."""

    id: str
    name: str
    arguments: dict[str, Any]
    output: str
    is_error: bool
    exit_code: int | None = None


@attrs.define(frozen=True)
class Generated:
    """A generated transcript and the facts a parser must recover from it."""

    text: str
    format: str
    calls: tuple[GeneratedCall, ...]
    final_response: str | None


_text = st.text(
    alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), min_size=1, max_size=40
)
#: message text: whitespace-only text blocks are not messages (Claude Code writes such blocks)
_message = _text.filter(lambda s: s.strip() != "")
_claude_tools = st.sampled_from(["Bash", "Read", "Edit", "Write", "Grep", "mcp__storybook-dev-mcp__test-run"])


def _claude_args(name: str) -> st.SearchStrategy[dict[str, Any]]:
    if name == "Bash":
        return st.fixed_dictionaries({"command": _text, "description": _text})
    if name in ("Read", "Write", "Edit"):
        return st.fixed_dictionaries({"file_path": _text.map(lambda s: "/w/" + s)})
    if name == "Grep":
        return st.fixed_dictionaries({"pattern": _text})
    return st.fixed_dictionaries({"stories": st.lists(st.fixed_dictionaries({"storyId": _text}), max_size=2)})


@st.composite
def _claude_call(draw: st.DrawFn, i: int) -> GeneratedCall:
    name = draw(_claude_tools)
    return GeneratedCall(
        id=f"toolu_{i:04d}",
        name=name,
        arguments=draw(_claude_args(name)),
        output=draw(_text),
        is_error=draw(st.booleans()),
    )


@st.composite
def claude_session(draw: st.DrawFn, max_calls: int = 8) -> Generated:
    """A Claude Code session log: split assistant messages, parallel calls, results out of order."""
    n = draw(st.integers(0, max_calls))
    calls = [draw(_claude_call(i)) for i in range(n)]
    session = "00000000-0000-4000-8000-000000000000"
    lines: list[dict[str, Any]] = []
    uuid = 0

    def env(kind: str, message: dict[str, Any]) -> dict[str, Any]:
        nonlocal uuid
        uuid += 1
        return {
            "parentUuid": None if uuid == 1 else f"u{uuid - 1}",
            "isSidechain": False,
            "userType": "external",
            "cwd": "/w",
            "sessionId": session,
            "version": "2.1.38",
            "type": kind,
            "message": message,
            "uuid": f"u{uuid}",
            "timestamp": f"2026-01-01T00:00:{uuid % 60:02d}.000Z",
        }

    lines.append(env("user", {"role": "user", "content": draw(_text)}))
    # Calls come in batches (one API message each, one line per block); results of a batch
    # arrive in a drawn order, which is how parallel tool use looks.
    i = 0
    msg = 0
    while i < n:
        size = draw(st.integers(1, min(3, n - i)))
        batch = calls[i : i + size]
        i += size
        msg += 1
        usage = {"input_tokens": 10, "output_tokens": 5}
        if draw(st.booleans()):
            lines.append(env("assistant", {
                "id": f"msg_{msg}", "role": "assistant", "model": "claude-test",
                "content": [{"type": "text", "text": draw(_message)}], "usage": usage,
            }))
        for c in batch:
            lines.append(env("assistant", {
                "id": f"msg_{msg}", "role": "assistant", "model": "claude-test",
                "content": [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}],
                "usage": usage,
            }))
        for c in draw(st.permutations(batch)):
            lines.append(env("user", {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": c.id, "content": c.output, "is_error": c.is_error}
            ]}))
    final = draw(_message)
    lines.append(env("assistant", {
        "id": f"msg_{msg + 1}", "role": "assistant", "model": "claude-test",
        "content": [{"type": "text", "text": final}], "usage": {"input_tokens": 1, "output_tokens": 1},
    }))
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    return Generated(text=text, format="claude-session", calls=tuple(calls), final_response=final)


@st.composite
def codex_exec(draw: st.DrawFn, max_calls: int = 8, max_runs: int = 3) -> Generated:
    """A ``codex exec --json`` stream, possibly resumed (ids restart at ``item_0`` per run)."""
    runs = draw(st.integers(1, max_runs))
    lines: list[dict[str, Any]] = []
    calls: list[GeneratedCall] = []
    final: str | None = None
    total = 0
    for _ in range(runs):
        lines.append({"type": "thread.started", "thread_id": "019a0000-0000-7000-8000-000000000000"})
        lines.append({"type": "turn.started"})
        item = 0
        for _ in range(draw(st.integers(0, max_calls))):
            cmd = draw(_text)
            code = draw(st.sampled_from([0, 0, 1, 2]))
            out = draw(_text)
            iid = f"item_{item}"
            item += 1
            started = {"id": iid, "type": "command_execution", "command": cmd, "aggregated_output": "",
                       "exit_code": None, "status": "in_progress"}
            done = {**started, "aggregated_output": out, "exit_code": code,
                    "status": "completed" if code == 0 else "failed"}
            lines.append({"type": "item.started", "item": started})
            lines.append({"type": "item.completed", "item": done})
            calls.append(GeneratedCall(iid, "command_execution", {"command": cmd}, out, code != 0, code))
        final = draw(_message)
        lines.append({"type": "item.completed", "item": {"id": f"item_{item}", "type": "agent_message",
                                                         "text": final}})
        total += 100
        lines.append({"type": "turn.completed", "usage": {"input_tokens": total, "cached_input_tokens": 0,
                                                          "output_tokens": total // 10}})
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    return Generated(text=text, format="codex-exec", calls=tuple(calls), final_response=final)
