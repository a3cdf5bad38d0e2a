"""JavaScript formatting (spec §11) and user patterns: ``JSON.stringify``, ``String(x)``, the
600-UTF-16-unit ``trunc``, ``/src/flags`` regex sources, and patterns searched with a timeout.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any, Union

import regex

from ...exceptions import UsageError
from .._context import _MISSING

__all__ = [
    "js_regex_source",
    "json_stringify",
    "trunc",
]


Pattern = Union[str, "re.Pattern[str]", "regex.Pattern[str]"]

#: Seconds a user-supplied pattern may run on one string before the check errors out.
PATTERN_TIMEOUT = 2.0


_JS_WS = (
    " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def _js_trim(s: str) -> str:
    return s.strip(_JS_WS)


def _jsonable(value: Any, top: bool) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, float):
        if math.isnan(value) or value in (float("inf"), float("-inf")):
            return None
        return int(value) if value.is_integer() and abs(value) < 1e21 else value
    if isinstance(value, int):
        return value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v, False) for k, v in value.items() if v is not _MISSING}
    if isinstance(value, (list, tuple)):
        return [None if v is _MISSING else _jsonable(v, False) for v in value]
    return str(value)


def json_stringify(value: Any) -> str:
    """JavaScript ``JSON.stringify(value)``: compact, non-ASCII kept, ``undefined`` at top level."""
    if value is _MISSING:
        return "undefined"
    return json.dumps(_jsonable(value, True), ensure_ascii=False, separators=(",", ":"))


def trunc(s: str, limit: int = 600) -> str:
    """``s`` when at most *limit* UTF-16 code units long, else its first *limit* units + ``…``."""
    units = len(s.encode("utf-16-le")) // 2
    if units <= limit:
        return s
    cut = s.encode("utf-16-le")[: 2 * limit].decode("utf-16-le", "surrogatepass")
    if cut and 0xD800 <= ord(cut[-1]) <= 0xDBFF:  # a lone high surrogate cannot be printed
        cut = cut[:-1] + "\ufffd"
    return cut + "…"


_FLAG_LETTERS = ((re.IGNORECASE, "i"), (re.MULTILINE, "m"), (re.DOTALL, "s"))


def _escape_slashes(src: str) -> str:
    out, i = [], 0
    in_class = False
    while i < len(src):
        ch = src[i]
        if ch == "\\" and i + 1 < len(src):
            out.append(src[i : i + 2])
            i += 2
            continue
        if ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        elif ch == "/" and not in_class:
            out.append("\\/")
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def js_regex_source(pattern: Pattern) -> str:
    """How JavaScript prints a RegExp in a template string: ``/source/flags``."""
    if isinstance(pattern, str):
        return f"/{_escape_slashes(pattern) or '(?:)'}/"
    flags = "".join(letter for flag, letter in _FLAG_LETTERS if pattern.flags & flag)
    return f"/{_escape_slashes(pattern.pattern) or '(?:)'}/{flags}"


def _compile_user(pattern: Pattern) -> regex.Pattern[str]:
    if isinstance(pattern, str):
        return regex.compile(pattern)
    if isinstance(pattern, regex.Pattern):
        return pattern
    keep = re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE | re.ASCII
    return regex.compile(pattern.pattern, int(pattern.flags) & keep)


def _search(p: regex.Pattern[str], text: str) -> bool:
    try:
        return p.search(text, timeout=PATTERN_TIMEOUT) is not None
    except TimeoutError:
        raise UsageError(
            f"pattern {js_regex_source(p.pattern)} took more than {PATTERN_TIMEOUT}s on a "
            f"{len(text)}-character text (catastrophic backtracking?)"
        ) from None
