"""The rollout parser's fast paths decide exactly what the long way decides.

``tests/_rollout_reference.py`` is the parser as it was before its per-record shortcuts (one
method call per record and per event, every value read through the coercion helpers). Both
parse the same records into fresh builders, and the transcripts they build must be the same in
every field (steps, calls, results, usage, health, notes, metadata), value and type alike: on
every real rollout of the corpus, and on records drawn from those files and changed in the ways
that send a record off a fast path (odd types, missing keys, other payload types, JSON text of
every shape in outputs and arguments, usage counts that are not plain).
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from types import MappingProxyType
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenteval_assert._builder import TranscriptBuilder
from agenteval_assert._parsers._codex._rollout import _RolloutRun
from agenteval_assert._parsers._common import not_json
from agenteval_assert._reader import ReadStats, Source
from tests._rollout_reference import _RolloutRun as _Reference

ROOT = Path(__file__).resolve().parent.parent
ROLLOUTS = sorted((ROOT / "tests" / "corpus" / "codex-rollout").glob("*.jsonl"))


def canon(v: Any, seen: frozenset[int] = frozenset()) -> Any:
    """A comparable form of *v*: type and value of every part (``1``, ``1.0`` and ``True`` differ)."""
    if attrs.has(type(v)):
        if id(v) in seen:
            return ("<cycle>", type(v).__name__)
        inner = seen | {id(v)}
        return (type(v).__name__, tuple((f.name, canon(getattr(v, f.name), inner)) for f in attrs.fields(type(v))))
    if isinstance(v, (dict, MappingProxyType)):
        return (type(v).__name__, tuple((canon(k, seen), canon(x, seen)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, tuple(canon(x, seen) for x in v))
    if isinstance(v, (set, frozenset)):
        return (type(v).__name__, tuple(sorted(repr(canon(x, seen)) for x in v)))
    if isinstance(v, float) and math.isnan(v):
        return ("float", "nan")
    return (type(v).__name__, v)


def _parse(run: type, records: list[tuple[int, dict[str, Any]]]) -> Any:
    b = TranscriptBuilder("x.jsonl", "codex-rollout", "codex")
    run(b).feed(iter(copy.deepcopy(records)))
    stats = ReadStats("x.jsonl")
    stats.records = len(records)
    stats.lines = records[-1][0] if records else 0
    return canon(b.build(stats))


def assert_same(records: list[tuple[int, dict[str, Any]]]) -> None:
    assert _parse(_RolloutRun, records) == _parse(_Reference, records)


def _records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    src = Source.open(path)
    try:
        return list(src.records())
    finally:
        src.close()


@pytest.mark.parametrize("path", ROLLOUTS, ids=lambda p: p.name)
def test_every_corpus_rollout_parses_as_the_long_way_parses_it(path: Path) -> None:
    assert_same(_records(path))


def test_the_canonical_form_sees_types_and_values() -> None:
    # the comparison above can fail: it tells a count from a flag and a float, and sees order
    assert canon({"a": 1}) != canon({"a": True}) != canon({"a": 1.0})
    assert canon([1, 2]) != canon([2, 1])
    records = _records(ROLLOUTS[0])
    assert _parse(_RolloutRun, records) != _parse(_RolloutRun, records[:-3])


# -- records drawn from the corpus and changed -------------------------------------------------

_POOL: list[dict[str, Any]] = [r for p in ROLLOUTS for _, r in _records(p)]
_ODD: list[Any] = [None, 0, 1, -1, 2.0, 2.5, True, False, "", "x", "completed", "failed", [], {}, [1], {"a": 1},
                   1 << 64, float("nan"), "task_started", "token_count", "message", "reasoning"]


def _odd(*more: Any) -> st.SearchStrategy[Any]:
    """One of the odd values (or of *more*), a fresh copy: a record that holds one of the lists
    or dicts may be changed by a later step, and the next example must see the value unchanged
    (else hypothesis sees its data generation depend on external state)."""
    return st.sampled_from([*more, *_ODD]).map(copy.deepcopy)
_PAYLOAD_TYPES = ["message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
                  "custom_tool_call_output", "local_shell_call", "web_search_call", "ghost_snapshot", "compaction",
                  "token_count", "task_started", "task_complete", "turn_aborted", "agent_message", "user_message",
                  "agent_reasoning", "exec_command_end", "mcp_tool_call_end", "patch_apply_end", "error",
                  "stream_error", "warning", "background_event", "turn_diff", "shutdown_complete",
                  "exec_command_begin", "item_completed", "something_new"]
_RECORD_TYPES = ["response_item", "event_msg", "turn_context", "session_meta", "compacted", "world_state", "odd"]
_KEYS = ["type", "payload", "timestamp", "role", "content", "summary", "text", "name", "namespace", "arguments",
         "call_id", "id", "output", "status", "info", "total_token_usage", "input_tokens", "cached_input_tokens",
         "output_tokens", "reasoning_output_tokens", "cache_write_input_tokens", "metadata", "exit_code",
         "model", "message", "last_agent_message", "input", "action", "cli_version", "success", "encrypted_content"]

_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([1 << 64, 0.5, 1.0])
    | st.text(alphabet="ab \n\\\"{}[]", max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from([*_KEYS[:8], "output", "metadata"]),
                                                                inner, max_size=3),
    max_leaves=6,
)
_json_texts = st.one_of(
    _json_values.map(json.dumps),
    st.builds(lambda o, m: json.dumps({"output": o, "metadata": m}), _json_values | st.text(max_size=5),
              st.dictionaries(st.sampled_from(["exit_code", "duration_seconds"]), _json_values, max_size=2)),
    st.sampled_from(["[REDACTED_OUTPUT len=3 sha=1]", "{bad", "{} x", "[1] ", " {}", "{\"output\":\"a\"} ",
                     "Exit code: 1\nOutput:\nno", "Process exited with code 3", "NaN", "[NaN]", "{\"a\":1,\"a\":2}"]),
)


def _set(d: dict[str, Any], path: list[str], value: Any) -> None:
    for k in path[:-1]:
        nxt = d.get(k)
        if not isinstance(nxt, dict):
            nxt = {}
            d[k] = nxt
        d = nxt
    d[path[-1]] = value


@st.composite
def _changed_record(draw: st.DrawFn) -> dict[str, Any]:
    r = copy.deepcopy(draw(st.sampled_from(_POOL)))
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["rtype", "ptype", "set", "drop", "json", "usage", "payload"]))
        p = r.get("payload")
        if op == "rtype":
            r["type"] = draw(_odd(*_RECORD_TYPES))
        elif op == "ptype" and isinstance(p, dict):
            p["type"] = draw(_odd(*_PAYLOAD_TYPES))
        elif op == "set" and isinstance(p, dict):
            key = draw(st.sampled_from(_KEYS))
            p[key] = draw(_odd() | _json_values)
        elif op == "drop" and isinstance(p, dict) and p:
            p.pop(draw(st.sampled_from(sorted(p))))
        elif op == "json" and isinstance(p, dict):
            p[draw(st.sampled_from(["output", "arguments"]))] = draw(_json_texts)
        elif op == "usage":
            r["type"] = "event_msg"
            if not isinstance(p, dict):
                p = r["payload"] = {}
            p["type"] = "token_count"
            key = draw(st.sampled_from(["input_tokens", "cached_input_tokens", "output_tokens",
                                        "reasoning_output_tokens", "cache_write_input_tokens"]))
            _set(p, ["info", "total_token_usage", key], draw(_odd()))
        elif op == "payload":
            r["payload"] = draw(_odd())
    return r


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(_changed_record(), min_size=1, max_size=25), st.booleans())
def test_changed_records_parse_as_the_long_way_parses_them(records: list[dict[str, Any]], calls_first: bool) -> None:
    if calls_first:  # calls from the pool first, so that the outputs drawn later may answer them
        calls = [r for r in _POOL if isinstance(r.get("payload"), dict)
                 and r["payload"].get("type") in ("function_call", "custom_tool_call")][:40]
        records = copy.deepcopy(calls) + records
    assert_same(list(enumerate(records, 1)))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=' \t\n\r{}[]":,0123456789.-+eEtrufalsnNIy\\aR', max_size=12))
def test_a_text_that_starts_with_brace_quote_passes_the_not_json_screen(rest: str) -> None:
    # _rollout_output sends a text that starts with '{"' to the decoder without not_json: that
    # test would let it through anyway (a key string may follow '{')
    assert not not_json('{"' + rest)
