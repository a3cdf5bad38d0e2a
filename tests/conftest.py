"""Shared fixtures: the real corpus beside the project, and the samples shipped with it."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
#: The real transcripts of ../shared/corpus (read-only; CI lays a copy beside the clone).
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():  # a missing corpus must fail loudly, never skip the real-data tests
        pytest.fail(f"the shared corpus is missing: expected it at {CORPUS}")
    return CORPUS
