"""The Claude parsers' shortcuts decide what the long way decides.

Each shortcut is taken only for plain JSON values (``type(x) is list``, ``dict``, ``str``) or when
a record lacks the keys a longer test reads (``"error" in rec``...). Records whose values are
subclasses (``_L``, ``_D``, ``_S``) and whose ``in`` answers yes for those keys (``_R``) take
the long way everywhere: the block loop, ``user``'s block loop, ``call`` (a name's meaning
worked out afresh), ``content_text``, the API-error and request-id tests. Both must give the
same transcript, for the real corpus files and for generated records of odd shapes. The usage
of a new API message, the model of a run's lines, the names' cache after more MCP
servers are declared and a subagent's calls linked late have tests of their own.
"""

from __future__ import annotations

import json
import math
import types
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenteval_assert._builder import TranscriptBuilder
from agenteval_assert._parsers import _parser
from agenteval_assert._parsers._claude._access import _usage_fields
from agenteval_assert._parsers._claude._core import _Claude
from agenteval_assert._reader import Source
from agenteval_assert.model import Transcript

ROOT = Path(__file__).resolve().parent.parent
_FORMATS = ("claude-stream-json", "claude-session")
#: the record keys whose absence lets ``assistant`` skip a longer test
_GUARDED = frozenset({"isApiErrorMessage", "is_api_error_message", "error", "requestId", "request_id"})


class _L(list):  # type: ignore[type-arg]
    pass


class _S(str):
    pass


class _D(dict):  # type: ignore[type-arg]
    pass


class _R(_D):
    def __contains__(self, key: object) -> bool:
        return key in _GUARDED or dict.__contains__(self, key)


def _long_way(value: Any) -> Any:
    """*value* with every object, array and string value made a subclass (keys stay plain). A
    ``usage`` object stays plain: the builder reads a subclass as no object at all (its own
    test, ``type(usage) is not dict``); a new usage's reading has a test of its own below."""
    if isinstance(value, dict):
        return _R({k: v if k == "usage" else _long_way(v) for k, v in value.items()})
    if isinstance(value, list):
        return _L(_long_way(v) for v in value)
    if isinstance(value, str):
        return _S(value)
    return value


def _canon(o: Any) -> Any:
    """A comparable form of a transcript, subclasses read as their base type."""
    if attrs.has(type(o)):
        return (type(o).__name__, tuple((f.name, _canon(getattr(o, f.name))) for f in attrs.fields(type(o))))
    if isinstance(o, (dict, types.MappingProxyType)):
        return ("map", tuple((_canon(k), _canon(v)) for k, v in o.items()))
    if isinstance(o, str):
        return ("str", str(o))
    if hasattr(o, "_fields"):  # a named tuple
        return (type(o).__name__, tuple(_canon(v) for v in o))
    if isinstance(o, (list, tuple)):
        return ("tuple" if isinstance(o, tuple) else "list", tuple(_canon(v) for v in o))
    if isinstance(o, (set, frozenset)):
        return ("set", tuple(sorted(repr(v) for v in o)))
    if isinstance(o, float) and math.isnan(o):
        return ("nan",)
    return (type(o).__name__, o)


def _parse(fmt: str, records: list[tuple[int, dict[str, Any]]], src: Source) -> Any:
    parser = _parser(fmt)
    b = TranscriptBuilder(src.path, parser.name, parser.agent)
    parser.parse(iter(records), b)
    return b.build(src.stats)


def _both_ways(fmt: str, src: Source) -> tuple[Any, Any, Transcript]:
    """The canonical forms of the transcript read plainly and the long way, and the first."""
    records = list(src.records())
    long = [(line, _long_way(rec)) for line, rec in records]
    t = _parse(fmt, records, src)
    return _canon(t), _canon(_parse(fmt, long, src)), t


def _corpus() -> list[tuple[str, Path]]:
    found = [(fmt, p) for sub, fmt in (("claude-stream-json", "claude-stream-json"), ("claude-session-log", "claude-session"))
             for p in sorted((ROOT / "tests" / "corpus" / sub).glob("*.json*"))]
    for p in sorted((ROOT / "tests" / "handmade").glob("claude-*.json*")):
        found.append(("claude-session" if p.name.startswith("claude-session") else "claude-stream-json", p))
    return found


def test_the_corpus_is_there() -> None:
    fmts = {fmt for fmt, _ in _corpus()}
    assert fmts == set(_FORMATS) and len(_corpus()) >= 10


@pytest.mark.parametrize(("fmt", "path"), _corpus(), ids=lambda v: getattr(v, "name", v))
def test_real_files_give_the_same_transcript_the_long_way(fmt: str, path: Path) -> None:
    plain, long, _ = _both_ways(fmt, Source.open(path))
    assert plain == long


# -- generated records ------------------------------------------------------------------------

_TEXT = st.sampled_from(["done", "", "  ", "\u2003\n", "\x1c", "a\u00a0", "The user doesn't want to proceed with this tool use",
                         "[Request interrupted by user]", "<command-name>/x:y</command-name>",
                         "Base directory for this skill: /p/skills/z", "done\nagentId: a1\n<usage>x</usage>"])
_ODD = st.sampled_from([None, 0, 1.5, True, [], {}, "", "x"])
_NAME = st.one_of(st.sampled_from(["Bash", "Read", "Task", "Agent", "Skill", "mcp__srv__do__it", "mcp__plugin_a_b__go",
                                   "mcp__other__x", ""]), _ODD)
_ID = st.one_of(st.sampled_from(["t1", "t2", "t3"]), _ODD)
_INPUT = st.one_of(st.fixed_dictionaries({}, optional={"command": st.just("ls"), "subagent_type": st.just("x"),
                                                       "description": st.just("d")}),
                   st.sampled_from(['{"a": 1}', "[1]", "not json", None, 3, [1]]))
_COUNT = st.one_of(st.integers(min_value=-2, max_value=5), st.sampled_from([None, 1.0, 2.5, "3", True]))
_USAGE = st.one_of(
    st.fixed_dictionaries({}, optional={"input_tokens": _COUNT, "output_tokens": _COUNT,
                                        "cache_read_input_tokens": _COUNT, "cache_creation_input_tokens": _COUNT,
                                        "cache_creation": st.one_of(_ODD, st.fixed_dictionaries(
                                            {}, optional={"ephemeral_5m_input_tokens": _COUNT}))}),
    _ODD)
_BLOCK = st.one_of(
    st.fixed_dictionaries({"type": st.just("tool_use"), "name": _NAME, "id": _ID, "input": _INPUT}),
    st.fixed_dictionaries({"type": st.just("text"), "text": st.one_of(_TEXT, _ODD)}),
    st.fixed_dictionaries({"type": st.sampled_from(["thinking", "redacted_thinking", "image", "server_tool_use"])},
                          optional={"thinking": _TEXT, "name": _NAME, "id": _ID}),
    st.fixed_dictionaries({"type": st.just("web_search_tool_result"), "tool_use_id": _ID}),
    _ODD,
)
_RESULT = st.fixed_dictionaries(
    {"type": st.just("tool_result"), "tool_use_id": _ID},
    optional={"content": st.one_of(_TEXT, _ODD, st.lists(st.fixed_dictionaries({"type": st.just("text"),
                                                                                  "text": _TEXT}), max_size=2)),
              "is_error": _ODD})
_PAYLOAD = st.one_of(st.none(), st.sampled_from(["User rejected tool use", "Error: x", 3]),
                     st.fixed_dictionaries({}, optional={"interrupted": _ODD, "agentId": st.sampled_from(["a1", ""]),
                                                         "content": st.one_of(_TEXT, st.just([]))}))
_MODEL = st.sampled_from(["claude-a", "claude-a", "claude-b", "<synthetic>", None, "", 3])
_MSG_ID = st.one_of(st.sampled_from(["m1", "m1", "m2", "m3"]), _ODD)


@st.composite
def _assistant(draw: st.DrawFn, session: bool) -> dict[str, Any]:
    msg: dict[str, Any] = {"role": "assistant", "model": draw(_MODEL), "id": draw(_MSG_ID),
                           "content": draw(st.one_of(st.lists(_BLOCK, min_size=1, max_size=2),
                                                     st.lists(_BLOCK, max_size=0), _TEXT, _ODD))}
    if draw(st.booleans()):
        msg["usage"] = draw(_USAGE)
    rec: dict[str, Any] = {"type": "assistant", "message": msg}
    extra = draw(st.fixed_dictionaries({}, optional={
        "isApiErrorMessage": _ODD, "is_api_error_message": _ODD, "error": st.one_of(_ODD, st.just("rate_limit")),
        "requestId": st.one_of(_ID, _ODD), "request_id": st.one_of(_ID, _ODD)}))
    rec.update(extra)
    return _envelope(draw, rec, session)


@st.composite
def _user(draw: st.DrawFn, session: bool) -> dict[str, Any]:
    content = draw(st.one_of(st.lists(_RESULT, min_size=1, max_size=1), st.lists(st.one_of(_RESULT, _BLOCK), max_size=3),
                             _TEXT, _ODD))
    rec: dict[str, Any] = {"type": "user", "message": {"role": "user", "content": content}}
    key = "toolUseResult" if session else "tool_use_result"
    if draw(st.booleans()):
        rec[key] = draw(_PAYLOAD)
    rec.update(draw(st.fixed_dictionaries({}, optional={"isMeta": _ODD, "isCompactSummary": _ODD,
                                                         "sourceToolUseID": _ODD})))
    return _envelope(draw, rec, session)


def _envelope(draw: st.DrawFn, rec: dict[str, Any], session: bool) -> dict[str, Any]:
    if session:
        rec.update(sessionId="s", uuid=draw(st.sampled_from(["u1", "u2", "u3", "u4"])),
                   parentUuid=draw(st.sampled_from([None, "u1", "u2", "u9"])),
                   isSidechain=draw(st.sampled_from([False, False, True])),
                   timestamp=draw(st.sampled_from(["2026-01-01T00:00:00Z", "", None])))
        if rec["isSidechain"]:
            rec["agentId"] = draw(st.sampled_from(["a1", "a2", None]))
    else:
        # mostly the bare envelope (type, message, session_id, parent_tool_use_id and nothing
        # else: the parse skips looking up the other keys), sometimes one key short, or a
        # timestamp more
        if draw(st.integers(0, 5)):
            rec["session_id"] = "s"
        if draw(st.integers(0, 5)):
            rec["parent_tool_use_id"] = draw(st.sampled_from([None, None, None, "t1", "", 3]))
        if not draw(st.integers(0, 4)):
            rec["timestamp"] = draw(st.sampled_from(["2026-01-01T00:00:00Z", "", None]))
    return rec


_INIT = st.fixed_dictionaries({"type": st.just("system"), "subtype": st.just("init"), "model": _MODEL,
                               "mcp_servers": st.lists(st.sampled_from([{"name": "srv"}, {"name": "plugin:a:b"},
                                                                        "other", 3]), max_size=3)})


def _records(session: bool) -> st.SearchStrategy[list[dict[str, Any]]]:
    kinds = [_assistant(session), _assistant(session), _user(session)]
    if not session:
        kinds.append(_INIT)
    return st.lists(st.one_of(*kinds), min_size=1, max_size=12)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.booleans(), st.data())
def test_generated_records_give_the_same_transcript_the_long_way(session: bool, data: st.DataObject) -> None:
    recs = data.draw(_records(session))
    text = "\n".join(json.dumps(r) for r in recs) + "\n"
    src = Source.from_bytes(text.encode())
    plain, long, _ = _both_ways("claude-session" if session else "claude-stream-json", src)
    assert plain == long


@st.composite
def _bare_line(draw: st.DrawFn) -> dict[str, Any]:
    """A stream-json line of the bare envelope (``type``, ``message``, ``session_id``,
    ``parent_tool_use_id``: the main agent's lines, read inline by the parse loop) holding one
    call, one text or one result, or something else."""
    kind = draw(st.sampled_from(["call", "call", "text", "result", "result", "other"]))
    if kind == "other":
        rec = draw(st.one_of(_assistant(False), _user(False)))
        rec.pop("timestamp", None)
        rec.update(session_id="s", parent_tool_use_id=None)
        return rec
    # mostly well-formed (a call and its result pair up), sometimes odd
    good_id = st.sampled_from(["t1", "t2", "t3"])
    ids = st.one_of(good_id, good_id, good_id, _ID)
    if kind == "result":
        block = draw(st.fixed_dictionaries(
            {"type": st.just("tool_result"), "tool_use_id": ids,
             "content": st.one_of(_TEXT, _TEXT, _TEXT, _ODD, st.lists(st.fixed_dictionaries(
                 {"type": st.just("text"), "text": _TEXT}), max_size=2))},
            optional={"is_error": _ODD}))
        return {"type": "user", "message": {"role": "user", "content": [block]}, "session_id": "s",
                "parent_tool_use_id": None}
    good_name = st.sampled_from(["Bash", "Task", "Agent", "mcp__srv__do__it"])
    good_input = st.fixed_dictionaries({}, optional={"command": st.just("ls"), "subagent_type": st.just("x")})
    block = draw(st.fixed_dictionaries({"type": st.just("tool_use"), "name": st.one_of(good_name, good_name, _NAME),
                                        "id": ids, "input": st.one_of(good_input, good_input, _INPUT)})
                 if kind == "call" else st.fixed_dictionaries({"type": st.just("text"), "text": st.one_of(_TEXT, _ODD)}))
    msg: dict[str, Any] = {"role": "assistant", "model": draw(_MODEL), "id": draw(_MSG_ID), "content": [block]}
    if draw(st.booleans()):
        msg["usage"] = draw(_USAGE)
    return {"type": "assistant", "message": msg, "session_id": "s", "parent_tool_use_id": None}


@st.composite
def _bare_turn(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A bare call line and a bare result line for it (its id, a text: rejected, a subagent's
    answer...), the text lines of one API message, any one bare line, an init, or a user text."""
    kind = draw(st.sampled_from(["pair", "pair", "line", "init", "text", "texts"]))
    if kind == "texts":  # the text lines of one API message: one final response
        mid = draw(_MSG_ID)
        return [{"type": "assistant", "session_id": "s", "parent_tool_use_id": None, "message": {
            "role": "assistant", "model": "claude-a", "id": mid, "content": [{"type": "text", "text": text}]}}
            for text in draw(st.lists(_TEXT, min_size=1, max_size=3))]
    if kind == "line":
        return [draw(_bare_line())]
    if kind == "init":
        return [draw(_INIT)]
    if kind == "text":
        return [{"type": "user", "session_id": "s", "parent_tool_use_id": None,
                 "message": {"role": "user", "content": draw(_TEXT)}}]
    call, result = draw(_bare_line()), draw(_bare_line())
    cid = draw(st.sampled_from(["t1", "t2", "t3"]))
    call["type"] = "assistant"
    call["message"] = {"role": "assistant", "model": draw(_MODEL), "id": draw(_MSG_ID), "content": [
        {"type": "tool_use", "id": cid, "name": draw(st.sampled_from(["Bash", "Task", "Agent", "mcp__srv__do__it"])),
         "input": {"description": "d"}}]}
    block = {"type": "tool_result", "tool_use_id": cid, "content": draw(_TEXT)}
    block.update(draw(st.fixed_dictionaries({}, optional={"is_error": _ODD})))
    result["type"] = "user"
    result["message"] = {"role": "user", "content": [block]}
    return [call, result]


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_bare_turn(), min_size=1, max_size=8))
def test_the_main_agents_bare_lines_read_inline_give_the_same_transcript(turns: list[list[dict[str, Any]]]) -> None:
    """The parse loop reads the main agent's bare lines of one call, text or result itself (not
    through ``assistant``/``tool_result``): the same transcript as the long way."""
    _same_both_ways("claude-stream-json", [rec for turn in turns for rec in turn])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_records(False), st.lists(_bare_turn(), min_size=1, max_size=6).map(
    lambda turns: [rec for turn in turns for rec in turn])))
def test_whether_the_run_delegated_is_what_the_builder_says(recs: list[dict[str, Any]]) -> None:
    """The stream parser tells whether the run has subagents from what it recorded (a declared
    subagent, a call that spawns one), not by walking every call: ``has_subagents`` agrees."""
    from agenteval_assert._parsers._claude._stream import ClaudeStreamJsonParser

    seen: list[tuple[bool, bool]] = []
    usage = ClaudeStreamJsonParser._usage

    def spy(st_: _Claude, *args: Any) -> None:
        seen.append((bool(st_.b._subagents) or st_.delegated, st_.b.has_subagents()))
        usage(st_, *args)

    src = Source.from_bytes(("\n".join(json.dumps(r) for r in recs) + "\n").encode())
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ClaudeStreamJsonParser, "_usage", staticmethod(spy))
        for records in (list(src.records()), [(line, _long_way(rec)) for line, rec in src.records()]):
            _parse("claude-stream-json", records, src)
    assert len(seen) == 2 and all(fast == walked for fast, walked in seen)


@pytest.mark.parametrize("extra", [{}, {"timestamp": "2026-01-01T00:00:00Z"}], ids=["bare", "not-bare"])
def test_a_spawning_call_of_a_name_first_seen_on_a_repeated_id(extra: dict[str, Any]) -> None:
    """The first ``Task`` call repeats an id (not recorded, but its name is now known): the next
    one, read inline, is the run's first spawning call."""
    recs = [_call_line("t1", "Bash", **extra), _call_line("t1", "Task", **extra), _call_line("t2", "Task", **extra),
            {"type": "result", "subtype": "success", "total_cost_usd": 2.0, "session_id": "s"}]
    for rec in recs[:3]:
        rec.update(session_id="s", parent_tool_use_id=None)
    t = _same_both_ways("claude-stream-json", recs)
    # a run with a subagent: its stated cost is the run's, not the main agent's
    assert [c.kind for c in t.tool_calls] == ["shell", "subagent"] and t.usage.cost_usd is None
    assert t.usage_total.cost_usd == 2.0


@settings(max_examples=500)
@given(_USAGE)
def test_a_new_usage_is_read_as_usage_fields_reads_it(usage: Any) -> None:
    st_ = _Claude(TranscriptBuilder("t", "claude-stream-json", "claude-code"), session=False)
    st_.new_usage("k", usage, None)
    got = st_.usage.get(None, {}).get("k")
    assert got == _usage_fields(usage)


def test_isspace_is_strip_leaving_nothing() -> None:
    """``text.isspace()`` (no copy) stands for ``not text.strip()`` on a non-empty text: the same
    characters, every code point checked."""
    for c in range(0x110000):
        ch = chr(c)
        assert ch.isspace() == (ch.strip() == ""), hex(c)


def _same_both_ways(fmt: str, recs: list[dict[str, Any]]) -> Transcript:
    src = Source.from_bytes(("\n".join(json.dumps(r) for r in recs) + "\n").encode())
    plain, long, t = _both_ways(fmt, src)
    assert plain == long
    return t


def _call_line(cid: str, name: str, **extra: Any) -> dict[str, Any]:
    return {"type": "assistant", "message": {"id": f"m-{cid}", "model": "m", "content": [
        {"type": "tool_use", "id": cid, "name": name, "input": {"description": "d"}}]}, **extra}


def test_a_tool_name_read_again_after_the_servers_grow() -> None:
    """``mcp__srv__do__it`` splits at the last ``__`` until an init names the server ``srv``: the
    name's cached meaning is dropped when the servers grow."""
    t = _same_both_ways("claude-stream-json", [
        _call_line("t1", "mcp__srv__do__it"),
        {"type": "system", "subtype": "init", "mcp_servers": [{"name": "srv"}]},
        _call_line("t2", "mcp__srv__do__it"),
    ])
    assert [(c.server, c.tool) for c in t.tool_calls] == [("srv__do", "it"), ("srv", "do__it")]


def test_a_sidechain_call_whose_agent_is_linked_later() -> None:
    """A subagent's call before its spawning call's result names the agent (session logs): the
    call gets its parent when the link comes, whichever way the call was read."""
    env = {"sessionId": "s", "timestamp": "2026-01-01T00:00:00Z"}
    t = _same_both_ways("claude-session", [
        {**_call_line("t1", "Task"), "uuid": "u1", "parentUuid": None, "isSidechain": False, **env},
        {**_call_line("c1", "Bash"), "uuid": "u2", "parentUuid": "u1", "isSidechain": True, "agentId": "a1", **env},
        {"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]},
         "toolUseResult": {"agentId": "a1"}, "uuid": "u3", "parentUuid": "u2", "isSidechain": False, **env},
    ])
    assert [(c.id, c.parent_id) for c in t.all_tool_calls] == [("t1", None), ("c1", "t1")]


def test_usage_keyed_by_request_id_alone() -> None:
    """Lines with ``request_id`` and no ``requestId``: one API message per request id."""
    def line(req: str, out: int) -> dict[str, Any]:
        return {"type": "assistant", "request_id": req, "message": {
            "id": "m1", "model": "m", "content": [{"type": "text", "text": "hi"}],
            "usage": {"input_tokens": 1, "output_tokens": out, "cache_read_input_tokens": 0,
                      "cache_creation_input_tokens": 0}}}
    t = _same_both_ways("claude-stream-json", [line("r1", 5), line("r2", 7), line("r1", 6)])
    assert t.usage.output_tokens == 13


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["claude-a", "claude-b", "<synthetic>", None, "", 3]), min_size=1, max_size=8),
       st.booleans())
def test_the_models_of_a_run(models: list[Any], session: bool) -> None:
    """A line that names the last line's model skips the model bookkeeping: the transcript still
    names every model once, in order, the first one as its model, and a ``<synthetic>`` line's
    text is meta."""
    recs = []
    for i, m in enumerate(models):
        rec: dict[str, Any] = {"type": "assistant", "message": {"id": f"m{i}", "model": m, "content": [
            {"type": "text", "text": f"t{i}"}]}}
        if session:
            rec.update(sessionId="s", uuid=f"u{i}", isSidechain=False)
        recs.append(rec)
    t = _same_both_ways("claude-session" if session else "claude-stream-json", recs)
    named = [m for m in dict.fromkeys(models) if isinstance(m, str) and m and m != "<synthetic>"]
    assert t.model == (named[0] if named else None)
    assert t.metadata.get("models") == (named if len(named) > 1 else None)
    assert [(s.text, s.meta) for s in t.messages(include_meta=True)] == [(f"t{i}", m == "<synthetic>") for i, m in enumerate(models)]
