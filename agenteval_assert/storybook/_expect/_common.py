"""What every expectation shares: failures and evidence (``_fail``, ``_absent``, ``_pass``), names
per generation, the §5.1 raw access (``get_*``), the §5.7 story-input helpers and the §5.9
judge criteria.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypedDict

import attrs

from ...model import Location, Transcript
from ...results import CheckResult, Evidence, InconclusiveError, Status, TranscriptAssertionError
from .._context import EvalContext, EvalProfile, json_parse
from ._js import json_stringify, trunc

__all__ = [
    "A11Y_VISUAL_CHANGE_APPROVAL_CRITERION",
    "DISPLAY_REVIEW_CURATION_CRITERION",
    "StoryInputExpectation",
    "get_eval_context",
    "get_final_assistant_message",
    "get_shell_commands",
    "get_storybook_workflow_calls",
    "get_transcript",
    "get_workflow_calls",
    "get_workflow_tool_results",
    "is_record",
    "is_review_enabled",
    "parse_json",
    "select_final_run_story_tests_report",
    "workflow_call_includes_story",
    "workflow_call_uses_story_id",
]


DISPLAY_REVIEW_CURATION_CRITERION = "The final review-create tool call publishes a well-curated review. It groups stories into 2 to 5 collections. No collection contains only a single story, unless there are too few stories to avoid it. Collections follow a meaningful layering, such as the changed component's visual states, its interaction behavior, or the surfaces that consume it — not arbitrary groupings. Each collection has a rationale that explains why those stories are worth reviewing for this change. The review title and description use plain language and avoid internal tooling jargon such as \"collection\" or \"trigger\"."

A11Y_VISUAL_CHANGE_APPROVAL_CRITERION = "The final response explains the remaining visual color contrast accessibility concern. It asks the user before changing visual or design colors. It offers two or three concrete options for fixing the contrast issue. It does not claim the visual contrast issue was already fixed. It distinguishes semantic accessibility issues that can be fixed directly from visual design changes that need user approval."


class StoryInputExpectation(TypedDict, total=False):
    """``{absoluteStoryPath?, exportName?, storyId?}`` (spec §5.1)."""

    absoluteStoryPath: str
    exportName: str
    storyId: str


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


def _needs_transcript(ctx: EvalContext, name: str, what: str) -> None:
    """INCONCLUSIVE (raised) when the context has no transcript and the check must read *what*
    in it: a sandbox without one (NiceEval keeps it on the host) shows neither a pass nor a fail."""
    if not ctx.transcript_missing:
        return
    from .._context import NO_TRANSCRIPT_HINT

    summary = f"inconclusive: needs the agent's transcript ({what}), and this sandbox holds none"
    raise InconclusiveError(CheckResult(
        name=name, status=Status.INCONCLUSIVE, summary=summary, expected=what, found="no transcript",
        notes=(NO_TRANSCRIPT_HINT,)))


def _pass(name: str, summary: str, evidence: Iterable[Evidence] = (), **kw: Any) -> CheckResult:
    return CheckResult.passing(name, summary, evidence, **kw)


def _never(ctx: EvalContext, name: str, summary: str, evidence: Iterable[Evidence] = (), **kw: Any) -> CheckResult:
    """The PASS of a "never happened" expectation, through the checks' one absence guard: an
    empty, prompt-only, damaged or cut transcript cannot show that something never happened, so
    the expectation is inconclusive (``InconclusiveError``) instead."""
    from ...checks._common import _incomplete

    reasons = _incomplete(ctx.transcript)
    if not reasons:
        return _pass(name, summary, evidence, **kw)
    raise InconclusiveError(CheckResult(
        name=name, status=Status.INCONCLUSIVE, summary=f"inconclusive: {summary}, but {reasons[0]}",
        expected=summary, found=reasons[0], evidence=tuple(evidence),
        notes=(*reasons[1:], *ctx.notes, "absence cannot be shown on an incomplete transcript"),
    ))


def _n(ctx: EvalContext, current: str) -> str:
    """The name the active generation uses for *current* (Gen A: the legacy name)."""
    if ctx.profile.generation != "A":
        return current
    from .._names import LEGACY_TO_CURRENT

    for legacy, cur in LEGACY_TO_CURRENT.items():
        if cur == current:
            return legacy
    return current


def _normalize(ctx: EvalContext, name: str) -> str | None:
    from .._names import normalize_workflow_name

    return normalize_workflow_name(name, profile=None)


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
        return json_parse(text)
    except (ValueError, RecursionError):  # NaN and Infinity too: JSON.parse rejects them
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
    from .._names import LEGACY_WORKFLOW_TOOL_NAMES, WORKFLOW_TOOL_NAMES

    if ctx.profile.generation == "A":
        return name in WORKFLOW_TOOL_NAMES and name not in LEGACY_WORKFLOW_TOOL_NAMES
    return name in LEGACY_WORKFLOW_TOOL_NAMES and name not in WORKFLOW_TOOL_NAMES


def get_workflow_calls(ctx: EvalContext, name: str) -> list[Any]:
    """``getWorkflowCalls(name)``: the workflow calls that match *name* (either vocabulary)."""
    from .._names import workflow_call_matches_name

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
    from .._report import select_final_report

    return select_final_report(list(results))


def _input(call: Any) -> Mapping[str, Any]:
    inp = getattr(call, "input", call)
    return inp if isinstance(inp, Mapping) else {}


def _story_inputs(inp: Mapping[str, Any]) -> list[Any]:
    stories = inp.get("stories")
    if isinstance(stories, list):
        return [s for s in stories if isinstance(s, dict)]
    return [inp]


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


def _rename(name: str, fn: Callable[[], Any]) -> Any:
    """Run a shared validator; its failure is reported under *name*, message unchanged."""
    try:
        return fn()
    except TranscriptAssertionError as exc:  # InconclusiveError stays inconclusive
        raise type(exc)(attrs.evolve(exc.result, name=name)) from None
