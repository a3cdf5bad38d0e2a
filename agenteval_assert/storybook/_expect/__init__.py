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

from ._common import (
    A11Y_VISUAL_CHANGE_APPROVAL_CRITERION,
    DISPLAY_REVIEW_CURATION_CRITERION,
    StoryInputExpectation,
    get_eval_context,
    get_final_assistant_message,
    get_shell_commands,
    get_storybook_workflow_calls,
    get_transcript,
    get_workflow_calls,
    get_workflow_tool_results,
    is_record,
    is_review_enabled,
    parse_json,
    select_final_run_story_tests_report,
    workflow_call_includes_story,
    workflow_call_uses_story_id,
)
from ._common import _call_evidence as _call_evidence
from ._common import _considered as _considered
from ._common import _fail as _fail
from ._common import _input as _input
from ._common import _never as _never
from ._common import _result_evidence as _result_evidence
from ._common import _story_inputs as _story_inputs
from ._environment import _read_json_or_missing as _read_json_or_missing
from ._environment import (
    expect_dev_server_left_running,
    expect_preview_browser_started,
    expect_preview_opened_in_browser,
    expect_review_opened_in_browser,
    expect_skill_invoked,
    expect_valid_storybook_launch_config,
    find_dev_server_kill_commands,
    is_local_dev_server_url,
    is_local_storybook_preview_url,
    parse_codex_browser_navigations,
)
from ._js import PATTERN_TIMEOUT as PATTERN_TIMEOUT
from ._js import Pattern as Pattern
from ._js import js_regex_source, json_stringify, trunc
from ._lifecycle import (
    expect_shell_command_matching,
    expect_storybook_boots,
    expect_storybook_dependencies_at_least,
)
from ._review import (
    expect_all_story_exports_in_display_review,
    expect_display_review_for_browse_request,
    expect_display_review_for_visual_change,
    expect_documentation_tooling_called,
    expect_final_response_contains,
    expect_final_response_matches,
    expect_no_display_review,
    expect_preview_stories_with_final_links,
    expect_story_discovery_before_review,
    expect_story_ids_in_display_review,
    expect_workflow_calls,
)
from ._story_tests import SANDBOX_TEST_ARGV as SANDBOX_TEST_ARGV
from ._story_tests import Runner as Runner
from ._story_tests import (
    SandboxTestRun,
    expect_story_tests_ran_and_passed,
    run_story_tests_in_sandbox,
)

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
