"""Judge cassettes: one reviewable JSON document per judge call, content-addressed.

The key of a call is the SHA-256 of its key material: the model, the prompt template version,
the verdict schema version, the criteria, the hash of the rendered evidence (the whole prompt),
the sampling settings and the sample index. A change to any of them is a different call, so an
old cassette misses. Each document also keeps what identifies the call to a person (the criteria
and the transcript's own hash), which lets ``replay`` tell a *stale* cassette (same criteria and
transcript, another key: the rendering or the settings changed) from an absent one.

Documents are written with sorted keys and two-space indentation so that a diff is readable.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .._redact import redact_json

__all__ = ["CASSETTE_VERSION", "HAND_WRITTEN", "RECORDED", "CassetteDir", "canonical_sha256"]

CASSETTE_VERSION = 1
RECORDED = "recorded"
#: ``origin`` of a cassette written by a person: an example of the mechanism, never a model's answer.
HAND_WRITTEN = "hand-written example"


def canonical_sha256(value: Any) -> str:
    """SHA-256 of the canonical JSON of *value* (sorted keys, no spaces, UTF-8)."""
    data = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def _slug(text: str, limit: int = 40) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit].rstrip("-") or "judge"


class CassetteDir:
    """The cassettes of one directory, indexed by key (read once, kept current on writes)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._index: dict[str, tuple[Path, dict[str, Any]]] | None = None
        self.problems: list[str] = []

    def _load(self) -> dict[str, tuple[Path, dict[str, Any]]]:
        if self._index is None:
            index: dict[str, tuple[Path, dict[str, Any]]] = {}
            if self.path.is_dir():
                for p in sorted(self.path.glob("*.json")):
                    try:
                        doc = json.loads(p.read_text(encoding="utf-8"))
                    except (OSError, ValueError, RecursionError) as exc:
                        self.problems.append(f"{p}: not a cassette ({type(exc).__name__}: {exc})")
                        continue
                    if not isinstance(doc, dict) or not isinstance(doc.get("key"), str):
                        self.problems.append(f"{p}: not a cassette (no 'key')")
                        continue
                    index[doc["key"]] = (p, doc)
            self._index = index
        return self._index

    def get(self, key: str) -> tuple[Path, dict[str, Any]] | None:
        with self._lock:
            return self._load().get(key)

    def stale(
        self, criteria_sha256: str, subject_sha256: str, subject_path: str, sample: int
    ) -> Iterator[tuple[Path, dict[str, Any]]]:
        """Cassettes for the same criteria, transcript and sample index, under any key. The same
        transcript: the same content (SHA-256), or the same path when the file was regenerated."""
        with self._lock:
            entries = list(self._load().values())
        for p, doc in entries:
            subject = doc.get("subject")
            if not isinstance(subject, dict):
                subject = {}
            if (
                doc.get("criteria_sha256") == criteria_sha256
                and (subject.get("sha256") == subject_sha256 or subject.get("path") == subject_path)
                and doc.get("sample", 0) == sample
            ):
                yield p, doc

    def write(self, doc: Mapping[str, Any], *, replace: Path | None = None) -> Path:
        """Write *doc* (redacted) as ``<transcript>-<criterion>-<key[:12]>.json``; remove *replace*."""
        doc = redact_json(dict(doc))
        subject = doc.get("subject", {})
        stem = Path(str(subject.get("path", "transcript"))).stem if isinstance(subject, dict) else "transcript"
        crit = doc.get("criteria", [{}])
        first = str(crit[0].get("text", "")) if crit and isinstance(crit[0], dict) else ""
        name = f"{_slug(stem, 24)}-{_slug(first)}-s{doc.get('sample', 0)}-{str(doc['key'])[:12]}.json"
        self.path.mkdir(parents=True, exist_ok=True)
        target = self.path / name
        text = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        fd, tmp = tempfile.mkstemp(dir=self.path, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        with self._lock:
            index = self._load()
            if replace is not None and replace != target:
                for k, (p, _) in list(index.items()):
                    if p == replace:
                        del index[k]
                replace.unlink(missing_ok=True)
            index[str(doc["key"])] = (target, dict(doc))
        return target
