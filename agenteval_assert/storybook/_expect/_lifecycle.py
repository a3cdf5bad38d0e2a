"""§5.8 lifecycle: shell commands, dependency versions, and booting Storybook in the sandbox."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any

from ...exceptions import UsageError
from ...model import Location
from ...results import CheckResult, Evidence
from .._context import _MISSING, EvalContext, js_string
from ._common import _fail, _pass
from ._environment import _read_json_or_missing, _shell_evidence
from ._js import Pattern, _compile_user, _search, js_regex_source, json_stringify, trunc

__all__ = [
    "expect_shell_command_matching",
    "expect_storybook_boots",
    "expect_storybook_dependencies_at_least",
]


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
