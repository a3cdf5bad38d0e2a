"""The fuzz suite: real transcripts damaged the way files get damaged, and three laws.

1. No exception escapes ``parse``, ``summary`` (text and ``--json``), the health checks and the
   negative checks (a ``TranscriptError`` naming the input is the only way out).
2. A mutant that lost a call, or its end record, is never ``health.complete`` when its seed was.
3. A negative check about a call the mutant lost is never PASS.

The mutations and the laws live in ``tests/_fuzz.py``. The default run is bounded for CI
(``DEFAULT_EXAMPLES`` mutants per mutation kind, a few seconds in all); a longer one:

    pytest tests/test_fuzz.py --fuzz-examples 2000        # or AGENTEVAL_FUZZ_EXAMPLES=2000

Every violation found by a long run is fixed in the library and kept below as a regression test.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenteval_assert._cli import main

from ._fuzz import MUTATIONS, Seed, check_laws, load_seeds, mutant_of

#: Mutants per mutation kind in the default (CI) run.
DEFAULT_EXAMPLES = 60
#: Mutants run through the command line (written to files) in the default run.
DEFAULT_CLI_EXAMPLES = 20

SEEDS: tuple[Seed, ...] = load_seeds()


def _examples(config: pytest.Config, default: int) -> int:
    n = config.getoption("--fuzz-examples") or os.environ.get("AGENTEVAL_FUZZ_EXAMPLES")
    return int(n) if n else default


def test_the_seeds_are_real_and_complete() -> None:
    # the laws compare a mutant with its seed: every seed parses, and most are complete
    formats = {s.transcript.format for s in SEEDS}
    assert len(formats) >= 10, formats
    assert sum(s.transcript.health.complete for s in SEEDS) >= len(SEEDS) - 1
    assert all(s.transcript.all_tool_calls for s in SEEDS if s.transcript.format != "openai-chat")


@pytest.mark.parametrize("kind", MUTATIONS)
def test_the_laws_hold(kind: str, request: pytest.FixtureRequest) -> None:
    n = _examples(request.config, DEFAULT_EXAMPLES)

    @settings(max_examples=n, deadline=None, database=None, derandomize=n <= DEFAULT_EXAMPLES,
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(SEEDS).flatmap(lambda seed: mutant_of(seed, kind, SEEDS)))
    def run(m: object) -> None:
        verdict = check_laws(m)  # type: ignore[arg-type]
        assert not verdict.violations, (m, verdict.violations)

    run()


def test_the_command_line_never_crashes(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Law 1 through the CLI: mutants written to files; summary, summary --json and check end
    with a verdict or an input error, never the internal-error exit (70) or a traceback."""
    n = _examples(request.config, DEFAULT_CLI_EXAMPLES)
    f = tmp_path / "mutant.jsonl"

    @settings(max_examples=n, deadline=None, database=None, derandomize=n <= DEFAULT_CLI_EXAMPLES,
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(SEEDS).flatmap(lambda s: st.sampled_from(MUTATIONS).flatmap(
        lambda k: mutant_of(s, k, SEEDS))))
    def run(m: object) -> None:
        f.write_bytes(m.data)  # type: ignore[attr-defined]
        for argv in (["summary", str(f)], ["summary", "--json", str(f)], ["check", str(f)]):
            out, err = io.StringIO(), io.StringIO()
            code = main(argv, stdout=out, stderr=err)
            assert code in (0, 1, 3, 4, 5), (m, argv, code, err.getvalue())
            assert "Traceback" not in err.getvalue() and "internal error" not in err.getvalue()

    run()
