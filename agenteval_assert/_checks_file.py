"""Checks files for ``python -m agenteval_assert check TRANSCRIPT --checks FILE.py``.

A checks file is a plain Python module. Every function *defined in it* whose name starts with
``check_`` is a check; it takes the parsed ``Transcript`` and either

* returns a ``CheckResult`` (from ``agenteval_assert.checks``, or built by hand),
* returns ``None`` / ``True`` after asserting (``assert_*`` functions, or plain ``assert``) → PASS,
* returns ``False`` → FAIL,
* raises ``TranscriptAssertionError`` (FAIL) / ``InconclusiveError`` / ``CheckError``, whose
  result is used as it is, or a plain ``AssertionError`` → FAIL with its message,
* raises anything else → ERROR naming the exception and the line of the checks file.

Functions imported into the file (``from agenteval_assert.checks import check_tool_called``)
are not checks of that file: only functions whose ``__module__`` is the file's module count.
They run in definition order.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import sys
import traceback
from collections.abc import Callable
from types import ModuleType
from typing import Any

import attrs

from .exceptions import AgentEvalError, UsageError
from .model import Location, Transcript
from .results import CheckError, CheckResult, Evidence, Status, TranscriptAssertionError, cut_middle

__all__ = ["load_checks", "run_check"]

CheckFunction = Callable[[Transcript], Any]


def _module_name(path: str) -> str:
    digest = hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:12]
    stem = "".join(ch if ch.isalnum() else "_" for ch in os.path.splitext(os.path.basename(path))[0])
    return f"agenteval_checks_{stem}_{digest}"


def _import(path: str) -> ModuleType:
    if not os.path.isfile(path):
        raise UsageError(f"{path}: checks file not found (expected a Python file with check_* functions)")
    name = _module_name(path)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UsageError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    # Registered before execution so that dataclasses/attrs/pickling inside the file work.
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        sys.modules.pop(name, None)
        raise UsageError(f"{path}:{exc.lineno}: syntax error in checks file: {exc.msg}") from None
    except BaseException as exc:  # any import-time failure is the file's fault
        sys.modules.pop(name, None)
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        line = _line_in(path, exc)
        where = f"{path}:{line}" if line else path
        raise UsageError(
            f"{where}: importing the checks file failed: {type(exc).__name__}: {exc}"
        ) from exc
    return module


def _line_in(path: str, exc: BaseException) -> int | None:
    """The last traceback line that lies in *path*."""
    target = os.path.abspath(path)
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if os.path.abspath(frame.filename) == target:
            line = frame.lineno
    return line


def load_checks(path: str | os.PathLike[str]) -> list[tuple[str, CheckFunction]]:
    """Import *path* and return its ``check_*`` functions as ``(name, function)``, in definition order.

    Raises:
        UsageError: the file is missing, does not import (naming ``file:line``), or defines no
            ``check_*`` function.
    """
    p = os.fspath(path)
    module = _import(p)
    found: list[tuple[int, str, CheckFunction]] = []
    for name, obj in vars(module).items():
        if not name.startswith("check_") or not inspect.isfunction(obj):
            continue
        if obj.__module__ != module.__name__:
            continue  # imported from elsewhere (e.g. agenteval_assert.checks), not this file's check
        found.append((obj.__code__.co_firstlineno, name, obj))
    if not found:
        raise UsageError(
            f"{p}: no checks found (expected functions named check_* that take the transcript)"
        )
    found.sort(key=lambda item: item[0])
    return [(name, fn) for _, name, fn in found]


def run_check(fn: CheckFunction, transcript: Transcript) -> CheckResult:
    """Run one check function on *transcript* and return its result, named after the function."""
    name = getattr(fn, "__name__", "check")
    try:
        value = fn(transcript)
    except (TranscriptAssertionError, CheckError) as exc:
        return attrs.evolve(exc.result, name=name)
    except AssertionError as exc:
        msg = str(exc) or "assertion failed"
        first, *rest = msg.splitlines() or [msg]
        return CheckResult(
            name=name,
            status=Status.FAIL,
            summary=first,
            found=first,
            evidence=_where(fn, exc),
            notes=tuple(rest),
        )
    except (KeyboardInterrupt, SystemExit):
        raise
    except AgentEvalError as exc:
        return _error(name, fn, exc)
    except Exception as exc:  # noqa: BLE001 - a broken check is an ERROR result, never a crash
        return _error(name, fn, exc)
    if isinstance(value, CheckResult):
        return attrs.evolve(value, name=name) if value.name != name else value
    if value is None or value is True:
        return CheckResult(name=name, status=Status.PASS, summary="passed")
    if value is False:
        return CheckResult(
            name=name, status=Status.FAIL, summary="the check returned False",
            found="False", expected="True",
        )
    return CheckResult(
        name=name,
        status=Status.ERROR,
        summary=(
            f"error: the check returned {type(value).__name__}; expected a CheckResult, None or a bool"
        ),
        found=cut_middle(repr(value), 120),
    )


def _error(name: str, fn: CheckFunction, exc: BaseException) -> CheckResult:
    return CheckResult(
        name=name,
        status=Status.ERROR,
        summary=f"error: {type(exc).__name__}: {exc}",
        found=f"{type(exc).__name__}: {exc}",
        evidence=_where(fn, exc),
        notes=("the check function raised instead of returning a result",),
    )


def _where(fn: CheckFunction, exc: BaseException) -> tuple[Evidence, ...]:
    """The line of the checks file where the exception passed last."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return ()
    line = _line_in(code.co_filename, exc)
    if line is None:
        return ()
    path = code.co_filename
    rel = os.path.relpath(path)
    if not rel.startswith(".."):
        path = rel
    verb = "failed in" if isinstance(exc, AssertionError) else "raised in"
    return (Evidence(f"{verb} {getattr(fn, '__name__', 'check')}", Location(path, line)),)
