"""Checks files for ``python -m agenteval_assert check TRANSCRIPT --checks FILE.py``.

A checks file is a plain Python module. Every function *defined in it* whose name starts with
``check_`` is a check; it takes the parsed ``Transcript`` and either

* returns a ``CheckResult`` (from ``agenteval_assert.checks``, or built by hand),
* returns ``None`` / ``True`` after asserting (``assert_*`` functions, or plain ``assert``) → PASS,
* returns ``False`` → FAIL,
* raises ``TranscriptAssertionError`` (FAIL) / ``InconclusiveError`` / ``CheckError``, whose
  result is used as it is, or a plain ``AssertionError`` → FAIL with its message,
* raises anything else → ERROR naming the exception and the line of the checks file (this
  includes ``sys.exit()`` and any ``BaseException`` but ``KeyboardInterrupt``: a check never ends
  the run, and never leaves it with nothing run).

Functions imported into the file (``from agenteval_assert.checks import check_tool_called``)
are not checks of that file: a module-level function of another module is skipped, whatever
name it is bound to. A decorated check counts, under the name it is bound to in the file, even
when its decorator's wrapper hides the function's own name and module. They run in definition
order.
The file is compiled in memory: no ``__pycache__`` is written beside it.
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
    try:
        with open(path, "rb") as fh:
            source = fh.read()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the checks file: {exc.strerror or exc}") from None
    # Registered before execution so that dataclasses/attrs/pickling inside the file work.
    sys.modules[name] = module
    try:
        # Compiled here rather than by the import system: the same module, but no bytecode
        # cache is written beside the user's file (a checks file may live in a read-only or
        # versioned directory).
        code = compile(source, path, "exec", dont_inherit=True)
        exec(code, module.__dict__)  # noqa: S102 - running the user's checks file is the point
    except SyntaxError as exc:
        sys.modules.pop(name, None)
        raise UsageError(f"{path}:{exc.lineno}: syntax error in checks file: {exc.msg}") from None
    except KeyboardInterrupt:
        sys.modules.pop(name, None)
        raise
    except BaseException as exc:  # noqa: BLE001 - any import-time failure is the file's fault, sys.exit() included
        sys.modules.pop(name, None)
        line = _line_in(path, exc)
        where = f"{path}:{line}" if line else path
        what = f"called sys.exit({exc.code!r})" if isinstance(exc, SystemExit) else f"{type(exc).__name__}: {exc}"
        raise UsageError(f"{where}: importing the checks file failed: {what}") from None
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
    line = 0
    for name, obj in vars(module).items():
        if not name.startswith("check_") or not callable(obj) or inspect.isclass(obj):
            continue
        inner = _unwrap(obj)
        own = getattr(inner, "__module__", None) == module.__name__
        made = "<locals>" in str(getattr(obj, "__qualname__", "<locals>"))  # a decorator's product
        if not own and not made:
            continue  # imported from elsewhere (e.g. agenteval_assert.checks), not this file's check
        code = getattr(inner, "__code__", None)
        if own and code is not None and os.path.abspath(code.co_filename) == os.path.abspath(p):
            line = code.co_firstlineno
        found.append((line, name, obj))  # a wrapper with no code of this file keeps its place
    if not found:
        raise UsageError(
            f"{p}: no checks found (expected functions named check_* that take the transcript)"
        )
    found.sort(key=lambda item: item[0])
    return [(name, fn) for _, name, fn in found]


def named_check(name: str, fn: CheckFunction) -> CheckFunction:
    """*fn* under the name the checks file binds it to, for runners that name a check after its
    ``__name__`` (a decorator's wrapper may hide the function's own name)."""
    if getattr(fn, "__name__", None) == name:
        return fn

    def check(t: Transcript) -> Any:
        return fn(t)

    check.__name__ = check.__qualname__ = name
    check.__wrapped__ = fn  # type: ignore[attr-defined]
    return check


def _unwrap(obj: Any) -> Any:
    """The function under ``functools.wraps`` decorators (a broken ``__wrapped__`` chain stops)."""
    try:
        return inspect.unwrap(obj)
    except (ValueError, Exception):  # noqa: BLE001 - a cycle, or a __getattr__ that raises
        return obj


def run_check(fn: CheckFunction, transcript: Transcript, name: str | None = None) -> CheckResult:
    """Run one check function on *transcript* and return its result, named *name* (the name the
    checks file binds it to; the function's ``__name__`` by default)."""
    if name is None:
        name = str(getattr(fn, "__name__", "check"))
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
    except KeyboardInterrupt:
        raise
    except AgentEvalError as exc:
        return _error(name, fn, exc)
    except BaseException as exc:  # noqa: BLE001 - sys.exit(), a BaseException subclass: an ERROR, never a crash
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
    what = f"called sys.exit({exc.code!r})" if isinstance(exc, SystemExit) else f"{type(exc).__name__}: {exc}"
    return CheckResult(
        name=name,
        status=Status.ERROR,
        summary=f"error: {what}",
        found=what,
        evidence=_where(fn, exc),
        notes=("the check function raised instead of returning a result",),
    )


def _where(fn: CheckFunction, exc: BaseException) -> tuple[Evidence, ...]:
    """The line of the checks file where the exception passed last."""
    code = getattr(_unwrap(fn), "__code__", None) or getattr(fn, "__code__", None)
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
