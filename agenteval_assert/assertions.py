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
The functions are made by one factory, ``_assertion``: its ``ParamSpec`` gives each the exact
parameters of its check for type checkers, and ``functools.wraps`` gives it the check's
signature for editors and ``inspect.signature``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import NoReturn, ParamSpec, TypeVar, cast

from . import _observe, checks
from .model import ToolCall
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

P = ParamSpec("P")
R = TypeVar("R")


def _raise(result: CheckResult) -> NoReturn:
    __tracebackhide__ = True
    if result.status is Status.INCONCLUSIVE:
        raise InconclusiveError(result)
    if result.status is Status.ERROR:
        raise CheckError(result)
    raise TranscriptAssertionError(result)


# What an assertion returns on success, taken from ``CheckResult.matched``.


def _nothing(result: CheckResult) -> None:
    return None


def _first_call(result: CheckResult) -> ToolCall:
    return cast(ToolCall, result.matched[0])


def _first_call_or_none(result: CheckResult) -> ToolCall | None:
    return cast(ToolCall, result.matched[0]) if result.matched else None


def _first_text(result: CheckResult) -> str:
    return cast(str, result.matched[0])


def _pair(result: CheckResult) -> tuple[ToolCall, ToolCall]:
    return cast(ToolCall, result.matched[0]), cast(ToolCall, result.matched[1])


def _all(result: CheckResult) -> tuple[ToolCall, ...]:
    return tuple(cast(ToolCall, m) for m in result.matched)


_RAISES = """
    Raises:
        TranscriptAssertionError: the check failed.
        InconclusiveError: the transcript cannot decide it (a ``TranscriptAssertionError``).
        CheckError: the check could not run.
"""


def _assertion(
    check: Callable[P, CheckResult], returns: Callable[[CheckResult], R], returns_doc: str
) -> Callable[P, R]:
    """The assertion form of *check*: same parameters, raises unless the result is PASS."""

    @functools.wraps(check)
    def assertion(*args: P.args, **kwargs: P.kwargs) -> R:
        __tracebackhide__ = True
        result = check(*args, **kwargs)
        if _observe.observers:  # the pytest plugin's --agenteval-report
            _observe.emit(args[0] if args else kwargs.get("t"), result)
        if result.status is not Status.PASS:
            _raise(result)
        return returns(result)

    name = "assert_" + check.__name__.removeprefix("check_")
    assertion.__name__ = assertion.__qualname__ = name
    assertion.__module__ = __name__
    summary = (check.__doc__ or "").strip().split("\n\n")[0]
    assertion.__doc__ = (
        f"{summary}\n\n    Assertion form of :func:`agenteval_assert.checks.{check.__name__}` (same "
        f"arguments and semantics).\n\n    Returns:\n        {returns_doc}\n{_RAISES}"
    )
    returned = returns.__annotations__.get("return", "Any")
    assertion.__annotations__ = {**getattr(check, "__annotations__", {}), "return": returned}
    # inspect.signature() follows __wrapped__ to the check: give it the assertion's return instead
    assertion.__signature__ = inspect.signature(check).replace(  # type: ignore[attr-defined]
        return_annotation=returned
    )
    return assertion


assert_budget = _assertion(checks.check_budget, _nothing, '``None``.')
assert_called_after = _assertion(checks.check_called_after, _pair, 'the deciding pair of calls (earlier, later)')
assert_called_before = _assertion(checks.check_called_before, _pair, 'the deciding pair of calls')
assert_called_within = _assertion(checks.check_called_within, _all, 'the follow-up calls')
assert_command_ran = _assertion(checks.check_command_ran, _first_call, 'the first matching shell call')
assert_command_succeeded = _assertion(checks.check_command_succeeded, _first_call, 'the first matching shell call that succeeded')
assert_confirmed_before_write = _assertion(checks.check_confirmed_before_write, _all, 'the write calls')
assert_failures_not_reported_as_success = _assertion(checks.check_failures_not_reported_as_success, _nothing, '``None``.')
assert_file_changed = _assertion(checks.check_file_changed, _first_call, 'the first call that changed the file')
assert_file_edited = _assertion(checks.check_file_edited, _first_call, 'the first call that edited the file')
assert_file_not_changed = _assertion(checks.check_file_not_changed, _nothing, '``None``.')
assert_file_read = _assertion(checks.check_file_read, _first_call, 'the first call that read the file')
assert_file_written = _assertion(checks.check_file_written, _first_call, 'the first call that wrote the file')
assert_final_response_contains = _assertion(checks.check_final_response_contains, _first_text, 'the final response')
assert_final_response_matches = _assertion(checks.check_final_response_matches, _first_text, 'the final response')
assert_final_response_not_contains = _assertion(checks.check_final_response_not_contains, _nothing, '``None``.')
assert_link_absent = _assertion(checks.check_link_absent, _nothing, '``None``.')
assert_link_present = _assertion(checks.check_link_present, _first_text, 'the first matching link')
assert_never_after = _assertion(checks.check_never_after, _nothing, '``None``.')
assert_no_duplicate_calls = _assertion(checks.check_no_duplicate_calls, _nothing, '``None``.')
assert_no_tool_calls = _assertion(checks.check_no_tool_calls, _nothing, '``None``.')
assert_no_tool_errors = _assertion(checks.check_no_tool_errors, _nothing, '``None``.')
assert_only_tools = _assertion(checks.check_only_tools, _nothing, '``None``.')
assert_resources_allowed = _assertion(checks.check_resources_allowed, _nothing, '``None``.')
assert_retried_after_failure = _assertion(checks.check_retried_after_failure, _pair, 'the failed call and its successful retry')
assert_skill_invoked = _assertion(checks.check_skill_invoked, _first_call, 'the first call that invoked the skill')
assert_subagent_used = _assertion(checks.check_subagent_used, _first_call_or_none, 'the first subagent call (``None`` when only subagent files show it)')
assert_tool_called = _assertion(checks.check_tool_called, _first_call_or_none, 'the first matching call (``None`` with ``times=0``/``at_most=0``)')
assert_tool_calls = _assertion(checks.check_tool_calls, _all, 'the matched calls, in the order of *expected*')
assert_tool_failed = _assertion(checks.check_tool_failed, _first_call, 'the first matching call that failed')
assert_tool_not_called = _assertion(checks.check_tool_not_called, _nothing, '``None``.')
assert_tool_output = _assertion(checks.check_tool_output, _first_call, 'the first matching call')
assert_tool_succeeded = _assertion(checks.check_tool_succeeded, _first_call, 'the first matching call that succeeded')
assert_tools_not_called = _assertion(checks.check_tools_not_called, _nothing, '``None``.')
assert_transcript_contains = _assertion(checks.check_transcript_contains, _nothing, '``None``.')
assert_transcript_not_contains = _assertion(checks.check_transcript_not_contains, _nothing, '``None``.')
