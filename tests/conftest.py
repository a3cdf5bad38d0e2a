"""Shared fixtures: the real corpus kept with the tests, and the samples shipped with the package."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
#: Real transcripts from public repositories, byte for byte (see PROVENANCE.md in each folder).
CORPUS = ROOT / "tests" / "corpus"
#: The newer formats (OpenCode, Cursor, SWE-agent family, OpenHands, inspect_ai, Aider, ...).
CORPUS_MORE = ROOT / "tests" / "corpus-more"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fuzz-examples", type=int, default=None, metavar="N",
        help="mutants per mutation kind in tests/test_fuzz.py (default: a bounded CI run; "
             "also AGENTEVAL_FUZZ_EXAMPLES)",
    )


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():  # a missing corpus must fail loudly, never skip the real-data tests
        pytest.fail(f"the test corpus is missing: expected it at {CORPUS}")
    return CORPUS
