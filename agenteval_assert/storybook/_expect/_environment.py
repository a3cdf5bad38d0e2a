"""§5.6 skills, launch config, preview browser and dev server (including the Codex browser
navigations and the local-URL rules).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, cast

import attrs
import regex

from ...model import Location, ToolCall, Transcript
from ...results import CheckResult, Evidence
from .._context import _MISSING, EvalContext, ShellCommand, json_parse
from .._url import parse_url
from ._common import _absent, _fail, _needs_transcript, _never, _pass
from ._js import _compile_user, _search, json_stringify, trunc

__all__ = [
    "expect_dev_server_left_running",
    "expect_preview_browser_started",
    "expect_preview_opened_in_browser",
    "expect_review_opened_in_browser",
    "expect_skill_invoked",
    "expect_valid_storybook_launch_config",
    "find_dev_server_kill_commands",
    "is_local_dev_server_url",
    "is_local_storybook_preview_url",
    "parse_codex_browser_navigations",
]


def expect_skill_invoked(ctx: EvalContext, skill: str) -> CheckResult:
    """Claude: a ``Skill`` call with ``skill``; other agents: a shell command reading ``skills/<id>``."""
    name = "expect_skill_invoked"
    if ctx.is_claude:
        _needs_transcript(ctx, name, "the Skill tool calls")
        skill_calls = [c for c in ctx.tool_calls if c.name == "Skill"]
        hits = [c for c in skill_calls if c.arguments.get("skill") == skill]
        if not hits:
            ev = [Evidence.from_call(c) for c in skill_calls] or [Evidence(text="no Skill tool call")]
            raise _absent(ctx, name, f"Expected the {skill} skill to be invoked via the Skill tool", ev)
        return _pass(name, f"Skill {skill} invoked", [Evidence.from_call(c) for c in hits])
    short = skill.removeprefix("storybook-")
    pat = _compile_user(regex.compile("skills/" + short + r"\b", regex.ASCII))
    hits_sc = [sc for sc in ctx.shell_commands if _search(pat, sc.command)]
    if not hits_sc:
        raise _fail(name, f"Expected the {skill} skill (skills/{short}) to be read via a shell command",
                    _shell_evidence(ctx.shell_commands))
    return _pass(name, f"skill {skill} read", _shell_evidence(hits_sc))


def _shell_evidence(cmds: Iterable[ShellCommand], note: str = "") -> list[Evidence]:
    out = [Evidence(text=f"$ {trunc(c.command, 200)}" + (f"  {note}" if note else ""), location=c.location)
           for c in cmds]
    return out or [Evidence(text="no shell commands recorded")]


def _out_of_context(ctx: EvalContext, name: str, message: str) -> CheckResult:
    if ctx.profile.out_of_context == "return":
        return _pass(name, f"not applicable: {ctx.describe()} (returned silently, as @05df4580 does)",
                     vacuous=True, notes=("profile out_of_context='return'",))
    raise _fail(name, message, [Evidence(text=ctx.describe())])


def _read_json_or_missing(path: Path) -> Any:
    from ..._reader import read_input_file
    from ...exceptions import TranscriptError

    try:
        return json_parse(read_input_file(str(path), "JSON").decode("utf-8-sig"))
    except (TranscriptError, ValueError, RecursionError):  # missing, not a file, not UTF-8 JSON, NaN
        return _MISSING


def expect_valid_storybook_launch_config(ctx: EvalContext) -> CheckResult:
    """claude-code + plugin: ``.claude/launch.json`` runs the storybook script on 6006 with autoPort."""
    name = "expect_valid_storybook_launch_config"
    if not (ctx.is_claude and ctx.integration == "plugin"):
        return _out_of_context(
            ctx, name,
            f"expectValidStorybookLaunchConfig is only for claude-code + plugin (got agent={ctx.agent}, "
            f"integration={ctx.integration}). Gate callers with test.skipIf(agent !== 'claude-code' "
            f"|| integration !== 'plugin')",
        )
    path = ctx.path(".claude/launch.json")
    ev = [Evidence(text=".claude/launch.json", location=Location(str(path), 1))]
    if not path.exists():
        raise _fail(name, "Expected .claude/launch.json to be written", ev)
    data = _read_json_or_missing(path)
    if not isinstance(data, dict):
        raise _fail(name, f".claude/launch.json must be an object. Received: {json_stringify(data)}", ev)
    configs = data.get("configurations", _MISSING)
    if not (isinstance(configs, list) and configs):
        raise _fail(name, f".claude/launch.json configurations must be a non-empty array. "
                    f"Received: {json_stringify(configs)}", ev)
    entry = next((c for c in configs if isinstance(c, dict) and isinstance(c.get("runtimeArgs"), list)
                  and "storybook" in c["runtimeArgs"]), None)
    if entry is None:
        raise _fail(name, ".claude/launch.json configuration running the storybook script must be an object. "
                    "Received: undefined", ev)
    port = entry.get("port")
    if isinstance(port, bool) or not isinstance(port, (int, float)) or port != 6006:
        raise _fail(name, "Storybook launch entry must use port 6006", ev, found=json_stringify(entry.get("port", _MISSING)))
    if entry.get("autoPort") is not True:
        raise _fail(name, "Storybook launch entry must set autoPort: true", ev,
                    found=json_stringify(entry.get("autoPort", _MISSING)))
    pkg = _read_json_or_missing(ctx.path("package.json"))
    scripts = pkg.get("scripts") if isinstance(pkg, dict) else None
    if not (isinstance(scripts, dict) and isinstance(scripts.get("storybook"), str)):
        raise _fail(name, "Launch entry references the storybook script, so package.json must define it",
                    [*ev, Evidence(text="package.json", location=Location(str(ctx.path("package.json")), 1))])
    return _pass(name, "launch.json runs the storybook script on port 6006 with autoPort", ev)


def expect_preview_browser_started(ctx: EvalContext) -> CheckResult:
    """plugin: Claude opened ``preview_start``; Codex navigated to a local preview and left the server up."""
    name = "expect_preview_browser_started"
    if ctx.integration != "plugin":
        return _out_of_context(
            ctx, name,
            f"expectPreviewBrowserStarted is only for plugin (got integration={ctx.integration}). "
            "Gate callers with test.skipIf(getEvalContext().integration !== 'plugin')",
        )
    if ctx.is_claude or ctx.is_codex:
        _needs_transcript(ctx, name, "the in-app browser calls")
    if ctx.is_claude:
        hits = [c for c in ctx.tool_calls if c.name.endswith("__preview_start")]
        if not hits:
            raise _fail(name, "Expected the Claude preview browser to be opened via the preview_start tool",
                        [Evidence.from_call(c) for c in ctx.tool_calls if c.kind == "mcp"]
                        or [Evidence(text="no MCP tool calls")])
        return _pass(name, "preview_start called", [Evidence.from_call(c) for c in hits])
    if not ctx.is_codex:
        raise _fail(name, f'Unknown plugin agent "{ctx.agent}" — teach expectPreviewBrowserStarted its preview surface')
    navs = _codex_navigations(ctx.transcript, "B")
    nav_urls = [u for u, _ in navs]
    urls: list[str] = []
    for u in nav_urls:
        if is_local_storybook_preview_url(u) and u not in urls:
            urls.append(u)
    nav_ev = [Evidence(text=f"goto {u}", location=c.location) for u, c in navs]
    if not urls:
        raise _fail(name, "Expected an in-app browser navigation to the local Storybook review or story preview "
                    "URL (a node_repl js tool call whose code calls goto). Navigations found: "
                    f"{json_stringify(nav_urls)}", nav_ev or [Evidence(text="no node_repl goto navigation")])
    killed = find_dev_server_kill_commands(ctx.shell_commands, urls)
    if killed:
        raise _fail(name, "The dev server must be left running for the user — never kill it after verification",
                    _shell_evidence([c for c in ctx.shell_commands if c.command in killed], "(kills the server)"))
    return _pass(name, "in-app browser opened on the local preview", nav_ev)


_KILL = re.compile(r"\b(?:kill|pkill|killall)\b|\bfuser\b[^;&|]*\s-[a-z]*k", re.IGNORECASE | re.ASCII)
_KILL_TARGET_C = re.compile(r"storybook|\.pid\b|\b6006\b", re.IGNORECASE | re.ASCII)


def _url_port(u: str) -> str:
    """``new URL(u).port``: ``''`` for a default port, no port, or a string that does not parse."""
    parsed = parse_url(u)
    return parsed.port if parsed is not None else ""


def find_dev_server_kill_commands(
    commands: Iterable[str | ShellCommand], navigated_urls: Sequence[str] | None = None
) -> list[str]:
    """Commands that kill the dev server.

    With *navigated_urls* (Gen B): the target is ``storybook``, a ``.pid`` file or one of those
    URLs' ports. Without (ΔC): the target is ``storybook``, ``.pid`` or ``6006``.
    """
    if navigated_urls is None:
        target = _KILL_TARGET_C
    else:
        ports: list[str] = []
        for u in navigated_urls:
            p = _url_port(u)
            if p and p not in ports:
                ports.append(p)
        target = re.compile("|".join(["storybook", r"\.pid\b", *(rf"\b{re.escape(p)}\b" for p in ports)]),
                            re.IGNORECASE | re.ASCII)
    out = []
    for c in commands:
        text = c.command if isinstance(c, ShellCommand) else c
        if _KILL.search(text) and target.search(text):
            out.append(text)
    return out


_GOTO = re.compile(r"\.goto\(\s*(['\"`])([^'\"`]+)\1")
_HTTP_LITERAL = re.compile(r"(['\"`])(http[^'\"`]*)\1")


def _call_succeeded(call: ToolCall) -> bool:
    if call.kind == "shell":
        return call.exit_code == 0
    return call.status == "completed" and not call.is_error


def _code_navigations(code: str, generation: str) -> list[str]:
    if generation == "C+":
        return [m.group(2) for m in _HTTP_LITERAL.finditer(code)] if ".goto(" in code else []
    return [m.group(2) for m in _GOTO.finditer(code)]


def _item_navigations(call: ToolCall, generation: str) -> list[str]:
    code = call.arguments.get("code")
    if not isinstance(code, str):
        return []
    if generation in ("A", "B"):
        if not (call.kind == "mcp" and call.server == "node_repl" and call.tool == "js"
                and call.status == "completed" and not call.is_error):
            return []
    elif not _call_succeeded(call):
        return []
    return _code_navigations(code, generation)


def _codex_navigations(transcript: Transcript, generation: str) -> list[tuple[str, ToolCall]]:
    return [(u, c) for c in transcript.all_tool_calls for u in _item_navigations(c, generation)]


def parse_codex_browser_navigations(
    source: Transcript | EvalContext | str, *, generation: str | None = None
) -> list[str]:
    """URLs the Codex in-app browser navigated to (``node_repl`` ``js`` calls with ``.goto(…)``).

    *source* is a parsed transcript, a context (its profile's generation is the default), or the
    raw JSONL text. B: completed ``node_repl``/``js`` MCP items; C: any successful item;
    C+: every ``http…`` string literal of code that calls ``.goto(`` (so ``goto(url)`` in a loop
    over literals counts).
    """
    from ... import parse

    if isinstance(source, EvalContext):
        gen = generation or source.profile.generation
        transcript = source.transcript
    elif isinstance(source, Transcript):
        gen, transcript = generation or "B", source
    else:
        if not source.strip():
            return []
        gen, transcript = generation or "B", parse(source)
    return [u for u, _ in _codex_navigations(transcript, gen)]


_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "[::1]"})


def is_local_dev_server_url(url: str) -> bool:
    """``http(s)`` URL whose host is ``localhost``, ``127.0.0.1``, ``0.0.0.0`` or ``[::1]``, as
    WHATWG ``new URL`` reads the host (``[0::1]``, ``127.1``, ``127.0.0.1.``, ``LOCALHOST``,
    ``http:\\\\localhost`` all are)."""
    parsed = parse_url(url)
    return parsed is not None and parsed.scheme in ("http", "https") and parsed.host in _LOCAL_HOSTS


_PREVIEW_PATH = re.compile(r"[?&]path=/|/iframe\.html\?")


def is_local_storybook_preview_url(url: str) -> bool:
    """A local dev-server URL of a Storybook page (``?path=/…``) or story iframe."""
    return is_local_dev_server_url(url) and _PREVIEW_PATH.search(url) is not None


def expect_dev_server_left_running(ctx: EvalContext) -> CheckResult:
    """plugin (ΔC): no shell command killed the dev server."""
    name = "expect_dev_server_left_running"
    if ctx.integration != "plugin":
        raise _fail(name, f"expectDevServerLeftRunning is only for plugin (got integration={ctx.integration}). "
                    "Gate callers with test.skipIf(getEvalContext().integration !== 'plugin')",
                    [Evidence(text=ctx.describe())])
    killed = find_dev_server_kill_commands(ctx.shell_commands)
    if killed:
        raise _fail(name, "The dev server must be left running for the user, never killed after verification",
                    _shell_evidence([c for c in ctx.shell_commands if c.command in killed], "(kills the server)"))
    summary = f"none of {len(ctx.shell_commands)} shell command(s) killed the dev server"
    if ctx.results_path is None:  # the commands come from the transcript: it must be whole
        return _never(ctx, name, summary)
    return _pass(name, summary)


_BROWSER_TOOL = re.compile(r"^mcp__.+__(?:navigate|preview_start)$")
_REVIEW_TARGET = re.compile(r"[?&]path=/review(?![\w-])", re.ASCII)


@attrs.define(frozen=True, slots=True)
class _Step:
    called: bool
    url: str | None
    call: ToolCall
    ok: bool = True


def _workflow_calls_by_tool_call(ctx: EvalContext) -> dict[int, list[Any]]:
    """Every workflow call of the transcript (MCP and CLI), indexed by the tool call that made it."""

    def compute() -> dict[int, list[Any]]:
        from .._workflow import workflow_calls

        index: dict[int, list[Any]] = {}
        for wc in workflow_calls(ctx.transcript, profile=ctx.profile.names_profile):
            if wc.tool_call is not None:
                index.setdefault(id(wc.tool_call), []).append(wc)
        return index

    return cast(dict[int, list[Any]], ctx._memo("workflow_calls_by_tool_call", compute))


def _calls_workflow(ctx: EvalContext, call: ToolCall, wf: str) -> bool:
    """*call* is an MCP call of *wf* (exact normalised name) or a shell command that runs it."""
    from .._names import workflow_call_matches_name

    prof = ctx.profile.names_profile
    for wc in _workflow_calls_by_tool_call(ctx).get(id(call), ()):
        if wc.source == "mcp" and wc.name == wf:
            return True
        if wc.source != "mcp" and workflow_call_matches_name(wc, wf, profile=prof):
            return True
    return False


def _browser_steps(ctx: EvalContext, wf: str) -> list[_Step]:
    steps: list[_Step] = []
    gen = "C+" if ctx.profile.generation == "C+" else "C"
    for call in ctx.tool_calls:
        if ctx.is_codex:
            if _calls_workflow(ctx, call, wf):
                if _call_succeeded(call):
                    steps.append(_Step(True, None, call))
            else:
                steps.extend(_Step(False, u, call) for u in _item_navigations(call, gen))
        else:
            if _calls_workflow(ctx, call, wf):
                steps.append(_Step(True, None, call, ok=not call.is_error))
            elif _BROWSER_TOOL.match(call.name) and isinstance(call.arguments.get("url"), str):
                steps.append(_Step(False, call.arguments["url"], call))
    return steps


def _opened_in_browser(ctx: EvalContext, name: str, wf: str, which: str) -> CheckResult:
    _needs_transcript(ctx, name, "the in-app browser calls")
    steps = _browser_steps(ctx, wf)
    called = [i for i, s in enumerate(steps) if s.called]
    if which == "review" and ctx.profile.review_anchor == "first-successful":
        ok = [i for i in called if steps[i].ok]
        anchor = ok[0] if ok else None
    elif which == "review":
        anchor = called[-1] if called else None
    else:
        anchor = called[0] if called else None
    ev = [Evidence(text=(f"{wf} called" if s.called else f"navigate {s.url}") + ("" if s.ok else " [error]"),
                   location=s.call.location, call_id=s.call.id) for s in steps]
    if anchor is None:
        raise _fail(name, f"Expected a successful {wf} call before the in-app browser check, but the "
                    "transcript holds none.", ev or [Evidence(text=f"no {wf} call and no browser navigation")])
    navs = [s.url for s in steps[anchor + 1:] if not s.called and s.url is not None]
    if not navs:
        raise _fail(name, f"Expected the agent to open a URL in the in-app browser after {wf} (a navigate / "
                    "preview_start call, or a Codex goto), but the transcript holds no such browser navigation. "
                    "Every experiment must install an in-app browser mock (writeClaudeInAppBrowserMock / "
                    "writeCodexInAppBrowserMock).", ev)
    if which == "review":
        hit = any(is_local_dev_server_url(u) and _REVIEW_TARGET.search(u) for u in navs)
        target = "the review page"
    else:
        hit = any(is_local_storybook_preview_url(u) for u in navs)
        target = "a story preview"
    if not hit:
        raise _fail(name, f"Expected an in-app browser navigation to {target} on the local dev server after "
                    f"{wf}. Navigated to:\n" + "\n".join(navs), ev)
    return _pass(name, f"{target} opened in the in-app browser after {wf}", ev)


def expect_review_opened_in_browser(ctx: EvalContext) -> CheckResult:
    """After a successful ``review-create``, the in-app browser opened the local review page (ΔC)."""
    return _opened_in_browser(ctx, "expect_review_opened_in_browser", "review-create", "review")


def expect_preview_opened_in_browser(ctx: EvalContext) -> CheckResult:
    """After the first ``stories-preview``, the in-app browser opened a local story preview (ΔC)."""
    return _opened_in_browser(ctx, "expect_preview_opened_in_browser", "stories-preview", "preview")
