"""§5.5 story tests: the final ``test-run`` report, and the rerun of the story tests in the sandbox."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from ...results import CheckResult, Evidence
from .._context import EvalContext, js_string, json_parse
from ._common import (
    _absent,
    _call_evidence,
    _fail,
    _n,
    _needs_transcript,
    _pass,
    _rename,
    _result_evidence,
    get_workflow_calls,
    get_workflow_tool_results,
    select_final_run_story_tests_report,
)
from ._js import json_stringify, trunc
from ._review import expect_workflow_calls

__all__ = [
    "SandboxTestRun",
    "expect_story_tests_ran_and_passed",
    "run_story_tests_in_sandbox",
]


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
            parsed = json_parse(m.group(0))
        except ValueError:
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
    if require_agent_run or not do_rerun:
        _needs_transcript(ctx, name, f"the agent's {tr} results")
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
