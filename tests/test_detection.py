"""Format detection over every real file the repository holds: each file is its own format only.

The files are the corpus (``tests/corpus``, ``tests/corpus-more``: formats from ``expected.json``),
the samples (``samples/<format>/``) and the transcripts written for this project (replay and
Storybook samples, whose format is whatever it was before: never one of the formats added since).
"""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert._parsers import _parsers
from agenteval_assert._reader import Record, Source

from .conftest import CORPUS, CORPUS_MORE, ROOT, SAMPLES

#: formats added after the first six; no file of another format may be taken for one of them
NEWER = ("opencode", "cursor-cli", "amp")
#: a known overlap, resolved by the detection order: Codex exec's detection takes any record of
#: type ``session.created``, which OpenCode server events also have, so OpenCode is asked first
ORDERED = {("codex-exec", "opencode")}


def _files() -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for root in (CORPUS, CORPUS_MORE):
        expected = json.loads((root / "expected.json").read_text())
        out += [(str((root / rel).relative_to(ROOT)), v["format"]) for rel, v in sorted(expected.items())]
    for d in sorted(SAMPLES.iterdir()):
        if d.is_dir() and d.name in aa.FORMATS:
            out += [(str(p.relative_to(ROOT)), d.name) for p in sorted(d.iterdir())
                    if p.is_file() and p.name != "README.md"]
    written = [*SAMPLES.glob("replay/*/*.jsonl"), *SAMPLES.glob("storybook/*/__agent_eval__/transcript.txt"),
               *(CORPUS / "storybook").rglob("*.json")]
    out += [(str(p.relative_to(ROOT)), None) for p in sorted(written)]
    return out


FILES = _files()
#: keys the detection rules look at
_KEYS = ["type", "subtype", "part", "properties", "info", "parts", "messages", "role", "session_id", "sessionID",
         "tool_call", "model_call_id", "timestamp_ms", "apiKeySource", "model", "tools", "request_id", "message",
         "payload", "msg", "id", "projectHash", "sessionId", "tool_name", "tool_id"]


def _head(path: Path) -> tuple[list[Record], Source]:
    src = Source.open(path)
    try:
        head = list(islice(src.records(), 20))
    except ValueError:  # not JSON at all (an .eval zip, a markdown history)
        head = []
    return head, src


def test_the_files_cover_every_format() -> None:
    assert len(FILES) > 60
    assert {fmt for _, fmt in FILES} >= set(aa.FORMATS)


@pytest.mark.parametrize(("rel", "fmt"), FILES)
def test_every_file_keeps_its_format(rel: str, fmt: str | None) -> None:
    path = ROOT / rel
    if fmt is None:
        try:
            assert aa.detect_format(path) not in NEWER
        except aa.UnknownFormatError as exc:  # not a transcript at all (a Storybook fixture)
            assert [name for name, _ in exc.tried] == list(aa.FORMATS)
    elif fmt in aa.FORMATS:
        assert aa.detect_format(path) == fmt
    else:
        with pytest.raises(aa.TranscriptError):
            aa.detect_format(path)


@pytest.mark.parametrize(("rel", "fmt"), FILES)
def test_the_newer_formats_refuse_every_other_file(rel: str, fmt: str | None) -> None:
    head, src = _head(ROOT / rel)
    for name in NEWER:
        if name == fmt:
            continue
        why = _parsers()[name].sniff(head, src.stats.shape)
        assert isinstance(why, str) and why, (name, rel)


@pytest.mark.parametrize(("rel", "fmt"), [(r, f) for r, f in FILES if f in NEWER])
def test_files_of_the_newer_formats_are_refused_by_every_other_format(rel: str, fmt: str) -> None:
    head, src = _head(ROOT / rel)
    for name, parser in _parsers().items():
        if name == fmt or (name, fmt) in ORDERED:
            continue
        assert parser.sniff(head, src.stats.shape) is not None, (name, rel)
    # the overlap is real, and the order settles it
    for first, then in ORDERED:
        if then == fmt:
            assert list(aa.FORMATS).index(then) < list(aa.FORMATS).index(first)


_value = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.text(max_size=4)
    | st.sampled_from(["system", "init", "result", "tool_call", "thinking", "delta", "message.updated",
                       "session.created", "user", "assistant", "T-7f395a45-7fae-4983-8de0-d02e61d30183"]),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(_KEYS), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.dictionaries(st.sampled_from(_KEYS), _value, max_size=5), min_size=1, max_size=6))
def test_every_detection_rule_is_total(records: list[dict[str, Any]]) -> None:
    head = list(enumerate(records, 1))
    for name, parser in _parsers().items():
        why = parser.sniff(head, "jsonl")
        assert why is None or (isinstance(why, str) and why), name
