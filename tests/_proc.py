"""Child processes of the tests: every wait is bounded, and a failure says what ran and what it
printed (the machine that runs the suite may be shared and heavily loaded)."""

from __future__ import annotations

import concurrent.futures as cf
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pytest

#: Seconds a child process may take: generous (an interpreter that imports the library starts in
#: well under a second on an idle machine), so that only a hang fails, and then with its output.
TIMEOUT = 300.0

T = TypeVar("T")


def _tail(text: str | bytes | None, limit: int = 2000) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = text or ""
    return text if len(text) <= limit else "..." + text[-limit:]


def run(argv: Sequence[str], *, timeout: float = TIMEOUT, check: bool = False, **kw: Any) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(argv, text=True)`` capturing the output unless *kw* redirects it, killed
    after *timeout* seconds with a test failure that shows the command and its output so far;
    with *check*, a non-zero exit status is a test failure that shows the same."""
    if "stdout" not in kw and "stderr" not in kw:
        kw["capture_output"] = True
    shown = shlex.join(str(a) for a in argv)
    if len(shown) > 300:
        shown = shown[:300] + "..."
    try:
        proc = subprocess.run(list(argv), text=True, timeout=timeout, check=False, **kw)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"`{shown}` did not finish within {timeout:g} s and was killed\n"
                    f"stdout: {_tail(exc.stdout)}\nstderr: {_tail(exc.stderr)}", pytrace=False)
    if check and proc.returncode != 0:
        pytest.fail(f"`{shown}` exited with status {proc.returncode}\n"
                    f"stdout: {_tail(proc.stdout)}\nstderr: {_tail(proc.stderr)}", pytrace=False)
    return proc


def python(code: str, *, timeout: float = TIMEOUT, check: bool = True, **kw: Any) -> subprocess.CompletedProcess[str]:
    """``python -c CODE`` in this interpreter, as ``run``; a non-zero exit fails the test by default."""
    return run([sys.executable, "-c", code], timeout=timeout, check=check, **kw)


def within(what: str, work: Callable[[], T], seconds: float = TIMEOUT) -> T:
    """*work()* (which waits on worker processes: a pool, a cluster), or a test failure naming
    *what* if it has not finished after *seconds*: a hung worker must not hang the suite."""
    pool = cf.ThreadPoolExecutor(1)
    future = pool.submit(work)
    try:
        return future.result(timeout=seconds)
    except cf.TimeoutError:
        pytest.fail(f"{what} did not finish within {seconds:g} s", pytrace=False)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
