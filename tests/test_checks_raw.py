"""The raw-text search fast path gives the same hits as the line-by-line path."""

from __future__ import annotations

from pathlib import Path

import pytest
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


_TRUNCATED_PROBE = r"""
import mmap, sys
from agenteval_assert.checks import _outputs as o

path, keep, where = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
page = mmap.PAGESIZE
with open(path, "wb") as fh:
    body = bytearray(b"x" * (6 * page))
    body[where:where + 6] = b"NEEDLE"
    fh.write(body)
o._CHUNK = page
rarest = o._rarest

def cut_then_rarest(needle, sample):  # runs after the first chunk: the file is cut short
    with open(path, "r+b") as fh:
        fh.truncate(keep)
    return rarest(needle, sample)

o._rarest = cut_then_rarest
print(o._first_offset(path, b"NEEDLE"))
"""


@pytest.mark.parametrize(("keep_pages", "where_page", "expected"), [(2, 4, -1), (5, 3, "at")])
def test_a_file_cut_short_while_it_is_searched_is_read_not_a_crash(tmp_path: Path, keep_pages: int, where_page: int,
                                                                   expected: object) -> None:
    """The raw search maps the file; a page past the end of a file that another process cut
    short would kill the process (SIGBUS). The search sees it before each chunk and reads the
    file as it now is."""
    import mmap
    import subprocess
    import sys

    page = mmap.PAGESIZE
    where = where_page * page + 100
    proc = subprocess.run([sys.executable, "-c", _TRUNCATED_PROBE, str(tmp_path / "log.jsonl"), str(keep_pages * page),
                           str(where)], capture_output=True, text=True, timeout=60, check=False,
                          cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert int(proc.stdout) == (where if expected == "at" else expected)


def test_a_system_that_refuses_the_mapping_advice_gets_the_file_read(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``madvise`` may be refused (an error from the system): the search reads the file instead
    of ending the check in an error."""
    from agenteval_assert.checks import _outputs

    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a": 1}\n' * 300_000 + b'{"key": "BEGIN RSA PRIVATE KEY"}\n')

    def refused(data: object, needle: bytes) -> int:
        raise OSError(22, "Invalid argument")

    monkeypatch.setattr(_outputs, "_mapped_first_offset", refused)
    assert _outputs._first_offset(str(path), b"BEGIN RSA PRIVATE KEY") == 300_000 * 9 + 9
    assert _outputs._first_offset(str(path), b"no such text") == -1
