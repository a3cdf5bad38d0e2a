"""agenteval_assert.batch: finding inputs (files, directories, globs, sandboxes) and check_many
over a local pool, in-process, any Executor, and a real Dask LocalCluster."""

from __future__ import annotations

import concurrent.futures as cf
import importlib.util
import os
import shutil
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agenteval_assert import _batch_run
from agenteval_assert.batch import Checks, Input, check_many, check_one, expand
from agenteval_assert.exceptions import UsageError
from agenteval_assert.reporting import TranscriptStatus
from agenteval_assert.results import CheckResult, Status

from . import _proc
from .conftest import ROOT, SAMPLES

HEALTHY = SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"
UNANSWERED = SAMPLES / "codex-rollout" / "localpush-0.104-desktop-unanswered-call-sanitized.jsonl"
SANDBOX = SAMPLES / "storybook" / "801-claude-mcp-pass"
SUITE = "storybook/801-create-component-no-launch-config"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A folder of runs as a team keeps them: transcripts, notes, a binary, a sandbox, a .git."""
    shutil.copy(HEALTHY, tmp_path / "a.jsonl")
    (tmp_path / "nested" / "deeper").mkdir(parents=True)
    shutil.copy(UNANSWERED, tmp_path / "nested" / "deeper" / "b.jsonl")
    (tmp_path / "README.md").write_text("# runs\n")
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (tmp_path / "nested" / "config.json").write_text('{"retries": 3}\n')
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / ".git").mkdir()
    shutil.copy(HEALTHY, tmp_path / ".git" / "not-walked.jsonl")
    (tmp_path / "node_modules" / "pkg").mkdir(parents=True)
    shutil.copy(HEALTHY, tmp_path / "node_modules" / "pkg" / "not-walked.jsonl")
    shutil.copytree(SANDBOX, tmp_path / "sandbox")
    return tmp_path


def rel(inputs: Iterator[Input] | list[Input], root: Path) -> list[tuple[str, str, bool]]:
    return [(os.path.relpath(i.path, root), i.kind, i.discovered) for i in inputs]


def test_a_directory_is_walked_in_sorted_order_skipping_vcs_dependencies_and_sandbox_workspaces(tree: Path) -> None:
    assert rel(expand([tree]), tree) == [
        ("README.md", "file", True),
        ("a.jsonl", "file", True),
        ("empty.jsonl", "file", True),
        ("image.png", "file", True),
        ("nested/config.json", "file", True),
        ("nested/deeper/b.jsonl", "file", True),
        # a sandbox stands for its transcript, which must be readable (not "discovered")
        ("sandbox/__agent_eval__/transcript.txt", "file", False),
    ]


def test_a_niceeval_sandbox_without_a_transcript_is_named_as_skipped_unless_an_eval_reads_it() -> None:
    niceeval = SAMPLES / "storybook" / "801-codex-plugin-niceeval"
    [inp] = expand([niceeval])
    assert inp.skip is not None and "NiceEval sandbox without a transcript" in inp.skip
    [r] = check_one(inp)
    assert r.status is TranscriptStatus.SKIPPED
    assert list(expand([niceeval], sandboxes=True)) == [Input(str(niceeval), kind="sandbox")]


def test_with_an_eval_the_sandboxes_are_the_inputs(tree: Path) -> None:
    assert rel(expand([tree], sandboxes=True), tree) == [("sandbox", "sandbox", False)]
    assert rel(expand([tree / "sandbox"], sandboxes=True), tree) == [("sandbox", "sandbox", False)]


def test_globs_expand_in_order_each_path_once_and_a_pattern_that_matches_nothing_is_an_input_problem(
    tree: Path,
) -> None:
    got = list(expand([str(tree / "**" / "*.jsonl"), str(tree / "a.jsonl"), str(tree / "nothing-*.jsonl")]))
    assert rel(got, tree) == [
        ("a.jsonl", "file", False),
        ("empty.jsonl", "file", False),
        ("nested/deeper/b.jsonl", "file", False),
        ("nothing-*.jsonl", "file", False),
    ]
    assert got[-1].problem == "no file matches this pattern"


def test_files_found_in_a_directory_that_no_format_reads_are_skipped_with_the_reason(tree: Path) -> None:
    results = list(check_many(expand([tree]), None, jobs=1))
    by_name = {os.path.relpath(r.path, tree): r for r in results}
    skipped = {k: r.error for k, r in by_name.items() if r.status is TranscriptStatus.SKIPPED}
    assert skipped == {
        "README.md": "no JSON records (only blank or # comment lines)",
        "image.png": "binary file",
        "nested/config.json": "not a transcript in any supported format",
    }
    # a file whose name says transcript is never skipped: an empty .jsonl is unreadable
    assert by_name["empty.jsonl"].status is TranscriptStatus.UNREADABLE
    assert by_name["a.jsonl"].status is TranscriptStatus.PASSED
    assert by_name["nested/deeper/b.jsonl"].status is TranscriptStatus.FAILED
    assert by_name["sandbox/__agent_eval__/transcript.txt"].format == "claude-session"


def test_a_file_named_explicitly_that_is_not_a_transcript_is_unreadable_not_skipped(tree: Path) -> None:
    [r] = check_one(tree / "README.md")
    assert r.status is TranscriptStatus.UNREADABLE
    assert r.error is not None and r.error.startswith(str(tree / "README.md"))
    [r] = check_one(Input(str(tree / "x-*.jsonl"), problem="no file matches this pattern"))
    assert r.status is TranscriptStatus.UNREADABLE and r.error == f"{tree / 'x-*.jsonl'}: no file matches this pattern"


def test_a_crash_of_the_library_on_one_input_is_that_inputs_result(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("simulated bug")

    monkeypatch.setattr(_batch_run, "load_all", boom)  # where check_one looks it up
    [r] = check_one(HEALTHY)
    assert r.status is TranscriptStatus.CRASHED and r.error == "ZeroDivisionError: simulated bug"


def test_checks_files_functions_and_health(tmp_path: Path) -> None:
    f = tmp_path / "my_checks.py"
    f.write_text("def check_has_calls(t):\n    assert t.tool_calls, 'no tool calls'\n")
    [r] = check_one(HEALTHY, Checks(files=[f]))
    assert [c.name for c in r.checks] == ["check_has_calls"]
    [r] = check_one(HEALTHY, Checks(files=[f], health=True))
    assert [c.name for c in r.checks][-1] == "check_has_calls" and len(r.checks) == 6
    [r] = check_one(HEALTHY, Checks(functions=["agenteval_assert._health:check_no_run_errors"]))
    [c] = r.checks
    assert isinstance(c, CheckResult) and (c.name, c.status) == ("no_run_errors", Status.PASS)
    (tmp_path / "empty.py").write_text("")
    with pytest.raises(UsageError, match="no checks found"):
        Checks(files=[tmp_path / "empty.py"]).validate()
    with pytest.raises(UsageError, match="module:function"):
        Checks(functions=["nope"]).validate()
    with pytest.raises(UsageError, match=r"no-such-eval"):
        Checks(eval="storybook/no-such-eval").validate()


def test_a_sandbox_runs_through_its_eval_and_skipped_tests_are_skips() -> None:
    [r] = check_one(Input(str(SANDBOX), kind="sandbox"), Checks(eval=SUITE))
    assert (r.kind, r.name, r.eval, r.format) == ("sandbox", str(SANDBOX), SUITE, "claude-session")
    assert r.status is TranscriptStatus.PASSED
    assert r.counts()["skip"] > 0 and r.counts()["fail"] == 0
    [bad] = check_one(Input(str(HEALTHY), kind="sandbox"), Checks(eval=SUITE))
    assert bad.status is TranscriptStatus.UNREADABLE and bad.kind == "sandbox"


def _sample_inputs() -> list[Input]:
    return list(expand([SAMPLES]))


def test_the_pool_gives_the_in_process_results_in_input_order_when_ordered() -> None:
    inputs = _sample_inputs()
    local = list(check_many(inputs, None, jobs=1))
    pooled = _proc.within("check_many on a pool of 2", lambda: list(
        check_many(inputs, None, jobs=2, ordered=True, chunksize=3)))
    assert pooled == local
    # every input gives a result; a file of several runs gives one per member, named path#member
    assert [r.path for r in local if r.member is None or r.name == f"{r.path}#{r.member}"] == [r.path for r in local]
    assert list(dict.fromkeys(r.path for r in local)) == [i.path for i in inputs]
    members = [r for r in local if r.member is not None]
    assert members and all(r.name == f"{r.path}#{r.member}" for r in members)
    # unordered: the same results, possibly in another order
    unordered = _proc.within("check_many on a pool of 2", lambda: list(check_many(inputs, None, jobs=2)))
    assert sorted(unordered, key=lambda r: r.name) == sorted(local, key=lambda r: r.name)


class CountingExecutor(cf.ThreadPoolExecutor):
    """Any Executor will do; this one records how many tasks were in flight at once."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.in_flight = 0
        self.most = 0

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def,override]
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        fut = super().submit(fn, *args, **kwargs)
        fut.add_done_callback(lambda _: setattr(self, "in_flight", self.in_flight - 1))
        return fut


def test_any_executor_is_accepted_left_open_and_the_work_in_flight_is_bounded() -> None:
    paths = (str(HEALTHY) for _ in range(1))  # a generator is consumed lazily
    many = [Input(str(p)) for p in sorted(SAMPLES.rglob("*.jsonl"))]
    with CountingExecutor() as ex:
        got = list(check_many(many, None, executor=ex, ordered=True, window=3))
        assert ex.most <= 3
        assert [r.path for r in got] == [i.path for i in many]
        assert len(list(check_many(paths, None, executor=ex))) == 1  # still usable: not shut down


def test_a_usage_error_stops_before_any_work(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def check_x(t):\n    return (\n")
    with pytest.raises(UsageError, match="syntax error"):
        next(check_many([HEALTHY], [bad], jobs=1))


requires_dask = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="dask.distributed is not installed (pip install 'agenteval-assert[dask]'; the dev extra has it)",
)


#: Seconds a local Dask cluster may take to start (two fresh worker interpreters that import
#: dask, connecting to the scheduler), and the work on it to finish: generous, since the machine
#: may be shared and loaded (the defaults, 30 s to connect, were not enough there).
DASK_TIMEOUT = 240


def _dask_timeouts() -> Any:
    import dask

    return dask.config.set({"distributed.comm.timeouts.connect": f"{DASK_TIMEOUT}s",
                            "distributed.comm.timeouts.tcp": f"{DASK_TIMEOUT}s"})


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[Any]:
    """A real local Dask cluster: two worker processes, no dashboard (started once: seconds).

    A cluster that cannot start within ``DASK_TIMEOUT`` seconds (a machine too loaded to spawn
    its workers, no local sockets) skips the Dask tests, saying why; anything else fails them."""
    from distributed import LocalCluster

    started = time.monotonic()
    try:
        with warnings.catch_warnings(), _dask_timeouts():
            # Without a dashboard the scheduler still serves its health routes, on port 8787 when it
            # is free: another cluster on the machine (a parallel test run) makes it warn and take
            # another port, which is fine here.
            warnings.filterwarnings("ignore", message=r"Port \d+ is already in use", category=UserWarning)
            cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                   death_timeout=DASK_TIMEOUT)
    except Exception as exc:  # distributed wraps a start-up timeout in assorted errors
        why = _timeout_or_socket(exc)
        if why is None:
            raise
        pytest.skip(f"a local Dask cluster (2 worker processes) could not start within {DASK_TIMEOUT} s on "
                    f"this machine (gave up after {time.monotonic() - started:.0f} s): {type(why).__name__} {why}".rstrip())
    with cluster:
        try:
            cluster.wait_for_workers(2, timeout=DASK_TIMEOUT)
        except TimeoutError as exc:
            pytest.skip(f"the local Dask cluster's 2 workers did not join within {DASK_TIMEOUT} s: {exc}")
        yield cluster


def _timeout_or_socket(exc: BaseException) -> BaseException | None:
    """The timeout or socket error in the chain of *exc* (a worker that did not start in time
    surfaces as distributed's ``AssertionError: Status.starting``, caused by a ``TimeoutError``)."""
    seen: list[BaseException] = []
    e: BaseException | None = exc
    while e is not None and all(e is not s for s in seen):
        seen.append(e)
        e = e.__cause__ if e.__cause__ is not None else None if e.__suppress_context__ else e.__context__
    found = [e for e in seen if isinstance(e, (TimeoutError, OSError))]
    return next((e for e in found if str(e)), found[0] if found else None)  # the one that says most


def test_a_dask_cluster_that_cannot_start_in_time_is_told_from_one_that_breaks() -> None:
    """What distributed raises when a worker does not start in time (an ``AssertionError`` whose
    context is the ``TimeoutError``) skips the Dask tests; any other error fails them."""
    try:
        try:
            raise TimeoutError("Worker start timed out after 240s.")
        except TimeoutError:
            raise AssertionError("Status.starting") from None
    except AssertionError as exc:
        assert _timeout_or_socket(exc) is None  # ``from None``: no chain, a real failure
    try:
        try:
            raise TimeoutError("Worker start timed out after 240s.")
        except TimeoutError:
            raise AssertionError("Status.starting")  # noqa: B904 - as distributed does
    except AssertionError as exc:
        assert str(_timeout_or_socket(exc)) == "Worker start timed out after 240s."
    assert _timeout_or_socket(RuntimeError("Cluster failed to start")) is None
    chained = RuntimeError("Cluster failed to start")
    chained.__cause__ = ConnectionRefusedError(111, "Connection refused")
    assert isinstance(_timeout_or_socket(chained), ConnectionRefusedError)


@requires_dask
def test_check_many_on_a_real_dask_local_cluster_equals_the_local_run(dask_cluster: Any) -> None:
    from distributed import Client

    inputs = _sample_inputs()
    local = list(check_many(inputs, None, jobs=1))
    checks_file = str(SAMPLES / "replay" / "saving-twice" / "checks.py")
    replay = [Input(str(SAMPLES / "replay" / "saving-twice" / n)) for n in ("baseline.jsonl", "faulty.jsonl")]
    with _dask_timeouts(), Client(dask_cluster, timeout=DASK_TIMEOUT) as client:
        on_cluster = _proc.within("check_many on the Dask cluster", lambda: list(
            check_many(inputs, None, executor=client.get_executor(), ordered=True, chunksize=4)), DASK_TIMEOUT)
        # the workers import the checks file themselves: only its path travels
        on_cluster_checks = _proc.within("check_many with a checks file on the Dask cluster", lambda: list(
            check_many(replay, [checks_file], executor=client.get_executor(), ordered=True)), DASK_TIMEOUT)
    assert on_cluster == local
    assert on_cluster_checks == list(check_many(replay, [checks_file], jobs=1))
    assert [r.status for r in on_cluster_checks] == [TranscriptStatus.PASSED, TranscriptStatus.FAILED]


@requires_dask
def test_the_cli_on_a_dask_scheduler_prints_what_the_local_run_prints(
    dask_cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from agenteval_assert._cli import main

    monkeypatch.chdir(ROOT)

    def run(*argv: str) -> tuple[int, str]:
        out = io.StringIO()
        return main(list(argv), stdout=out, stderr=io.StringIO()), out.getvalue()

    from agenteval_assert import _cli_check

    monkeypatch.setattr(_cli_check, "DASK_CONNECT_TIMEOUT", f"{DASK_TIMEOUT}s")
    address = dask_cluster.scheduler_address
    with _dask_timeouts():
        on_cluster = _proc.within("check --dask-scheduler", lambda: run(
            "check", "samples/", "--dask-scheduler", address, "--output-format", "json"), DASK_TIMEOUT)
    assert on_cluster == run("check", "samples/", "-j", "1", "--output-format", "json")


def test_the_cli_says_when_the_dask_scheduler_cannot_be_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from agenteval_assert import _cli_check
    from agenteval_assert._cli import main

    monkeypatch.setattr(_cli_check, "DASK_CONNECT_TIMEOUT", "1s")
    if importlib.util.find_spec("distributed") is None:
        pytest.skip("dask.distributed is not installed")
    err = io.StringIO()
    code = main(["check", str(HEALTHY), "--dask-scheduler", "tcp://127.0.0.1:9"],
                stdout=io.StringIO(), stderr=err)
    assert code == 2
    assert err.getvalue().startswith("error: cannot connect to the Dask scheduler at tcp://127.0.0.1:9")


def test_a_worker_that_dies_makes_its_inputs_crashed_results_and_the_run_goes_on(tmp_path: Path) -> None:
    f = tmp_path / "dies.py"
    f.write_text(
        "import os\n\n"
        "def check_survives(t):\n"
        "    if 'stream-output-2' in t.path:\n"
        "        os._exit(3)  # the worker process dies\n"
    )
    inputs = [Input(str(HEALTHY)), Input(str(UNANSWERED))]
    results = _proc.within("check_many on a pool whose worker dies", lambda: list(
        check_many(inputs, [f], jobs=2, ordered=True)))
    assert results[0].status is TranscriptStatus.CRASHED
    assert results[0].error is not None and results[0].error.startswith("the worker failed: BrokenProcessPool")
    # a broken pool takes the inputs still in flight with it: each says so, none is lost
    assert [r.path for r in results] == [str(HEALTHY), str(UNANSWERED)]


def test_a_forced_format_does_not_make_every_file_of_a_directory_a_transcript(tree: Path) -> None:
    results = list(check_many(expand([tree]), None, jobs=1, format="codex-exec"))
    statuses = {os.path.relpath(r.path, tree): r.status.value for r in results}
    assert statuses["README.md"] == "skipped" and statuses["nested/config.json"] == "skipped"
    assert statuses["a.jsonl"] == "passed"


def test_the_pattern_of_the_scale_page_runs_as_written(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import re

    text = (ROOT / "docs" / "scale.md").read_text()
    first = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(first, "docs/scale.md", "exec"), {"__name__": "docs_scale"})  # noqa: S102 - running the docs is the point
    shown = re.search(r"print\(totals.summary_line\(\)\)  # (.*?) \.\.\.", first)
    assert shown is not None
    assert capsys.readouterr().out.startswith(shown.group(1))


def test_in_process_checks_replace_the_health_checks_and_refuse_an_executor() -> None:
    def extra(t: object) -> list[CheckResult]:
        return [CheckResult("extra", Status.PASS, "ok")]

    [plain] = check_one(HEALTHY, Checks())
    [r] = check_one(HEALTHY, Checks(extra=extra))  # the same files and functions as Checks()
    assert len(plain.checks) == 5 and [c.name for c in r.checks] == ["extra"]
    [r] = check_one(HEALTHY, Checks(extra=extra, health=True))
    assert [c.name for c in r.checks][-1] == "extra" and len(r.checks) == 6
    assert [x.name for x in check_many([HEALTHY, UNANSWERED], Checks(extra=extra), jobs=2)] == [
        str(HEALTHY), str(UNANSWERED)]  # jobs ignored: run in this process, in order
    with cf.ThreadPoolExecutor(1) as ex, pytest.raises(UsageError, match="cannot be sent to an executor"):
        next(check_many([HEALTHY], Checks(extra=extra), executor=ex))


def test_secrets_in_check_results_are_redacted_in_the_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = "sk-ant-api03-" + "x" * 40
    f = tmp_path / "leaky.py"
    f.write_text(f"def check_leaks(t):\n    assert False, 'expected no key, found {key}'\n")
    monkeypatch.delenv("AGENTEVAL_NO_REDACT", raising=False)
    [r] = check_one(HEALTHY, Checks(files=[f]))
    [c] = r.checks
    assert isinstance(c, CheckResult) and key not in c.summary and "[REDACTED anthropic-api-key]" in c.summary
    assert key not in str(r.to_dict())


# -- what a walk must never drop silently ------------------------------------------------------


def _damaged(root: Path) -> None:
    """Files named like transcripts that no format reads (the shapes a crashed or copied run
    leaves), and files that are not transcripts."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(HEALTHY, root / "good.jsonl")
    (root / "empty.jsonl").write_text("")
    (root / "blank.jsonl").write_text(" \n\n")
    (root / "bin.jsonl").write_bytes(b"\x00\x01\x02binary")
    (root / "garbage.jsonl").write_text("not json at all\n{{{\n")
    (root / "torn-first-line.jsonl").write_text('{"type":"thread.started","thread_id":"t-1","x":"cut sh')
    (root / "foreign.jsonl").write_text('{"foo": 1}\n{"foo": 2}\n')
    (root / "run.traj").write_text("{}")
    (root / "run.eval").write_text("")
    (root / "transcript.txt").write_text("")
    (root / ".aider.chat.history.md").write_text("")
    (root / "stream.json").write_text('{"foo": 1}\n{"foo": 2\n')  # JSON Lines saved as .json, torn
    # not named like transcripts: skipped, whatever they hold
    (root / "README.md").write_text("# runs\n")
    (root / "package.json").write_text('{"name": "x", "version": "1.0.0"}\n')
    (root / "pretty.json").write_text('{\n  "a": 1\n}\n')
    (root / "empty.json").write_text("")
    (root / "notes.txt").write_text("")
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    os.mkfifo(root / "pipe.jsonl")  # not a regular file, but named like a transcript
    os.mkfifo(root / "pipe")


def test_files_whose_name_says_transcript_are_unreadable_when_no_format_reads_them(tmp_path: Path) -> None:
    _damaged(tmp_path)
    results = {os.path.relpath(r.path, tmp_path): r for r in check_many(expand([tmp_path]), None, jobs=1)}
    status = {k: r.status.value for k, r in results.items()}
    assert status == {
        "good.jsonl": "passed",
        **dict.fromkeys(["empty.jsonl", "blank.jsonl", "bin.jsonl", "garbage.jsonl", "torn-first-line.jsonl",
                         "foreign.jsonl", "run.traj", "run.eval", "transcript.txt", ".aider.chat.history.md",
                         "stream.json", "pipe.jsonl"], "unreadable"),
        **dict.fromkeys(["README.md", "package.json", "pretty.json", "empty.json", "notes.txt", "image.png",
                         "pipe"], "skipped"),
    }
    # the same message as when the file is named on the command line
    [direct] = check_one(tmp_path / "garbage.jsonl")
    assert results["garbage.jsonl"].error == direct.error
    assert direct.error is not None and direct.error.startswith(f"{tmp_path / 'garbage.jsonl'}:1: not valid JSON")


def test_a_directory_that_cannot_be_listed_and_a_file_that_cannot_be_read_are_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    shutil.copy(HEALTHY, tmp_path / "good.jsonl")
    (tmp_path / "locked").mkdir()
    shutil.copy(HEALTHY, tmp_path / "locked" / "hidden.jsonl")
    (tmp_path / "secret.txt").write_text("x")
    real_scandir, real_open = os.scandir, open

    def scandir(path: str) -> object:
        if os.path.basename(path) == "locked":
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    def fake_open(path: str, *a: object, **k: object) -> object:
        if os.path.basename(os.fspath(path)) == "secret.txt":
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, *a, **k)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr("builtins.open", fake_open)
    inputs = list(expand([tmp_path]))
    locked = [i for i in inputs if i.problem is not None]
    assert [(os.path.relpath(i.path, tmp_path), i.problem) for i in locked] == [
        ("locked", "cannot list this directory: Permission denied")]
    results = {os.path.relpath(r.path, tmp_path): r for r in check_many(inputs, None, jobs=1)}
    assert {k: r.status.value for k, r in results.items()} == {
        "good.jsonl": "passed", "locked": "unreadable", "secret.txt": "unreadable"}
    assert results["secret.txt"].error == f"{tmp_path / 'secret.txt'}: cannot read: Permission denied"


@pytest.mark.skipif(not hasattr(os, "fork") or not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="needs root (to drop to an unprivileged user) and fork")
def test_permission_denied_as_an_unprivileged_user_exits_3_and_names_the_directory() -> None:
    """The command line run for real as an unprivileged user (uid/gid 65534).

    A forked child drops its privileges and calls ``main`` in process: it runs the modules this
    process already imported (a warm-up run of the same command on the readable tree imports
    what the command needs), so the test does not depend on whether that user may read the
    interpreter's site-packages (under /root for a pyenv Python, as on CI).
    """
    import io
    import json
    import tempfile

    from agenteval_assert._cli import main

    top = Path(tempfile.mkdtemp(prefix="agenteval-perm-"))  # under /tmp, not under pytest's 0700 base
    try:
        os.chmod(top, 0o755)
        root = top / "runs"
        (root / "sub").mkdir(parents=True)
        shutil.copy(HEALTHY, root / "good.jsonl")
        shutil.copy(HEALTHY, root / "locked.jsonl")
        shutil.copy(HEALTHY, root / "sub" / "x.jsonl")
        argv = ["check", str(root), "-q", "--jobs", "1"]
        assert main(argv, stdout=io.StringIO(), stderr=io.StringIO()) == 0  # warm-up, as root
        os.chmod(root / "locked.jsonl", 0)
        os.chmod(root / "sub", 0)
        answer = top / "answer.json"
        answer.touch(mode=0o666)
        os.chmod(answer, 0o666)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child reports through the file
            try:
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
                out, err = io.StringIO(), io.StringIO()
                code = main(argv, stdout=out, stderr=err)
                answer.write_text(json.dumps([code, out.getvalue(), err.getvalue()]))
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        code, stdout, stderr = json.loads(answer.read_text() or "[null, \"\", \"the child wrote nothing\"]")
    finally:
        os.chmod(top / "runs" / "sub", 0o755)
        shutil.rmtree(top)
    assert code == 3, stderr
    assert f"error: {root / 'locked.jsonl'}: cannot read: Permission denied" in stderr
    assert f"error: {root / 'sub'}: cannot list this directory: Permission denied" in stderr
    assert "1 of 3 transcripts passed" in stdout


def test_linked_directories_are_walked_once_and_a_link_loop_ends(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    shutil.copy(HEALTHY, tmp_path / "real" / "a.jsonl")
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(UNANSWERED, tmp_path / "elsewhere" / "b.jsonl")
    (tmp_path / "runs").mkdir()
    os.symlink(tmp_path / "elsewhere", tmp_path / "runs" / "linked")
    os.symlink(tmp_path / "runs", tmp_path / "runs" / "loop")  # back to a parent
    os.symlink(tmp_path / "real", tmp_path / "runs" / "real-again")
    os.symlink(tmp_path / "real", tmp_path / "runs" / "real-twice")
    got = [os.path.relpath(i.path, tmp_path) for i in expand([tmp_path / "runs"])]
    assert got == ["runs/linked/b.jsonl", "runs/real-again/a.jsonl"]
    # as a ** pattern finds them
    pattern = [os.path.relpath(i.path, tmp_path) for i in expand([str(tmp_path / "runs" / "*" / "*.jsonl")])]
    assert pattern == ["runs/linked/b.jsonl", "runs/real-again/a.jsonl"]


def test_an_empty_directory_is_an_unreadable_input_not_nothing(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "only-git" / ".git").mkdir(parents=True)
    shutil.copy(HEALTHY, tmp_path / "only-git" / ".git" / "x.jsonl")
    got = [(os.path.relpath(i.path, tmp_path), i.problem) for i in expand([tmp_path / "empty", tmp_path / "only-git"])]
    assert got == [("empty", "no file in this directory"), ("only-git", "no file in this directory")]
    [inp] = expand([tmp_path / "empty"], sandboxes=True)
    assert (inp.kind, inp.problem) == ("sandbox", "no sandbox in this directory")


def test_check_many_refuses_checks_that_are_not_names() -> None:
    """Checks travel to worker processes by name: a function (or a lambda) is a usage error
    saying what to pass, before any work, not a TypeError from deep inside."""
    from agenteval_assert.batch import check_many
    from agenteval_assert.exceptions import UsageError

    for bad in ([lambda t: None], lambda t: None, 42):
        with pytest.raises(UsageError, match=r"checks-file paths or a Checks\(\.\.\.\)"):
            list(check_many(["x.jsonl"], bad, jobs=1))  # type: ignore[arg-type]
