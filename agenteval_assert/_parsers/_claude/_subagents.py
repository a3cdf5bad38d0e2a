"""The subagent transcripts that belong to a Claude Code session log (``<session>/subagents/`` beside
it, or ``agent-*.jsonl`` next to it in older builds)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from ._access import _str

__all__ = ["find_subagent_files"]


def _first_session_id(path: Path) -> str | None:
    try:
        with path.open("rb") as f:
            for raw in f:
                if not raw.strip():
                    continue
                try:
                    rec = json.loads(raw)
                except (ValueError, RecursionError):
                    return None
                return _str(rec.get("sessionId")) if isinstance(rec, dict) else None
    except OSError:
        return None
    return None


def find_subagent_files(main_path: str | Path) -> list[Path]:
    """The subagent transcripts that belong to a Claude Code session log.

    Claude Code 2.1.x writes them to ``<dir>/<session>/subagents/agent-<id>.jsonl`` (possibly
    nested, e.g. ``subagents/workflows/<run>/``), where ``<session>`` is the main file's stem;
    compaction runs are ``agent-acompact-<id>.jsonl`` there too. Older builds wrote
    ``agent-<id>.jsonl`` beside the main file: those are included when their first record's
    ``sessionId`` is the main session's. Sorted by path; ``[]`` when there are none.
    """
    main = Path(main_path)
    session = main.stem
    found: set[Path] = set()
    sub = main.parent / session / "subagents"
    if sub.is_dir():
        found.update(p for p in sub.rglob("agent-*.jsonl") if p.is_file())
    for p in _siblings(main):
        if _first_session_id(p) == session:
            found.add(p)
    return sorted(found)


def _siblings(main: Path) -> Iterable[Path]:
    try:
        return [p for p in main.parent.glob("agent-*.jsonl") if p.is_file() and p != main]
    except OSError:
        return []
