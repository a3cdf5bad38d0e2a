"""The benchmark keeps working: the generator and the runner in smoke mode, on tiny sizes.

Checks the structure of what they produce (and that our parsers read every generated file
completely, finding exactly the calls the generator wrote), never the timings.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from agenteval_assert import load
from bench import generate as gen
from bench import replicate as rep

from . import _proc

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict[str, Any]]]:
    out = tmp_path_factory.mktemp("bench-data")
    return {fmt: gen.ensure(fmt, 40_000, out) for fmt in gen.FORMATS}


@pytest.mark.parametrize("fmt", gen.FORMATS)
def test_generated_file_parses_completely_and_matches_its_manifest(
    generated: dict[str, tuple[Path, dict[str, Any]]], fmt: str
) -> None:
    path, manifest = generated[fmt]
    assert manifest["bytes"] == path.stat().st_size >= 40_000
    assert manifest["lines"] == path.read_bytes().count(b"\n")
    t = load(path)
    assert t.format == fmt
    assert t.health.complete, t.health.problems()
    assert not t.health.unparsable
    assert len(t.tool_calls) == manifest["tool_calls"] > 0
    assert len(t.all_tool_calls) - len(t.tool_calls) == manifest["subagent_tool_calls"]
    assert sum(1 for c in t.tool_calls if c.is_error) == manifest["tool_errors"]
    assert dict(t.tool_names) == manifest["tools"]
    assert t.final_response == manifest["final_response"]
    assert not t.tool_calls[-1].is_error  # the run ends on a successful call


@pytest.mark.parametrize("fmt", gen.EXTRA_FORMATS)
def test_extra_formats_parse_completely_and_match_their_manifest(tmp_path: Path, fmt: str) -> None:
    path, manifest = gen.ensure(fmt, 40_000, tmp_path)
    t = load(path)
    assert t.format == fmt and t.health.complete, t.health.problems()
    assert not t.health.unknown_types
    assert len(t.tool_calls) == manifest["tool_calls"] > 0
    assert sum(1 for c in t.tool_calls if c.is_error) == manifest["tool_errors"]
    assert dict(t.tool_names) == manifest["tools"]
    assert t.final_response == manifest["final_response"]
    assert not t.tool_calls[-1].is_error


def test_generator_is_deterministic_and_seeded(tmp_path: Path) -> None:
    a = gen.generate("claude-session", 20_000, tmp_path / "a.jsonl", seed=1)
    b = gen.generate("claude-session", 20_000, tmp_path / "b.jsonl", seed=1)
    gen.generate("claude-session", 20_000, tmp_path / "c.jsonl", seed=2)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert (tmp_path / "a.jsonl").read_bytes() != (tmp_path / "c.jsonl").read_bytes()
    assert a["tool_calls"] == b["tool_calls"]


def test_claude_session_has_the_corpus_shapes(generated: dict[str, tuple[Path, dict[str, Any]]]) -> None:
    path, _ = generated["claude-session"]
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    types = {r["type"] for r in records}
    assert {"user", "assistant", "summary", "progress", "file-history-snapshot"} <= types
    by_id: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if r["type"] == "assistant":
            by_id.setdefault(r["message"]["id"], []).append(r)
    split = [rs for rs in by_id.values() if len(rs) > 1]
    assert split, "no assistant message split over several lines"
    assert all(len({json.dumps(r["message"]["usage"]) for r in rs}) == 1 for rs in split)
    results = [r for r in records if r["type"] == "user" and "toolUseResult" in r]
    assert results and all(r["message"]["content"][0]["type"] == "tool_result" for r in results)


def test_codex_exec_resumes_with_restarting_item_ids(generated: dict[str, tuple[Path, dict[str, Any]]]) -> None:
    path, _ = generated["codex-exec"]
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    starts = [i for i, r in enumerate(records) if r["type"] == "thread.started"]
    assert len(starts) >= 2
    first_after_resume = next(r for r in records[starts[1] :] if r["type"].startswith("item."))
    assert first_after_resume["item"]["id"] == "item_0"


@pytest.mark.parametrize(("text", "n"), [("64KB", 64_000), ("1MB", 1_000_000), ("1.5MB", 1_500_000), ("512", 512)])
def test_parse_size(text: str, n: int) -> None:
    assert gen.parse_size(text) == n


def test_runner_smoke_mode_writes_the_tables(tmp_path: Path) -> None:
    out = tmp_path / "results"
    p = _proc.run(
        [sys.executable, "-m", "bench.run", "--smoke", "--no-peers", "--quiet",
         "--data", str(tmp_path / "data"), "--out", str(out), "--batch", "8"],
        cwd=ROOT, timeout=600,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    md = (out / "latest.md").read_text(encoding="utf-8")
    assert p.stdout == md
    res = json.loads((out / "latest.json").read_text(encoding="utf-8"))
    assert res["mode"] == "smoke"
    assert {"cores", "python"} <= set(res["machine"])
    assert [r["format"] for r in res["parse"]] == list(gen.FORMATS)
    for row in res["parse"]:
        assert row["baseline"]["error"] is None and row["baseline"]["seconds"]["median"] > 0
        assert row["ours"]["error"] is None, row["ours"]["error"]
        assert row["ours"]["matches_manifest"] is True
        assert row["ours"]["seconds"]["n"] == 1
        assert f"| {row['format']} | {row['size']} |" in md
    assert res["checks"]["error"] is None and res["checks"]["n_checks"] > 0
    assert res["batch"]["files"] == 8 and res["batch"]["cli_error"] is None
    assert res["batch"]["cli_exit"] == 0  # every generated transcript passes the health checks
    assert res["batch"]["lib_not_passing"] == 0
    assert all(v == "skipped (--no-peers)" for v in res["peers"].values())
    assert any(t["target"].startswith("claude-session") for t in res["targets"])
    assert "## Targets" in md
    assert [r["format"] for r in res["whole"]] == list(gen.FORMATS)
    for row in res["whole"]:
        for name in ("loop", "summary", "check"):
            assert row[name]["error"] is None, row[name]["error"]
            assert row[name]["seconds"]["n"] == 1
        assert row["summary"]["ratio"]["median"] > 0 and row["check"]["ratio"]["median"] > 0
    assert "## Whole processes" in md and "## Start-up" in md
    for name in rep_startup_names():
        assert res["startup"][name]["error"] is None, res["startup"][name]["error"]
    assert res["startup"]["--version"]["ratio_to"] == "import attrs, json"


def rep_startup_names() -> list[str]:
    from bench.run import STARTUP

    return list(STARTUP)


@pytest.mark.parametrize("fmt", gen.FORMATS)
def test_replicated_file_is_real_records_with_fresh_ids(tmp_path: Path, fmt: str) -> None:
    path, manifest = rep.ensure(fmt, 1_000_000, tmp_path)
    assert manifest["copies"] >= 2 and manifest["bytes"] == path.stat().st_size >= 1_000_000
    t = load(path)
    assert t.format == fmt
    assert not t.health.unparsable and not t.health.orphan_results
    # the corpus's figures (expected.json, computed from the raw records) times the copies
    assert len(t.tool_calls) == manifest["tool_calls"] > 0
    assert len(t.all_tool_calls) - len(t.tool_calls) == manifest["subagent_tool_calls"]
    assert sum(1 for c in t.tool_calls if c.unanswered) == manifest["unanswered_calls"]
    if manifest["tool_errors"] is not None:
        assert sum(1 for c in t.tool_calls if c.is_error) == manifest["tool_errors"]
    assert dict(t.tool_names) == manifest["tools"]
    final = manifest["final_response"] or manifest["final_response_prefix"]
    assert (t.final_response or "").startswith(final or "")
    if fmt != "codex-exec":  # every copy's ids are its own (codex exec: item ids restart per process)
        assert len({c.id for c in t.tool_calls}) == len(t.tool_calls)


def test_fresh_ids_keep_their_shape() -> None:
    old = "toolu_01ABCdefGHIjklMNOpqrSTU"
    new = rep.fresh_id(old, 3)
    assert len(new) == len(old) and new.startswith("toolu_01ABCdef") and new != old
    assert rep.fresh_id(old, 0) == old
    u = "019a2d7a-6455-7170-a661-c6d8b94c630a"
    nu = rep.fresh_id(u, 1)
    assert len(nu) == len(u) and all(ch in "0123456789abcdef-" for ch in nu) and nu != u
