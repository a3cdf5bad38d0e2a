"""The newer formats' real corpus (``tests/corpus-more``): ``summary --json`` reproduces the
figures of its ``expected.json``, and detection tells every format from every other.

Data-driven: a file whose format is not supported yet is an expected failure (strict, so the
marker has to go when its parser lands); every supported format's files must match.
"""

from __future__ import annotations

import io
import json
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

import agenteval_assert as aa
from agenteval_assert._cli import ExitCode, main

from .conftest import CORPUS, CORPUS_MORE, SAMPLES

EXPECTED: dict[str, dict[str, Any]] = (
    json.loads((CORPUS_MORE / "expected.json").read_text()) if CORPUS_MORE.is_dir() else {}
)


def _summary(path: Path) -> tuple[int, dict[str, Any], str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["summary", str(path), "--json"], stdout=out, stderr=err)
    return code, json.loads(out.getvalue()) if code == ExitCode.OK else {}, err.getvalue()


def _params() -> list[Any]:
    out = []
    for rel, want in sorted(EXPECTED.items()):
        marks = () if want["format"] in aa.FORMATS else (
            pytest.mark.xfail(reason=f"{want['format']} is not parsed yet", strict=True),)
        out.append(pytest.param(rel, marks=marks, id=rel))
    return out


@pytest.fixture(scope="session")
def corpus_more() -> Path:
    if not CORPUS_MORE.is_dir():  # a missing corpus must fail loudly, never skip
        pytest.fail(f"the test corpus is missing: expected it at {CORPUS_MORE}")
    return CORPUS_MORE


@pytest.mark.parametrize("rel", _params())
def test_summary_json_reproduces_the_expected_figures(rel: str, corpus_more: Path) -> None:
    want = EXPECTED[rel]
    code, got, err = _summary(corpus_more / rel)
    assert code == ExitCode.OK, err
    for key, value in want.items():
        if value is None and key != "final_response":
            continue  # null: this figure is not checked for the format (no error marker)
        if key == "final_response_prefix":
            assert (got["final_response"] or "")[:200] == value
        else:
            assert got[key] == value, key


def test_every_file_of_the_folder_has_expected_figures(corpus_more: Path) -> None:
    files = {str(p.relative_to(corpus_more)) for p in corpus_more.rglob("*")
             if p.is_file() and p.parent != corpus_more and p.parent.name != "LICENSES"}
    assert files == set(EXPECTED)


# -- detection -------------------------------------------------------------------------------

def _samples_formats() -> dict[Path, str]:
    """The samples shipped with the package, by their folder (the folder is the format)."""
    return {p: p.parent.name for p in SAMPLES.glob("*/*")
            if p.is_file() and p.parent.name in aa.FORMATS and p.name != "README.md"}


def _every_file() -> list[tuple[Path, str]]:
    """Every real file of the corpora and the samples, with the format it is written in."""
    out: list[tuple[Path, str]] = []
    for root in (CORPUS, CORPUS_MORE):
        if not (root / "expected.json").is_file():
            continue
        for rel, want in json.loads((root / "expected.json").read_text()).items():
            out.append((root / rel, want["format"]))
    out.extend(_samples_formats().items())
    return sorted(out)


_MINE = ("swe-agent", "mini-swe-agent", "openhands", "inspect-log", "aider", "opencode", "cursor-cli", "amp")


@pytest.mark.parametrize(("path", "fmt"), _every_file(), ids=lambda v: str(v).rsplit("/tests/", 1)[-1])
def test_detection_keeps_every_file_in_its_own_format(path: Path, fmt: str) -> None:
    if fmt not in aa.FORMATS:
        # not parsed (yet, or ever: "unknown"): at least none of the newer sniffers takes it
        try:
            got = aa.detect_format(path)
        except aa.UnknownFormatError:
            return
        assert got not in _MINE
        return
    assert aa.detect_format(path) == fmt


@pytest.mark.parametrize("mine", _MINE)
def test_each_new_sniffer_refuses_every_other_format(mine: str) -> None:
    from agenteval_assert._parsers import _HEAD, _parsers
    from agenteval_assert._reader import Source

    parser = _parsers()[mine]
    refused = 0
    for path, fmt in _every_file():
        if fmt == mine:
            continue
        src = Source.open(path)
        try:
            sniff_raw = getattr(parser, "sniff_raw", None)
            if sniff_raw is not None:
                assert sniff_raw(src.head_bytes()) is not None, (mine, path)
            if fmt not in ("aider", "inspect-log") or path.suffix == ".json":  # JSON files only
                head = list(islice(src.records(), _HEAD))
                assert parser.sniff(head, src.stats.shape) is not None, (mine, path)
        finally:
            src.close()
        refused += 1
    assert refused > 20


def test_every_sample_of_the_newer_formats_has_its_provenance() -> None:
    provenance = (SAMPLES / "PROVENANCE.md").read_text()
    samples = {p: f for p, f in _samples_formats().items() if f in _MINE}
    assert set(samples.values()) == set(_MINE)  # one real file per new format at least
    for path in samples:
        rel = str(path.relative_to(SAMPLES))
        assert f"| `{rel}` |" in provenance, rel
        twin = CORPUS_MORE / rel
        if twin.is_file():  # copied byte for byte from the corpus
            assert twin.read_bytes() == path.read_bytes(), rel
