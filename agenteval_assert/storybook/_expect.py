"""The Storybook agent-eval assertion vocabulary (spec §5), over an explicit ``EvalContext``.

Every ``expect_*`` function takes the context first, returns a passing ``CheckResult`` and raises
``TranscriptAssertionError`` (an ``AssertionError``) on failure. The failure's message **starts
with** the reference suite's own message text, byte for byte (JS formatting included:
``JSON.stringify`` compact, ``String(x)``, ``/src/flags`` regexes, 600-UTF-16-unit truncation),
followed by our evidence: the calls considered, each with its ``path:line``.

Where the reference generations disagree, ``ctx.profile`` (``EvalProfile``) decides; see
``docs/from-eval-ts.md``.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict, Union, cast
from urllib.parse import urlsplit

import attrs
import regex

from ..exceptions import UsageError
from ..model import Location, ToolCall, Transcript
from ..results import CheckResult, Evidence, InconclusiveError, Status, TranscriptAssertionError
from ._context import _MISSING, EvalContext, EvalProfile, ShellCommand, js_string

__all__ = [
    "A11Y_VISUAL_CHANGE_APPROVAL_CRITERION",
    "DISPLAY_REVIEW_CURATION_CRITERION",
    "SandboxTestRun",
    "StoryInputExpectation",
    "expect_all_story_exports_in_display_review",
    "expect_dev_server_left_running",
    "expect_display_review_for_browse_request",
    "expect_display_review_for_visual_change",
    "expect_documentation_tooling_called",
    "expect_final_response_contains",
    "expect_final_response_matches",
    "expect_no_display_review",
    "expect_preview_browser_started",
    "expect_preview_opened_in_browser",
    "expect_preview_stories_with_final_links",
    "expect_review_opened_in_browser",
    "expect_shell_command_matching",
    "expect_skill_invoked",
    "expect_story_discovery_before_review",
    "expect_story_ids_in_display_review",
    "expect_story_tests_ran_and_passed",
    "expect_storybook_boots",
    "expect_storybook_dependencies_at_least",
    "expect_valid_storybook_launch_config",
    "expect_workflow_calls",
    "find_dev_server_kill_commands",
    "get_eval_context",
    "get_final_assistant_message",
    "get_shell_commands",
    "get_storybook_workflow_calls",
    "get_transcript",
    "get_workflow_calls",
    "get_workflow_tool_results",
    "is_local_dev_server_url",
    "is_local_storybook_preview_url",
    "is_record",
    "is_review_enabled",
    "js_regex_source",
    "json_stringify",
    "parse_codex_browser_navigations",
    "parse_json",
    "run_story_tests_in_sandbox",
    "select_final_run_story_tests_report",
    "trunc",
    "workflow_call_includes_story",
    "workflow_call_uses_story_id",
]

# --------------------------------------------------------------------------------------------
# Judge criteria (spec §5.9), verbatim: the listed sentences joined by one space.

DISPLAY_REVIEW_CURATION_CRITERION = "The final review-create tool call publishes a well-curated review. It groups stories into 2 to 5 collections. No collection contains only a single story, unless there are too few stories to avoid it. Collections follow a meaningful layering, such as the changed component's visual states, its interaction behavior, or the surfaces that consume it — not arbitrary groupings. Each collection has a rationale that explains why those stories are worth reviewing for this change. The review title and description use plain language and avoid internal tooling jargon such as \"collection\" or \"trigger\"."

A11Y_VISUAL_CHANGE_APPROVAL_CRITERION = "The final response explains the remaining visual color contrast accessibility concern. It asks the user before changing visual or design colors. It offers two or three concrete options for fixing the contrast issue. It does not claim the visual contrast issue was already fixed. It distinguishes semantic accessibility issues that can be fixed directly from visual design changes that need user approval."


class StoryInputExpectation(TypedDict, total=False):
    """``{absoluteStoryPath?, exportName?, storyId?}`` (spec §5.1)."""

    absoluteStoryPath: str
    exportName: str
    storyId: str


Pattern = Union[str, "re.Pattern[str]", "regex.Pattern[str]"]

#: Seconds a user-supplied pattern may run on one string before the check errors out.
PATTERN_TIMEOUT = 2.0

# --------------------------------------------------------------------------------------------
# JavaScript formatting (spec §11)

_JS_WS = (
    " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def _js_trim(s: str) -> str:
    return s.strip(_JS_WS)


def _jsonable(value: Any, top: bool) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, float):
        if math.isnan(value) or value in (float("inf"), float("-inf")):
            return None
        return int(value) if value.is_integer() and abs(value) < 1e21 else value
    if isinstance(value, int):
        return value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v, False) for k, v in value.items() if v is not _MISSING}
    if isinstance(value, (list, tuple)):
        return [None if v is _MISSING else _jsonable(v, False) for v in value]
    return str(value)


def json_stringify(value: Any) -> str:
    """JavaScript ``JSON.stringify(value)``: compact, non-ASCII kept, ``undefined`` at top level."""
    if value is _MISSING:
        return "undefined"
    return json.dumps(_jsonable(value, True), ensure_ascii=False, separators=(",", ":"))


def trunc(s: str, limit: int = 600) -> str:
    """``s`` when at most *limit* UTF-16 code units long, else its first *limit* units + ``…``."""
    units = len(s.encode("utf-16-le")) // 2
    if units <= limit:
        return s
    cut = s.encode("utf-16-le")[: 2 * limit].decode("utf-16-le", "surrogatepass")
    if cut and 0xD800 <= ord(cut[-1]) <= 0xDBFF:  # a lone high surrogate cannot be printed
        cut = cut[:-1] + "\ufffd"
    return cut + "…"


_FLAG_LETTERS = ((re.IGNORECASE, "i"), (re.MULTILINE, "m"), (re.DOTALL, "s"))


def _escape_slashes(src: str) -> str:
    out, i = [], 0
    in_class = False
    while i < len(src):
        ch = src[i]
        if ch == "\\" and i + 1 < len(src):
            out.append(src[i : i + 2])
            i += 2
            continue
        if ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        elif ch == "/" and not in_class:
            out.append("\\/")
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def js_regex_source(pattern: Pattern) -> str:
    """How JavaScript prints a RegExp in a template string: ``/source/flags``."""
    if isinstance(pattern, str):
        return f"/{_escape_slashes(pattern) or '(?:)'}/"
    flags = "".join(letter for flag, letter in _FLAG_LETTERS if pattern.flags & flag)
    return f"/{_escape_slashes(pattern.pattern) or '(?:)'}/{flags}"


def _compile_user(pattern: Pattern) -> regex.Pattern[str]:
    if isinstance(pattern, str):
        return regex.compile(pattern)
    if isinstance(pattern, regex.Pattern):
        return pattern
    keep = re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE | re.ASCII
    return regex.compile(pattern.pattern, int(pattern.flags) & keep)


def _search(p: regex.Pattern[str], text: str) -> bool:
    try:
        return p.search(text, timeout=PATTERN_TIMEOUT) is not None
    except TimeoutError:
        raise UsageError(
            f"pattern {js_regex_source(p.pattern)} took more than {PATTERN_TIMEOUT}s on a "
            f"{len(text)}-character text (catastrophic backtracking?)"
        ) from None


# --------------------------------------------------------------------------------------------
# Results and evidence


def _where(obj: Any) -> Location | None:
    loc = getattr(obj, "location", None)
    if loc is None:
        tc = getattr(obj, "tool_call", None)
        loc = getattr(tc, "location", None)
    return loc if isinstance(loc, Location) else None


def _call_evidence(call: Any, note: str = "") -> Evidence:
    name = getattr(call, "name", "?")
    text = f"{name} {trunc(json_stringify(getattr(call, 'input', {})), 160)} via {getattr(call, 'source', '?')}"
    if note:
        text += f"  {note}"
    cmd = getattr(call, "command", None)
    detail = "command: " + json.dumps(cmd, ensure_ascii=False) if isinstance(cmd, str) else ""
    return Evidence(text=text, location=_where(call), detail=detail)


def _result_evidence(res: Any, note: str = "") -> Evidence:
    err = " [error]" if getattr(res, "is_error", False) else ""
    text = f"result{err}: {trunc(json.dumps(getattr(res, 'output', ''), ensure_ascii=False), 160)}"
    if note:
        text += f"  {note}"
    return Evidence(text=text, location=_where(res))


def _considered(ctx: EvalContext, calls: Iterable[Any] | None = None) -> list[Evidence]:
    pool = ctx.workflow_calls if calls is None else list(calls)
    if not pool:
        return [Evidence(text=f"no Storybook workflow calls ({ctx.describe()})")]
    return [_call_evidence(c) for c in pool]


def _fail(name: str, message: str, evidence: Iterable[Evidence] = (), *, found: str = "",
          notes: Iterable[str] = ()) -> TranscriptAssertionError:
    result = CheckResult(
        name=name, status=Status.FAIL, summary=message, expected=message, found=found,
        evidence=tuple(evidence), notes=tuple(notes),
    )
    return TranscriptAssertionError(result)


def _absent(ctx: EvalContext, name: str, message: str, evidence: Iterable[Evidence] = (), *,
            from_transcript: bool = True) -> TranscriptAssertionError:
    """A "never happened" failure; inconclusive instead when the transcript is torn at the end.

    A torn last line means the run's tail is unknown, so absence cannot be proven. The summary
    still starts with the reference's message.
    """
    notes = list(ctx.notes)
    if from_transcript and ctx.transcript.health.truncated_tail:
        notes.append("the transcript ends in a torn line: what came after it is unknown, so absence "
                     "cannot be decided")
        return InconclusiveError(CheckResult(
            name=name, status=Status.INCONCLUSIVE, summary=message, expected=message,
            evidence=tuple(evidence), notes=tuple(notes)))
    return _fail(name, message, evidence, notes=notes)


def _pass(name: str, summary: str, evidence: Iterable[Evidence] = (), **kw: Any) -> CheckResult:
    return CheckResult.passing(name, summary, evidence, **kw)


# --------------------------------------------------------------------------------------------
# Names per generation


def _n(ctx: EvalContext, current: str) -> str:
    """The name the active generation uses for *current* (Gen A: the legacy name)."""
    if ctx.profile.generation != "A":
        return current
    from ._names import LEGACY_TO_CURRENT

    for legacy, cur in LEGACY_TO_CURRENT.items():
        if cur == current:
            return legacy
    return current


def _normalize(ctx: EvalContext, name: str) -> str | None:
    from ._names import normalize_workflow_name

    return normalize_workflow_name(name, profile=None)


# --------------------------------------------------------------------------------------------
# §5.1 raw access


def get_eval_context(directory: str | os.PathLike[str] = ".", *, profile: EvalProfile | None = None) -> EvalContext:
    """``getEvalContext()``: the context of the sandbox at *directory* (a fresh object each call)."""
    return EvalContext.from_sandbox(directory, profile=profile)


def get_transcript(ctx: EvalContext) -> Transcript:
    """``getTranscript()``: the parsed transcript."""
    return ctx.transcript


def is_record(value: Any) -> bool:
    """``isRecord``: a JSON object (not ``null``, not an array)."""
    return isinstance(value, Mapping)


def parse_json(text: str) -> Any:
    """``parseJson``: the decoded JSON, or ``None`` (JS ``undefined``) for blank or invalid text."""
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def is_review_enabled(ctx: EvalContext) -> bool:
    """``isReviewEnabled()``: ``agent.json › review === true``."""
    return ctx.review


def get_shell_commands(ctx: EvalContext) -> list[str]:
    """``getShellCommands()``: the recorded shell command strings, in order."""
    return ctx.shell_command_texts


def get_storybook_workflow_calls(ctx: EvalContext) -> list[Any]:
    """``getStorybookWorkflowCalls()`` (cached on the context, never process-wide)."""
    return ctx.workflow_calls


def get_final_assistant_message(ctx: EvalContext) -> str | None:
    """``getFinalAssistantMessage()``: the last assistant text, or ``None``."""
    return ctx.final_assistant_message


def _name_is_foreign(ctx: EvalContext, name: str) -> bool:
    """Under ``strict_names``: *name* belongs to the other vocabulary and matches nothing."""
    if not ctx.profile.strict_names:
        return False
    from ._names import LEGACY_WORKFLOW_TOOL_NAMES, WORKFLOW_TOOL_NAMES

    if ctx.profile.generation == "A":
        return name in WORKFLOW_TOOL_NAMES and name not in LEGACY_WORKFLOW_TOOL_NAMES
    return name in LEGACY_WORKFLOW_TOOL_NAMES and name not in WORKFLOW_TOOL_NAMES


def get_workflow_calls(ctx: EvalContext, name: str) -> list[Any]:
    """``getWorkflowCalls(name)``: the workflow calls that match *name* (either vocabulary)."""
    from ._names import workflow_call_matches_name

    if _name_is_foreign(ctx, name):
        return []
    prof = ctx.profile.names_profile
    return [c for c in ctx.workflow_calls if workflow_call_matches_name(c, name, profile=prof)]


def get_workflow_tool_results(ctx: EvalContext, name: str) -> list[Any]:
    """``getWorkflowToolResults(name)``: results of *name* calls in the transcript, as they arrive."""
    current = _normalize(ctx, name) or name
    return ctx.workflow_results(current)


def select_final_run_story_tests_report(results: Sequence[Any]) -> Any | None:
    """``selectFinalRunStoryTestsReport``: the last result holding a report marker, else the last."""
    from ._report import select_final_report

    return select_final_report(list(results))


# --------------------------------------------------------------------------------------------
# §5.2 presence and final response


def expect_workflow_calls(ctx: EvalContext, names: Sequence[str]) -> CheckResult:
    """Each name must have at least one call: ``Expected ${name} to be called``."""
    if isinstance(names, str):
        raise UsageError("expect_workflow_calls takes a list of names, not one string")
    evidence: list[Evidence] = []
    for name in names:
        calls = get_workflow_calls(ctx, name)
        if not calls:
            raise _absent(ctx, "expect_workflow_calls", f"Expected {name} to be called", _considered(ctx),
                          from_transcript=ctx.integration != "plugin" or ctx.results_path is None)
        evidence.extend(_call_evidence(c) for c in calls[:3])
    return _pass("expect_workflow_calls", f"called: {', '.join(names)}", evidence)


def expect_final_response_contains(ctx: EvalContext, substrings: Sequence[str]) -> CheckResult:
    """``FINAL ?? ''`` must contain each string (case-sensitive)."""
    final = ctx.final_assistant_message or ""
    for s in substrings:
        if s not in final:
            raise _fail("expect_final_response_contains",
                        f'Expected the final response to mention "{s}"', _final_evidence(ctx))
    return _pass("expect_final_response_contains", "final response mentions every string",
                 _final_evidence(ctx))


def expect_final_response_matches(ctx: EvalContext, patterns: Sequence[Pattern]) -> CheckResult:
    """``FINAL ?? ''`` must match each pattern; printed ``/src/flags`` on failure."""
    final = ctx.final_assistant_message or ""
    for p in patterns:
        if not _search(_compile_user(p), final):
            raise _fail("expect_final_response_matches",
                        f"Expected the final response to match {js_regex_source(p)}",
                        _final_evidence(ctx))
    return _pass("expect_final_response_matches", "final response matches every pattern",
                 _final_evidence(ctx))


def _final_evidence(ctx: EvalContext) -> list[Evidence]:
    final = ctx.final_assistant_message
    if final is None:
        return [Evidence(text="the transcript has no final assistant message")]
    loc = None
    for m in reversed(list(ctx.transcript.messages("assistant"))):
        if m.text == final:
            loc = m.location
            break
    return [Evidence(text=f"final response: {trunc(json.dumps(final, ensure_ascii=False), 300)}",
                     location=loc)]


_DOC_TOOLS = ("docs-show", "docs-show-story", "docs-list")


def expect_documentation_tooling_called(ctx: EvalContext) -> CheckResult:
    """At least one ``docs-show``/``docs-show-story``/``docs-list`` call (Gen A: legacy names)."""
    calls = [c for c in ctx.workflow_calls if c.name in _DOC_TOOLS]
    if not calls:
        names = ", ".join(_n(ctx, t) for t in _DOC_TOOLS)
        raise _absent(ctx, "expect_documentation_tooling_called",
                      f"Expected at least one documentation tool call ({names})", _considered(ctx),
                      from_transcript=ctx.integration != "plugin" or ctx.results_path is None)
    return _pass("expect_documentation_tooling_called", "documentation tooling called",
                 [_call_evidence(c) for c in calls])


# --------------------------------------------------------------------------------------------
# §5.3 review


def _non_empty_string(v: Any, label: str, ev: list[Evidence]) -> None:
    if not (isinstance(v, str) and _js_trim(v)):
        raise _fail("review-create payload", f"{label} must be a non-empty string. Received: {json_stringify(v)}", ev)


def _non_empty_array(v: Any, label: str, ev: list[Evidence]) -> None:
    if not (isinstance(v, list) and v):
        raise _fail("review-create payload", f"{label} must be a non-empty array. Received: {json_stringify(v)}", ev)


def _record(v: Any, label: str, ev: list[Evidence]) -> None:
    if not isinstance(v, dict):
        raise _fail("review-create payload", f"{label} must be an object. Received: {json_stringify(v)}", ev)


def _valid_collections(ctx: EvalContext, inp: Mapping[str, Any], ev: list[Evidence]) -> None:
    rc = _n(ctx, "review-create")
    _non_empty_string(inp.get("title", _MISSING), f"{rc} title", ev)
    _non_empty_string(inp.get("description", _MISSING), f"{rc} description", ev)
    cols = inp.get("collections", _MISSING)
    _non_empty_array(cols, f"{rc} collections", ev)
    for k, col in enumerate(cols):
        label = f"{rc} collection {k}"
        _record(col, label, ev)
        _non_empty_string(col.get("title", _MISSING), f"{label} title", ev)
        _non_empty_string(col.get("rationale", _MISSING), f"{label} rationale", ev)
        ids = col.get("storyIds", _MISSING)
        _non_empty_array(ids, f"{label} storyIds", ev)
        for j, sid in enumerate(ids):
            _non_empty_string(sid, f"{label} storyIds[{j}]", ev)


def _valid_payload(ctx: EvalContext, inp: Mapping[str, Any], ev: list[Evidence]) -> None:
    _valid_collections(ctx, inp, ev)
    rc = _n(ctx, "review-create")
    files = inp.get("changedFiles", _MISSING)
    _non_empty_array(files, f"visual change {rc} changedFiles", ev)
    for i, f in enumerate(files):
        _non_empty_string(f, f"visual change {rc} changedFiles[{i}]", ev)


_REVIEW_LINK_B = re.compile(r"[?&]path=/review/?")
_REVIEW_LINK_C = re.compile(r"[?&]path=/review(?![\w-])", re.ASCII)
_REVIEW_SLASH = re.compile(r"[?&]path=/review/")
_STORY_LINK = re.compile(r"(?:\?path=/story/|/iframe\.html\?id=)")


def _shares_review_link(ctx: EvalContext, ev: list[Evidence]) -> None:
    final = ctx.final_assistant_message
    ev = ev + _final_evidence(ctx)
    if final is None:
        raise _fail("review link", "Expected a final assistant response", ev)
    link = _REVIEW_LINK_C if ctx.profile.is_c else _REVIEW_LINK_B
    if not link.search(final):
        raise _fail("review link", "Final response must include the Storybook review page link", ev)
    if _STORY_LINK.search(final):
        raise _fail("review link", "Final response must not also include individual story preview links", ev)


def _last_review(ctx: EvalContext, check: str) -> tuple[Any, list[Evidence]]:
    rc = _n(ctx, "review-create")
    calls = get_workflow_calls(ctx, "review-create")
    if not calls:
        raise _fail(check, f"Expected {rc} to be called", _considered(ctx), notes=ctx.notes)
    last = calls[-1]
    return last, [_call_evidence(last, "(the last review-create: the one checked)")]


def expect_display_review_for_visual_change(ctx: EvalContext) -> CheckResult:
    """The last ``review-create`` has a full visual-change payload and the final response links it."""
    name = "expect_display_review_for_visual_change"
    last, ev = _last_review(ctx, name)
    _rename(name, lambda: _valid_payload(ctx, _input(last), ev))
    _rename(name, lambda: _shares_review_link(ctx, ev))
    return _pass(name, "review-create payload valid and review link shared", ev)


def expect_display_review_for_browse_request(ctx: EvalContext) -> CheckResult:
    """The last ``review-create`` has collections, ``changedFiles: []``, and the link is shared."""
    name = "expect_display_review_for_browse_request"
    last, ev = _last_review(ctx, name)
    inp = _input(last)
    _rename(name, lambda: _valid_collections(ctx, inp, ev))
    if inp.get("changedFiles", _MISSING) != [] or not isinstance(inp.get("changedFiles"), list):
        raise _fail(name, f"Browse-request {_n(ctx, 'review-create')} must pass changedFiles: []", ev,
                    found=json_stringify(inp.get("changedFiles", _MISSING)))
    _rename(name, lambda: _shares_review_link(ctx, ev))
    return _pass(name, "browse review published with changedFiles: [] and linked", ev)


def expect_no_display_review(ctx: EvalContext) -> CheckResult:
    """No ``review-create`` call, and no review link in the final response."""
    name = "expect_no_display_review"
    calls = get_workflow_calls(ctx, "review-create")
    if calls:
        inputs = [_input(c) for c in calls]
        raise _fail(name, f"Expected {_n(ctx, 'review-create')} NOT to be called for a non-visual change. "
                    f"Received payloads: {json_stringify(inputs)}", [_call_evidence(c) for c in calls])
    if _REVIEW_SLASH.search(ctx.final_assistant_message or ""):
        raise _fail(name, "Final response must not link to the Storybook review page for a non-visual change",
                    _final_evidence(ctx))
    return _pass(name, "no review-create call and no review link", _considered(ctx), vacuous=False)


def _story_ids(inp: Mapping[str, Any]) -> list[str]:
    ids: list[str] = []
    cols = inp.get("collections")
    if isinstance(cols, list):
        for col in cols:
            if isinstance(col, dict) and isinstance(col.get("storyIds"), list):
                ids.extend(s for s in col["storyIds"] if isinstance(s, str))
    return ids


def expect_story_ids_in_display_review(ctx: EvalContext, substrings: Sequence[str]) -> CheckResult:
    """Each substring occurs (case-sensitive) in some story id of the last ``review-create``."""
    name = "expect_story_ids_in_display_review"
    last, ev = _last_review(ctx, name)
    ids = _story_ids(_input(last))
    for s in substrings:
        if not any(s in i for i in ids):
            raise _fail(name, f'Expected a storyId containing "{s}" in the {_n(ctx, "review-create")} '
                        f"payload. Received storyIds: {json_stringify(ids)}", ev)
    return _pass(name, f"review-create storyIds cover {json_stringify(list(substrings))}", ev)


_SKIP_DIRS = frozenset({"node_modules", "dist", ".git", "__agent_eval__"})
_STORY_FILE = re.compile(r"\.stories\.[jt]sx?$")
_EXPORT = re.compile(r"^export (?:const|function) ([A-Za-z0-9_$]+)", re.MULTILINE)


def _kebab(name: str) -> str:
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", name)
    s = re.sub(r"[^a-zA-Z0-9]+", "-", s)
    return s.strip("-").lower()


def _story_files(root: Path) -> list[str]:
    """Story files under *root*, in directory order, as ``path.join('.', …)`` paths."""
    out: list[str] = []

    def walk(rel: str) -> None:
        try:
            with os.scandir(root / rel if rel else root) as it:
                entries = list(it)
        except OSError:
            return
        for e in entries:
            sub = f"{rel}/{e.name}" if rel else e.name
            if e.is_dir(follow_symlinks=False):
                if e.name not in _SKIP_DIRS:
                    walk(sub)
            elif e.is_file(follow_symlinks=False) and _STORY_FILE.search(e.name):
                out.append(sub)

    walk("")
    return out


def expect_all_story_exports_in_display_review(ctx: EvalContext) -> CheckResult:
    """Every named export of every story file in the workspace is in the last review's storyIds."""
    name = "expect_all_story_exports_in_display_review"
    last, ev = _last_review(ctx, name)
    ids = _story_ids(_input(last))
    files = _story_files(ctx.workspace)
    if not files:
        raise _fail(name, "Expected the agent to write at least one story file",
                    [*ev, Evidence(text=f"no *.stories.[jt]sx? file under {ctx.workspace}")])
    for f in files:
        text = (ctx.workspace / f).read_text(encoding="utf-8", errors="replace")
        for m in _EXPORT.finditer(text):
            export = m.group(1)
            suffix = "--" + _kebab(export)
            if not any(i.endswith(suffix) for i in ids):
                line = text.count("\n", 0, m.start()) + 1
                raise _fail(name, f'Expected story "{export}" from {f} in the {_n(ctx, "review-create")} '
                            f"payload. Received storyIds: {json_stringify(ids)}",
                            [*ev, Evidence(text=f"export {export} (expects an id ending in {suffix})", location=Location(str(ctx.workspace / f), line))])
    return _pass(name, f"every story export of {len(files)} file(s) is in the review", ev)


def expect_story_discovery_before_review(ctx: EvalContext) -> CheckResult:
    """A ``stories-changed``/``stories-find-by-component`` call precedes the last ``review-create``."""
    name = "expect_story_discovery_before_review"
    calls = ctx.workflow_calls
    first = next((i for i, c in enumerate(calls)
                  if c.name in ("stories-changed", "stories-find-by-component")), -1)
    if first < 0:
        raise _fail(name, f"Expected a story-discovery call ({_n(ctx, 'stories-changed')} or "
                    f"{_n(ctx, 'stories-find-by-component')}) before publishing the review", _considered(ctx))
    last = max((i for i, c in enumerate(calls) if c.name == "review-create"), default=-1)
    if last < 0:
        raise _fail(name, f"Expected {_n(ctx, 'review-create')} to be called", _considered(ctx))
    ev = [_call_evidence(calls[first], "(first discovery)"), _call_evidence(calls[last], "(last review)")]
    if not first < last:
        raise _fail(name, "Story discovery must happen before the review is published", ev)
    return _pass(name, "story discovery happened before the review", ev)


# --------------------------------------------------------------------------------------------
# §5.4 preview


def _input(call: Any) -> Mapping[str, Any]:
    inp = getattr(call, "input", call)
    return inp if isinstance(inp, Mapping) else {}


def _story_inputs(inp: Mapping[str, Any]) -> list[Any]:
    stories = inp.get("stories")
    if isinstance(stories, list):
        return [s for s in stories if isinstance(s, dict)]
    return [inp]


def expect_preview_stories_with_final_links(
    ctx: EvalContext, *, covering: Sequence[str] = (), covering_any_of: Sequence[str] = ()
) -> CheckResult:
    """``stories-preview`` was called with inputs covering the strings; the final response links a story."""
    name = "expect_preview_stories_with_final_links"
    sp = _n(ctx, "stories-preview")
    _rename(name, lambda: expect_workflow_calls(ctx, [sp]))
    calls = get_workflow_calls(ctx, sp)
    ev = [_call_evidence(c) for c in calls]
    inputs = [i for c in calls for i in _story_inputs(_input(c))]
    texts = [json_stringify(i).lower() for i in inputs]

    def covers(s: str) -> bool:
        return any(s.lower() in t for t in texts)

    for s in covering:
        if not covers(s):
            raise _fail(name, f'Expected a {sp} story input covering "{s}". Received: {json_stringify(inputs)}', ev)
    if covering_any_of and not any(covers(s) for s in covering_any_of):
        raise _fail(name, f"Expected a {sp} story input covering one of {json_stringify(list(covering_any_of))}. "
                    f"Received: {json_stringify(inputs)}", ev)
    final = ctx.final_assistant_message or ""
    if not _STORY_LINK.search(final):
        raise _fail(name, "Final response must include a story preview link", ev + _final_evidence(ctx))
    if _REVIEW_SLASH.search(final):
        raise _fail(name, "Final response must not link to the Storybook review page when review is disabled",
                    ev + _final_evidence(ctx))
    return _pass(name, "stories previewed and linked", ev)


# --------------------------------------------------------------------------------------------
# §5.5 story tests


@attrs.define(frozen=True, slots=True)
class SandboxTestRun:
    """A rerun of the story tests in the sandbox (ΔC+).

    Attributes:
        project_dir: where it ran (relative to the workspace).
        stdout: what ``npx storybook tools --no-attach test run --json`` printed.
        exit_code: its exit code (``None`` when it could not start).
        document: the decoded ``--json`` document, or ``None`` when there is none.
    """

    project_dir: str
    stdout: str
    exit_code: int | None
    document: Mapping[str, Any] | None

    @property
    def passing(self) -> list[str]:
        return self._ids("status-value:success")

    @property
    def failing(self) -> list[str]:
        return self._ids("status-value:error")

    def _ids(self, value: str) -> list[str]:
        result = (self.document or {}).get("result")
        statuses = result.get("componentTestStatuses") if isinstance(result, Mapping) else None
        if not isinstance(statuses, list):
            return []
        return [s.get("storyId", "") for s in statuses if isinstance(s, Mapping) and s.get("value") == value]

    @property
    def unhandled_errors(self) -> list[Any]:
        result = (self.document or {}).get("result")
        errs = result.get("unhandledErrors") if isinstance(result, Mapping) else None
        return errs if isinstance(errs, list) else []

    @property
    def completed(self) -> bool:
        return self.document is not None and self.document.get("status") == "completed"


#: ``(argv, cwd) -> (stdout, exit_code)``: how a sandbox rerun executes (replaceable in tests).
Runner = Callable[[Sequence[str], str], "tuple[str, int | None]"]

SANDBOX_TEST_ARGV = ("npx", "storybook", "tools", "--no-attach", "test", "run", "--json")
_VITEST_REDIRECT = "export { default } from './vitest.storybook.config.ts';\n"
_JSON_DOC = re.compile(r"^\{$[\s\S]*^\}$", re.MULTILINE)


def _default_runner(argv: Sequence[str], cwd: str) -> tuple[str, int | None]:
    try:
        proc = subprocess.run(list(argv), cwd=cwd, capture_output=True, text=True, timeout=900, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"Error: {exc}", None
    return proc.stdout + proc.stderr, proc.returncode


def run_story_tests_in_sandbox(
    ctx: EvalContext, project_dir: str = ".", *, runner: Runner | None = None
) -> SandboxTestRun:
    """Rerun the story tests in the workspace once per project directory (cached on *ctx*).

    When ``vitest.storybook.config.ts`` and ``vitest.config.ts`` both exist, ``vitest.config.ts``
    is pointed at the Storybook config for the run and restored afterwards (spec §5.5 ΔC+).
    """
    cache = ctx.sandbox_runs
    if project_dir in cache:
        cached = cache[project_dir]
        assert isinstance(cached, SandboxTestRun)
        return cached
    run = runner or _default_runner
    cwd = ctx.workspace / project_dir
    sb_conf, conf = cwd / "vitest.storybook.config.ts", cwd / "vitest.config.ts"
    original: str | None = None
    if sb_conf.exists() and conf.exists():
        original = conf.read_text(encoding="utf-8")
        conf.write_text(_VITEST_REDIRECT, encoding="utf-8")
    try:
        stdout, code = run(SANDBOX_TEST_ARGV, str(cwd))
    finally:
        if original is not None:
            conf.write_text(original, encoding="utf-8")
    doc: Mapping[str, Any] | None = None
    m = _JSON_DOC.search(stdout)
    if m:
        try:
            parsed = json.loads(m.group(0))
        except json.JSONDecodeError:
            parsed = None
        doc = parsed if isinstance(parsed, dict) else None
    result = SandboxTestRun(project_dir, stdout, code, doc)
    cache[project_dir] = result
    return result


_FAILING = re.compile(r"## Failing Stories")
_UNHANDLED = re.compile(r"## Unhandled Errors")
_PASSING = re.compile(r"## Passing Stories")


def expect_story_tests_ran_and_passed(
    ctx: EvalContext,
    *,
    covering: Sequence[str] = (),
    rerun: bool | None = None,
    require_agent_run: bool = True,
    project_dir: str = ".",
    runner: Runner | None = None,
) -> CheckResult:
    """``test-run`` was called and its final report is green (and covers one of *covering*).

    With ``rerun`` (default: ``ctx.profile.rerun_story_tests``, the ΔC+ behaviour) the agent's last
    report must not be red, and the tests are rerun in the sandbox and judged on that run.
    """
    name = "expect_story_tests_ran_and_passed"
    tr = _n(ctx, "test-run")
    do_rerun = ctx.profile.rerun_story_tests if rerun is None else rerun
    if require_agent_run or not do_rerun:
        _rename(name, lambda: expect_workflow_calls(ctx, [tr]))
    calls_ev = [_call_evidence(c) for c in get_workflow_calls(ctx, tr)]
    results = get_workflow_tool_results(ctx, "test-run")
    if do_rerun:
        return _story_tests_rerun(ctx, name, results, covering, require_agent_run, project_dir, runner, calls_ev)
    if not results:
        raise _absent(ctx, name, f"Expected at least one {tr} result in the transcript", calls_ev)
    ev_all = calls_ev + [_result_evidence(r) for r in results]
    last = results[-1] if ctx.profile.generation == "A" else select_final_run_story_tests_report(results)
    if last is None:
        raise _fail(name, f"Expected a final {tr} result", ev_all)
    ev = [*calls_ev, _result_evidence(last, "(the final report: the one checked)")]
    out: str = last.output
    if last.is_error:
        raise _fail(name, f"Final {tr} call must succeed. Output: {trunc(out)}", ev)
    if _FAILING.search(out):
        raise _fail(name, f"Final {tr} result must not report failing stories", ev)
    if _UNHANDLED.search(out):
        raise _fail(name, f"Final {tr} result must not report unhandled errors", ev)
    if not _PASSING.search(out):
        raise _fail(name, f"Final {tr} result must report passing stories. Output: {trunc(out)}", ev)
    if covering and ctx.profile.generation != "A":
        low = out.lower()
        if not any(c.lower() in low for c in covering):
            raise _fail(name, f"Final {tr} result must cover the changed component (one of: "
                        f"{', '.join(covering)}). Output: {trunc(out)}", ev)
    return _pass(name, "the final test-run report passed", ev)


def _story_tests_rerun(
    ctx: EvalContext, name: str, results: list[Any], covering: Sequence[str], require_agent_run: bool,
    project_dir: str, runner: Runner | None, ev: list[Evidence],
) -> CheckResult:
    if require_agent_run and results:
        last = select_final_run_story_tests_report(results)
        if last is not None and (last.is_error or _FAILING.search(last.output) or _UNHANDLED.search(last.output)):
            raise _fail(name, "The agent's last test run must pass before the sandbox rerun. "
                        f"Output: {trunc(last.output)}", [*ev, _result_evidence(last, "(agent's last report)")])
    run = run_story_tests_in_sandbox(ctx, project_dir, runner=runner)
    rev = [*ev, Evidence(text=f"sandbox rerun in {project_dir}: exit {js_string(run.exit_code)}; "
                         f"passing {json_stringify(run.passing)}, failing {json_stringify(run.failing)}")]
    if not run.completed:
        raise _fail(name, f"Sandbox test run must complete with a JSON report. Output: {trunc(run.stdout)}", rev)
    if run.failing:
        raise _fail(name, f"Sandbox test run must not report failing stories: {json_stringify(run.failing)}", rev)
    if run.unhandled_errors:
        raise _fail(name, "Sandbox test run must not report unhandled errors", rev)
    if not run.passing:
        raise _fail(name, "Sandbox test run must report passing stories", rev)
    if covering and not any(c.lower() in p.lower() for c in covering for p in run.passing):
        raise _fail(name, f"Sandbox test run must cover the changed component (one of: {', '.join(covering)}). "
                    f"Passing stories: {json_stringify(run.passing)}", rev)
    return _pass(name, "the sandbox rerun passed", rev)


# --------------------------------------------------------------------------------------------
# §5.6 skills, launch config, preview browser, dev server


def expect_skill_invoked(ctx: EvalContext, skill: str) -> CheckResult:
    """Claude: a ``Skill`` call with ``skill``; other agents: a shell command reading ``skills/<id>``."""
    name = "expect_skill_invoked"
    if ctx.is_claude:
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
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
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
    try:
        parts = urlsplit(u)
        port = parts.port
    except ValueError:
        return ""
    if not parts.scheme or not parts.netloc or port is None:
        return ""
    if (parts.scheme.lower(), port) in (("http", 80), ("https", 443), ("ws", 80), ("wss", 443), ("ftp", 21)):
        return ""
    return str(port)


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
    from .. import parse

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


_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "::1", "[::1]"})


def _whatwg_host(u: str) -> str | None:
    try:
        parts = urlsplit(u.strip(" \t\n\r\f"))
        _ = parts.port
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    host = parts.hostname or ""
    if host and re.fullmatch(r"[0-9a-fx.]+", host) and not host.startswith("["):
        with contextlib.suppress(OSError):  # WHATWG normalises IPv4 shorthand (127.1 -> 127.0.0.1)
            host = socket.inet_ntoa(socket.inet_aton(host))
    return host


def is_local_dev_server_url(url: str) -> bool:
    """``http(s)`` URL whose host is ``localhost``, ``127.0.0.1``, ``0.0.0.0`` or ``[::1]``."""
    host = _whatwg_host(url)
    return host is not None and host in _LOCAL_HOSTS


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
    return _pass(name, f"none of {len(ctx.shell_commands)} shell command(s) killed the dev server")


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
        from ._workflow import workflow_calls

        index: dict[int, list[Any]] = {}
        for wc in workflow_calls(ctx.transcript, profile=ctx.profile.names_profile):
            if wc.tool_call is not None:
                index.setdefault(id(wc.tool_call), []).append(wc)
        return index

    return cast(dict[int, list[Any]], ctx._memo("workflow_calls_by_tool_call", compute))


def _calls_workflow(ctx: EvalContext, call: ToolCall, wf: str) -> bool:
    """*call* is an MCP call of *wf* (exact normalised name) or a shell command that runs it."""
    from ._names import workflow_call_matches_name

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


# --------------------------------------------------------------------------------------------
# §5.7 story-input helpers


def _norm_path(p: str) -> str:
    p = p.replace("\\", "/")
    return p.removeprefix("./")


def workflow_call_includes_story(call: Any, expected: Mapping[str, Any]) -> bool:
    """Some story input of *call* is the expected story (by id, or by path + export name)."""
    for inp in _story_inputs(_input(call)):
        sid = expected.get("storyId")
        if sid is not None and inp.get("storyId") == sid and isinstance(inp.get("storyId"), str):
            return True
        path, export = expected.get("absoluteStoryPath"), expected.get("exportName")
        if path is None or export is None:
            continue
        a_path, a_export = inp.get("absoluteStoryPath"), inp.get("exportName")
        if not (isinstance(a_path, str) and isinstance(a_export, str)) or a_export != export:
            continue
        a, e = _norm_path(a_path), _norm_path(path)
        if a == e or a.endswith("/" + e):
            return True
    return False


def workflow_call_uses_story_id(call: Any) -> bool:
    """Some story input of *call* has a string ``storyId``."""
    return any(isinstance(i.get("storyId"), str) for i in _story_inputs(_input(call)))


# --------------------------------------------------------------------------------------------
# §5.8 lifecycle


def expect_shell_command_matching(ctx: EvalContext, pattern: Pattern) -> CheckResult:
    """Some recorded shell command matches *pattern*."""
    name = "expect_shell_command_matching"
    p = _compile_user(pattern)
    hits = [c for c in ctx.shell_commands if _search(p, c.command)]
    if not hits:
        raise _fail(name, f"Expected a shell command matching {js_regex_source(pattern)}. "
                    f"Received: {trunc(json_stringify(ctx.shell_command_texts))}", _shell_evidence(ctx.shell_commands))
    return _pass(name, f"shell command matches {js_regex_source(pattern)}", _shell_evidence(hits))


_TRIPLE = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def _triple(spec: str) -> tuple[int, int, int] | None:
    m = _TRIPLE.search(spec)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def expect_storybook_dependencies_at_least(
    ctx: EvalContext, min_inclusive_version: str, names: Sequence[str], *, if_present: Sequence[str] = ()
) -> CheckResult:
    """Each dependency of *names* (and of *if_present* when declared) is at least the version."""
    name = "expect_storybook_dependencies_at_least"
    minimum = _triple(min_inclusive_version)
    if minimum is None:
        raise UsageError(f'Invalid minInclusiveVersion "{min_inclusive_version}"')
    pkg_path = ctx.path("package.json")
    pkg = _read_json_or_missing(pkg_path)
    ev = [Evidence(text="package.json", location=Location(str(pkg_path), 1))]
    if not isinstance(pkg, dict):
        raise _fail(name, "Expected package.json to contain a JSON object", ev)
    deps: dict[str, Any] = {}
    for key in ("dependencies", "devDependencies"):
        if isinstance(pkg.get(key), dict):
            deps.update(pkg[key])

    def check(dep: str, required: bool) -> None:
        spec = deps.get(dep, _MISSING)
        if not isinstance(spec, str):
            if required:
                raise _fail(name, f"Expected a {dep} dependency in package.json. Received: {js_string(spec)}", ev)
            return
        got = _triple(spec)
        if got is None:
            raise _fail(name, f'Could not parse a version from the {dep} spec "{spec}"', ev)
        if got < minimum:
            raise _fail(name, f"Expected {dep} to be upgraded to at least {min_inclusive_version}. Received: {spec}", ev)

    for dep in names:
        check(dep, True)
    for dep in if_present:
        check(dep, False)
    return _pass(name, f"dependencies at least {min_inclusive_version}", ev)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process group we started; SIGKILL it if it lingers."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def expect_storybook_boots(
    ctx: EvalContext,
    *,
    timeout_ms: int = 180_000,
    port: int = 6017,
    poll_interval: float = 1.0,
    command: Sequence[str] | None = None,
) -> CheckResult:
    """Start ``npm run storybook -- --port 6017 --ci`` in the workspace and wait for ``/index.json``.

    The process runs in its own process group with ``BROWSER=none`` and ``CI=1``; every
    *poll_interval* seconds ``http://127.0.0.1:<port>/index.json`` is fetched with a 2 s timeout;
    a 2xx answer passes. The process group is always terminated before returning.
    """
    name = "expect_storybook_boots"
    argv = list(command) if command is not None else ["npm", "run", "storybook", "--", "--port", str(port), "--ci"]
    env = {**os.environ, "BROWSER": "none", "CI": "1"}
    url = f"http://127.0.0.1:{port}/index.json"
    ev = [Evidence(text=f"$ {' '.join(argv)}  (cwd {ctx.workspace}); polling {url}")]
    try:
        proc = subprocess.Popen(argv, cwd=ctx.workspace, env=env, start_new_session=True,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError as exc:
        raise _fail(name, f"Failed to spawn npm run storybook: {exc}", ev) from None
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + timeout_ms / 1000
    try:
        while True:
            code = proc.poll()
            if code is not None:
                how = f"signal {signal.Signals(-code).name}" if code < 0 else f"code {code}"
                raise _fail(name, f"npm run storybook exited ({how}) before serving", ev)
            try:
                with opener.open(url, timeout=2) as resp:
                    if 200 <= resp.status < 300:
                        return _pass(name, f"Storybook answered {resp.status} on {url}", ev)
            except (urllib.error.URLError, OSError, ValueError):
                pass
            if time.monotonic() >= deadline:
                raise _fail(name, f"Storybook did not respond on port {port} within {timeout_ms}ms", ev)
            time.sleep(min(poll_interval, max(0.0, deadline - time.monotonic())))
    finally:
        _kill_group(proc)


# --------------------------------------------------------------------------------------------


def _rename(name: str, fn: Callable[[], Any]) -> Any:
    """Run a shared validator; its failure is reported under *name*, message unchanged."""
    try:
        return fn()
    except TranscriptAssertionError as exc:
        raise TranscriptAssertionError(attrs.evolve(exc.result, name=name)) from None
