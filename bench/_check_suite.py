"""The "50 mixed checks" of the benchmark, built on ``agenteval_assert.checks``.

The mix is what a real eval file asks of a long Claude session: existence and counts with
argument matchers, negatives, order (in order, covers, only-from, before/after/within/never
after), outcomes and retries, tool outputs (substring and regex), shell commands, file events,
the final response and its links, raw-text searches of the whole file, budgets, subagents,
skills, duplicates, confirmations. Names and values fit the generated Claude session logs
(``bench.generate``), so most checks do real work (a pass has to find its evidence, a fail its
nearest miss).

``suite()`` returns ``None`` while ``agenteval_assert.checks`` does not exist; ``bench._measure``
then times the built-in health checks instead (and the report says which suite ran). A check
that raises (an API that changed under the suite) counts as ``raised: <Exception>`` in the
outcomes, so a broken suite shows in the report instead of stopping the benchmark.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

SUITE_NAME = "50 mixed check_* calls (agenteval_assert.checks)"


def _checks() -> list[tuple[str, Callable[[Any], Any]]] | None:
    try:
        from agenteval_assert import checks as c  # type: ignore[attr-defined, unused-ignore]
        from agenteval_assert.matchers import (  # type: ignore[import-not-found, unused-ignore]
            Call,
            Contains,
            Matches,
        )
    except ImportError:
        return None
    tools = ["Read", "Bash", "Edit", "Grep", "Glob", "Write", "TodoWrite", "WebFetch", "WebSearch",
             "mcp__storybook__list-all-documentation", "mcp__storybook__get-documentation",
             "mcp__playwright__browser_navigate", "mcp__happy__change_title", "Task"]
    tsx = Matches(r"\.tsx$")
    suite: list[tuple[str, Callable[[Any], Any]]] = [
        # existence, counts, argument matchers
        ("tool_called Read", lambda t: c.check_tool_called(t, "Read")),
        ("tool_called Bash at_least", lambda t: c.check_tool_called(t, "Bash", at_least=10)),
        ("tool_called Bash command", lambda t: c.check_tool_called(t, Call("Bash", command=Contains("npm test")))),
        ("tool_called Edit at_most", lambda t: c.check_tool_called(t, "Edit", at_most=1_000_000)),
        ("tool_called kind=file_edit", lambda t: c.check_tool_called(t, Call(kind="file_edit"))),
        ("tool_called MCP", lambda t: c.check_tool_called(t, "mcp__storybook__get-documentation")),
        ("tool_called Read .tsx", lambda t: c.check_tool_called(t, Call("Read", file_path=tsx))),
        ("tool_called Task (absent)", lambda t: c.check_tool_called(t, "Task")),
        ("tool_called Write exact", lambda t: c.check_tool_called(t, "Write", times=3)),
        ("tool_called Grep pattern", lambda t: c.check_tool_called(t, Call("Grep", pattern="button"))),
        # negatives
        ("tool_not_called NotebookEdit", lambda t: c.check_tool_not_called(t, "NotebookEdit")),
        ("tool_not_called rm -rf", lambda t: c.check_tool_not_called(t, Call("Bash", command=Contains("rm -rf")))),
        ("tools_not_called", lambda t: c.check_tools_not_called(t, ["KillShell", "ExitPlanMode", "NotebookEdit"])),
        ("only_tools", lambda t: c.check_only_tools(t, tools)),
        ("no_tool_calls", lambda t: c.check_no_tool_calls(t)),
        # order
        ("tool_calls in_order", lambda t: c.check_tool_calls(t, ["Read", "Edit", "Bash"], mode="in_order")),
        ("tool_calls covers", lambda t: c.check_tool_calls(t, ["Read", "Grep", "Glob"], mode="covers")),
        ("tool_calls only_from", lambda t: c.check_tool_calls(t, tools, mode="only_from")),
        ("called_before", lambda t: c.check_called_before(t, "Read", "Edit")),
        ("called_before every", lambda t: c.check_called_before(t, "Read", "Edit", every=True)),
        ("called_after", lambda t: c.check_called_after(t, "Bash", "Edit")),
        ("called_within", lambda t: c.check_called_within(t, "Edit", "Bash", steps=5)),
        ("never_after", lambda t: c.check_never_after(t, "Write", "WebSearch")),
        # outcomes
        ("tool_succeeded Glob", lambda t: c.check_tool_succeeded(t, "Glob")),
        ("tool_failed Bash", lambda t: c.check_tool_failed(t, "Bash")),
        ("no_tool_errors", lambda t: c.check_no_tool_errors(t)),
        ("no_tool_errors recovered", lambda t: c.check_no_tool_errors(t, ignore_recovered=True)),
        ("retried_after_failure", lambda t: c.check_retried_after_failure(t, "Bash", same_args=False)),
        ("failures_not_reported", lambda t: c.check_failures_not_reported_as_success(t)),
        # outputs and shell
        ("tool_output contains", lambda t: c.check_tool_output(t, "Bash", contains="passed")),
        ("tool_output regex", lambda t: c.check_tool_output(t, "Read", matches=Matches(r"import \{ \w+"))),
        ("command_ran", lambda t: c.check_command_ran(t, "npm test")),
        ("command_ran regex ok", lambda t: c.check_command_ran(t, Matches(r"git (status|diff)"), succeeded=True)),
        ("command_succeeded", lambda t: c.check_command_succeeded(t, "ls -la")),
        # files
        ("file_read", lambda t: c.check_file_read(t, Matches(r"/stories/"))),
        ("file_written .tsx", lambda t: c.check_file_written(t, tsx)),
        ("file_edited", lambda t: c.check_file_edited(t, Matches(r"Button"))),
        ("file_changed", lambda t: c.check_file_changed(t, Matches(r"components"))),
        ("file_not_changed", lambda t: c.check_file_not_changed(t, "/home/dev/project/package.json")),
        # final response, links, raw text
        ("final_contains", lambda t: c.check_final_response_contains(t, "Button")),
        ("final_matches", lambda t: c.check_final_response_matches(t, Matches(r"(?i)stor(y|ies)"))),
        ("final_not_contains", lambda t: c.check_final_response_not_contains(t, "I could not")),
        ("link_present", lambda t: c.check_link_present(t, Matches(r"example\.org"))),
        ("link_absent", lambda t: c.check_link_absent(t, "http://malware.test/")),
        ("transcript_contains", lambda t: c.check_transcript_contains(t, "npx storybook ai test")),
        ("transcript_not_contains", lambda t: c.check_transcript_not_contains(t, "BEGIN RSA PRIVATE KEY")),
        # budgets, subagents, skills, duplicates, confirmation
        ("budget", lambda t: c.check_budget(t, max_tool_calls=1_000_000, max_tokens=10**13)),
        ("subagent_used", lambda t: c.check_subagent_used(t)),
        ("skill_invoked", lambda t: c.check_skill_invoked(t, "storybook")),
        ("no_duplicate_calls", lambda t: c.check_no_duplicate_calls(t, ["Write", "Edit"])),
    ]
    return suite


#: Seconds per check of the last run, ``(label, seconds)`` in suite order (read by the bench).
LAST_TIMINGS: list[tuple[str, float]] = []


def _run_all(suite: list[tuple[str, Callable[[Any], Any]]]) -> Callable[[Any], list[Any]]:
    def run(t: Any) -> list[Any]:
        out: list[Any] = []
        LAST_TIMINGS.clear()
        for name, fn in suite:
            t0 = time.process_time()
            try:
                out.append(fn(t))
            except Exception as exc:  # noqa: BLE001 - counted and shown, never fatal to the bench
                out.append(f"raised: {type(exc).__name__}")
            LAST_TIMINGS.append((name, time.process_time() - t0))
        return out

    return run


def suite() -> tuple[str, Callable[[Any], list[Any]]] | None:
    """``(name, run)`` where ``run(transcript)`` returns one outcome per check; ``None`` when
    ``agenteval_assert.checks`` is not there."""
    checks = _checks()
    if checks is None:
        return None
    return SUITE_NAME, _run_all(checks)


def names() -> list[str]:
    """The labels of the checks, in order (empty without ``agenteval_assert.checks``)."""
    return [n for n, _ in _checks() or []]
