"""Large transcripts made of *real* records: the corpus files repeated, with fresh ids per copy.

    python -m bench.replicate                          # 100MB of each of the four formats
    python -m bench.replicate --sizes 1MB --formats codex-exec --out /tmp/x

``bench.generate`` makes up the text of its records from a vocabulary; this module keeps the
records of the real transcripts in ``tests/corpus/`` byte for byte (their text, their keys, their
escapes and non-ASCII) and only gives every id a fresh value in each copy, so that a parser
pairs a result with the call of its own copy and never with the same id of another copy. The
whole-process benchmark (``bench.run``'s ``whole`` table) reads these files.

Per format, one *copy* is every source file of that format in turn (the list below). What is
repeated, and what a copy's ids are:

* ``claude-session``: every line of the main-session logs, with fresh ``uuid``/``parentUuid``
  chains, message, request and tool-use ids (the ``sessionId`` stays: one session).
* ``claude-stream-json``: the terragon captures (JSON arrays in the corpus) written as the JSONL
  that ``claude -p --output-format stream-json`` prints: the ``system/init`` of the first file
  opens the file, the ``result`` of the last one closes it, and every other record is repeated
  with fresh message and tool-use ids.
* ``codex-exec``: every ``codex exec --json`` capture with a ``thread.started``, each copy a
  resumed process (a fresh ``thread_id``; item ids restart at ``item_0`` in every process, as
  the real format does).
* ``codex-rollout``: the answered rollouts: the first ``session_meta`` opens the file, every
  other line is repeated with fresh call, item and turn ids.

A ``<file>.manifest.json`` beside each file states what a correct parser must find: the figures
of ``tests/corpus/expected.json`` (computed from the raw records, independently of the project)
times the number of copies.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import string
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.generate import DATA_DIR, FORMATS, parse_size, size_label

__all__ = ["SOURCES", "data_path", "ensure", "replicate"]

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
#: Bump when the output changes, so that ``ensure`` remakes files made by an older version.
REPLICATOR_VERSION = 1

#: Per format: the corpus files one copy is made of (paths relative to ``tests/corpus``).
SOURCES: dict[str, tuple[str, ...]] = {
    "claude-session": (
        "claude-session-log/agentcmd-2.0.14-bash-read-mcp.jsonl",
        "claude-session-log/agentcmd-2.0.27-edit-heavy.jsonl",
        "claude-session-log/agentcmd-2.0.29-task-plan.jsonl",
        "claude-session-log/spotter-2.1.38-short.jsonl",
        "claude-session-log/spotter-2.1.38-tool-heavy.jsonl",
    ),
    "claude-stream-json": (
        "claude-stream-json/terragon-1.0.x-mcp-followup.json",
        "claude-stream-json/terragon-1.0.x-todo.json",
        "claude-stream-json/terragon-1.0.x-bash-errors.json",
    ),
    "codex-exec": (
        "codex-exec-json/agentcmd-stream-output-1-no-tools.jsonl",
        "codex-exec-json/agentcmd-stream-output-2.jsonl",
        "codex-exec-json/agentcmd-stream-output-3-file-change.jsonl",
        "codex-exec-json/agentcmd-stream-output-4.jsonl",
        "codex-exec-json/untether-0.157.1-resume-cumulative-usage.jsonl",
    ),
    "codex-rollout": (
        "codex-rollout/agentcmd-rollout-0.40-0199812e.jsonl",
        "codex-rollout/agentcmd-rollout-0.40-vscode-dashboard-queries.jsonl",
        "codex-rollout/localpush-0.104-desktop-exec-command-sanitized.jsonl",
    ),
}

#: Keys whose string value is an id that must be fresh in each copy, per format.
_ID_KEYS: dict[str, frozenset[str]] = {
    "claude-session": frozenset({
        "uuid", "parentUuid", "logicalParentUuid", "leafUuid", "messageId", "requestId", "id",
        "tool_use_id", "toolUseID", "parentToolUseID", "sourceToolUseID", "sourceToolAssistantUUID",
        "promptId", "agentId",
    }),
    "claude-stream-json": frozenset({"id", "tool_use_id", "parent_tool_use_id", "uuid"}),
    "codex-exec": frozenset({"thread_id"}),
    "codex-rollout": frozenset({"id", "call_id", "turn_id"}),
}


def data_path(fmt: str, size: int, out: Path = DATA_DIR) -> Path:
    """Where the replicated file of *fmt* at *size* lives."""
    return out / f"real-{fmt}-{size_label(size)}.jsonl"


def manifest_path(path: Path) -> Path:
    return path.with_name(path.name + ".manifest.json")


# -- reading the sources -----------------------------------------------------------------------


def _lines(path: Path) -> list[str]:
    """The records of a corpus file as JSONL lines: a JSONL file's own lines, byte for byte (its
    comment and blank lines dropped), a JSON array's elements written compactly."""
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        return [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in json.loads(text)]
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


#: Shorter values of an id key are labels (a todo's ``"id": "1"``), not ids: they stay.
_MIN_ID = 8


def _ids(value: Any, keys: frozenset[str], found: list[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            if k in keys and isinstance(v, str):
                if len(v) >= _MIN_ID:  # "1" (a todo's id) is a label, not an id to keep unique
                    found.append(v)
            else:
                _ids(v, keys, found)
    elif isinstance(value, list):
        for v in value:
            _ids(v, keys, found)


class _Line:
    """One source record: its text and the quoted ids in it (replaced in each copy)."""

    __slots__ = ("ids", "record", "text")

    def __init__(self, text: str, keys: frozenset[str]) -> None:
        self.text = text
        self.record: dict[str, Any] = json.loads(text)
        found: list[str] = []
        _ids(self.record, keys, found)
        # longest first, so that an id that is a prefix of another is not replaced inside it
        self.ids = sorted(set(found), key=len, reverse=True)


_B62 = string.ascii_letters + string.digits
_HEX = frozenset("0123456789abcdef")


def fresh_id(old: str, copy: int) -> str:
    """*old* with a tail that depends on *copy* (copy 0 keeps it): same length, same alphabet
    (hex stays hex), so that a parser that looks at an id's shape sees the same shape."""
    if copy == 0:
        return old
    digest = hashlib.sha256(f"{copy}:{old}".encode()).digest()
    n = min(12, len(old) // 2)
    tail = old[-n:]
    new = digest.hex()[:n] if set(tail) <= _HEX else "".join(_B62[b % 62] for b in digest[:n])
    return old[:-n] + new


def _copy_text(line: _Line, copy: int) -> str:
    text = line.text
    for old in line.ids:
        text = text.replace(json.dumps(old), json.dumps(fresh_id(old, copy)))
    return text


# -- one copy ------------------------------------------------------------------------------------


def _plan(fmt: str) -> tuple[list[_Line], list[_Line], list[_Line]]:
    """``(head, body, tail)``: written once at the start, once per copy, once at the end."""
    keys = _ID_KEYS[fmt]
    head: list[_Line] = []
    body: list[_Line] = []
    tail: list[_Line] = []
    sources = SOURCES[fmt]
    for i, rel in enumerate(sources):
        for text in _lines(CORPUS / rel):
            ln = _Line(text, keys)
            r = ln.record
            if fmt == "claude-stream-json" and r.get("type") == "system" and r.get("subtype") == "init":
                if i == 0:
                    head.append(ln)
            elif fmt == "claude-stream-json" and r.get("type") == "result":
                if i == len(sources) - 1:
                    tail.append(ln)
            elif fmt == "codex-rollout" and r.get("type") == "session_meta":
                if i == 0:
                    head.append(ln)
            else:
                body.append(ln)
    return head, body, tail


def _expected(fmt: str, copies: int) -> dict[str, Any]:
    """The figures of ``tests/corpus/expected.json`` for one copy, times *copies*."""
    exp = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
    calls = sub = unanswered = 0
    errors: int | None = 0
    tools: Counter[str] = Counter()
    for rel in SOURCES[fmt]:
        e = exp[rel]
        calls += e["tool_calls"]
        sub += e["subagent_tool_calls"]
        unanswered += e["unanswered_calls"]
        errors = None if errors is None or e["tool_errors"] is None else errors + e["tool_errors"]
        tools.update(e.get("tools") or {})
    last = exp[SOURCES[fmt][-1]]
    return {
        "tool_calls": calls * copies,
        "subagent_tool_calls": sub * copies,
        "tool_errors": None if errors is None else errors * copies,
        "unanswered_calls": unanswered * copies,
        "tools": {k: v * copies for k, v in sorted(tools.items())},
        "final_response": last.get("final_response"),
        "final_response_prefix": last.get("final_response_prefix"),
    }


def _stream(fmt: str, size: int) -> Iterator[tuple[int, str]]:
    """``(copy, line)`` until at least *size* bytes (the tail, if any, after the last copy)."""
    head, body, tail = _plan(fmt)
    per_copy = sum(len(ln.text.encode()) + 1 for ln in body)
    fixed = sum(len(ln.text.encode()) + 1 for ln in head + tail)
    copies = max(1, -(-(size - fixed) // per_copy))
    for ln in head:
        yield 0, ln.text
    for c in range(copies):
        for ln in body:
            yield c, _copy_text(ln, c)
    for ln in tail:
        yield copies - 1, _copy_text(ln, copies - 1)


def replicate(fmt: str, size: int, path: Path) -> dict[str, Any]:
    """Write *fmt* made of copies of its corpus files, at least *size* bytes, to *path*.

    Returns the manifest (also written to ``<path>.manifest.json``).
    """
    if fmt not in SOURCES:
        raise ValueError(f"unknown format {fmt!r}; choose one of: {', '.join(SOURCES)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    nbytes = lines = copies = 0
    with open(tmp, "wb", buffering=1 << 20) as f:
        for c, text in _stream(fmt, size):
            data = (text + "\n").encode("utf-8")
            f.write(data)
            nbytes += len(data)
            lines += 1
            copies = max(copies, c + 1)
    tmp.replace(path)
    manifest = {
        "format": fmt,
        "path": str(path),
        "replicator": REPLICATOR_VERSION,
        "sources": list(SOURCES[fmt]),
        "copies": copies,
        "target_bytes": size,
        "bytes": nbytes,
        "lines": lines,
        **_expected(fmt, copies),
    }
    manifest_path(path).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest


def ensure(fmt: str, size: int, out: Path = DATA_DIR) -> tuple[Path, dict[str, Any]]:
    """The replicated file (made now if missing or made by another version) and its manifest."""
    path = data_path(fmt, size, out)
    mp = manifest_path(path)
    if path.exists() and mp.exists():
        try:
            manifest = json.loads(mp.read_text(encoding="utf-8"))
        except ValueError:
            manifest = None
        if (
            isinstance(manifest, dict)
            and manifest.get("replicator") == REPLICATOR_VERSION
            and manifest.get("bytes") == path.stat().st_size
            and manifest.get("target_bytes") == size
        ):
            return path, manifest
    return path, replicate(fmt, size, path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.replicate", description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="100MB", help="comma-separated sizes (64KB, 1MB, ...)")
    p.add_argument("--formats", default=",".join(FORMATS), help="comma-separated formats")
    p.add_argument("--out", type=Path, default=DATA_DIR, help="output folder (default bench/data)")
    a = p.parse_args(argv)
    for fmt in a.formats.split(","):
        for s in a.sizes.split(","):
            _, m = ensure(fmt.strip(), parse_size(s), a.out)
            print(f"{m['path']}: {m['bytes']:,} bytes, {m['lines']:,} lines, {m['copies']:,} copies, "
                  f"{m['tool_calls']:,} tool calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
