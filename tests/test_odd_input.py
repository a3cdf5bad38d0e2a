"""Odd input in every format: no traceback, never a silent pass.

One real file per format (and the request/response dumps of the API formats) is damaged at a JSON
key path: the value replaced by a value of another type (an int, a list, an object, ``null``, a
string, a boolean, JSON text nested deeper than Python recurses, a value wrapped in a list or an
object) or its key deleted. Every mutant must keep the laws of ``tests/_fuzz.py``:

1. ``load_all``, ``summary`` (text and strict ``--json``), the health checks and the negative
   checks raise nothing but a ``TranscriptError`` naming the file; through the command line no
   exit ``70``;
2. a mutant of another type in place of a value that held a call is never a clean PASS of a
   negative check about that call (it is damage, or the call is still there).

The default run is bounded (``DEFAULT_EXAMPLES`` mutants per seed); a longer one:

    pytest tests/test_odd_input.py --fuzz-examples 2000     # or AGENTEVAL_FUZZ_EXAMPLES=2000

Below them, one regression test per crash or silent pass found on odd input.
"""

from __future__ import annotations

import copy
import io
import json
import os
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert import checks as c
from agenteval_assert._cli import ExitCode, _dump_json, _print_summary, main, summary_dict
from agenteval_assert._health import health_checks
from agenteval_assert.results import Status

from ._fuzz import _get, _no_constants, _paths, _set
from ._mutate import mutated
from .conftest import CORPUS, CORPUS_MORE, ROOT, SAMPLES

#: Mutants per seed in the default (CI) run, and through the command line.
DEFAULT_EXAMPLES = 25
DEFAULT_CLI_EXAMPLES = 3

#: One real file per format (and the API formats' request/response dumps), relative to the root.
SEED_FILES: dict[str, str] = {
    "opencode": "samples/opencode/takopi-run-json-bash-echo.jsonl",
    "opencode-export": "tests/corpus-more/opencode/sandbox-agent-1.1.49-session-messages.json",
    "codex-exec": "samples/codex-exec/agentcmd-stream-output-3-file-change.jsonl",
    "codex-rollout": "tests/corpus/codex-rollout/localpush-0.104-desktop-exec-command-sanitized.jsonl",
    "codex-rollout-0.40": "tests/corpus/codex-rollout/agentcmd-rollout-0.40-0199812e.jsonl",
    "claude-session": "samples/claude-session/spotter-2.1.38-short.jsonl",
    "claude-stream-json": "samples/claude-stream-json/terragon-1.0.x-bash-errors.json",
    "gemini-session": "samples/gemini-session/agentcmd-gemini-chat-session-2025-10-27.json",
    "gemini-stream-json": "tests/corpus-more/gemini-stream-json/untether-synthetic-tools-success.jsonl",
    "cursor-cli": "samples/cursor-cli/cursor-hack-parallel-shell.jsonl",
    "amp": "samples/amp/untether-synthetic-bash-success.jsonl",
    "swe-agent": "samples/swe-agent/swe-agent-6e44b9-sweagenttestrepo.traj",
    "swe-agent-fc": "tests/corpus-more/swe-agent/demo-function-calling-replace-marshmallow-1867.traj",
    "mini-swe-agent": "samples/mini-swe-agent/gemini3pro-1.15-django-16255.traj.json",
    "openhands": "samples/openhands/runtime-trajs-wrong-initial-state.json",
    "inspect-log": "tests/corpus-more/inspect-log/inspect-0.3.58-tool-call-error-types.json",
    "inspect-log-eval": "samples/inspect-log/inspect-0.3.135-hardcoded-guess-number-dedup.eval",
    "aider": "samples/aider/afi-core-aider-0.8x-chat-history.md",
    "agent-eval-transcript": "tests/corpus/storybook/lib/agentic-reference/__fixtures__/golden-run/transcript.json",
    "openai-chat": "samples/openai-chat/chat-tool-calls.jsonl",
    "openai-chat-dump": "samples/openai-chat/chat-request-response.json",
    "openai-responses": "samples/openai-responses/responses-items.jsonl",
    "openai-responses-dump": "samples/openai-responses/responses-request-response.json",
    "anthropic-messages": "samples/anthropic-messages/messages-tool-use.json",
    "anthropic-messages-dump": "samples/anthropic-messages/messages-request-response.json",
}

#: JSON text nested deeper than the interpreter recurses, and just below it (a string value).
_DEEP = "[" * 3000 + "]" * 3000
_NEAR = "[" * 950 + "]" * 950
_REPLACEMENTS: tuple[tuple[str, Any], ...] = (
    ("an int", 5),
    ("a float", 1.5),
    ("a list of ints", [1, 2]),
    ("a list of a list", [[1, 2]]),
    ("an object", {"k": [1]}),
    ("null", None),
    ("a string", "s"),
    ("a boolean", True),
    ("JSON text nested past the recursion limit", _DEEP + " "),
    ("a value nested past the recursion limit", "__DEEP__"),
    ("JSON text nested 950 levels", _NEAR),
    ("an object holding nested JSON text", {"a": _NEAR}),
)
_WRAPS = ("wrapped in a list", "wrapped in an object", "deleted")


class Seed:
    """A real file and what is mutated in it (a plain class: its ``repr`` is its name, also in
    hypothesis's reports)."""

    def __init__(self, name: str, path: Path, kind: str, records: tuple[Any, ...],
                 paths: tuple[tuple[int, tuple[Any, ...]], ...], calls: Counter[str]) -> None:
        self.name = name
        self.path = path
        #: ``jsonl`` (records, one per line), ``json`` (one document, pretty-printed), ``eval``, ``text``
        self.kind = kind
        self.records = records
        #: ``(record index, key path)`` of every node (breadth first, bounded per record)
        self.paths = paths
        #: the tool names of its calls, and how many of each
        self.calls = calls

    def __repr__(self) -> str:
        return f"Seed({self.name})"


def _load_seed(name: str, rel: str) -> Seed:
    path = ROOT / rel
    data = path.read_bytes()
    if path.suffix == ".eval":
        with zipfile.ZipFile(path) as z:
            records: tuple[Any, ...] = tuple(json.loads(z.read(n)) for n in z.namelist())
        kind = "eval"
    elif path.suffix == ".md":
        records, kind = (), "text"
    elif path.suffix == ".jsonl":
        records, kind = tuple(json.loads(x) for x in data.splitlines() if x.strip()), "jsonl"
    else:
        records, kind = (json.loads(data),), "json"
    per_record = 600 if kind == "json" else 80
    paths = tuple((i, p) for i, r in enumerate(records) for p in _paths(r, per_record))
    calls = Counter(x.name for t in aa.load_all(path) for x in t.all_tool_calls)
    return Seed(name, path, kind, records, paths, calls)


SEEDS: tuple[Seed, ...] = tuple(_load_seed(n, r) for n, r in SEED_FILES.items())


def _dump(value: Any, pretty: bool) -> str:
    text = json.dumps(value, ensure_ascii=False, indent=1 if pretty else None)
    # deep nesting cannot go through json.dumps: a marker string is replaced by the raw text
    return text.replace(json.dumps("__DEEP__"), _DEEP)


class Mutant:
    def __init__(self, seed: Seed, what: str, data: bytes, retyped: bool) -> None:
        self.seed = seed
        self.what = what
        self.data = data
        #: the mutation replaced a value by one of another type (not a deletion, not null)
        self.retyped = retyped

    def __repr__(self) -> str:
        return f"Mutant({self.seed.name}: {self.what})"

    def write(self, directory: Path) -> Path:
        p = directory / self.seed.path.name
        p.write_bytes(self.data)
        return p


def _encode(seed: Seed, records: list[Any]) -> bytes:
    if seed.kind == "jsonl":
        return "".join(_dump(r, False) + "\n" for r in records).encode()
    if seed.kind == "json":
        return _dump(records[0], True).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(seed.path) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, rec in zip(src.namelist(), records, strict=True):
            dst.writestr(name, _dump(rec, False))
    return out.getvalue()


@st.composite
def mutants(draw: st.DrawFn, seed: Seed) -> Mutant:
    if seed.kind == "text":  # markdown: bytes damaged (cut, deleted, duplicated, inserted, flipped)
        return Mutant(seed, "bytes damaged", draw(mutated(seed.path.read_bytes())), retyped=False)
    i, path = draw(st.sampled_from(seed.paths))
    records = copy.deepcopy(list(seed.records))
    how = draw(st.sampled_from([w for w, _ in _REPLACEMENTS] + list(_WRAPS)))
    old = _get(records[i], path)
    if how == "deleted":
        del _get(records[i], path[:-1])[path[-1]]
    elif how == "wrapped in a list":
        _set(records[i], path, [old])
    elif how == "wrapped in an object":
        _set(records[i], path, {"value": old})
    else:
        _set(records[i], path, dict(_REPLACEMENTS)[how])
    # a value of another type where one was (a deletion or a null may be a valid record, a value
    # where there was a null too; so is a message's content, or a Responses request's input, as a
    # string instead of a list in the API formats)
    retyped = how.startswith("wrapped") or (
        how not in ("deleted", "null") and old is not None and type(old) is not type(dict(_REPLACEMENTS)[how])
        and not (path[-1] in ("content", "input") and isinstance(dict(_REPLACEMENTS)[how], str)))
    where = "/".join(map(str, path))
    return Mutant(seed, f"record {i + 1} at {where}: {how}", _encode(seed, records), retyped)


def _examples(config: pytest.Config, default: int) -> int:
    n = config.getoption("--fuzz-examples") or os.environ.get("AGENTEVAL_FUZZ_EXAMPLES")
    return int(n) if n else default


def check_laws(m: Mutant, directory: Path) -> list[str]:
    """Everything ``summary`` and ``check`` do with the mutant; the laws it breaks."""
    p = m.write(directory)
    try:
        got = aa.load_all(p)
    except aa.TranscriptError as exc:
        assert str(exc).startswith(str(p)), exc
        return []
    violations: list[str] = []
    for t in got:
        _print_summary(t, io.StringIO())
        out = io.StringIO()
        _dump_json(summary_dict(t), out)
        json.loads(out.getvalue(), parse_constant=_no_constants)  # strict JSON
        results = [*health_checks(t), c.check_no_tool_errors(t),
                   c.check_budget(t, max_tool_calls=10**6, max_tokens=10**12, max_cost_usd=1e9)]
        results += [c.check_tool_not_called(t, name, include_subagents=True) for name in m.seed.calls]
        for r in results:
            r.render()
            r.to_dict()
    if m.retyped and len(got) == 1:
        t = got[0]
        lost = m.seed.calls - Counter(x.name for x in t.all_tool_calls)
        for name in lost:
            r = c.check_tool_not_called(t, name, include_subagents=True)
            if r.status is Status.PASS:
                violations.append(f"lost a call of {name!r}, yet check_tool_not_called passed")
    return violations


@pytest.mark.parametrize("seed", SEEDS, ids=lambda s: s.name)
def test_odd_values_at_every_key_path_keep_the_laws(seed: Seed, tmp_path: Path,
                                                    request: pytest.FixtureRequest) -> None:
    n = _examples(request.config, DEFAULT_EXAMPLES)

    @settings(max_examples=n, deadline=None, database=None, derandomize=n <= DEFAULT_EXAMPLES,
              suppress_health_check=list(HealthCheck))
    @given(mutants(seed))
    def run(m: Mutant) -> None:
        assert not check_laws(m, tmp_path), m

    run()


def test_the_seeds_cover_every_format() -> None:
    formats = {t.format for s in SEEDS for t in aa.load_all(s.path)}
    assert formats == set(aa.FORMATS)
    # every seed has calls to lose, but this inspect_ai log (its sample keeps only the tool
    # messages: orphan results)
    no_calls = [s.name for s in SEEDS if not s.calls]
    assert no_calls == ["inspect-log"], no_calls


def test_the_command_line_never_says_internal_error(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    n = _examples(request.config, DEFAULT_CLI_EXAMPLES)

    @settings(max_examples=n * len(SEEDS), deadline=None, database=None, derandomize=n <= DEFAULT_CLI_EXAMPLES,
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(SEEDS).flatmap(mutants))
    def run(m: Mutant) -> None:
        p = m.write(tmp_path)
        for argv in (["summary", str(p)], ["summary", "--json", str(p)], ["check", str(p)]):
            out, err = io.StringIO(), io.StringIO()
            code = main(argv, stdout=out, stderr=err)
            assert code in (0, 1, 3, 4, 5), (m, argv, code, err.getvalue())
            assert "internal error" not in err.getvalue() and "Traceback" not in err.getvalue(), (m, argv)

    run()


# -- regressions: crashes and silent passes found on odd input ------------------------------------


def _write(tmp_path: Path, name: str, doc: Any) -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return p


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _dump_sample(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((SAMPLES / name).read_text(encoding="utf-8"))
    return doc


@pytest.mark.parametrize(("sample", "path", "value", "damage"), [
    # were TypeError (exit 70): the response's list of the wrong type
    ("openai-chat/chat-request-response.json", ("response", "choices"), 5, "choices is a JSON number, not a list"),
    ("openai-chat/chat-request-response.json", ("response", "choices"), [5], "choice that is not an object"),
    ("openai-responses/responses-request-response.json", ("response", "output"), 7,
     "output is a JSON number, not a list"),
    ("openai-responses/responses-request-response.json", ("response", "output", 0), "s",
     "output item that is a JSON string"),
    # were skipped silently: calls, blocks and results of the wrong shape
    ("openai-chat/chat-request-response.json", ("request", "messages", 2, "tool_calls"), 5,
     "tool_calls is a JSON number, not a list"),
    ("openai-chat/chat-request-response.json", ("request", "messages", 2, "tool_calls", 0), [1],
     "a tool call that is a JSON array"),
    ("openai-chat/chat-request-response.json", ("request", "messages", 3, "tool_call_id"), None,
     "tool message without a tool_call_id"),
    ("anthropic-messages/messages-request-response.json", ("response", "content"), 5,
     "content is a JSON number, not a string or a list of blocks"),
    ("anthropic-messages/messages-request-response.json", ("response", "content", 0), [1],
     "a content block that is a JSON array"),
])
def test_api_dumps_with_values_of_the_wrong_type_are_damaged(tmp_path: Path, sample: str, path: tuple[Any, ...],
                                                            value: Any, damage: str) -> None:
    doc = _dump_sample(sample)
    seed = aa.load(SAMPLES / sample)
    _set(doc, path, value)
    p = _write(tmp_path, "dump.json", doc)
    t = aa.load(p)
    assert not t.health.complete and any(damage in d.reason for d in t.health.damaged), t.health.problems()
    for name in {x.name for x in seed.tool_calls}:
        assert c.check_tool_not_called(t, name).status is not Status.PASS
    for argv in (["summary", str(p)], ["summary", "--json", str(p)], ["check", str(p)]):
        code, _, err = _cli(*argv)
        assert code in (0, 1, 4) and "internal error" not in err, (argv, code, err)


def test_a_chat_completion_dump_with_choices_of_the_wrong_type_is_no_crash_when_alone(tmp_path: Path) -> None:
    # without its request, `{"choices": 5, ...}` is not a response: an input error, not exit 70
    doc = _dump_sample("openai-chat/chat-request-response.json")["response"]
    doc["choices"] = 5
    p = _write(tmp_path, "resp.json", doc)
    code, _, err = _cli("summary", str(p))
    assert code == ExitCode.INPUT and "not a transcript in any supported format" in err
    code, _, err = _cli("summary", "--format", "openai-chat", str(p))
    assert code == ExitCode.OK, err


def test_a_request_history_part_whose_type_is_not_a_string_is_read(tmp_path: Path) -> None:
    # was TypeError: unhashable type 'list' (a part's type looked up in a set)
    doc = _dump_sample("openai-responses/responses-request-response.json")
    out = doc["response"]["output"]
    msg = next(o for o in out if o.get("type") == "message")
    msg["content"][0]["type"] = ["output_text"]
    t = aa.load(_write(tmp_path, "dump.json", doc))
    assert t.format == "openai-responses"


@pytest.mark.parametrize("source", [["agent"], {"agent": 1}, 5])
def test_openhands_events_whose_source_is_not_a_string_are_not_events(tmp_path: Path, source: Any) -> None:
    # was TypeError: unhashable type (the source looked up in a set)
    events = json.loads((SAMPLES / "openhands/runtime-trajs-wrong-initial-state.json").read_text())
    seed = aa.load(SAMPLES / "openhands/runtime-trajs-wrong-initial-state.json")
    call = seed.tool_calls[0]
    # the event of the first call (its action), found by the id its observation answers
    k = next(j for j, e in enumerate(events) if e.get("tool_call_metadata", {}).get("tool_call_id") == call.id
             or str(e.get("id")) == call.id)
    events[k]["source"] = source
    t = aa.load(_write(tmp_path, "events.json", events))
    assert not t.health.complete
    assert c.check_tool_not_called(t, call.name).status is not Status.PASS


def test_openhands_event_lists_with_elements_that_are_lists(tmp_path: Path) -> None:
    p = tmp_path / "events.json"
    p.write_text('[[1,2],{"source":"agent","action":"run","args":{"command":"ls"}}]')
    t = aa.load(p)
    assert t.format == "openhands" and not t.health.complete
    assert t.health.unparsable[0].reason == "array element is a JSON list"
    assert _cli("check", str(p))[0] in (ExitCode.FAILED, ExitCode.INCONCLUSIVE)


@pytest.mark.parametrize("depth", [950, 3000])
def test_arguments_holding_json_nested_past_the_recursion_limit(tmp_path: Path, depth: int) -> None:
    # was RecursionError: OpenAI function.arguments and Codex arguments are JSON text, decoded
    text = "[" * depth + "]" * depth
    lines = (SAMPLES / "openai-chat/chat-tool-calls.jsonl").read_text().splitlines()
    rec = json.loads(lines[2])
    rec["tool_calls"][0]["function"]["arguments"] = text
    lines[2] = json.dumps(rec)
    p = tmp_path / "chat.jsonl"
    p.write_text("\n".join(lines) + "\n")
    t = aa.load(p)
    call = t.tool_calls[0]
    assert call.name == "bash"
    if depth > 1000:  # unparsable: kept as text
        assert call.arguments == {} and call.raw_arguments == text
    code, _, err = _cli("check", str(p))
    assert "internal error" not in err and code in (0, 1, 4)
    rollout = CORPUS / "codex-rollout/localpush-0.104-desktop-exec-command-sanitized.jsonl"
    out = []
    for line in rollout.read_text().splitlines():
        r = json.loads(line)
        if r.get("payload", {}).get("type") == "function_call":
            r["payload"]["arguments"] = text
        if r.get("payload", {}).get("type") == "function_call_output":
            r["payload"]["output"] = text
        out.append(json.dumps(r))
    q = tmp_path / "rollout.jsonl"
    q.write_text("\n".join(out) + "\n")
    assert [x.name for x in aa.load(q).tool_calls] == [x.name for x in aa.load(rollout).tool_calls]


@pytest.mark.parametrize("rel", ["samples/swe-agent/swe-agent-6e44b9-sweagenttestrepo.traj",
                                 "tests/corpus-more/inspect-log/inspect-0.3.58-tool-call-error-types.json",
                                 "samples/gemini-session/agentcmd-gemini-chat-session-2025-10-27.json"])
def test_a_pretty_printed_document_cut_short_names_the_line_it_broke_on(tmp_path: Path, rel: str) -> None:
    data = (ROOT / rel).read_bytes()
    cut = data[: len(data) // 3]
    p = tmp_path / Path(rel).name
    p.write_bytes(cut)
    last = cut.count(b"\n") + 1
    with pytest.raises(aa.TranscriptError) as exc:
        aa.load(p)
    assert exc.value.line == last and "the JSON document is cut short" in str(exc.value), exc.value
    code, _, err = _cli("summary", str(p))
    assert code == ExitCode.INPUT and err.startswith(f"error: {p}:{last}: the JSON document is cut short")
    # read as its format anyway: a torn document, never complete
    fmt = aa.load_all(ROOT / rel)[0].format
    t = aa.load_all(p, format=fmt)[0] if fmt != "inspect-log" else None
    if t is not None:
        assert t.health.truncated_tail and not t.health.complete


def test_a_document_broken_in_the_middle_names_that_line(tmp_path: Path) -> None:
    p = tmp_path / "doc.json"
    p.write_text('{"a": 1,\n "b": [1, 2 3],\n "c": 4}\n')
    with pytest.raises(aa.TranscriptError, match=r"doc\.json:2: not valid JSON: Expecting ',' delimiter"):
        aa.load(p)


def test_a_jsonl_file_whose_first_line_is_torn_is_still_jsonl(tmp_path: Path) -> None:
    lines = (SAMPLES / "codex-exec/agentcmd-stream-output-3-file-change.jsonl").read_bytes().splitlines(keepends=True)
    p = tmp_path / "torn-first.jsonl"
    p.write_bytes(lines[0][:10] + b"\n" + b"".join(lines[1:]))
    t = aa.load(p)
    assert t.format == "codex-exec" and [i.line for i in t.health.unparsable] == [1]


def test_an_aider_history_without_its_heading_gets_a_hint(tmp_path: Path) -> None:
    text = (SAMPLES / "aider/afi-core-aider-0.8x-chat-history.md").read_text(encoding="utf-8")
    p = tmp_path / "history.md"
    p.write_text("\n".join(x for x in text.splitlines() if not x.startswith("# aider chat started at")))
    code, _, err = _cli("summary", str(p))
    assert code == ExitCode.INPUT
    assert "looks like an Aider chat history without its '# aider chat started at …' heading" in err
    assert "--format aider" in err
    t = aa.load(p, format="aider")
    assert len(t.tool_calls) == 27 and not t.health.damaged


#: Pairs (file, forced format) where the forced parser reads the file fully: Amp writes Claude's
#: stream-json, with Amp thread ids.
_SAME_RECORDS = {("claude-stream-json", "amp"), ("amp", "claude-stream-json")}


@pytest.mark.parametrize("seed", [s for s in SEEDS if s.calls], ids=lambda s: s.name)
def test_a_forced_wrong_format_never_gives_a_clean_pass(seed: Seed) -> None:
    own = aa.load_all(seed.path)[0].format
    for fmt in aa.FORMATS:
        if fmt == own or (own, fmt) in _SAME_RECORDS:
            continue
        try:
            got = aa.load_all(seed.path, format=fmt)
        except aa.TranscriptError:
            continue
        for t in got:
            lost = seed.calls - Counter(x.name for x in t.all_tool_calls)
            assert not (lost and t.health.complete), (seed.name, fmt, t.health.problems())
            for name in lost:
                assert c.check_tool_not_called(t, name).status is not Status.PASS, (seed.name, fmt, name)


def test_forcing_the_wrong_format_through_the_command_line(tmp_path: Path) -> None:
    claude = SAMPLES / "claude-session/spotter-2.1.38-short.jsonl"
    code, out, _ = _cli("summary", "--json", "--format", "codex-exec", str(claude))
    doc = json.loads(out)
    assert code == ExitCode.OK and not doc["health"]["complete"] and doc["health"]["damaged_records"]
    code, out, _ = _cli("summary", "--json", "--format", "aider", str(claude))
    doc = json.loads(out)
    assert not doc["health"]["complete"]
    assert doc["health"]["damaged_records"][0]["reason"].startswith("not an Aider chat history")


@pytest.mark.parametrize("rel", [
    "tests/corpus-more/aider/afi-core-aider-0.8x-chat-history.md",
    "tests/corpus-more/swe-agent/swe-agent-6e44b9-sweagenttestrepo.traj",
    "tests/corpus-more/swe-agent/gpt4-test-repo-i1.traj",
    "samples/openai-chat/chat-tool-calls.jsonl",
    "samples/openai-responses/responses-items.jsonl",
])
def test_formats_without_an_error_marker_say_unknown_never_zero(rel: str) -> None:
    path = ROOT / rel
    code, out, _ = _cli("summary", "--json", str(path))
    doc = json.loads(out)
    assert code == ExitCode.OK and doc["tool_errors"] is None and doc["unrecorded_outcomes"] > 0
    assert all(m["tool_errors"] is None for m in doc.get("members", []) if m["tool_calls"])
    code, out, _ = _cli("summary", str(path))
    assert "errors not recorded" in out
    for t in aa.load_all(path):
        if t.tool_calls:  # INCONCLUSIVE, or FAIL on a failure the format does record (an exit code)
            assert c.check_no_tool_errors(t, assume_complete=True).status is not Status.PASS


def test_the_expected_figures_say_null_where_the_format_records_no_error() -> None:
    # the corpus contract: null is "not recorded" there, and summary --json agrees
    for root in (CORPUS, CORPUS_MORE):
        want = json.loads((root / "expected.json").read_text())
        for rel, figures in want.items():
            if figures.get("format") not in aa.FORMATS or "tool_errors" not in figures:
                continue
            doc = json.loads(_cli("summary", "--json", str(root / rel))[1])
            if figures["tool_errors"] is not None:
                assert doc["tool_errors"] == figures["tool_errors"], rel


def _edit(tmp_path: Path, rel: str, edit: Any) -> tuple[aa.Transcript, aa.Transcript]:
    """The file *rel* as it is, and with *edit* applied to its JSON document."""
    path = ROOT / rel
    doc = json.loads(path.read_text(encoding="utf-8"))
    edit(doc)
    return aa.load(path), aa.load(_write(tmp_path, path.name, doc))


def _first(items: list[Any], key: str) -> Any:
    return next(x for x in items if isinstance(x, dict) and x.get(key))


@pytest.mark.parametrize(("rel", "edit", "damage"), [
    ("samples/gemini-session/agentcmd-gemini-chat-session-2025-10-27.json",
     lambda d: _first(d["messages"], "toolCalls").__setitem__("toolCalls", 5), "toolCalls is a JSON int"),
    ("samples/gemini-session/agentcmd-gemini-chat-session-2025-10-27.json",
     lambda d: _first(d["messages"], "toolCalls")["toolCalls"][0].__setitem__("name", 5),
     "a tool call without a string name"),
    ("samples/swe-agent/swe-agent-6e44b9-sweagenttestrepo.traj",
     lambda d: d["trajectory"][3].__setitem__("action", 5), "action is a JSON int, not a string"),
    ("samples/swe-agent/swe-agent-6e44b9-sweagenttestrepo.traj",
     lambda d: d["trajectory"].__setitem__(0, 5), "a trajectory step that is a JSON int"),
    ("samples/swe-agent/swe-agent-6e44b9-sweagenttestrepo.traj",
     lambda d: d["trajectory"].__setitem__(0, {"value": d["trajectory"][0]}), "a trajectory step without an action key"),
    ("samples/mini-swe-agent/gemini3pro-1.15-django-16255.traj.json",
     lambda d: d["messages"].__setitem__(2, [d["messages"][2]]), "a message that is a JSON list"),
    ("samples/openhands/runtime-trajs-wrong-initial-state.json",
     lambda d: _first(d, "tool_call_metadata")["tool_call_metadata"].__setitem__("function_name", 5),
     "has no function_name string"),
    ("samples/openhands/runtime-trajs-wrong-initial-state.json",
     lambda d: _first(d, "tool_call_metadata").__setitem__("tool_call_metadata", [1]),
     "tool_call_metadata is a JSON list"),
    ("tests/corpus-more/opencode/sandbox-agent-1.1.49-session-messages.json",
     lambda d: d[3].__setitem__("parts", 5), "parts/messages is not a list"),
    ("tests/corpus-more/opencode/sandbox-agent-1.1.49-session-messages.json",
     lambda d: d[3]["parts"].__setitem__(0, [d[3]["parts"][0]]), "a message part that is a JSON list"),
    ("samples/anthropic-messages/messages-request-response.json",
     lambda d: d.__setitem__("response", 5), "a dump whose response is a JSON number"),
    ("samples/anthropic-messages/messages-request-response.json",
     lambda d: d["response"].update(stop_reason="tool_use", content="s"), "stop_reason is tool_use holds no tool_use"),
    ("samples/openai-chat/chat-request-response.json",
     lambda d: d["response"]["choices"][0].update(finish_reason="tool_calls"), "finish_reason is tool_calls holds no"),
])
def test_values_of_the_wrong_type_where_a_call_was_are_damage(tmp_path: Path, rel: str, edit: Any,
                                                              damage: str) -> None:
    # each was a clean transcript without the call (a silent PASS of check_tool_not_called)
    seed, t = _edit(tmp_path, rel, edit)
    assert seed.health.complete and not t.health.complete
    assert any(damage in d.reason for d in t.health.damaged), t.health.problems()
