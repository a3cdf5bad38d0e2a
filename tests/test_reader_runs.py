"""The reader's runs of lines (one decoder call for many short object lines) give exactly the
verdict of ``json.loads`` on each line alone: the same records, line numbers, issues, counts and
torn tail, whatever the lines hold and wherever the chunks and runs are cut."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenteval_assert import _reader
from agenteval_assert._reader import Source


class _Constant(ValueError):
    pass


def _reject(name: str) -> Any:
    raise _Constant(name)


def reference(data: bytes) -> tuple[list[tuple[int, Any]], list[tuple[int, str]], int, int, int, int, bool]:
    """``json.loads`` on every line alone (split on ``\\n`` only), as the reader promises."""
    records: list[tuple[int, Any]] = []
    issues: list[tuple[int, str]] = []
    blank = comments = 0
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    if not data:
        lines = []
    for n, raw in enumerate(lines, 1):
        try:
            obj = json.loads(raw, parse_constant=_reject)
        except ValueError as exc:
            s = raw.strip(b" \t\r\n\f\v")
            if not s:
                blank += 1
            elif s[:1] == b"#":
                comments += 1
            else:
                issues.append((n, "not valid JSON: " + exc.args[0] + " is not a JSON value"
                               if isinstance(exc, _Constant) else "not valid JSON"))
            continue
        except RecursionError:
            issues.append((n, _reader._NESTING))
            continue
        if type(obj) is not dict:
            issues.append((n, f"a JSON {type(obj).__name__}, not an object"))
            continue
        records.append((n, obj))
    torn = bool(issues) and issues[-1][0] == len(lines) and not data.endswith(b"\n") \
        and issues[-1][1] == "not valid JSON"
    return records, issues, len(lines), len(records), blank, comments, torn


def read(data: bytes) -> tuple[list[tuple[int, Any]], list[tuple[int, str]], int, int, int, int, bool]:
    src = Source(path="t.jsonl", stream=None, data=data)  # as read from a file: no re-encoding
    src.stats.shape = "jsonl"
    recs = list(src._jsonl_records())
    st_ = src.stats
    return (recs, [(i.line, i.reason) for i in st_.unparsable], st_.lines, st_.records, st_.blank,
            st_.comments, st_.truncated_tail)


_KEY = st.sampled_from(["type", "id", "item", "text", "a", "\u00e9", "\U0001f600", "\\u0000"])
_SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
)
_VALUE = st.recursive(_SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(_KEY, inner, max_size=3)), max_leaves=8)
_OBJECT = st.dictionaries(_KEY, _VALUE, max_size=4).map(lambda d: json.dumps(d, ensure_ascii=False).encode())
#: the lines that could fool a run: pieces of values, several values, the separator itself,
#: constants, duplicate keys, lone surrogates, huge integers, odd encodings and blanks
_ODD = st.sampled_from([
    b"", b"   ", b"# comment", b"{", b"}", b'{"a": [', b"]}", b'{"a": 1}, {"b": 2}', b"{}, 1", b"{} {}",
    b'{"a": NaN}', b'{"a": -Infinity}', b'{"a": 1, "a": 2}', b'{"s": "\\ud800"}', b'{"s": "\\udc00x\\ud83d"}',
    b'{"n": ' + b"9" * 5000 + b"}", b'{"n": 1' + b"0" * 400 + b"}", b'\xef\xbb\xbf{"bom": 1}', b'{"x": "\xff"}',
    b'{"x": "\xed\xa0\x80"}', b'{"a": 1}\r', b' {"lead": 1}', b'{"trail": 1}  x', b'{"a": 1}nt', b'{"a": 1}\\', b'{"a": 1} \t\r', b'{"m": "\\u0000"}',
    b'"\\u0000"', b'{},"\\u0000",{}', b'{"a": [{}', b'{}]}', b"[1, 2]", b"3", b'"str"', b"{\x00}",
    b'{"deep": ' + b"[" * 3000 + b"]" * 3000 + b"}", b'{"t": "a\tb"}', b"{\"a\": 'x'}",
])
_LINES = st.lists(st.one_of(_OBJECT, _OBJECT, _OBJECT, _ODD), max_size=40)


@pytest.fixture
def small_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny chunks and runs, so that every cut falls somewhere in a few lines."""
    monkeypatch.setattr(_reader, "_CHUNK", 64)
    monkeypatch.setattr(_reader, "_RUN_LINES", 3)
    monkeypatch.setattr(_reader, "_RUN_AVERAGE", 1 << 20)


@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(_LINES, st.booleans())
def test_runs_give_the_verdict_of_each_line_alone(small_runs: None, lines: list[bytes], newline: bool) -> None:
    data = b"\n".join(lines) + (b"\n" if newline and lines else b"")
    assert read(data) == reference(data)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(_LINES, st.booleans())
def test_default_sizes_give_the_same_verdict(lines: list[bytes], newline: bool) -> None:
    data = b"\n".join(lines) + (b"\n" if newline and lines else b"")
    assert read(data) == reference(data)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(_LINES, st.booleans())
def test_long_lines_give_the_verdict_of_each_line_alone(monkeypatch: pytest.MonkeyPatch, lines: list[bytes],
                                                        newline: bool) -> None:
    """Chunks of long lines: each line decoded alone (the decoder's scanner called directly, any
    failure, a line with no value at its start included, decided by ``_line``)."""
    monkeypatch.setattr(_reader, "_CHUNK", 64)
    monkeypatch.setattr(_reader, "_RUN_AVERAGE", 0)  # every chunk counts as one of long lines
    data = b"\n".join(lines) + (b"\n" if newline and lines else b"")
    assert read(data) == reference(data)


def test_a_run_shares_its_key_strings(small_runs: None) -> None:
    """The point of a run, beside speed: the records of one run share their keys (memory)."""
    recs = read(b'{"item": 1}\n{"item": 2}\n{"item": 3}\n')[0]
    keys = [next(iter(r)) for _, r in recs]
    assert keys == ["item"] * 3 and keys[0] is keys[1] is keys[2]


def test_a_file_read_from_disk_gives_the_same_as_in_memory(tmp_path: Any, small_runs: None) -> None:
    long = b'{"long": "' + b"x" * 700 + b'"}\n'  # over ten chunks of 64 bytes
    data = b'{"a": 1}\n\n{"b": [1,\n2]}\n# c\n' + b'{"c": "\xc3\xa9"}\n' * 30 + long + b'{"torn": '
    p = tmp_path / "t.jsonl"
    p.write_bytes(data)
    src = Source.open(str(p))
    recs = list(src.records())
    assert recs == reference(data)[0]
    assert src.stats.truncated_tail and src.stats.lines == 37


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(_LINES, st.booleans())
def test_a_stream_read_in_pieces_gives_the_same_verdict(small_runs: None, lines: list[bytes], newline: bool) -> None:
    """The file path: reads of 64 bytes, lines longer than a read joined once they end."""
    import io

    data = b"\n".join(lines) + (b"\n" if newline and lines else b"")
    src = Source(path="t.jsonl", stream=io.BytesIO(data), data=None)
    src.stats.shape = "jsonl"
    recs = list(src._jsonl_records())
    s = src.stats
    got = (recs, [(i.line, i.reason) for i in s.unparsable], s.lines, s.records, s.blank, s.comments,
           s.truncated_tail)
    assert got == reference(data)
