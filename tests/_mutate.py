"""Damage a real file the way files get damaged, and check that parsing stays total.

Used by the parser tests' property tests: whatever the bytes, ``parse`` gives a ``Transcript``
whose health accounts for every line, or a ``TranscriptError`` that names a line of the input.
"""

from __future__ import annotations

from hypothesis import strategies as st

import agenteval_assert as aa


@st.composite
def mutated(draw: st.DrawFn, data: bytes) -> bytes:
    """*data* with one to three damages: cut, deleted or duplicated span, inserted bytes, flipped byte."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        n = len(out)
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, min(n, i + 200)))
        op = draw(st.sampled_from(["cut", "delete", "duplicate", "insert", "flip"]))
        if op == "cut":
            del out[i:]
        elif op == "delete":
            del out[i:j]
        elif op == "duplicate":
            out[j:j] = out[i:j]
        elif op == "insert":
            out[i:i] = draw(st.binary(max_size=20) | st.sampled_from([b"\n", b"{", b"}", b"]", b'"', b",", b"null"]))
        elif n:
            k = min(i, n - 1)
            out[k] = draw(st.integers(0, 255))
    return bytes(out)


def assert_total(data: bytes, format: str | None = None) -> aa.Transcript | None:
    """Parse *data*: a transcript, or an error located on one of its lines; never anything else."""
    lines = data.count(b"\n") + 1
    try:
        t = aa.parse(data, format=format, path="damaged.jsonl")
    except aa.TranscriptError as exc:
        assert exc.line is None or 1 <= exc.line <= lines, (exc.line, lines)
        assert str(exc).startswith("damaged.jsonl")
        return None
    assert isinstance(t, aa.Transcript)
    for c in t.all_tool_calls:
        assert isinstance(c.id, str) and isinstance(c.name, str)
        assert 1 <= c.location.line <= max(lines, 1)
    assert len(t.health.unanswered_calls) == sum(c.result is None for c in t.all_tool_calls)
    return t
