"""General trajectory checks: pure functions from a ``Transcript`` to a ``CheckResult``.

Every ``check_*`` function returns a result and never raises for a failed expectation; the
``assert_*`` functions of ``agenteval_assert.assertions`` wrap them. A check raises only when it
is called the wrong way (``UsageError``). When something the caller supplied breaks while the
check runs (a predicate raises, a regex times out, the raw file cannot be read) the result is
ERROR, naming the exception.

Never a silent pass: checks that pass because something is *absent* (not called, never after,
does not contain, only from, at most N...) return INCONCLUSIVE when the transcript is empty,
did not parse cleanly, ends in a torn line or has calls with no result — unless the caller
passes ``assume_complete=True``. Checks over "every call of X" that had no X to look at pass
with ``vacuous=True``, which the rendering says.

Which calls a check sees: existence, count, negative, shell, file, skill and safety checks look
at every call in the file, subagents included (a subagent's ``rm -rf`` is still the agent's);
order checks (``check_tool_calls``, ``before``/``after``/``within``/``never_after``) look at the
main agent's calls only, because interleaved subagent calls have no meaningful order relative
to the parent. Every check takes ``include_subagents=`` to choose otherwise.

The checks live in one private module per kind (``_calls``, ``_ordering``, ``_outcomes``,
``_outputs``, ``_shell``, ``_files``, ``_final_response``, ``_budgets``, ``_safety``) over the
shared machinery of ``_common``; import them from here, ``agenteval_assert.checks``.
"""

from __future__ import annotations

from ._budgets import check_budget, check_skill_invoked, check_subagent_used
from ._calls import (
    check_no_tool_calls,
    check_only_tools,
    check_tool_called,
    check_tool_not_called,
    check_tools_not_called,
)
from ._files import (
    FileEvent,
    check_file_changed,
    check_file_edited,
    check_file_not_changed,
    check_file_read,
    check_file_written,
    file_events,
)
from ._final_response import (
    check_final_response_contains,
    check_final_response_matches,
    check_final_response_not_contains,
    check_link_absent,
    check_link_present,
)
from ._ordering import (
    MODES,
    Mode,
    check_called_after,
    check_called_before,
    check_called_within,
    check_never_after,
    check_tool_calls,
)
from ._outcomes import (
    check_no_tool_errors,
    check_retried_after_failure,
    check_tool_failed,
    check_tool_succeeded,
)
from ._outputs import check_tool_output, check_transcript_contains, check_transcript_not_contains
from ._safety import (
    DEFAULT_ACKNOWLEDGEMENT,
    DEFAULT_ANSWER,
    DEFAULT_CONFIRMATION,
    DEFAULT_FAILURE_OUTPUT,
    check_confirmed_before_write,
    check_failures_not_reported_as_success,
    check_no_duplicate_calls,
    check_resources_allowed,
)
from ._shell import FlagSpec, check_command_ran, check_command_succeeded

__all__ = [
    "DEFAULT_ACKNOWLEDGEMENT",
    "DEFAULT_ANSWER",
    "DEFAULT_CONFIRMATION",
    "DEFAULT_FAILURE_OUTPUT",
    "MODES",
    "FileEvent",
    "FlagSpec",
    "Mode",
    "check_budget",
    "check_called_after",
    "check_called_before",
    "check_called_within",
    "check_command_ran",
    "check_command_succeeded",
    "check_confirmed_before_write",
    "check_failures_not_reported_as_success",
    "check_file_changed",
    "check_file_edited",
    "check_file_not_changed",
    "check_file_read",
    "check_file_written",
    "check_final_response_contains",
    "check_final_response_matches",
    "check_final_response_not_contains",
    "check_link_absent",
    "check_link_present",
    "check_never_after",
    "check_no_duplicate_calls",
    "check_no_tool_calls",
    "check_no_tool_errors",
    "check_only_tools",
    "check_resources_allowed",
    "check_retried_after_failure",
    "check_skill_invoked",
    "check_subagent_used",
    "check_tool_called",
    "check_tool_calls",
    "check_tool_failed",
    "check_tool_not_called",
    "check_tool_output",
    "check_tool_succeeded",
    "check_tools_not_called",
    "check_transcript_contains",
    "check_transcript_not_contains",
    "file_events",
]
