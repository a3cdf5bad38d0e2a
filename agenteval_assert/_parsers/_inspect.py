"""inspect_ai eval logs: ``inspect-log`` (``.json`` documents and ``.eval`` zip archives).

A log holds one run per sample and epoch, so a file has **members**: ``load_all()`` returns one
``Transcript`` per sample × epoch, named ``FILE#sample-<id>-epoch-<n>``; ``load()`` reads a log of
a single sample as usual and refuses a log of several (``MultipleTranscriptsError``).

* ``.json``: ``EvalLog{version, status, eval{task, model, ...}, plan, results, stats,
  samples[{id, epoch, messages[], output, scores, events[], model_usage, attachments?}]}``.
  Locations are the lines where each message starts in the document.
* ``.eval``: a zip archive (read with the standard library's ``zipfile``): ``header.json`` (the
  log without samples; ``_journal/start.json`` while the run is still being written) and
  ``samples/<id>_epoch_<n>.json``, one sample per member, each written on a single line. A
  location's *line* in such a member is the 1-based number of the message in the sample's
  ``messages`` list (a line of the member file would always be 1).

Messages (``ChatMessage``): assistant ``tool_calls[{id, function, arguments (object),
parse_error?}]`` answered by ``role: tool`` messages (``tool_call_id``, ``error{type,
message}``). A tool message that answers no call of its sample is an orphan
(``health.orphan_results``), never a tool error. Long strings may be moved to the sample's
``attachments`` (``attachment://<hash>``); they are put back.

Plain ``dict`` look-ups with type checks, as in the other parsers (see ``_claude``).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .._builder import TranscriptBuilder
from .._reader import MAX_INPUT_ENV, ReadStats, Record, Shape, Source, max_input_bytes
from ..exceptions import TranscriptError
from ..model import Transcript, Usage
from ._common import Member, Members, as_dict, as_int, decode_arguments, tool_kind
from ._jsondoc import DocumentLines
from ._sniff import inspect_sniff_raw

if TYPE_CHECKING:
    import zipfile

__all__ = ["InspectLogParser", "member_id"]

_ZIP_MAGIC = b"PK\x03\x04"
_SAMPLE_MEMBER = re.compile(r"^samples/(.+)_epoch_(\d+)\.json$")
_ATTACHMENT = "attachment://"
_WHAT = "samples × epochs"

_INSPECT_KINDS = {
    "bash": "shell",
    "bash_session": "shell",
    "python": "other",
    "think": "other",
    "web_search": "web_search",
    "submit": "other",
}


def member_id(sample_id: Any, epoch: Any) -> str:
    """The member id of a sample and epoch: ``sample-<id>-epoch-<epoch>``."""
    return f"sample-{sample_id}-epoch-{epoch}"


def _kind(name: str, args: dict[str, Any]) -> str:
    if name in _INSPECT_KINDS:
        return _INSPECT_KINDS[name]
    if name == "text_editor":
        cmd = args.get("command")
        return {"view": "file_read", "create": "file_write"}.get(cmd, "file_edit") if isinstance(cmd, str) else "file_edit"
    if name.startswith("web_browser"):
        return "web_fetch"
    return tool_kind(name)


def _resolve(value: Any, att: dict[str, Any]) -> Any:
    """*value* with ``attachment://<hash>`` strings replaced by the attachment they name."""
    if not att:
        return value
    if isinstance(value, str):
        if value.startswith(_ATTACHMENT):
            got = att.get(value[len(_ATTACHMENT):])
            return got if isinstance(got, str) else value
        return value
    if isinstance(value, list):
        return [_resolve(v, att) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, att) for k, v in value.items()}
    return value


def _text_and_reasoning(content: Any) -> tuple[str, list[str]]:
    """The text of a message's content (a string or content blocks) and its reasoning blocks."""
    if isinstance(content, str):
        return content, []
    texts: list[str] = []
    reasoning: list[str] = []
    if isinstance(content, list):
        for block in content:
            if isinstance(block, str):
                texts.append(block)
            elif isinstance(block, dict):
                if block.get("type") == "reasoning":
                    r = block.get("reasoning") or block.get("summary")
                    if isinstance(r, str) and r.strip():
                        reasoning.append(r)
                elif isinstance(block.get("text"), str):
                    texts.append(block["text"])
    return "\n".join(texts), reasoning


def _sample_transcript(path: str, sample: dict[str, Any], eval_spec: dict[str, Any],
                       lines: list[int] | None, stats: ReadStats) -> Transcript:
    """Build one sample's transcript. *lines*: the line of each message (``None``: numbered)."""
    b = TranscriptBuilder(path, "inspect-log", "inspect-ai")
    att = as_dict(sample.get("attachments"))
    for key in ("task", "task_id", "eval_id", "run_id", "created"):
        if isinstance(eval_spec.get(key), str):
            b.metadata[key] = eval_spec[key]
    if isinstance(eval_spec.get("model"), str):
        b.model = eval_spec["model"]
    b.metadata["sample_id"] = sample.get("id")
    b.metadata["epoch"] = sample.get("epoch")
    if isinstance(sample.get("uuid"), str):
        b.session_id = sample["uuid"]
    scores = sample.get("scores")
    if isinstance(scores, dict):
        b.metadata["scores"] = {k: v.get("value") for k, v in scores.items() if isinstance(v, dict)}
    messages = sample.get("messages")
    if not isinstance(messages, list):
        if messages is None:
            b.note("the sample has no messages list")
        else:
            b.damaged(lines[0] if lines else 1,
                      f"the sample's messages is a JSON {type(messages).__name__}, not a list", messages)
        messages = []
    for i, m in enumerate(messages):
        line = lines[i] if lines is not None and i < len(lines) else i + 1
        if not isinstance(m, dict):
            b.damaged(line, f"a message that is a JSON {type(m).__name__}, not an object", m)
            continue
        _message(b, m, line, att)
    first = lines[0] if lines else 1
    err = sample.get("error")
    if isinstance(err, dict) and isinstance(err.get("message"), str):
        b.error(err["message"], first)
    limit = sample.get("limit")
    if isinstance(limit, dict) and isinstance(limit.get("type"), str):
        b.metadata["limit"] = limit
        b.note(f"the sample stopped at its {limit['type']} limit ({limit.get('limit')})")
    usage = sample.get("model_usage")
    if isinstance(usage, dict) and usage:
        # a count no model reports stays None (unknown), never 0
        totals: list[int | None] = [None] * 5
        moved = False
        silent = 0  # models listed with no token count
        for u in usage.values():
            silent += not isinstance(u, dict)
            if isinstance(u, dict):
                row = [as_int(u.get(k)) for k in ("input_tokens", "output_tokens", "input_tokens_cache_read",
                                                  "input_tokens_cache_write", "reasoning_tokens")]
                silent += row[0] is None and row[1] is None
                if _reasoning_outside_output([n or 0 for n in row], as_int(u.get("total_tokens"))):
                    row[1] = (row[1] or 0) + (row[4] or 0)  # one meaning: the output holds every generated token
                    moved = True
                for j, n in enumerate(row):
                    if n is not None:
                        totals[j] = (totals[j] or 0) + n
        b.usage = Usage(input_tokens=totals[0], output_tokens=totals[1], cache_read_tokens=totals[2],
                        cache_write_tokens=totals[3], reasoning_tokens=totals[4])
        b.usage_mode = "summed over the sample's model_usage (as inspect_ai reports it)"
        if moved:
            b.usage_mode += "; reasoning added to the output where the model's total counts it apart"
        if silent and silent < len(usage):
            b.usage_partial = True
            b.note(f"usage: {silent} of the sample's {len(usage)} models report no token count: "
                   "the figures cover the others only")
    stats.records = len(messages)
    return b.build(stats)


def _reasoning_outside_output(row: list[int], total: int | None) -> bool:
    """Whether inspect_ai's ``output_tokens`` left the reasoning out (as its Google provider does,
    while its OpenAI provider counts it in): the model's ``total_tokens`` holds the reasoning on
    top of input and output. *row*: input, output, cache read, cache write, reasoning."""
    inp, out, read, write, reasoning = row
    if not reasoning or total is None:
        return False
    without = {inp + out, inp + out + read + write}
    return total not in without and total in {n + reasoning for n in without}


def _message(b: TranscriptBuilder, m: dict[str, Any], line: int, att: dict[str, Any]) -> None:
    role = m.get("role")
    text, reasoning = _text_and_reasoning(_resolve(m.get("content"), att))
    if role == "system":
        b.message("system", text, line, meta=True)
    elif role == "user":
        b.message("user", text, line)
    elif role == "assistant":
        for r in reasoning:
            b.thinking(r, line)
        if text.strip():
            b.message("assistant", text, line)
        calls = m.get("tool_calls")
        if not isinstance(calls, list):
            if calls is not None:
                b.damaged(line, f"assistant tool_calls is a JSON {type(calls).__name__}, not a list", calls)
            return
        for tc in calls:
            if not isinstance(tc, dict) or not isinstance(tc.get("id"), str) or not isinstance(tc.get("function"), str):
                b.damaged(line, "a tool call without a string id and function", tc)
                continue
            args, raw = decode_arguments(_resolve(tc.get("arguments"), att))
            name = tc["function"]
            # Ids are unique among the open calls only (providers number calls afresh every turn):
            # an id whose call was answered starts a new call.
            if not b.call(tc["id"], id=tc["id"], name=name, kind=_kind(name, args), arguments=dict(args),
                          line=line, raw_arguments=raw, reuse_answered=True):
                b.skip("tool call repeating the id of a call still waiting for its result")
            elif isinstance(tc.get("parse_error"), str):
                b.note(f"tool call {tc['id']}: its arguments did not parse ({tc['parse_error'][:80]})")
    elif role == "tool":
        cid = m.get("tool_call_id")
        if not isinstance(cid, str):
            b.damaged(line, "tool message without a tool_call_id (its result answers no call)", m)
            return
        err = m.get("error")
        is_error = isinstance(err, dict)
        if not text and isinstance(err, dict) and isinstance(err.get("message"), str):
            text = err["message"]
        b.result(cid, text=text, line=line, raw=m, is_error=is_error)
    else:
        b.unknown(f"message role {role}", m, line=line)


def _member_key(name: str) -> tuple[str, str]:
    """``samples/<id>_epoch_<n>.json`` → ``(id, n)``."""
    m = _SAMPLE_MEMBER.match(name)
    return (m.group(1), m.group(2)) if m else (name, "?")


def _read_member(zf: zipfile.ZipFile, name: str, where: str) -> Any:
    """The JSON of the archive member *name*, or a ``TranscriptError`` naming *where*
    (``FILE#MEMBER``): a member that cannot be decompressed (bad CRC, corrupt deflate data, an
    unsupported or encrypted entry) or whose text is not JSON is an input error, not a crash."""
    import zipfile
    import zlib

    limit = max_input_bytes()
    try:
        # bounded: a small archive can hold a member of many gigabytes (its stated size may lie)
        with zf.open(name) as fh:
            raw = fh.read(limit + 1)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError, NotImplementedError, ValueError) as exc:
        raise TranscriptError(f"the archive member {name} cannot be read ({type(exc).__name__}: {exc})",
                              path=where, expected="an intact inspect_ai .eval archive") from None
    if len(raw) > limit:
        raise TranscriptError(f"the archive member {name} is more than the input limit of {limit:,} bytes "
                              f"once decompressed (set {MAX_INPUT_ENV} to read larger members)", path=where,
                              expected=f"an archive member of at most {limit:,} bytes")
    try:
        return json.loads(raw)
    except RecursionError:
        raise TranscriptError(f"the archive member {name} holds JSON nested too deeply to read",
                              path=where, expected="an inspect_ai .eval archive member") from None
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
        line = exc.lineno if isinstance(exc, json.JSONDecodeError) else None
        raise TranscriptError(f"the archive member {name} is not valid JSON ({exc})"[:300],
                              path=where, line=line, expected="a JSON document") from None


class InspectLogParser:
    """inspect_ai eval logs: ``.json`` (EvalLog document) and ``.eval`` (zip archive)."""

    name = "inspect-log"
    agent = "inspect-ai"
    raw_only = False

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        for _, r in head[:1]:
            if isinstance(r.get("eval"), dict) and isinstance(r.get("version"), int) and (
                "samples" in r or "status" in r or "plan" in r
            ):
                return None
        return "no inspect_ai eval log (an object with version, eval and samples/status/plan, or a .eval zip)"

    def sniff_raw(self, head: bytes) -> str | None:
        return inspect_sniff_raw(head)

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:  # pragma: no cover
        raise NotImplementedError("inspect-log is read through members()")

    # -- .json --------------------------------------------------------------------------------

    def members(self, records: Iterator[Record], src: Source) -> Members:
        log: dict[str, Any] | None = None
        for _, rec in records:
            if log is None and isinstance(rec.get("eval"), dict):
                log = rec
        if log is None:
            raise TranscriptError("no inspect_ai eval log (an object with eval and samples)", path=src.path,
                                  line=1, expected="an inspect_ai EvalLog document")
        samples = log.get("samples")
        samples = samples if isinstance(samples, list) else []
        eval_spec = log["eval"]
        text = src.document_text()
        doc = DocumentLines(text) if text is not None else None
        starts = doc.items(["samples"]) if doc is not None else []
        items: list[Member] = []
        for i, s in enumerate(samples):
            if not isinstance(s, dict):
                continue
            start = starts[i] if len(starts) == len(samples) else None

            def build(path: str, s: dict[str, Any] = s, start: int | None = start) -> Transcript:
                lines: list[int] | None = None
                if doc is not None and start is not None:
                    found = [doc.line(o) for o in doc.items(["messages"], start)]
                    msgs = s.get("messages")
                    if isinstance(msgs, list) and len(found) == len(msgs):
                        lines = found
                if lines is None:
                    msgs = s.get("messages")
                    lines = [doc.line(start) if doc is not None and start is not None else 1] * (
                        len(msgs) if isinstance(msgs, list) else 0)
                stats = ReadStats(path=path, shape=src.stats.shape, lines=src.stats.lines)
                return _sample_transcript(path, s, eval_spec, lines, stats)

            items.append(Member(member_id(s.get("id"), s.get("epoch")), build))
        return Members(self.name, tuple(items), what=_WHAT)

    # -- .eval --------------------------------------------------------------------------------

    def read_raw(self, src: Source) -> Members:
        import zipfile  # start-up: imported for an .eval archive only (detection imports this module)

        data = src.whole_bytes()
        try:
            zf = zipfile.ZipFile(io.BytesIO(data))
            names = zf.namelist()
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
            raise TranscriptError(
                f"not a readable zip archive ({type(exc).__name__}: {exc}); an .eval log still being "
                "written has no central directory yet", path=src.path, expected="an inspect_ai .eval log",
            ) from None
        samples = [(n, m) for n in names if (m := _SAMPLE_MEMBER.match(n))]
        header_name = "header.json" if "header.json" in names else (
            "_journal/start.json" if "_journal/start.json" in names else None)
        if header_name is None and not samples:
            raise TranscriptError("a zip archive, but not an inspect_ai .eval log (no header.json, "
                                  "_journal/start.json nor samples/*.json)", path=src.path,
                                  expected="an inspect_ai .eval log")
        eval_spec: dict[str, Any] = {}
        if header_name is not None:
            header = _read_member(zf, header_name, f"{src.path}#{header_name}")
            if isinstance(header, dict) and isinstance(header.get("eval"), dict):
                eval_spec = header["eval"]
        items = []
        for name, m in samples:
            def build(path: str, name: str = name) -> Transcript:
                return self._zip_sample(zf, name, path, eval_spec)

            items.append(Member(member_id(m.group(1), m.group(2)), build))
        return Members(self.name, tuple(items), what=_WHAT)

    @staticmethod
    def _zip_sample(zf: zipfile.ZipFile, name: str, path: str, eval_spec: dict[str, Any]) -> Transcript:
        stats = ReadStats(path=path, shape="json-object")
        mid = member_id(*_member_key(name))
        where = path if path.endswith(f"#{mid}") else f"{path}#{mid}"  # load() names the plain file
        sample = _read_member(zf, name, where)
        if not isinstance(sample, dict):
            raise TranscriptError(f"the archive member {name} is a JSON {type(sample).__name__}, not a sample object",
                                  path=where, expected="an inspect_ai sample (a JSON object with messages)")
        msgs = sample.get("messages")
        stats.lines = len(msgs) if isinstance(msgs, list) else 0
        return _sample_transcript(path, sample, eval_spec, None, stats)
