"""assert_* wrappers: exception types, carried results, returned evidence, pytest/unittest fit."""

from __future__ import annotations

import inspect
import os
import re
import sys
import textwrap
import unittest
from pathlib import Path

import pytest

from agenteval_assert import assertions as a
from agenteval_assert import checks
from agenteval_assert.exceptions import AgentEvalError
from agenteval_assert.matchers import Contains, Satisfies
from agenteval_assert.model import Transcript
from agenteval_assert.results import CheckError, InconclusiveError, Status, TranscriptAssertionError

from . import _proc
from ._build import T

ROOT = Path(__file__).resolve().parent.parent


def run() -> Transcript:
    return (
        T()
        .user("fix it")
        .call("Read", file_path="/w/a.py")
        .call("Bash", command="pytest -q", output="1 failed", error=True)
        .call("Edit", file_path="/w/a.py", old_string="x", new_string="y")
        .call("Bash", command="pytest -q", output="3 passed")
        .say("Done, 3 passed.")
        .done()
    )


def test_every_check_has_an_assert_with_the_same_parameters() -> None:
    check_names = sorted(n for n in checks.__all__ if n.startswith("check_"))
    assert sorted(a.__all__) == ["assert_" + n[len("check_"):] for n in check_names]
    for n in check_names:
        fn = getattr(a, "assert_" + n[len("check_"):])
        assert inspect.signature(fn).parameters.keys() == inspect.signature(getattr(checks, n)).parameters.keys()
        assert "__tracebackhide__" in fn.__code__.co_varnames


def test_success_returns_the_evidence() -> None:
    t = run()
    call = a.assert_tool_called(t, "Bash", command=Contains("pytest"))
    assert call is not None and call.index == 1
    assert a.assert_tool_called(t, "Write", times=0) is None
    seq = a.assert_tool_calls(t, ["Read", "Edit", "Bash"])
    assert [c.name for c in seq] == ["Read", "Edit", "Bash"]
    failed, retry = a.assert_retried_after_failure(t, "Bash")
    assert (failed.index, retry.index) == (1, 3)
    assert a.assert_final_response_contains(t, "3 passed") == "Done, 3 passed."
    assert a.assert_file_edited(t, "a.py").name == "Edit"
    first, then = a.assert_called_before(t, "Read", "Edit")
    assert (first.name, then.name) == ("Read", "Edit")
    a.assert_tool_not_called(t, "Write")


def test_failure_raises_assertion_error_with_the_result() -> None:
    with pytest.raises(TranscriptAssertionError) as info:
        a.assert_tool_called(run(), "Write")
    err = info.value
    assert isinstance(err, AssertionError)
    assert not isinstance(err, InconclusiveError)
    assert err.result.status is Status.FAIL
    assert str(err) == err.result.render()
    assert str(err).startswith("expected a Write call, found none (4 tool calls in total)")


def test_inconclusive_raises_the_distinct_subclass() -> None:
    t = T().user("x").call("Read", file_path="a", answered=False).done()
    with pytest.raises(InconclusiveError) as info:
        a.assert_tool_not_called(t, "Write")
    assert info.value.result.status is Status.INCONCLUSIVE
    a.assert_tool_not_called(t, "Write", assume_complete=True)  # the caller's say-so


def test_error_is_not_an_assertion_error() -> None:
    def boom(v: object) -> bool:
        raise RuntimeError("broken predicate")

    with pytest.raises(CheckError) as info:
        a.assert_tool_called(run(), "Bash", command=Satisfies(boom))
    assert not isinstance(info.value, AssertionError)
    assert isinstance(info.value, AgentEvalError)
    assert info.value.result.status is Status.ERROR


def test_unittest_counts_failures_and_errors_apart() -> None:
    t = run()

    class Case(unittest.TestCase):
        def test_fail(self) -> None:
            a.assert_tool_called(t, "Write")

        def test_error(self) -> None:
            a.assert_tool_called(t, "Bash", command=Satisfies(lambda v: 1 / 0))

        def test_pass(self) -> None:
            a.assert_command_succeeded(t, "pytest")

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(Case).run(result)
    assert result.testsRun == 3
    assert [tc.id().rsplit(".", 1)[-1] for tc, _ in result.failures] == ["test_fail"]
    assert [tc.id().rsplit(".", 1)[-1] for tc, _ in result.errors] == ["test_error"]


def test_pytest_hides_the_wrapper_frames(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(
        textwrap.dedent(
            """
            from agenteval_assert._builder import TranscriptBuilder
            from agenteval_assert._reader import ReadStats
            from agenteval_assert.assertions import assert_tool_called

            def test_it():
                b = TranscriptBuilder("r.jsonl", "claude-session", "claude-code")
                b.message("user", "hi", 1)
                t = b.build(ReadStats(path="r.jsonl", lines=1, records=1))
                assert_tool_called(t, "Bash")
            """
        ),
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = _proc.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path / "test_x.py")],
        cwd=tmp_path, env=env,
    )
    out = proc.stdout
    assert proc.returncode == 1, out
    assert '>       assert_tool_called(t, "Bash")' in out
    assert re.search(r"^E +agenteval_assert\.results\.TranscriptAssertionError: expected a Bash call, found none", out, re.MULTILINE)
    assert "_raise(result)" not in out
    assert "result = checks.check_tool_called" not in out


DOCS = ROOT / "docs"


@pytest.mark.parametrize("page", ["assertions.md", "matchers.md", "replay-demo.md"])
def test_docs_examples_run(page: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Every ```python block of the page runs, in order, in one namespace, from the repo root."""
    text = (DOCS / page).read_text(encoding="utf-8")
    fences = re.findall(r"^```(\w*)\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)
    blocks = [body for lang, body in fences if lang == "python"]
    assert blocks, f"{page} has no python examples"
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("AGENTEVAL_VERBOSE", raising=False)
    ns: dict[str, object] = {}
    for i, (lang, body) in enumerate(fences):
        if lang != "python":
            continue
        capsys.readouterr()
        try:
            exec(compile(body, f"{page}[block {i + 1}]", "exec"), ns)  # noqa: S102 - running the docs examples is the test
        except Exception as exc:  # noqa: BLE001 - any failure of an example is reported
            pytest.fail(f"{page}: python block {i + 1} raised {type(exc).__name__}: {exc}\n{body}")
        printed = capsys.readouterr().out
        # A ```text block right after a python block shows exactly what that block prints.
        if i + 1 < len(fences) and fences[i + 1][0] == "text":
            assert printed == fences[i + 1][1], f"{page}: output of block {i + 1} differs from the page"
