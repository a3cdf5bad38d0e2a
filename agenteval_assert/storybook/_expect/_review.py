"""Expectations on the workflow calls: §5.2 presence and final response, §5.3 review
(``review-create``), §5.4 preview (``stories-preview``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...exceptions import UsageError
from ...model import Location
from ...results import CheckResult, Evidence
from .._context import _MISSING, EvalContext
from ._common import (
    _absent,
    _call_evidence,
    _considered,
    _fail,
    _input,
    _n,
    _needs_transcript,
    _never,
    _pass,
    _rename,
    _story_inputs,
    get_workflow_calls,
)
from ._js import Pattern, _compile_user, _js_trim, _search, js_regex_source, json_stringify, trunc

__all__ = [
    "expect_all_story_exports_in_display_review",
    "expect_display_review_for_browse_request",
    "expect_display_review_for_visual_change",
    "expect_documentation_tooling_called",
    "expect_final_response_contains",
    "expect_final_response_matches",
    "expect_no_display_review",
    "expect_preview_stories_with_final_links",
    "expect_story_discovery_before_review",
    "expect_story_ids_in_display_review",
    "expect_workflow_calls",
]


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
    _needs_transcript(ctx, "expect_final_response_contains", "the final response")
    final = ctx.final_assistant_message or ""
    for s in substrings:
        if s not in final:
            raise _fail("expect_final_response_contains",
                        f'Expected the final response to mention "{s}"', _final_evidence(ctx))
    return _pass("expect_final_response_contains", "final response mentions every string",
                 _final_evidence(ctx))


def expect_final_response_matches(ctx: EvalContext, patterns: Sequence[Pattern]) -> CheckResult:
    """``FINAL ?? ''`` must match each pattern; printed ``/src/flags`` on failure."""
    _needs_transcript(ctx, "expect_final_response_matches", "the final response")
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
    _needs_transcript(ctx, "review link", "the final response (which must link the review)")
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
    _needs_transcript(ctx, name, "the final response (which must not link a review)")
    if _REVIEW_SLASH.search(ctx.final_assistant_message or ""):
        raise _fail(name, "Final response must not link to the Storybook review page for a non-visual change",
                    _final_evidence(ctx))
    return _never(ctx, name, "no review-create call and no review link", _considered(ctx), vacuous=False)


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


def _story_files(root: Path) -> tuple[list[str], list[str]]:
    """Story files under *root* as the reference finds them, and notes on the links not followed.

    The reference walks ``readdirSync(dir, {withFileTypes: true})``: entries in byte order of
    their names (libuv sorts them with ``strcmp``), a directory entry (``Dirent.isDirectory()``,
    never true for a symbolic link) is walked, any other entry whose name matches is read, through
    a link if it is one. Paths are ``path.join('.', …)`` paths (``src/X.stories.tsx``). A link that
    leads outside the sandbox is not followed here (a saved sandbox is untrusted input); the
    notes say which.
    """
    out: list[str] = []
    notes: list[str] = []
    base = os.path.realpath(root)

    def walk(rel: str) -> None:
        try:
            with os.scandir(root / rel if rel else root) as it:
                entries = sorted(it, key=lambda e: os.fsencode(e.name))
        except OSError:
            return
        for e in entries:
            sub = f"{rel}/{e.name}" if rel else e.name
            if e.is_dir(follow_symlinks=False):
                if e.name not in _SKIP_DIRS:
                    walk(sub)
            elif e.is_symlink() and e.is_dir() and e.name not in _SKIP_DIRS and not _STORY_FILE.search(e.name):
                notes.append(f"{sub} links to a directory: not walked (the reference does not follow "
                             "directory links either)")
            elif _STORY_FILE.search(e.name):
                if e.is_symlink():
                    target = os.path.realpath(root / sub)
                    if os.path.commonpath([base, target]) != base:
                        notes.append(f"{sub} links outside the sandbox (to {target}): not followed")
                        continue
                    if not os.path.isfile(target):
                        continue
                elif not e.is_file(follow_symlinks=False):
                    continue
                out.append(sub)

    walk("")
    return out, notes


def expect_all_story_exports_in_display_review(ctx: EvalContext) -> CheckResult:
    """Every named export of every story file in the workspace is in the last review's storyIds.

    Files are visited in byte order of their names, as the reference's ``readdir`` gives them;
    a linked story file is read when the link stays inside the sandbox (see ``_story_files``).
    """
    name = "expect_all_story_exports_in_display_review"
    last, ev = _last_review(ctx, name)
    ids = _story_ids(_input(last))
    files, notes = _story_files(ctx.workspace)
    if not files:
        raise _fail(name, "Expected the agent to write at least one story file",
                    [*ev, Evidence(text=f"no *.stories.[jt]sx? file under {ctx.workspace}")], notes=notes)
    for f in files:
        text = (ctx.workspace / f).read_text(encoding="utf-8", errors="replace")
        for m in _EXPORT.finditer(text):
            export = m.group(1)
            suffix = "--" + _kebab(export)
            if not any(i.endswith(suffix) for i in ids):
                line = text.count("\n", 0, m.start()) + 1
                raise _fail(name, f'Expected story "{export}" from {f} in the {_n(ctx, "review-create")} '
                            f"payload. Received storyIds: {json_stringify(ids)}",
                            [*ev, Evidence(text=f"export {export} (expects an id ending in {suffix})",
                                           location=Location(str(ctx.workspace / f), line))], notes=notes)
    return _pass(name, f"every story export of {len(files)} file(s) is in the review", ev, notes=tuple(notes))


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
    _needs_transcript(ctx, name, "the final response (which must link a story preview)")
    final = ctx.final_assistant_message or ""
    if not _STORY_LINK.search(final):
        raise _fail(name, "Final response must include a story preview link", ev + _final_evidence(ctx))
    if _REVIEW_SLASH.search(final):
        raise _fail(name, "Final response must not link to the Storybook review page when review is disabled",
                    ev + _final_evidence(ctx))
    return _pass(name, "stories previewed and linked", ev)
