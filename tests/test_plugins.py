"""Third-party formats through the ``agenteval_assert.formats`` entry-point group.

Each test installs throwaway distributions into the running interpreter the way an installer
leaves them: a package directory and a ``*.dist-info`` with ``METADATA`` and ``entry_points.txt``
on ``sys.path``; ``importlib.metadata`` then finds their entry points like any installed package's.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import agenteval_assert as aa
from agenteval_assert import formats
from agenteval_assert._cli import main

from . import _proc
from .conftest import ROOT, SAMPLES

PLUGIN = '''
"""A format plugin, as docs/plugins.md writes it."""
from agenteval_assert.formats import TranscriptBuilder, decode_arguments, tool_kind


class TinyAgentParser:
    name = "tiny-agent"
    agent = "tiny"

    def sniff(self, head, shape):
        if head and all(isinstance(r.get("tiny"), str) for _, r in head):
            return None
        return "no record has a string `tiny` key"

    def parse(self, records, b: TranscriptBuilder) -> None:
        for line, r in records:
            kind = r.get("tiny")
            if kind == "say":
                b.message(r.get("role", "assistant"), r["text"], line)
            elif kind == "call":
                args, raw = decode_arguments(r.get("args"))
                if not b.call(r["id"], id=r["id"], name=r["tool"], kind=tool_kind(r["tool"]),
                              arguments=args, raw_arguments=raw, line=line):
                    b.skip("repeated call id")
            elif kind == "result":
                b.result(r["id"], text=r.get("out", ""), is_error=not r.get("ok", True), line=line)
            else:
                b.unknown(str(kind))
'''


def _dist(root: Path, dist: str, entry_points: str, modules: dict[str, str] | None = None) -> None:
    info = root / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[agenteval_assert.formats]\n" + entry_points + "\n")
    for name, code in (modules or {}).items():
        pkg = root / name
        pkg.mkdir()
        (pkg / "__init__.py").write_text(textwrap.dedent(code))


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Two installed plugins: a working one and one whose module is missing."""
    site = tmp_path / "site"
    site.mkdir()
    _dist(site, "tiny-agent-plugin", "tiny-agent = tiny_agent_plugin:TinyAgentParser", {"tiny_agent_plugin": PLUGIN})
    _dist(site, "broken-plugin", "broken = no_such_module_for_agenteval:Parser")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    yield site
    sys.modules.pop("tiny_agent_plugin", None)


TINY = (
    '{"tiny": "say", "role": "user", "text": "list files"}\n'
    '{"tiny": "call", "id": "c1", "tool": "Bash", "args": {"command": "ls"}}\n'
    '{"tiny": "call", "id": "c2", "tool": "Read", "args": "{\\"file_path\\": \\"x\\"}"}\n'
    '{"tiny": "result", "id": "c2", "out": "nope", "ok": false}\n'
    '{"tiny": "result", "id": "c1", "out": "x"}\n'
    '{"tiny": "say", "text": "done"}\n'
)


def test_a_plugin_format_is_detected_and_parsed_like_a_builtin(plugins: Path, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text(TINY)
    t = aa.load(path)
    assert (t.format, t.agent, t.final_response) == ("tiny-agent", "tiny", "done")
    ls, read = t.tool_calls
    assert (ls.kind, ls.command, ls.output, str(ls.location)) == ("shell", "ls", "x", f"{path}:2")
    assert (read.arguments, read.is_error) == ({"file_path": "x"}, True)
    assert aa.detect_format(path) == "tiny-agent"
    assert aa.load(path, format="tiny-agent").tool_calls[0].id == "c1"


def test_plugins_are_listed_without_being_imported(plugins: Path) -> None:
    assert formats.available_formats()[-2:] == ("broken", "tiny-agent")
    assert formats.available_formats()[: len(aa.FORMATS)] == aa.FORMATS
    assert "tiny_agent_plugin" not in sys.modules


def test_builtin_formats_never_load_plugins(plugins: Path) -> None:
    t = aa.load(SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl")
    assert t.format == "codex-exec"
    assert "tiny_agent_plugin" not in sys.modules


def test_a_broken_plugin_is_named_when_asked_for(plugins: Path) -> None:
    with pytest.raises(aa.AgentEvalError) as exc:
        aa.parse("{}\n", format="broken")
    err = exc.value
    assert isinstance(err, formats.FormatPluginError) and err.plugin == "broken"
    assert str(err) == ("format plugin 'broken' (no_such_module_for_agenteval:Parser of broken-plugin 0.1) could "
                        "not be loaded: ModuleNotFoundError: No module named 'no_such_module_for_agenteval'")


def test_detection_reports_a_broken_plugin_among_the_formats_tried(plugins: Path) -> None:
    with pytest.raises(aa.UnknownFormatError) as exc:
        aa.parse('{"neither": 1}\n')
    tried = dict(exc.value.tried)
    assert tried["broken"].startswith("format plugin 'broken' (no_such_module_for_agenteval:Parser of broken-plugin")
    assert tried["tiny-agent"] == "no record has a string `tiny` key"
    assert list(tried)[: len(aa.FORMATS)] == list(aa.FORMATS)  # built-ins first


def test_a_plugin_that_is_not_a_parser_or_misnamed_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _dist(site, "odd-plugins", "not-a-parser = odd_plugins:NOT_A_PARSER\nwrong-name = odd_plugins:Misnamed",
          {"odd_plugins": "NOT_A_PARSER = 42\nclass Misnamed:\n    name = 'other'\n    agent = 'x'\n"
                          "    def sniff(self, head, shape): return 'no'\n    def parse(self, records, b): pass\n"})
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    try:
        with pytest.raises(formats.FormatPluginError, match="is not a format parser: it has no name, agent, sniff"):
            aa.parse("{}\n", format="not-a-parser")
        with pytest.raises(formats.FormatPluginError, match="declares the format 'other': the entry point must be"):
            aa.parse("{}\n", format="wrong-name")
    finally:
        sys.modules.pop("odd_plugins", None)


def test_the_command_line_takes_a_plugin_format_and_survives_a_broken_one(plugins: Path, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text(TINY)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugins), str(ROOT)])}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return _proc.run([sys.executable, "-m", "agenteval_assert", *args], env=env, cwd=tmp_path)

    out = cli("summary", str(path), "--format", "tiny-agent", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["tools"] == {"Bash": 1, "Read": 1}
    out = cli("check", str(SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"))
    assert out.returncode == 0, out.stdout + out.stderr
    out = cli("summary", str(path), "--format", "broken")
    assert out.returncode == 2 and "format plugin 'broken'" in out.stderr


def test_unknown_format_names_the_plugins_too(plugins: Path) -> None:
    import io

    err = io.StringIO()
    assert main(["summary", "x.jsonl", "--format", "nope"], stdout=io.StringIO(), stderr=err) == 2
    assert "unknown format 'nope'" in err.getvalue() and "tiny-agent" in err.getvalue()


CRASHY = '''
class CrashyParser:
    """Takes every file, and fails on a record it does not expect."""
    name = "crashy"
    agent = "crashy"

    def sniff(self, head, shape):
        return None if head and all("crashy" in r for _, r in head) else "no crashy key"

    def parse(self, records, b):
        for line, r in records:
            b.message("user", r["text"], line)  # KeyError on a record without text
'''


def test_a_plugin_whose_parse_raises_is_named_not_an_internal_error(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # was exit 70 ("internal error ... this is a bug in agenteval-assert"): the plugin's bug
    site = tmp_path / "site"
    site.mkdir()
    _dist(site, "crashy-plugin", "crashy = crashy_plugin:CrashyParser", {"crashy_plugin": CRASHY})
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    path = tmp_path / "run.jsonl"
    path.write_text('{"crashy": 1, "text": "hi"}\n{"crashy": 2}\n')
    try:
        for fmt in ("crashy", None):  # asked for by name, and found by detection
            with pytest.raises(formats.FormatPluginError) as exc:
                aa.load(path, format=fmt)
            assert (exc.value.plugin, exc.value.path) == ("crashy", str(path))
            assert str(exc.value).startswith(f"{path}: format plugin 'crashy' (crashy_plugin:CrashyParser) "
                                             "failed while reading it: KeyError: 'text'")
        import io

        for argv in (["summary", str(path)], ["check", str(path)], ["summary", "--format", "crashy", str(path)]):
            err = io.StringIO()
            assert main(argv, stdout=io.StringIO(), stderr=err) == 3, err.getvalue()
            assert "format plugin 'crashy'" in err.getvalue() and "internal error" not in err.getvalue()
    finally:
        sys.modules.pop("crashy_plugin", None)
