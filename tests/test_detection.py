"""Format detection is unambiguous: a file is claimed by its own format only.

``test_corpus_more.py`` checks that every real file keeps its format and that each newer
format's rule refuses every other format's files. Here: the other direction for the formats
that share record types with an older one (every other rule refuses OpenCode, Cursor CLI and Amp
files, but for one overlap settled by the order), the transcripts written for this project, and
the rules' totality on any records.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert._parsers import _HEAD, _parsers
from agenteval_assert._reader import Source

from . import _proc
from .conftest import CORPUS, ROOT, SAMPLES
from .test_corpus_more import _every_file

#: formats whose records look like an older format's (Claude stream-json, Codex exec events)
LOOKALIKES = ("opencode", "cursor-cli", "amp")
#: a known overlap, settled by the detection order: Codex exec's rule takes any record of type
#: ``session.created``, which OpenCode server events also have, so OpenCode is asked first
ORDERED = {("codex-exec", "opencode")}
#: transcripts written for this project (replay and Storybook samples, Storybook fixtures)
WRITTEN = sorted(str(p.relative_to(ROOT)) for p in [
    *SAMPLES.glob("replay/*/*.jsonl"), *SAMPLES.glob("storybook/*/__agent_eval__/transcript.txt"),
    *(CORPUS / "storybook").rglob("*.json")])


@pytest.mark.parametrize(("path", "fmt"), [(p, f) for p, f in _every_file() if f in LOOKALIKES],
                         ids=lambda v: str(v).rsplit("/tests/", 1)[-1])
def test_every_other_format_refuses_the_lookalikes(path: Path, fmt: str) -> None:
    src = Source.open(path)
    try:
        head = list(islice(src.records(), _HEAD))
    finally:
        src.close()
    for name, parser in _parsers().items():
        if name == fmt or (name, fmt) in ORDERED:
            continue
        assert parser.sniff(head, src.stats.shape) is not None, (name, path)
    for first, then in ORDERED:  # the overlap is settled by asking the look-alike first
        if then == fmt:
            assert aa.FORMATS.index(then) < aa.FORMATS.index(first)


def test_there_are_lookalike_files() -> None:
    assert {f for _, f in _every_file()} >= set(LOOKALIKES)
    assert len(WRITTEN) > 10


@pytest.mark.parametrize("rel", WRITTEN)
def test_transcripts_written_for_this_project_keep_their_format(rel: str) -> None:
    try:
        fmt = aa.detect_format(ROOT / rel)
        if rel.endswith("golden-run/transcript.json"):  # Storybook's harness wrote it, parsed
            assert fmt == "agent-eval-transcript"
        else:
            assert fmt in ("claude-session", "claude-stream-json", "codex-exec")
    except aa.UnknownFormatError as exc:  # not a transcript at all (a Storybook fixture)
        assert rel.startswith("tests/corpus/storybook/")
        assert [name for name, _ in exc.tried][: len(aa.FORMATS)] == list(aa.FORMATS)


#: keys the detection rules look at
_KEYS = ["type", "subtype", "part", "properties", "info", "parts", "messages", "role", "session_id", "sessionID",
         "tool_call", "model_call_id", "timestamp_ms", "apiKeySource", "model", "tools", "request_id", "message",
         "payload", "msg", "id", "projectHash", "sessionId", "tool_name", "tool_id"]
_value = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.text(max_size=4)
    | st.sampled_from(["system", "init", "result", "tool_call", "thinking", "delta", "message.updated",
                       "session.created", "user", "assistant", "T-7f395a45-7fae-4983-8de0-d02e61d30183"]),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(_KEYS), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.dictionaries(st.sampled_from(_KEYS), _value, max_size=5), min_size=1, max_size=6))
def test_every_detection_rule_is_total(records: list[dict[str, Any]]) -> None:
    head = list(enumerate(records, 1))
    from agenteval_assert._parsers._sniff import SNIFF

    for name, parser in _parsers().items():
        why = parser.sniff(head, "jsonl")
        assert why is None or (isinstance(why, str) and why), name
        if name in SNIFF:  # detection asks the light sniffer: the same answer as the parser's
            assert SNIFF[name](head, "jsonl") == why, name


def test_the_lazy_registry_names_each_parser_and_the_raw_sniffers() -> None:
    """Format modules are imported when detection reaches them: the registry states, as data,
    each format's name, module and class, and which formats read the bytes first (``sniff_raw``)."""
    from agenteval_assert import _parsers as registry

    parsers = _parsers()
    assert tuple(parsers) == aa.FORMATS == tuple(name for name, _, _ in registry._REGISTRY)
    assert all(p.name == name for name, p in parsers.items())
    raw = tuple(name for name, p in parsers.items() if hasattr(p, "sniff_raw"))
    assert raw == registry._RAW_FORMATS
    # the formats asked before the Claude ones sniff without their module (start-up)
    from agenteval_assert._parsers._sniff import SNIFF, SNIFF_RAW

    assert tuple(SNIFF_RAW) == registry._RAW_FORMATS
    assert set(aa.FORMATS[: aa.FORMATS.index("claude-session")]) <= set(SNIFF) <= set(aa.FORMATS)


def test_detecting_a_claude_file_imports_only_the_formats_asked_before_it() -> None:
    import json

    probe = (
        "import json, sys\nfrom agenteval_assert import load\n"
        f"load({str(CORPUS / 'claude-session-log' / 'spotter-2.1.38-short.jsonl')!r})\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = _proc.python(probe).stdout
    loaded = json.loads(out.splitlines()[-1])
    formats = {m.split(".")[2] for m in loaded if m.startswith("agenteval_assert._parsers.")}
    # opencode, codex-exec and codex-rollout are asked first, the raw sniffers (inspect, aider)
    # look at the bytes, claude asks the Cursor evidence: all from the light sniffer module
    # (and ``_lazy``: the packages' names imported on first use)
    assert formats == {"_claude", "_common", "_lazy", "_sniff"}  # the formats asked before it have light sniffers
    assert "agenteval_assert._parsers._claude._stream" not in loaded  # a session log: its parser only


def test_detecting_a_codex_exec_file_imports_no_other_parser() -> None:
    import json

    probe = (
        "import json, sys\nfrom agenteval_assert import load\n"
        f"load({str(CORPUS / 'codex-exec-json' / 'agentcmd-stream-output-2.jsonl')!r})\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    loaded = json.loads(_proc.python(probe).stdout.splitlines()[-1])
    ours = {m for m in loaded if m.startswith("agenteval_assert._parsers.")}
    assert ours == {"agenteval_assert._parsers._common", "agenteval_assert._parsers._sniff", "agenteval_assert._parsers._lazy",
                    "agenteval_assert._parsers._codex", "agenteval_assert._parsers._codex._shared",
                    "agenteval_assert._parsers._codex._exec"}
    bare = _proc.python("import json, sys\nprint(json.dumps(sorted(sys.modules)))").stdout
    if "zipfile" not in json.loads(bare.splitlines()[-1]):  # some environments' .pth files import it
        assert "zipfile" not in loaded  # the inspect_ai parser imports it for an .eval archive only


@pytest.mark.parametrize(
    ("compress", "kind"),
    [("gzip", "gzip"), ("bz2", "bzip2"), ("lzma", "xz")],
)
def test_a_compressed_transcript_is_named_as_such(compress: str, kind: str, tmp_path: Path) -> None:
    """A saved run is often kept compressed: the error says to decompress it, not only that the
    bytes are not JSON."""
    import importlib

    data = (SAMPLES / "claude-session" / "agentcmd-2.0.27-edit-heavy.jsonl").read_bytes()
    f = tmp_path / "run.jsonl.z"
    f.write_bytes(importlib.import_module(compress).compress(data))
    with pytest.raises(aa.TranscriptError, match=f"the file is {kind}-compressed: decompress it first"):
        aa.load(f)
