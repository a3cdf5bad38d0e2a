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
from .._context import _MISSING, js_number

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


_ARRAY_INDEX_MAX = 2**32 - 2


def _is_array_index(key: str) -> bool:
    """A canonical array index (``"0"``, ``"17"``, not ``"01"`` nor ``"-1"``): JavaScript lists such
    keys first, in ascending numeric order, before the other keys in insertion order."""
    return key.isdigit() and key.isascii() and (key == "0" or key[0] != "0") and int(key) <= _ARRAY_INDEX_MAX


def _js_keys(value: Mapping[Any, Any]) -> list[tuple[str, Any]]:
    items = [(str(k), v) for k, v in value.items()]
    indexes = sorted((kv for kv in items if _is_array_index(kv[0])), key=lambda kv: int(kv[0]))
    return indexes + [kv for kv in items if not _is_array_index(kv[0])]


def _stringify(value: Any) -> str | None:
    """``JSON.stringify`` of one value; ``None`` where JavaScript gives ``undefined``."""
    if value is _MISSING:
        return None
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (int, float)):
        if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
            return "null"
        return js_number(value)
    if isinstance(value, Mapping):
        parts = []
        for k, v in _js_keys(value):
            text = _stringify(v)
            if text is not None:
                parts.append(json.dumps(k, ensure_ascii=False) + ":" + text)
        return "{" + ",".join(parts) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_stringify(v) or "null" for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def json_stringify(value: Any) -> str:
    """JavaScript ``JSON.stringify(value)``: compact, non-ASCII kept, integer-like keys first in
    ascending order, numbers as JavaScript prints them (``1e-7``), ``undefined`` at top level."""
    text = _stringify(value)
    return "undefined" if text is None else text


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


#: ``RegExp.prototype.source`` writes line terminators as escapes (``/a\\nb/``, never a line break).
_LINE_TERMINATORS = {"\n": "\\n", "\r": "\\r", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _escape_slashes(src: str) -> str:
    out, i = [], 0
    in_class = False
    while i < len(src):
        ch = src[i]
        if ch in _LINE_TERMINATORS:
            out.append(_LINE_TERMINATORS[ch])
            i += 1
            continue
        if ch == "\\" and i + 1 < len(src):
            nxt = src[i + 1]
            out.append("\\" + (_LINE_TERMINATORS[nxt][1:] if nxt in _LINE_TERMINATORS else nxt))
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
