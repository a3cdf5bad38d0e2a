"""Storybook workflow calls from any transcript: MCP tool calls and ``storybook`` CLI commands.

A *workflow call* is one use of a Storybook workflow tool (``test-run``, ``review-create``…),
whether the agent reached it as an MCP tool (``mcp__storybook-dev-mcp__test-run``, a Codex
``mcp_tool_call``) or through the CLI in a shell command (``npx storybook tools test run``,
``storybook ai test-run``, ``storybook skills write-story``). Shell commands are read with the
real shell parser of ``agenteval_assert.shell``: heredoc bodies are data, nested shells are
unwrapped, redirections are not arguments, and payloads read from heredocs, heredoc-written
files or files written by the agent's ``Write`` tool are resolved.

The ``profile`` parameter follows one reference generation of Storybook's agent-eval library
(spec ``storybook-agent-eval-spec.md`` §4); ``None`` accepts every generation. Known bugs of the
references are not copied; ``docs/conformance.md`` lists each difference.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import attrs

from ..model import Location, ToolCall, Transcript
from ..shell import Command, ShellRun, ShellScript, Word, _script_for, parse_shell, shell_commands
from ._names import (
    SKILLS_GET,
    Profile,
    check_profile,
    current_name,
    normalize_workflow_name,
    workflow_call_matches_name,
)
from ._prefilter import may_hold_calls as _may_hold_calls

__all__ = [
    "ShellRun",
    "WorkflowCall",
    "WorkflowResult",
    "parse_workflow_shell_commands",
    "parse_workflow_tool_results",
    "shell_command_texts",
    "shell_commands",
    "tool_result_text",
    "workflow_calls",
    "workflow_calls_json",
    "workflow_results",
]

Source = Literal["mcp", "cli"]


@attrs.define(frozen=True, slots=True)
class WorkflowResult:
    """What a workflow call returned.

    Attributes:
        output: the result text (MCP content text, or the shell command's output).
        is_error: a failed MCP call (error status / error field / ``is_error``) or a non-zero
            exit code.
        location: where the result was recorded.
    """

    output: str
    is_error: bool
    location: Location | None = None


@attrs.define(frozen=True, slots=True, eq=False)
class WorkflowCall:
    """One Storybook workflow call.

    Attributes:
        name: the workflow name in the current vocabulary (``test-run``; ``skills-get`` for
            ``storybook skills``).
        input: the tool input (MCP arguments, or the CLI flags and payload).
        source: ``"mcp"`` or ``"cli"``.
        original_name: the name as the agent used it: the MCP tool name
            (``mcp__storybook-dev-mcp__run-story-tests``) or the CLI words (``tools test run``,
            ``ai test-run``, ``skills``).
        order: position in the list of workflow calls (0-based).
        location: where the call was recorded (``None`` for bare command strings).
        tool_call: the transcript's tool call that made it.
        command: the shell command text, for CLI calls.
        result: the paired result, ``None`` when the log has none.
        complete: the call is fully known: its command parsed cleanly and every input value was
            resolved (``False``: best effort, e.g. an unterminated quote or ``$PAYLOAD``).
    """

    name: str
    input: dict[str, Any]
    source: Source
    original_name: str
    order: int = 0
    location: Location | None = None
    tool_call: ToolCall | None = None
    command: str | None = None
    result: WorkflowResult | None = None
    complete: bool = True

    @property
    def is_error(self) -> bool | None:
        """``result.is_error``, or ``None`` without a result."""
        return None if self.result is None else self.result.is_error

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the ``workflow_calls`` entries of ``summary --json``)."""
        return {
            "name": self.name,
            "source": self.source,
            "input": self.input,
            "original_name": self.original_name,
            "order": self.order,
            "location": None if self.location is None else str(self.location),
            "call_id": None if self.tool_call is None else self.tool_call.id,
            "command": self.command,
            "is_error": self.is_error,
            "complete": self.complete,
        }

    def __repr__(self) -> str:
        where = f" at {self.location}" if self.location else ""
        return f"WorkflowCall({self.name!r}, {self.source}, input={self.input!r}{where})"


# --------------------------------------------------------------------------------------------
# Values and JSON (JS semantics where the spec relies on them)
# --------------------------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


def _json(text: str) -> tuple[bool, Any]:
    """``(True, value)`` when *text* is JSON as JS ``JSON.parse`` accepts it, else ``(False, None)``."""
    if not text.strip():
        return False, None
    try:
        return True, json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return False, None


def _cli_value(text: str) -> Any:
    ok, value = _json(text)
    return value if ok else text


def _nested_input(rec: Mapping[str, Any]) -> dict[str, Any] | None:
    for key in ("arguments", "input", "args"):
        v = rec.get(key)
        if isinstance(v, dict):
            return v
    return None


def _unwrap(v: dict[str, Any]) -> dict[str, Any]:
    nested = _nested_input(v)
    if nested is not None:
        return nested
    params = v.get("params")
    if isinstance(params, dict):
        return _nested_input(params) or v
    return v


def _kebab_to_camel(key: str) -> str:
    return re.sub(r"-([a-z])", lambda m: m.group(1).upper(), key)


# --------------------------------------------------------------------------------------------
# Tokens of one storybook invocation
# --------------------------------------------------------------------------------------------


@attrs.define(frozen=True, slots=True)
class _Tok:
    value: str
    unresolved: bool  # an expansion (``$X``, ``$(…)``) that could not be resolved statically
    quoted_start: bool = False


def _token(word: Word, env: Mapping[str, str], files: Mapping[str, str]) -> _Tok:
    if not word.expands:
        return _Tok(word.value, False, word.quoted_start)
    resolved = word.resolve(env, files)
    if resolved is None:
        return _Tok(word.value, True, word.quoted_start)
    return _Tok(resolved, False, word.quoted_start)


_STORYBOOK_PATH = re.compile(r"(?:.*/)?storybook(?:@[^\s/]+)?")
_LAUNCHERS = frozenset(
    {
        "npx", "pnpx", "bunx", "yarn", "pnpm", "npm", "bun", "env", "sudo", "nohup", "command",
        "exec", "timeout", "time", "xargs", "nice", "stdbuf", "node", "corepack", "cross-env",
        "dotenv", "watch", "storybook",
    }
)  # fmt: skip


def _is_storybook(value: str, profile: Profile | None) -> bool:
    if value == "storybook":
        return True
    return profile is None and _STORYBOOK_PATH.fullmatch(value) is not None


def _in_command_position(cmd: Command, j: int) -> bool:
    """Default profile: the program is a package runner / launcher, or storybook itself."""
    if j == 0:
        return True
    prog = cmd.words[0].value.rsplit("/", 1)[-1]
    return prog in _LAUNCHERS


# --------------------------------------------------------------------------------------------
# Input parsing: Gen A/B (``storybook ai``) and ΔC (``storybook tools``)
# --------------------------------------------------------------------------------------------


def _merge_json(inp: dict[str, Any], value: Any, *, unwrap: bool = True) -> None:
    if isinstance(value, dict):
        inp.update(_unwrap(value) if unwrap else value)
    else:
        inp["json"] = value


def _parse_ai_input(toks: Sequence[_Tok], *, camel: bool, strict_b: bool) -> dict[str, Any]:
    """Gen B ``parseStorybookAiInput`` (redirections are already gone: the parser removed them).

    Differences from the reference, on purpose: ``--k=a=b`` keeps ``a=b`` (the reference drops
    the text after a second ``=``); outside profile B, a short option (``-p 6006``) and its value
    are options of the CLI, not a stray ``json`` payload.
    """
    inp: dict[str, Any] = {}
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i].value
        if t.startswith("--"):
            raw_key, eq, inline = t[2:].partition("=")
            if not raw_key:
                i += 1
                continue
            key = _kebab_to_camel(raw_key) if camel else raw_key

            def assign(v: Any, key: str = key) -> None:
                if key == "json":
                    _merge_json(inp, v)
                else:
                    inp[key] = v

            if eq:
                assign(_cli_value(inline))
                i += 1
            elif i + 1 < n and not toks[i + 1].value.startswith("-"):
                assign(_cli_value(toks[i + 1].value))
                i += 2
            else:
                assign(True)
                i += 1
            continue
        if not strict_b and t.startswith("-") and len(t) > 1 and not toks[i].quoted_start:
            i += 2 if i + 1 < n and not toks[i + 1].value.startswith("-") else 1
            continue
        _merge_json(inp, _cli_value(t))
        i += 1
    return inp


class _Rejected(Exception):
    """The CLI would print help (``help=True``) or reject the arguments."""

    def __init__(self, reason: str, *, help: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.help = help


def _parse_tool_arguments(
    args: Sequence[_Tok], commander_input: _Tok | None
) -> dict[str, Any]:
    """ΔC ``parseToolArguments`` (a copy of core's ``parseToolsTokens`` rules); raises ``_Rejected``."""
    flags: dict[str, Any] = {}
    raw: _Tok | None = None
    attach = no_attach = False
    i, n = 0, len(args)
    while i < n:
        t = args[i].value
        if t in ("--help", "-h"):
            raise _Rejected("--help", help=True)
        if t == "--json":
            i += 1
            continue
        if t in ("--attach", "--no-attach"):
            attach = attach or t == "--attach"
            no_attach = no_attach or t == "--no-attach"
            i += 1
            continue
        if t == "-o":
            if i + 1 >= n or args[i + 1].value.startswith("-"):
                raise _Rejected("-o needs a path")
            i += 2
            continue
        if not t.startswith("--") or t == "--":
            raise _Rejected(f"unexpected argument {t!r}")
        key, eq, inline = t[2:].partition("=")
        value: _Tok | None
        if eq:
            value = _Tok(inline, args[i].unresolved)
            i += 1
        elif i + 1 < n and not args[i + 1].value.startswith("--"):
            value = args[i + 1]
            i += 2
        else:
            value = None
            i += 1
        if not key or key in ("help", "json", "attach", "no-attach"):
            raise _Rejected(f"invalid option {t!r}")
        if key == "output":
            if value is None or not value.value:
                raise _Rejected("--output needs a value")
            continue
        if key == "input":
            if value is None:
                raise _Rejected("--input needs a value")
            raw = value
            continue
        flags[key] = True if value is None else _cli_value(value.value)
    if attach and no_attach:
        raise _Rejected("--attach and --no-attach together")
    if raw is None:
        raw = commander_input
    if raw is None:
        return flags
    ok, doc = _json(raw.value)
    if not ok:
        if raw.unresolved:
            return {"input": raw.value, **flags}
        raise _Rejected("--input is not JSON")
    if not isinstance(doc, dict):
        raise _Rejected("--input is not a JSON object")
    return {**doc, **flags}


def _payload_form_arguments(
    args: Sequence[_Tok], commander_input: _Tok | None
) -> dict[str, Any]:
    """Default profile, when the strict ΔC rules reject: accept Gen B's payload convention.

    ``--json PAYLOAD`` and a positional ``PAYLOAD`` that is a JSON object are Gen B's way to pass
    the tool input (the fixture ``reviewCreateWithHeredocAfterJsonFlag``). They are taken out and
    merged; what remains must pass the strict rules (else ``_Rejected`` propagates).
    """
    payload: dict[str, Any] = {}
    rest: list[_Tok] = []
    i, n = 0, len(args)
    while i < n:
        t = args[i].value
        nxt = args[i + 1].value if i + 1 < n else None
        if t == "--json" and nxt is not None:
            ok, doc = _json(nxt)
            if ok and isinstance(doc, dict):
                payload.update(doc)
                i += 2
                continue
        if not t.startswith("-"):
            ok, doc = _json(t)
            if ok and isinstance(doc, dict):
                payload.update(doc)
                i += 1
                continue
        rest.append(args[i])
        i += 1
    if not payload:
        raise _Rejected("no Gen B payload")
    return {**payload, **_parse_tool_arguments(rest, commander_input)}


# --------------------------------------------------------------------------------------------
# Recognising storybook invocations in one parsed command
# --------------------------------------------------------------------------------------------


@attrs.define(slots=True)
class _Found:
    name: str
    input: dict[str, Any]
    original: str
    complete: bool


def _find_pair(seg: Sequence[_Tok]) -> tuple[int, str] | None:
    for j in range(len(seg) - 1):
        name = normalize_workflow_name(f"{seg[j].value}-{seg[j + 1].value}", profile="C")
        if name is not None:
            return j, name
    return None


def _skills(seg: Sequence[_Tok], profile: Profile | None) -> _Found | None:
    if not seg:
        return None
    first, rest = seg[0].value, [t.value for t in seg[1:]]
    if first == "--all" and not rest:
        return _Found(SKILLS_GET, {"all": True}, "skills", True)
    if profile is None and first == "get" and len(rest) == 1 and not rest[0].startswith("-"):
        return _Found(SKILLS_GET, {"id": rest[0]}, "skills get", not seg[1].unresolved)
    if first and not first.startswith("-") and not any(r in ("--all", "--help", "-h") for r in rest):
        return _Found(SKILLS_GET, {"id": first}, "skills", not seg[0].unresolved)
    return None


def _ai(seg: Sequence[_Tok], profile: Profile | None) -> _Found | None:
    values = [t.value for t in seg]
    if "--help" in values or "-h" in values or (values and values[0] == "help"):
        return None
    for j, t in enumerate(seg):
        name = normalize_workflow_name(t.value, profile=profile)
        if name is not None:
            toks = [*seg[:j], *seg[j + 1 :]]
            inp = _parse_ai_input(toks, camel=True, strict_b=profile in ("A", "B"))
            return _Found(name, inp, f"ai {t.value}", not any(x.unresolved for x in toks))
    return None


def _tools(seg: Sequence[_Tok], profile: Profile | None) -> _Found | None:
    values = [t.value for t in seg]
    pair = _find_pair(seg)
    if profile == "B":
        if "--help" in values or "-h" in values or (values and values[0] == "help"):
            return None
        if pair is None:
            return None
        j, name = pair
        toks = [*seg[:j], *seg[j + 2 :]]
        inp = _parse_ai_input(toks, camel=True, strict_b=True)
        return _Found(name, inp, f"tools {values[j]} {values[j + 1]}", _all_resolved(toks))
    if pair is None or (values and values[0] == "help"):
        return None
    j, name = pair
    commander = seg[:j]
    cvalues = values[:j]
    if "--help" in cvalues or "-h" in cvalues:
        return None
    commander_input: _Tok | None = None
    for k, t in enumerate(commander):
        if t.value == "--input" and k + 1 < len(commander):
            commander_input = commander[k + 1]
        elif t.value.startswith("--input="):
            commander_input = _Tok(t.value[len("--input=") :], t.unresolved)
    args = seg[j + 2 :]
    original = f"tools {values[j]} {values[j + 1]}"
    try:
        inp = _parse_tool_arguments(args, commander_input)
    except _Rejected as exc:
        if exc.help or profile == "C":
            return None
        try:
            inp = _payload_form_arguments(args, commander_input)
        except _Rejected:
            return None
    return _Found(name, inp, original, _all_resolved([*args, *commander]))


def _all_resolved(toks: Iterable[_Tok]) -> bool:
    return not any(t.unresolved for t in toks)


def _calls_in_command(
    cmd: Command, profile: Profile | None, env: Mapping[str, str], files: Mapping[str, str]
) -> list[_Found]:
    words = cmd.words
    found: list[_Found] = []
    local_env = {**env, **{a.name: v for a in cmd.assignments if (v := a.value.resolve(env, files)) is not None}}
    i, n = 0, len(words)
    while i < n - 1:
        if not _is_storybook(words[i].value, profile) or (
            profile is None and not _in_command_position(cmd, i)
        ):
            i += 1
            continue
        cli = words[i + 1].value
        allowed = {
            "A": ("ai",),
            "B": ("ai", "tools", "skills"),
            "C": ("tools", "skills"),
            None: ("ai", "tools", "skills"),
        }[profile]
        if cli not in allowed:
            i += 1
            continue
        rest = words[i + 2 :]
        end = len(rest)
        for k in range(len(rest) - 1):
            if _is_storybook(rest[k].value, profile) and rest[k + 1].value == cli:
                end = k
                break
        seg = [_token(w, local_env, files) for w in rest[:end]]
        if cli == "skills":
            hit = _skills(seg, profile)
        elif cli == "ai":
            hit = _ai(seg, profile)
        else:
            hit = _tools(seg, profile)
        if hit is not None:
            found.append(hit)
            i += 2 + end
        else:
            i += 1
    return found


def _apply_effects(cmd: Command, env: dict[str, str], files: dict[str, str]) -> None:
    """What a command leaves for the next ones: variables (``X=…``, ``export X=…``), files."""
    if not cmd.words:
        for a in cmd.assignments:
            v = a.value.resolve(env, files)
            if v is None:
                env.pop(a.name, None)
            else:
                env[a.name] = (env.get(a.name, "") + v) if a.append else v
    elif cmd.name in ("export", "declare", "local", "readonly", "typeset"):
        for w in cmd.words[1:]:
            name, eq, _ = w.value.partition("=")
            if eq and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                v = w.resolve(env, files)
                if v is not None:
                    env[name] = v.partition("=")[2]
    if cmd.heredocs:
        files.update(
            ShellScript(cmd.text, (cmd,)).files_written(files)
        )


def _calls_in_script(
    script: ShellScript, profile: Profile | None, files: dict[str, str]
) -> list[_Found]:
    env: dict[str, str] = {}
    out: list[_Found] = []
    for cmd in script.walk(substitutions=True):
        for hit in _calls_in_command(cmd, profile, env, files):
            if not script.complete:
                hit.complete = False
            out.append(hit)
        _apply_effects(cmd, env, files)
    return out


def parse_workflow_shell_commands(
    commands: Sequence[str], *, profile: Profile | None = None
) -> list[WorkflowCall]:
    """The workflow calls in a list of shell command strings (spec
    ``parseStorybookWorkflowShellCommands``), in order, each with ``source == "cli"``.

    Files written by a heredoc in one command are known to the later ones.
    """
    check_profile(profile)
    files: dict[str, str] = {}
    out: list[WorkflowCall] = []
    for text in commands:
        if not isinstance(text, str):
            continue
        for hit in _calls_in_script(parse_shell(text), profile, files):
            out.append(
                WorkflowCall(
                    hit.name, hit.input, "cli", hit.original, len(out), None, None, text, None,
                    hit.complete,
                )
            )
    return out


# --------------------------------------------------------------------------------------------
# Transcripts
# --------------------------------------------------------------------------------------------


def _result_of(call: ToolCall) -> WorkflowResult | None:
    if call.result is None:
        return None
    return WorkflowResult(call.result.text, call.is_error, call.result.location)


def _written_file(call: ToolCall) -> tuple[str, str] | None:
    if call.kind != "file_write":
        return None
    path = call.arguments.get("file_path", call.arguments.get("path"))
    content = call.arguments.get("content")
    if isinstance(path, str) and isinstance(content, str):
        return path, content
    return None


def _mcp_name(call: ToolCall, profile: Profile | None) -> tuple[str, str] | None:
    for candidate in (call.tool, call.name):
        if isinstance(candidate, str) and candidate:
            name = normalize_workflow_name(candidate, profile=profile)
            if name is not None:
                return name, call.name if call.name.endswith(candidate) else candidate
    return None


def workflow_calls(transcript: Transcript, *, profile: Profile | None = None) -> list[WorkflowCall]:
    """Every Storybook workflow call of *transcript*, in order, with its paired result.

    MCP calls: every non-shell call whose tool (or name) normalises (Claude
    ``mcp__storybook-dev-mcp__test-run``, Codex ``mcp_tool_call`` items, rollout ``mcp__…``).
    CLI calls: every shell call's command, parsed; one shell call may hold several workflow
    calls, each paired with that call's result. Calls made by subagents are included. Files the
    agent wrote (``Write`` tool, heredocs) are known to later commands, so
    ``--input "$(cat /tmp/review.json)"`` is resolved.
    """
    check_profile(profile)
    # computed once per transcript and profile, and kept with the transcript (not process-wide)
    cached = transcript.derived(
        f"storybook.workflow_calls:{profile}", lambda t: tuple(_compute_calls(t, profile))
    )
    return list(cached)


def _compute_calls(transcript: Transcript, profile: Profile | None) -> list[WorkflowCall]:
    files: dict[str, str] = {}
    out: list[WorkflowCall] = []
    may_hold: dict[str, bool] = {}  # per distinct command text
    for call in transcript.all_tool_calls:
        written = _written_file(call)
        if written is not None:
            files[written[0]] = written[1]
            continue
        if call.kind == "shell":
            text = call.command
            if text is None:
                continue
            maybe = may_hold.get(text)
            if maybe is None:
                maybe = may_hold[text] = _may_hold_calls(text)
            if not maybe:
                continue
            hits = _calls_in_script(_script_for(transcript, text), profile, files)  # parsed once per text
            result = _result_of(call)
            for hit in hits:
                out.append(
                    WorkflowCall(
                        hit.name, hit.input, "cli", hit.original, len(out), call.location, call,
                        text, result, hit.complete,
                    )
                )
            continue
        named = _mcp_name(call, profile)
        if named is None:
            continue
        if profile is not None and call.result is None and transcript.format.startswith("codex"):
            continue  # the references count only ``item.completed`` Codex items
        args = call.arguments
        inp = dict(args) if isinstance(args, Mapping) else {}
        out.append(
            WorkflowCall(
                named[0], inp, "mcp", named[1], len(out), call.location, call, None,
                _result_of(call), call.raw_arguments is None,  # undecodable arguments: not known
            )
        )
    return out


def _render_test_run(output: str) -> str:
    from ._report import render_test_run_json_output

    rendered = render_test_run_json_output(output)
    return output if rendered is None else str(rendered)


def workflow_results(
    transcript: Transcript, name: str, *, profile: Profile | None = None
) -> list[WorkflowResult]:
    """The results of the calls to workflow *name*, in the order they arrive (spec §5.5).

    One result per tool call (a shell command running ``test-run`` twice gives one result).
    MCP calls match on the exact normalised name; shell calls also through the ``skills-get``
    alias. *name* may be in either vocabulary. For ``test-run`` under profile C and the default,
    a ``--json`` document in the output is rendered as the markdown report (spec §6.3).
    """
    check_profile(profile)
    wanted = current_name(name)
    seen: set[int] = set()
    picked: list[tuple[int, int, WorkflowResult]] = []
    for wc in workflow_calls(transcript, profile=profile):
        tc = wc.tool_call
        if tc is None or tc.result is None or id(tc) in seen or wc.result is None:
            continue
        if wc.source == "mcp":
            ok = wc.name == wanted
        else:
            ok = workflow_call_matches_name(wc, wanted, profile=profile)
        if not ok:
            continue
        seen.add(id(tc))
        line = wc.result.location.line if wc.result.location is not None else tc.location.line
        picked.append((line, tc.index, wc.result))
    picked.sort(key=lambda x: (x[0], x[1]))
    results = [r for _, _, r in picked]
    if wanted == "test-run" and profile in (None, "C"):
        results = [attrs.evolve(r, output=_render_test_run(r.output)) for r in results]
    return results


def tool_result_text(content: Any) -> str:
    """Spec ``text()``: a string as is; a list → the string ``text`` of its record elements
    joined by ``\\n``; a record → ``text(content.content)``; anything else → ``""``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)
        )
    if isinstance(content, dict):
        return tool_result_text(content.get("content"))
    return ""


def _codex_mcp_result(result: Any) -> tuple[str, bool]:
    """Text and error flag of a Codex ``mcp_tool_call`` result: a ``CallToolResult``, or one
    wrapped as ``{"Ok": …}`` / ``{"Err": …}`` (Codex versions write either). The reference's
    ``text()`` reads the plain form only; unwrapping keeps this path in step with the transcript
    model, which reads both."""
    if isinstance(result, dict):
        if "Err" in result:
            err = result["Err"]
            return (err if isinstance(err, str) else tool_result_text(err) or json.dumps(err)), True
        if "Ok" in result:
            result = result["Ok"]
        if isinstance(result, dict):
            return tool_result_text(result), result.get("isError") is True or result.get("is_error") is True
    return tool_result_text(result), False


def parse_workflow_tool_results(
    raw_text: str, name: str, *, profile: Profile | None = None, path: str = "<memory>"
) -> list[WorkflowResult]:
    """Spec ``parseWorkflowToolResults`` over the raw transcript text (JSONL lines).

    Both collectors run on every line: Claude ``tool_use``/``tool_result`` pairs (any record
    with a ``message.content`` list) and Codex ``item.completed`` items (``mcp_tool_call``,
    ``command_execution``). Results come in the order they arrive.
    """
    check_profile(profile)
    wanted = current_name(name)
    pending: set[str] = set()
    out: list[WorkflowResult] = []

    def shell_matches(command: str) -> bool:
        return any(
            workflow_call_matches_name(c, wanted, profile=profile)
            for c in parse_workflow_shell_commands([command], profile=profile)
        )

    for lineno, line in enumerate(raw_text.split("\n"), start=1):
        ok, event = _json(line)
        if not ok or not isinstance(event, dict):
            continue
        loc = Location(path, lineno)
        message = event.get("message")
        if isinstance(message, dict) and isinstance(message.get("content"), list):
            for block in message["content"]:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                    bname = block.get("name")
                    if not isinstance(bname, str):
                        continue
                    hit = normalize_workflow_name(bname, profile=profile) == wanted
                    if not hit:
                        binput = block.get("input")
                        cmd = binput.get("command") if isinstance(binput, dict) else None
                        hit = isinstance(cmd, str) and shell_matches(cmd)
                    if hit:
                        pending.add(block["id"])
                elif block.get("type") == "tool_result":
                    tid = block.get("tool_use_id")
                    if isinstance(tid, str) and tid in pending:
                        pending.discard(tid)
                        out.append(
                            WorkflowResult(
                                tool_result_text(block.get("content")),
                                block.get("is_error") is True,
                                loc,
                            )
                        )
        item = event.get("item")
        if event.get("type") == "item.completed" and isinstance(item, dict):
            itype = item.get("type")
            if itype == "mcp_tool_call" and isinstance(item.get("tool"), str):
                if normalize_workflow_name(item["tool"], profile=profile) == wanted:
                    text, failed = _codex_mcp_result(item.get("result"))
                    is_err = item.get("status") != "completed" or item.get("error") is not None or failed
                    out.append(WorkflowResult(text, is_err, loc))
            elif (
                itype == "command_execution"
                and isinstance(item.get("command"), str)
                and shell_matches(item["command"])
            ):
                agg = item.get("aggregated_output")
                code = item.get("exit_code")
                is_err = isinstance(code, (int, float)) and not isinstance(code, bool) and code != 0
                out.append(WorkflowResult(agg if isinstance(agg, str) else "", is_err, loc))
    if wanted == "test-run" and profile in (None, "C"):
        out = [attrs.evolve(r, output=_render_test_run(r.output)) for r in out]
    return out


def workflow_calls_json(
    transcript: Transcript, *, profile: Profile | None = None
) -> list[dict[str, Any]]:
    """``workflow_calls`` as JSON-ready dicts: ``name``, ``source``, ``input``, ``original_name``,
    ``order``, ``location`` (``path:line``), ``call_id``, ``command``, ``is_error``, ``complete``."""
    return [c.to_json() for c in workflow_calls(transcript, profile=profile)]


def shell_command_texts(transcript: Transcript) -> list[str]:
    """The command text of every shell call, in order (spec ``getShellCommands``)."""
    return [r.text for r in shell_commands(transcript)]

