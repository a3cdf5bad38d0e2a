"""``assert_*`` functions: each check, raising instead of returning a result.

Every ``assert_X(...)`` calls ``agenteval_assert.checks.check_X(...)`` with the same arguments and

* returns the evidence that satisfied it (the matching call, the pair of calls, the final
  response...) so that a test can keep asserting on it;
* raises ``TranscriptAssertionError`` (an ``AssertionError``: a *failure* for pytest and
  unittest) when the check fails, ``InconclusiveError`` (its subclass) when the transcript
  cannot decide a negative check, and ``CheckError`` (not an ``AssertionError``: an *error*)
  when the check could not run. Each carries the ``CheckResult`` as ``.result`` and its
  ``str()`` is the rendered report.

``__tracebackhide__`` keeps these frames out of pytest tracebacks: the user's line is shown.
This module is written out by hand from the checks' signatures so that editors and type
checkers see every parameter (a generic wrapper would erase them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

from . import checks
from .checks import (
    DEFAULT_ACKNOWLEDGEMENT,
    DEFAULT_ANSWER,
    DEFAULT_CONFIRMATION,
    DEFAULT_FAILURE_OUTPUT,
    FlagSpec,
    Mode,
)
from .matchers import ArgsMode, Matcher, Override, ToolSpec, Unordered
from .model import ToolCall, Transcript
from .results import CheckError, CheckResult, InconclusiveError, Status, TranscriptAssertionError

__all__ = [
    "assert_budget",
    "assert_called_after",
    "assert_called_before",
    "assert_called_within",
    "assert_command_ran",
    "assert_command_succeeded",
    "assert_confirmed_before_write",
    "assert_failures_not_reported_as_success",
    "assert_file_changed",
    "assert_file_edited",
    "assert_file_not_changed",
    "assert_file_read",
    "assert_file_written",
    "assert_final_response_contains",
    "assert_final_response_matches",
    "assert_final_response_not_contains",
    "assert_link_absent",
    "assert_link_present",
    "assert_never_after",
    "assert_no_duplicate_calls",
    "assert_no_tool_calls",
    "assert_no_tool_errors",
    "assert_only_tools",
    "assert_resources_allowed",
    "assert_retried_after_failure",
    "assert_skill_invoked",
    "assert_subagent_used",
    "assert_tool_called",
    "assert_tool_calls",
    "assert_tool_failed",
    "assert_tool_not_called",
    "assert_tool_output",
    "assert_tool_succeeded",
    "assert_tools_not_called",
    "assert_transcript_contains",
    "assert_transcript_not_contains",
]


def _raise_unless_passed(result: CheckResult) -> None:
    """Raise the exception that matches a non-PASS status."""
    __tracebackhide__ = True
    if result.status is Status.PASS:
        return
    _raise(result)


def _raise(result: CheckResult) -> NoReturn:
    __tracebackhide__ = True
    if result.status is Status.INCONCLUSIVE:
        raise InconclusiveError(result)
    if result.status is Status.ERROR:
        raise CheckError(result)
    raise TranscriptAssertionError(result)


def assert_budget(
    t: Transcript,
    *,
    max_steps: int | None = None,
    max_tool_calls: int | None = None,
    max_tokens: int | None = None,
    max_input_tokens: int | None = None,
    max_output_tokens: int | None = None,
    max_cost_usd: float | None = None,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> None:
    """The run stayed within budget.

    Assertion form of :func:`agenteval_assert.checks.check_budget` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_budget(t=t, max_steps=max_steps, max_tool_calls=max_tool_calls, max_tokens=max_tokens, max_input_tokens=max_input_tokens, max_output_tokens=max_output_tokens, max_cost_usd=max_cost_usd, include_subagents=include_subagents, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_called_after(
    t: Transcript,
    later: ToolSpec,
    earlier: ToolSpec,
    /,
    *,
    every: bool = False,
    include_subagents: bool = False,
) -> tuple[ToolCall, ToolCall]:
    """*later* was called after *earlier*: the same as ``check_called_before(t, earlier, later)``.

    Assertion form of :func:`agenteval_assert.checks.check_called_after` (same arguments and semantics).

    Returns:
        the deciding pair of calls (earlier, later)

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_called_after(t, later, earlier, every=every, include_subagents=include_subagents)
    _raise_unless_passed(result)
    return (result.matched[0], result.matched[1])


def assert_called_before(
    t: Transcript,
    first: ToolSpec,
    then: ToolSpec,
    /,
    *,
    every: bool = False,
    include_subagents: bool = False,
) -> tuple[ToolCall, ToolCall]:
    """*first* was called before *then*: the first *first* precedes the first *then*.

    Assertion form of :func:`agenteval_assert.checks.check_called_before` (same arguments and semantics).

    Returns:
        the deciding pair of calls

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_called_before(t, first, then, every=every, include_subagents=include_subagents)
    _raise_unless_passed(result)
    return (result.matched[0], result.matched[1])


def assert_called_within(
    t: Transcript,
    trigger: ToolSpec,
    follow: ToolSpec,
    /,
    *,
    steps: int,
    include_subagents: bool = False,
) -> tuple[ToolCall, ...]:
    """Every *trigger* call is followed by a *follow* call within *steps* tool calls.

    Assertion form of :func:`agenteval_assert.checks.check_called_within` (same arguments and semantics).

    Returns:
        the follow-up calls

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_called_within(t, trigger, follow, steps=steps, include_subagents=include_subagents)
    _raise_unless_passed(result)
    return tuple(result.matched)


def assert_command_ran(
    t: Transcript,
    command: str | Matcher | None = None,
    /,
    *,
    program: str | Matcher | None = None,
    subcommand: str | Sequence[str] | None = None,
    flags: FlagSpec | None = None,
    succeeded: bool | None = None,
    include_subagents: bool = True,
) -> ToolCall:
    """A shell command ran: matched on its text, and/or on the parsed program, subcommand, flags.

    Assertion form of :func:`agenteval_assert.checks.check_command_ran` (same arguments and semantics).

    Returns:
        the first matching shell call

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_command_ran(t, command, program=program, subcommand=subcommand, flags=flags, succeeded=succeeded, include_subagents=include_subagents)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_command_succeeded(
    t: Transcript,
    command: str | Matcher | None = None,
    /,
    *,
    program: str | Matcher | None = None,
    subcommand: str | Sequence[str] | None = None,
    flags: FlagSpec | None = None,
    include_subagents: bool = True,
) -> ToolCall:
    """A shell command matching *command* (and/or program/subcommand/flags) ran and succeeded.

    Assertion form of :func:`agenteval_assert.checks.check_command_succeeded` (same arguments and semantics).

    Returns:
        the first matching shell call that succeeded

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_command_succeeded(t, command, program=program, subcommand=subcommand, flags=flags, include_subagents=include_subagents)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_confirmed_before_write(
    t: Transcript,
    writes: Sequence[ToolSpec],
    /,
    *,
    confirmation: str | Matcher = DEFAULT_CONFIRMATION,
    answer: str | Matcher = DEFAULT_ANSWER,
    per_write: bool = True,
    include_prompt: bool = False,
    include_subagents: bool = True,
) -> tuple[ToolCall, ...]:
    """Every write call comes after an explicit confirmation.

    Assertion form of :func:`agenteval_assert.checks.check_confirmed_before_write` (same arguments and semantics).

    Returns:
        the write calls

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_confirmed_before_write(t, writes, confirmation=confirmation, answer=answer, per_write=per_write, include_prompt=include_prompt, include_subagents=include_subagents)
    _raise_unless_passed(result)
    return tuple(result.matched)


def assert_failures_not_reported_as_success(
    t: Transcript,
    *,
    tools: Sequence[ToolSpec] | None = None,
    acknowledgement: str | Matcher = DEFAULT_ACKNOWLEDGEMENT,
    failure_output: str | Matcher | None = DEFAULT_FAILURE_OUTPUT,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> None:
    """A call that failed, timed out or was denied, and was not retried to success, is acknowledged in the final response rather than reported as a success.

    Assertion form of :func:`agenteval_assert.checks.check_failures_not_reported_as_success` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_failures_not_reported_as_success(t=t, tools=tools, acknowledgement=acknowledgement, failure_output=failure_output, include_subagents=include_subagents, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_file_changed(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> ToolCall:
    """The agent wrote, edited or deleted the file.

    Assertion form of :func:`agenteval_assert.checks.check_file_changed` (same arguments and semantics).

    Returns:
        the first call that changed the file

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_file_changed(t, path, include_subagents=include_subagents)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_file_edited(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> ToolCall:
    """The agent edited the file in place (Edit/MultiEdit, a patch update, ``>>``).

    Assertion form of :func:`agenteval_assert.checks.check_file_edited` (same arguments and semantics).

    Returns:
        the first call that edited the file

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_file_edited(t, path, include_subagents=include_subagents)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_file_not_changed(
    t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True, assume_complete: bool = False
) -> None:
    """The agent did not write, edit or delete the file. INCONCLUSIVE on a partial transcript.

    Assertion form of :func:`agenteval_assert.checks.check_file_not_changed` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_file_not_changed(t, path, include_subagents=include_subagents, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_file_read(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> ToolCall:
    """The agent read the file (a path equal to, or ending in ``/``+*path*; globs allowed).

    Assertion form of :func:`agenteval_assert.checks.check_file_read` (same arguments and semantics).

    Returns:
        the first call that read the file

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_file_read(t, path, include_subagents=include_subagents)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_file_written(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> ToolCall:
    """The agent wrote (created or overwrote) the file.

    Assertion form of :func:`agenteval_assert.checks.check_file_written` (same arguments and semantics).

    Returns:
        the first call that wrote the file

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_file_written(t, path, include_subagents=include_subagents)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_final_response_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False
) -> str:
    """The main agent's final response contains *text* (or satisfies a matcher).

    Assertion form of :func:`agenteval_assert.checks.check_final_response_contains` (same arguments and semantics).

    Returns:
        the final response

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_final_response_contains(t, text, ignore_case=ignore_case)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_final_response_matches(
    t: Transcript, pattern: str | Matcher, /, *, ignore_case: bool = False
) -> str:
    """The final response matches the regular expression (``regex.search``).

    Assertion form of :func:`agenteval_assert.checks.check_final_response_matches` (same arguments and semantics).

    Returns:
        the final response

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_final_response_matches(t, pattern, ignore_case=ignore_case)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_final_response_not_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False, assume_complete: bool = False
) -> None:
    """The final response does not contain *text*. INCONCLUSIVE without a final response.

    Assertion form of :func:`agenteval_assert.checks.check_final_response_not_contains` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_final_response_not_contains(t, text, ignore_case=ignore_case, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_link_absent(
    t: Transcript, url: str | Matcher | None = None, /, *, assume_complete: bool = False
) -> None:
    """The final response has no link (matching *url*, when given).

    Assertion form of :func:`agenteval_assert.checks.check_link_absent` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_link_absent(t, url, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_link_present(t: Transcript, url: str | Matcher, /) -> str:
    """The final response has a link equal to *url* (a prefix when it ends in ``/`` or ``*``).

    Assertion form of :func:`agenteval_assert.checks.check_link_present` (same arguments and semantics).

    Returns:
        the first matching link

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_link_present(t, url)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_never_after(
    t: Transcript,
    trigger: ToolSpec,
    forbidden: ToolSpec,
    /,
    *,
    include_subagents: bool = False,
    assume_complete: bool = False,
) -> None:
    """No *forbidden* call once *trigger* has happened (e.g. no Edit after the tests passed).

    Assertion form of :func:`agenteval_assert.checks.check_never_after` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_never_after(t, trigger, forbidden, include_subagents=include_subagents, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_no_duplicate_calls(
    t: Transcript,
    tools: Sequence[ToolSpec],
    /,
    *,
    ignore_failed: bool = True,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> None:
    """No two calls of the same tool with the same arguments (e.g. saving an address twice).

    Assertion form of :func:`agenteval_assert.checks.check_no_duplicate_calls` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_no_duplicate_calls(t, tools, ignore_failed=ignore_failed, include_subagents=include_subagents, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_no_tool_calls(
    t: Transcript, *, include_subagents: bool = True, assume_complete: bool = False
) -> None:
    """The agent called no tool at all.

    Assertion form of :func:`agenteval_assert.checks.check_no_tool_calls` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_no_tool_calls(t=t, include_subagents=include_subagents, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_no_tool_errors(
    t: Transcript,
    *,
    tools: Sequence[ToolSpec] | None = None,
    ignore_recovered: bool = False,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> None:
    """No call failed (optionally only among *tools*; optionally forgiving failures retried to success).

    Assertion form of :func:`agenteval_assert.checks.check_no_tool_errors` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_no_tool_errors(t=t, tools=tools, ignore_recovered=ignore_recovered, include_subagents=include_subagents, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_only_tools(
    t: Transcript,
    allowed: Sequence[ToolSpec],
    /,
    *,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> None:
    """Every call is of a tool in the allow-list (names, name matchers or ``Call``s).

    Assertion form of :func:`agenteval_assert.checks.check_only_tools` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_only_tools(t, allowed, include_subagents=include_subagents, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_resources_allowed(
    t: Transcript,
    tools: Sequence[ToolSpec],
    /,
    *,
    path: str,
    allowed: Iterable[Any] | Matcher,
    missing_ok: bool = False,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> None:
    """Every call of *tools* names only allowed resources (e.g. the user's own order ids).

    Assertion form of :func:`agenteval_assert.checks.check_resources_allowed` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_resources_allowed(t, tools, path=path, allowed=allowed, missing_ok=missing_ok, include_subagents=include_subagents, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_retried_after_failure(
    t: Transcript,
    tool: ToolSpec,
    /,
    *,
    same_args: bool = True,
    include_subagents: bool = True,
    **fields: Any,
) -> tuple[ToolCall, ToolCall]:
    """A matching call failed and a later call of the same tool succeeded (same arguments by default).

    Assertion form of :func:`agenteval_assert.checks.check_retried_after_failure` (same arguments and semantics).

    Returns:
        the failed call and its successful retry

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_retried_after_failure(t, tool, same_args=same_args, include_subagents=include_subagents, **fields)
    _raise_unless_passed(result)
    return (result.matched[0], result.matched[1])


def assert_skill_invoked(t: Transcript, name: str | Matcher, /) -> ToolCall:
    """A skill was invoked: Claude's ``Skill`` tool (``plugin:name`` matches ``name``), or a read of ``skills/<name>/SKILL.md`` (Codex has no skill tool).

    Assertion form of :func:`agenteval_assert.checks.check_skill_invoked` (same arguments and semantics).

    Returns:
        the first call that invoked the skill

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_skill_invoked(t, name)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_subagent_used(
    t: Transcript, *, type: str | Matcher | None = None, description: str | Matcher | None = None
) -> ToolCall | None:
    """A subagent was spawned (Claude Task/Agent, Codex collab ``spawn_agent``), optionally of a type.

    Assertion form of :func:`agenteval_assert.checks.check_subagent_used` (same arguments and semantics).

    Returns:
        the first subagent call (``None`` when only subagent files show it)

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_subagent_used(t=t, type=type, description=description)
    _raise_unless_passed(result)
    return result.matched[0] if result.matched else None


def assert_tool_called(
    t: Transcript,
    tool: ToolSpec,
    /,
    *,
    times: int | None = None,
    at_least: int | None = None,
    at_most: int | None = None,
    mode: ArgsMode = "partial",
    overrides: Mapping[str, Override] | None = None,
    include_subagents: bool = True,
    assume_complete: bool = False,
    **fields: Any,
) -> ToolCall | None:
    """The tool was called (with matching arguments), optionally a bounded number of times.

    Assertion form of :func:`agenteval_assert.checks.check_tool_called` (same arguments and semantics).

    Returns:
        the first matching call (``None`` with ``times=0``/``at_most=0``)

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_tool_called(t, tool, times=times, at_least=at_least, at_most=at_most, mode=mode, overrides=overrides, include_subagents=include_subagents, assume_complete=assume_complete, **fields)
    _raise_unless_passed(result)
    return result.matched[0] if result.matched else None


def assert_tool_calls(
    t: Transcript,
    expected: Sequence[ToolSpec | Unordered],
    /,
    *,
    mode: Mode = "in_order",
    args_mode: ArgsMode = "partial",
    overrides: Mapping[str, Override] | None = None,
    among: Sequence[ToolSpec] | None = None,
    include_subagents: bool = False,
    assume_complete: bool = False,
) -> tuple[ToolCall, ...]:
    """The calls relate to the expected list as *mode* says.

    Assertion form of :func:`agenteval_assert.checks.check_tool_calls` (same arguments and semantics).

    Returns:
        the matched calls, in the order of *expected*

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_tool_calls(t, expected, mode=mode, args_mode=args_mode, overrides=overrides, among=among, include_subagents=include_subagents, assume_complete=assume_complete)
    _raise_unless_passed(result)
    return tuple(result.matched)


def assert_tool_failed(
    t: Transcript, tool: ToolSpec, /, *, include_subagents: bool = True, **fields: Any
) -> ToolCall:
    """A matching call failed (error flag, failed/declined status or non-zero exit code).

    Assertion form of :func:`agenteval_assert.checks.check_tool_failed` (same arguments and semantics).

    Returns:
        the first matching call that failed

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_tool_failed(t, tool, include_subagents=include_subagents, **fields)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_tool_not_called(
    t: Transcript,
    tool: ToolSpec,
    /,
    *,
    mode: ArgsMode = "partial",
    overrides: Mapping[str, Override] | None = None,
    include_subagents: bool = True,
    assume_complete: bool = False,
    **fields: Any,
) -> None:
    """No call of the tool (with matching arguments, if given). INCONCLUSIVE on a partial transcript.

    Assertion form of :func:`agenteval_assert.checks.check_tool_not_called` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_tool_not_called(t, tool, mode=mode, overrides=overrides, include_subagents=include_subagents, assume_complete=assume_complete, **fields)
    _raise_unless_passed(result)


def assert_tool_output(
    t: Transcript,
    tool: ToolSpec,
    /,
    *,
    contains: str | None = None,
    matches: str | Matcher | None = None,
    include_subagents: bool = True,
    **fields: Any,
) -> ToolCall:
    """A matching call's output contains *contains* and/or matches the pattern *matches*.

    Assertion form of :func:`agenteval_assert.checks.check_tool_output` (same arguments and semantics).

    Returns:
        the first matching call

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_tool_output(t, tool, contains=contains, matches=matches, include_subagents=include_subagents, **fields)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_tool_succeeded(
    t: Transcript, tool: ToolSpec, /, *, include_subagents: bool = True, **fields: Any
) -> ToolCall:
    """A matching call has a result that is not an error (no error flag, exit code 0 or none).

    Assertion form of :func:`agenteval_assert.checks.check_tool_succeeded` (same arguments and semantics).

    Returns:
        the first matching call that succeeded

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_tool_succeeded(t, tool, include_subagents=include_subagents, **fields)
    _raise_unless_passed(result)
    return result.matched[0]  # type: ignore[no-any-return]


def assert_tools_not_called(
    t: Transcript,
    denied: Sequence[ToolSpec],
    /,
    *,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> None:
    """No call of any tool in the deny-list.

    Assertion form of :func:`agenteval_assert.checks.check_tools_not_called` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_tools_not_called(t, denied, include_subagents=include_subagents, assume_complete=assume_complete)
    _raise_unless_passed(result)


def assert_transcript_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False
) -> None:
    """The raw transcript file contains *text* (a matcher is applied line by line).

    Assertion form of :func:`agenteval_assert.checks.check_transcript_contains` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_transcript_contains(t, text, ignore_case=ignore_case)
    _raise_unless_passed(result)


def assert_transcript_not_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False, assume_complete: bool = False
) -> None:
    """The raw transcript file does not contain *text* (e.g. a secret). Lists every hit.

    Assertion form of :func:`agenteval_assert.checks.check_transcript_not_contains` (same arguments and semantics).

    Returns:
        ``None``.

    Raises:
        TranscriptAssertionError: the check failed. InconclusiveError: the transcript cannot
        decide it. CheckError: the check could not run.
    """
    __tracebackhide__ = True
    result = checks.check_transcript_not_contains(t, text, ignore_case=ignore_case, assume_complete=assume_complete)
    _raise_unless_passed(result)
