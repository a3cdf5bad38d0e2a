"""The raw-text search fast path gives the same hits as the line-by-line path."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert.checks._outputs import _raw_hits
from agenteval_assert.matchers import Contains, Matches

from .conftest import SAMPLES

SAMPLE = SAMPLES / "claude-session" / "spotter-2.1.38-tool-heavy.jsonl"


def _slow(t: aa.Transcript, needle: str) -> list[tuple[int, str]]:
    # the same search through a matcher that is not a plain substring: the line-by-line path
    return [(n, line.rstrip("\n")) for n, line in _raw_hits(t, Matches(__import__("regex").escape(needle)))]


def test_hits_and_line_numbers_match_the_line_by_line_search() -> None:
    t = aa.load(SAMPLE)
    for needle in ('"type":"assistant"', "mix.exs", "Phoenix", "no such text at all", "\u00e9"):
        fast = [(n, line.rstrip("\n")) for n, line in _raw_hits(t, Contains(needle))]
        assert fast == _slow(t, needle)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["ab", "xab", "b", "", "abab", "é"]), min_size=1, max_size=8),
       st.sampled_from(["ab", "b", "é", "zz"]))
def test_fast_path_on_generated_files(lines: list[str], needle: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "t.jsonl"
        p.write_text("\n".join(lines) + "\n")
        t = aa.load(SAMPLE)
        t2 = type(t)(path=str(p), format=t.format, agent=t.agent, steps=t.steps, tool_calls=t.tool_calls,
                     health=t.health)
        fast = [(n, line.rstrip("\n")) for n, line in _raw_hits(t2, Contains(needle))]
        assert fast == _slow(t2, needle)
        assert [n for n, _ in fast] == [i + 1 for i, line in enumerate(lines) if needle in line]
