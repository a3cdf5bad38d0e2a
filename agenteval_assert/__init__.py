"""agenteval-assert: parse coding-agent transcripts into one typed model and assert on what the agent did.

Start with ``load(path)`` (auto-detects the format) and read the ``Transcript`` it returns.

``import agenteval_assert as aa`` is the one import a test needs: the model (``aa.Transcript``,
``aa.ToolCall``...), ``aa.load``/``aa.parse``, the matchers, the results, every ``aa.check_*``
and every ``aa.assert_*``. The submodules (``aa.checks``, ``aa.matchers``, ``aa.shell``,
``aa.storybook``, ``aa.judge``...) hold the same names and more. Names are imported on first use (PEP 562),
so that ``import agenteval_assert`` stays cheap.
"""

from __future__ import annotations

import importlib as _importlib
import sys as _sys
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

from ._version import __version__

if _TYPE_CHECKING:
    # What type checkers and editors see; at run time the same names come from ``__getattr__``.
    from . import assertions as assertions
    from . import checks as checks
    from . import exceptions as exceptions
    from . import formats as formats
    from . import judge as judge
    from . import markdown as markdown
    from . import matchers as matchers
    from . import model as model
    from . import results as results
    from . import shell as shell
    from . import storybook as storybook
    from . import strategies as strategies
    from ._parsers import FORMATS, detect_format, from_messages, load, load_all, parse
    from ._parsers._claude import find_subagent_files
    from .assertions import (
        assert_budget,
        assert_called_after,
        assert_called_before,
        assert_called_within,
        assert_command_ran,
        assert_command_succeeded,
        assert_confirmed_before_write,
        assert_failures_not_reported_as_success,
        assert_file_changed,
        assert_file_edited,
        assert_file_not_changed,
        assert_file_read,
        assert_file_written,
        assert_final_response_contains,
        assert_final_response_matches,
        assert_final_response_not_contains,
        assert_link_absent,
        assert_link_present,
        assert_never_after,
        assert_no_duplicate_calls,
        assert_no_tool_calls,
        assert_no_tool_errors,
        assert_only_tools,
        assert_resources_allowed,
        assert_retried_after_failure,
        assert_skill_invoked,
        assert_subagent_used,
        assert_tool_called,
        assert_tool_calls,
        assert_tool_failed,
        assert_tool_not_called,
        assert_tool_output,
        assert_tool_succeeded,
        assert_tools_not_called,
        assert_transcript_contains,
        assert_transcript_not_contains,
    )
    from .checks import (
        DEFAULT_ACKNOWLEDGEMENT,
        DEFAULT_ANSWER,
        DEFAULT_CONFIRMATION,
        DEFAULT_FAILURE_OUTPUT,
        MODES,
        FileEvent,
        FlagSpec,
        Mode,
        check_budget,
        check_called_after,
        check_called_before,
        check_called_within,
        check_command_ran,
        check_command_succeeded,
        check_confirmed_before_write,
        check_failures_not_reported_as_success,
        check_file_changed,
        check_file_edited,
        check_file_not_changed,
        check_file_read,
        check_file_written,
        check_final_response_contains,
        check_final_response_matches,
        check_final_response_not_contains,
        check_link_absent,
        check_link_present,
        check_never_after,
        check_no_duplicate_calls,
        check_no_tool_calls,
        check_no_tool_errors,
        check_only_tools,
        check_resources_allowed,
        check_retried_after_failure,
        check_skill_invoked,
        check_subagent_used,
        check_tool_called,
        check_tool_calls,
        check_tool_failed,
        check_tool_not_called,
        check_tool_output,
        check_tool_succeeded,
        check_tools_not_called,
        check_transcript_contains,
        check_transcript_not_contains,
        file_events,
    )
    from .exceptions import (
        AgentEvalError,
        FormatPluginError,
        MultipleTranscriptsError,
        TranscriptError,
        TranscriptParseError,
        UnknownFormatError,
        UsageError,
    )
    from .judge import Judge, Verdict, assert_criterion, check_criterion, judge_verdict
    from .matchers import (
        ABSENT,
        ANY,
        Absent,
        AllOf,
        AnyOf,
        Anything,
        Approx,
        ArgsMode,
        Call,
        Contains,
        Exact,
        IgnoringKeys,
        JsonPath,
        Matcher,
        Matches,
        Not,
        OfType,
        OneOf,
        Partial,
        RegexTimeoutError,
        Satisfies,
        ToolSpec,
        Unordered,
        args_differences,
        as_call,
        values_match,
    )
    from .model import (
        Health,
        LineIssue,
        Location,
        Message,
        RunError,
        Step,
        Subagent,
        Thinking,
        ToolCall,
        ToolResult,
        Transcript,
        Usage,
    )
    from .results import (
        CheckError,
        CheckResult,
        Difference,
        Evidence,
        InconclusiveError,
        NearestMiss,
        Status,
        TranscriptAssertionError,
    )

__all__ = [
    "ABSENT",
    "ANY",
    "DEFAULT_ACKNOWLEDGEMENT",
    "DEFAULT_ANSWER",
    "DEFAULT_CONFIRMATION",
    "DEFAULT_FAILURE_OUTPUT",
    "FORMATS",
    "MODES",
    "Absent",
    "AgentEvalError",
    "AllOf",
    "AnyOf",
    "Anything",
    "Approx",
    "ArgsMode",
    "Call",
    "CheckError",
    "CheckResult",
    "Contains",
    "Difference",
    "Evidence",
    "Exact",
    "FileEvent",
    "FlagSpec",
    "FormatPluginError",
    "Health",
    "IgnoringKeys",
    "InconclusiveError",
    "JsonPath",
    "Judge",
    "LineIssue",
    "Location",
    "Matcher",
    "Matches",
    "Message",
    "Mode",
    "MultipleTranscriptsError",
    "NearestMiss",
    "Not",
    "OfType",
    "OneOf",
    "Partial",
    "RegexTimeoutError",
    "RunError",
    "Satisfies",
    "Status",
    "Step",
    "Subagent",
    "Thinking",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
    "Transcript",
    "TranscriptAssertionError",
    "TranscriptError",
    "TranscriptParseError",
    "UnknownFormatError",
    "Unordered",
    "Usage",
    "UsageError",
    "Verdict",
    "__version__",
    "args_differences",
    "as_call",
    "assert_budget",
    "assert_called_after",
    "assert_called_before",
    "assert_called_within",
    "assert_command_ran",
    "assert_command_succeeded",
    "assert_confirmed_before_write",
    "assert_criterion",
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
    "check_budget",
    "check_called_after",
    "check_called_before",
    "check_called_within",
    "check_command_ran",
    "check_command_succeeded",
    "check_confirmed_before_write",
    "check_criterion",
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
    "detect_format",
    "file_events",
    "find_subagent_files",
    "from_messages",
    "judge_verdict",
    "load",
    "load_all",
    "parse",
    "values_match",
]

#: The module each name of ``__all__`` is imported from on first use (the same imports as the
#: ``TYPE_CHECKING`` block: a test keeps the two equal).
_LAZY: dict[str, tuple[str, ...]] = {
    "._parsers": ("FORMATS", "detect_format", "from_messages", "load", "load_all", "parse"),
    "._parsers._claude": ("find_subagent_files",),
    ".assertions": (
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
    ),
    ".checks": (
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
    ),
    ".judge": ("Judge", "Verdict", "assert_criterion", "check_criterion", "judge_verdict"),
    ".exceptions": (
        "AgentEvalError",
        "FormatPluginError",
        "MultipleTranscriptsError",
        "TranscriptError",
        "TranscriptParseError",
        "UnknownFormatError",
        "UsageError",
    ),
    ".matchers": (
        "ABSENT",
        "ANY",
        "Absent",
        "AllOf",
        "AnyOf",
        "Anything",
        "Approx",
        "ArgsMode",
        "Call",
        "Contains",
        "Exact",
        "IgnoringKeys",
        "JsonPath",
        "Matcher",
        "Matches",
        "Not",
        "OfType",
        "OneOf",
        "Partial",
        "RegexTimeoutError",
        "Satisfies",
        "ToolSpec",
        "Unordered",
        "args_differences",
        "as_call",
        "values_match",
    ),
    ".model": (
        "Health",
        "LineIssue",
        "Location",
        "Message",
        "RunError",
        "Step",
        "Subagent",
        "Thinking",
        "ToolCall",
        "ToolResult",
        "Transcript",
        "Usage",
    ),
    ".results": (
        "CheckError",
        "CheckResult",
        "Difference",
        "Evidence",
        "InconclusiveError",
        "NearestMiss",
        "Status",
        "TranscriptAssertionError",
    ),
}
#: Each name and the absolute name of the module it lives in.
_WHERE: dict[str, str] = {name: __name__ + module for module, names in _LAZY.items() for name in names}

#: The public submodules, imported on first use as attributes (``aa.checks``, ``aa.storybook``...).
_SUBMODULES = frozenset(
    {
        "assertions",
        "checks",
        "exceptions",
        "formats",
        "judge",
        "markdown",
        "matchers",
        "model",
        "results",
        "shell",
        "storybook",
        "strategies",
    }
)


if not _TYPE_CHECKING:  # hidden from type checkers, so that a misspelt name is still an error

    def __getattr__(name: str) -> _Any:
        """Import *name* on first use (PEP 562). Names are looked up in their module each time
        (a dictionary look-up) and never kept here, nor are submodules (``_LazyPackage``): a
        module dropped from ``sys.modules`` and imported again (pytester's in-process runs do
        that) gives its new names, so two copies of a class (two ``Status`` enums) never meet."""
        module = _WHERE.get(name)
        if module is not None:
            source = _sys.modules.get(module)
            # a module another thread is still importing is in sys.modules half made (its spec
            # says so, as CPython's own import checks): import_module waits for it (its lock)
            if source is None or getattr(getattr(source, "__spec__", None), "_initializing", False):
                source = _importlib.import_module(module)
            return getattr(source, name)
        if name in _SUBMODULES or name in _CHILDREN:
            return _importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    #: The submodules imported so far: attributes resolved by ``__getattr__``.
    _CHILDREN: set[str] = set()

    class _LazyPackage(type(_sys)):  # type: ignore[misc]
        """A package that does not keep its submodules as attributes (the import system sets
        them): ``pkg.sub`` and ``from pkg import sub`` find the submodule in ``sys.modules``
        through the package's ``__getattr__``, so a submodule dropped from ``sys.modules`` and
        imported again is never seen in its old copy."""

        def __setattr__(self, name: str, value: _Any) -> None:
            if isinstance(value, type(_sys)) and value.__name__ == f"{self.__name__}.{name}":
                self.__dict__.setdefault("_CHILDREN", set()).add(name)
                self.__dict__.pop(name, None)
                return
            super().__setattr__(name, value)

    _sys.modules[__name__].__class__ = _LazyPackage


def __dir__() -> list[str]:
    return sorted({*__all__, *_SUBMODULES, *(k for k in globals() if k.startswith("__"))})
