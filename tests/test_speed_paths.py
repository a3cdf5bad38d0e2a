"""The shortcuts taken for speed decide exactly what the long way decides: a text refused as
not JSON is one ``json.loads`` refuses; a shell text skipped by the Storybook workflow-call
search holds no workflow call; a command-line process that keeps its transcript until exit
prints what ``main()`` prints."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert._parsers._common import decode_arguments, not_json
from agenteval_assert.model import Transcript
from agenteval_assert.storybook._prefilter import may_hold_workflow_calls
from agenteval_assert.storybook._workflow import (
    _may_hold_calls,
    parse_workflow_shell_commands,
    workflow_calls,
)

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"

_JSONISH = st.text(alphabet=' \t\n\r[]{}",:0123456789-.eEtrufalsnNIyixX\\', max_size=12)


@settings(max_examples=2000)
@given(st.one_of(_JSONISH, st.text(max_size=8), st.sampled_from(["[REDACTED_ARGUMENTS len=114 sh]", "[1/3] ok",
                                                                   "{ok}", "[ NaN]", "[-Infinity]", "{ }", "[ ]"])))
def test_not_json_only_refuses_what_json_loads_refuses(text: str) -> None:
    if not_json(text):
        with pytest.raises(ValueError):
            json.loads(text)


@given(_JSONISH)
def test_decode_arguments_keeps_its_verdict(text: str) -> None:
    try:
        decoded = json.loads(text)
    except (ValueError, RecursionError):
        assert decode_arguments(text) == ({}, text)
    else:
        assert decode_arguments(text) == ((decoded, None) if isinstance(decoded, dict) else ({"value": decoded}, text))


_SHELLISH = st.text(alphabet="storybk aiTOLS-'\"\\$\n<>;|&()`=x/@", max_size=30)


@settings(max_examples=1500)
@given(st.one_of(_SHELLISH, st.sampled_from([
    "npx storybook ai test-run", "npx st'or'ybook ai test-run", 'npx "story"book tools test-run --json',
    "npx stor\\ybook ai x", "npx $'\\x73torybook' ai x", "bash -c 'npx storybook ai x'",
    "npx storybook@latest tools docs-list", "X=1 storybook ai test-run", "ls -la", "echo storybook",
])))
def test_a_skipped_shell_text_holds_no_workflow_call(text: str) -> None:
    if not _may_hold_calls(text):
        assert parse_workflow_shell_commands([text]) == []


def _cli(*args: str, module: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT)}
    code = ("import sys; from agenteval_assert._cli import process_main; sys.exit(process_main())" if module
            else "import sys; from agenteval_assert._cli import main; sys.exit(main())")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120, check=False)


@pytest.mark.parametrize("args", [
    ("summary", "claude-session-log/spotter-2.1.38-short.jsonl", "--json"),
    ("check", "claude-session-log/spotter-2.1.38-short.jsonl"),
    ("check", "codex-exec-json/agentcmd-stream-output-2.jsonl"),
])
def test_process_main_prints_what_main_prints(args: tuple[str, ...]) -> None:
    """The process entry (collector off, transcript kept until exit) changes nothing printed."""
    argv = [args[0], str(CORPUS / args[1]), *args[2:]]
    fast, plain = _cli(*argv, module=True), _cli(*argv, module=False)
    assert (fast.returncode, fast.stdout, fast.stderr) == (plain.returncode, plain.stdout, plain.stderr)
    assert fast.stdout


def test_only_the_process_entry_keeps_a_transcript() -> None:
    """``main()`` called by a test or an application keeps nothing alive, and the collector as it was."""
    import gc
    import io

    from agenteval_assert import _parsers
    from agenteval_assert._cli import main

    enabled = gc.isenabled()
    assert main(["summary", str(CORPUS / "claude-session-log/spotter-2.1.38-short.jsonl"), "--json"],
                stdout=io.StringIO()) == 0
    assert _parsers._kept is None
    assert gc.isenabled() == enabled


_SECRETISH = st.text(alphabet="skantgh_pousrithbAKIASxoxzaflmpe-=:'\" \nBEGINPRVTKYbearTOKENsecretpaswd0123456789ABCDEFGHIJ\u212a\u017f",
                     max_size=60)


@settings(max_examples=1500)
@given(st.one_of(_SECRETISH, st.text(max_size=40), st.sampled_from([
    "export OPENAI_API_KEY=abcdefgh12345678", "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345",
    "sk-ant-abcdefghijkl", "AKIAABCDEFGHIJKLMNOP", '{"client_secret": "abcdefgh1234"}', "password: hunter2hunter2",
    "-----BEGIN RSA PRIVATE KEY-----\nabc", "to\u212aen=abcdefghij", "ghp_" + "a" * 36, "toolu_01ABCdefGHIjkl",
])))
def test_redaction_prefilter_never_hides_a_secret(text: str) -> None:
    """A text that the one-pattern screen passes over is one that no rule changes."""
    from agenteval_assert._redact import _apply_rules, redact_count

    assert redact_count(text, enabled=True) == _apply_rules(text)


def test_after_the_process_entry_later_parses_keep_nothing() -> None:
    """An in-process caller of ``process_main`` (a test, an embedding tool): the first transcript
    stays pinned (frozen, by design), later ones are freed as usual."""
    code = f"""
import sys, gc, io
sys.argv = ["agenteval-assert", "summary", {str(CORPUS / "claude-session-log/spotter-2.1.38-short.jsonl")!r}, "--json"]
sys.stdout = io.StringIO()
from agenteval_assert._cli import process_main
from agenteval_assert import _parsers
assert process_main() == 0
assert _parsers._kept is None and gc.isenabled()
import agenteval_assert as aa
aa.load(sys.argv[2])
assert _parsers._kept is None
sys.stdout = sys.__stdout__
print("ok")
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120, check=False)
    assert proc.stdout.strip() == "ok", proc.stderr



_CORPUS_LOGS = sorted(p for d in ("claude-session-log", "claude-stream-json", "codex-exec-json", "codex-rollout")
                      for p in (ROOT / "tests" / "corpus" / d).iterdir() if p.suffix in (".jsonl", ".json"))
_GOLDEN_RUN = ROOT / "tests" / "corpus" / "storybook" / "lib" / "agentic-reference" / "__fixtures__" / "golden-run"


def _skips_only_what_holds_no_call(t: Transcript) -> bool:
    """``summary`` skips the workflow parser when the transcript-level prefilter says no: it must
    never say no where the parser finds a call (any profile). Returns the prefilter's answer."""
    maybe = may_hold_workflow_calls(t)
    if not maybe:
        for profile in (None, "A", "B", "C"):
            assert workflow_calls(t, profile=profile) == []
    return maybe


@pytest.mark.parametrize("path", [*_CORPUS_LOGS, _GOLDEN_RUN / "transcript.json"],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_transcript_the_prefilter_skips_holds_no_workflow_call(path: Path) -> None:
    maybe = _skips_only_what_holds_no_call(aa.load(path))
    if path.parent == _GOLDEN_RUN:  # the real run that holds workflow calls is not skipped
        assert maybe and workflow_calls(aa.load(path))


_NAMES = st.sampled_from(["mcp__storybook-dev-mcp__test-run", "mcp__x__run-story-tests", "mcp__x__docs-show-story",
                          "test-run", "Read", "mcp__Browser__navigate", "Write"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_SHELLISH.map(lambda c: ("Bash", {"command": c})),
                          _NAMES.map(lambda n: (n, {})),
                          st.tuples(st.just("Write"), st.fixed_dictionaries(
                              {"file_path": st.sampled_from(["/tmp/i.json", "x"]), "content": _SHELLISH}))),
                min_size=1, max_size=6))
def test_a_generated_session_the_prefilter_skips_holds_no_workflow_call(calls: list[tuple[str, dict[str, str]]]) -> None:
    lines = [json.dumps({"type": "assistant", "sessionId": "s", "uuid": f"u{i}", "parentUuid": None,
                         "isSidechain": False, "message": {"id": f"m{i}", "role": "assistant", "content": [
                             {"type": "tool_use", "id": f"t{i}", "name": name, "input": inp}]}})
             for i, (name, inp) in enumerate(calls)]
    _skips_only_what_holds_no_call(aa.parse("\n".join(lines) + "\n"))


_COMMAND_VALUES = st.one_of(
    _SHELLISH, st.none(), st.integers(), st.booleans(), st.floats(allow_nan=False),
    st.lists(_SHELLISH, max_size=3),
    st.lists(st.one_of(_SHELLISH, st.integers(), st.dictionaries(st.just("k"), st.integers())), max_size=3),
    st.dictionaries(st.just("k"), _SHELLISH, max_size=1),
    st.sampled_from([["bash", "-lc", "npx storybook ai test-run"], ["npx", "storybook", "ai", "x"],
                     ["bash", "-lc", "ls"], ["sh", "-c", "cat <<EOF\nx\nEOF"], ["echo", "a$"], ["echo", "'"]]),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(
    st.tuples(st.sampled_from(["command", "cmd"]), _COMMAND_VALUES),
    st.tuples(st.just("both"), st.tuples(_COMMAND_VALUES, _COMMAND_VALUES)),
    st.tuples(st.just("name"), _NAMES),
), min_size=1, max_size=8))
def test_the_transcript_prefilter_decides_as_the_long_way(calls: list[tuple[str, Any]]) -> None:
    """Argument lists and texts already seen are skipped before ``ToolCall.command`` makes the
    text: the answer is the one ``ToolCall.command`` per call gives, whatever the arguments hold
    (texts, argument lists, words that are not text or not hashable, ``command`` beside ``cmd``,
    nothing)."""
    from agenteval_assert.model import Health, Location, ToolCall

    made = []
    for i, (key, value) in enumerate(calls):
        if key == "name":
            made.append(ToolCall(id=f"c{i}", name=value, kind="mcp", arguments={}, location=Location("x", i + 1),
                                 index=i, step=i))
            continue
        args = {"command": value[0], "cmd": value[1]} if key == "both" else {key: value}
        made.append(ToolCall(id=f"c{i}", name="exec", kind="shell", arguments=args, location=Location("x", i + 1),
                             index=i, step=i))
        made.append(ToolCall(id=f"d{i}", name="exec", kind="shell", arguments=dict(args),  # a repeat
                             location=Location("x", i + 1), index=i, step=i))
    t = Transcript(path="x", format="codex-exec", agent="codex", steps=tuple(made), tool_calls=tuple(made),
                   health=Health(lines=len(made), records=len(made)))
    assert may_hold_workflow_calls(t) == may_hold_workflow_calls(t, _long=True)
