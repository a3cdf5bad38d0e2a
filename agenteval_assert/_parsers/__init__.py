"""Format registry, detection and the ``load``/``parse`` entry points."""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import threading
from collections.abc import Iterator, Sequence
from itertools import chain, islice
from typing import TYPE_CHECKING, Any

from ..exceptions import MultipleTranscriptsError, TranscriptError, UnknownFormatError, UsageError

if TYPE_CHECKING:
    from .._builder import TranscriptBuilder
    from .._reader import Record, Source
    from ..model import Transcript
    from ._common import FormatParser, Members

# Start-up: this module is imported by the CLI before it knows what it will do (``--version``,
# ``--help`` name the formats), so the reader, the builder, the model and the format modules are
# imported when a file is read, and a format module only when detection reaches it.

__all__ = ["FORMATS", "available_formats", "detect_format", "from_messages", "load", "load_all", "parse"]

_HEAD = 20

#: The formats in detection order: ``(name, module, class)``; a module is imported when
#: detection first asks its parser (a Claude file never imports the SWE-agent parser).
_REGISTRY: tuple[tuple[str, str, str], ...] = (
    # before codex-exec, whose detection also takes a `session.created` type
    ("opencode", "._opencode", "OpenCodeParser"),
    ("codex-exec", "._codex._exec", "CodexExecParser"),
    ("codex-rollout", "._codex._rollout", "CodexRolloutParser"),
    ("claude-session", "._claude._session", "ClaudeSessionParser"),
    ("claude-stream-json", "._claude._stream", "ClaudeStreamJsonParser"),
    ("gemini-session", "._gemini", "GeminiSessionParser"),
    ("gemini-stream-json", "._gemini", "GeminiStreamJsonParser"),
    ("cursor-cli", "._cursor", "CursorStreamJsonParser"),
    ("amp", "._amp", "AmpStreamJsonParser"),
    ("swe-agent", "._swe", "SweAgentParser"),
    ("mini-swe-agent", "._swe", "MiniSweAgentParser"),
    ("openhands", "._openhands", "OpenHandsParser"),
    ("inspect-log", "._inspect", "InspectLogParser"),
    ("aider", "._aider", "AiderParser"),
    ("agent-eval-transcript", "._agent_eval", "AgentEvalTranscriptParser"),
    # API message lists come last: they accept only files made entirely of API messages.
    ("openai-chat", "._api", "OpenAIChatParser"),
    ("anthropic-messages", "._api", "AnthropicMessagesParser"),
    ("openai-responses", "._api", "OpenAIResponsesParser"),
)
#: The formats that recognise a file from its bytes (``sniff_raw``: a zip archive, markdown),
#: asked before the JSON reader; ``tests/test_detection.py`` keeps this set true.
_RAW_FORMATS: tuple[str, ...] = ("inspect-log", "aider")

_INSTANCES: dict[str, FormatParser] = {}


def _parser(name: str) -> FormatParser:
    """The built-in parser of the format *name*, its module imported on first use."""
    found = _INSTANCES.get(name)
    if found is None:
        # Imported here so that a broken format module names itself in the traceback.
        module, cls = next((m, c) for n, m, c in _REGISTRY if n == name)
        found = _INSTANCES[name] = getattr(importlib.import_module(module, __name__), cls)()
    return found


def _parsers() -> dict[str, FormatParser]:
    """Every built-in parser, in detection order (imports every format module)."""
    return {name: _parser(name) for name, _, _ in _REGISTRY}


#: Names of the supported formats, in detection order.
FORMATS: tuple[str, ...] = tuple(name for name, _, _ in _REGISTRY)
_BUILTIN = frozenset(FORMATS)


def available_formats() -> tuple[str, ...]:
    """``FORMATS`` and the formats of the installed plugins (found without importing them)."""
    from ._plugins import plugin_entry_points

    return FORMATS + tuple(ep.name for ep in plugin_entry_points(_BUILTIN))


def _plugin_parser(name: str) -> FormatParser | None:
    """The installed plugin for the format *name* (loaded now), or ``None``."""
    from ._plugins import load_plugin, plugin_entry_points

    for ep in plugin_entry_points(_BUILTIN):
        if ep.name == name:
            return load_plugin(ep)
    return None


def _sniff_plugins(head: Sequence[Record], src: Source, tried: list[tuple[str, str]]) -> FormatParser | None:
    """Auto-detection's last resort: the plugins, loaded one by one (a broken one is reported)."""
    from ..exceptions import FormatPluginError
    from ._plugins import load_plugin, plugin_entry_points

    for ep in plugin_entry_points(_BUILTIN):
        try:
            parser = load_plugin(ep)
            why = parser.sniff(head, src.stats.shape)
        except FormatPluginError as exc:
            tried.append((ep.name, str(exc)))
            continue
        except Exception as exc:  # noqa: BLE001 - a plugin's bug must not hide the other formats
            tried.append((ep.name, f"format plugin {ep.name!r} failed while sniffing: {type(exc).__name__}: {exc}"))
            continue
        if why is None:
            return parser
        tried.append((ep.name, why))
    return None


def _detect(head: Sequence[Record], src: Source) -> FormatParser:
    from ._sniff import SNIFF

    tried: list[tuple[str, str]] = []
    for name in FORMATS:
        light = SNIFF.get(name)  # a format asked before the usual ones: its module only on a yes
        if light is not None:
            why = light(head, src.stats.shape)
            if why is None:
                return _parser(name)
            tried.append((name, why))
            continue
        parser = _parser(name)
        why = parser.sniff(head, src.stats.shape)
        if why is None:
            return parser
        tried.append((parser.name, why))
    if head:
        plugin = _sniff_plugins(head, src, tried)
        if plugin is not None:
            return plugin
    line = head[0][0] if head else (src.stats.unparsable[0].line if src.stats.unparsable else None)
    if not head:
        # Nothing a format could even look at: say what is wrong with the file, not what each
        # format thought of nothing (the reasons stay on the exception's ``tried``).
        if src.stats.unparsable:
            first = src.stats.unparsable[0]
            msg = f"{first.reason}"
            expected = "JSON records (one JSON object per line, or a JSON array/document)"
        elif src.stats.shape == "empty" or not src.stats.lines:
            msg = "empty file"
            expected = "a transcript (JSON records)"
        else:
            msg = "no JSON records (only blank or # comment lines)"
            expected = "a transcript (JSON records)"
        hint = _hint(src)
        if hint:
            msg += f"; {hint}"
        raise UnknownFormatError(path=src.path, tried=tried, line=line, message=msg, expected=expected,
                                 list_tried=False)
    hint = _hint(src)
    raise UnknownFormatError(path=src.path, tried=tried, line=line,
                             message="not a transcript in any supported format" + (f"; {hint}" if hint else ""))


def _hint(src: Source) -> str | None:
    """What a file that no format read looks like, when it is nearly one (an Aider history that
    lost its heading)."""
    from ._aider import AiderParser

    try:
        head = src.head_bytes()
        for magic, (kind, tool) in _COMPRESSED.items():
            if head.startswith(magic):
                return f"the file is {kind}-compressed: decompress it first ({tool})"
        return AiderParser.hint(head)
    except Exception:  # noqa: BLE001 - only a hint: never hide the error it would be added to
        return None


#: The magic numbers of compressed files, whose bytes no format reads (a saved run is often kept
#: compressed): the error says so rather than "not valid JSON".
_COMPRESSED = {
    b"\x1f\x8b": ("gzip", "gunzip -k FILE"),
    b"\x28\xb5\x2f\xfd": ("zstd", "zstd -d FILE"),
    b"BZh": ("bzip2", "bunzip2 -k FILE"),
    b"\xfd7zXZ\x00": ("xz", "unxz -k FILE"),
}


def _detect_name(head: Sequence[Record], src: Source) -> str:
    try:
        return _detect(head, src).name
    except UnknownFormatError:
        return "no supported format"


def _forced(format: str | None) -> FormatParser | None:
    """The parser of a forced format (checked before the file is opened), ``None`` for detection."""
    if format is None or format == "auto":
        return None
    found = _parser(format) if format in _BUILTIN else _plugin_parser(format)
    if found is None:
        raise UsageError(f"unknown format {format!r}; choose one of: {', '.join(available_formats())}")
    return found


def _parse_source(src: Source, format: str | None, forced: FormatParser | None) -> Transcript:
    """The file as one transcript (``load()``'s reading of it)."""
    return _single(_read(src, format, forced), src.path)


def _raw_parser(src: Source, format: str | None) -> Any:
    """The format that reads this file's bytes itself (a zip archive, markdown), if any.

    Asked before the JSON reader: these sniffers look at the first bytes, which no JSON file can
    share (``PK\\x03\\x04``, ``# aider chat started at``).
    """
    from ._sniff import SNIFF_RAW

    forced = format not in (None, "auto")
    head: bytes | None = None
    for name in _RAW_FORMATS:
        if forced:
            if name != format:
                continue
            parser = _parser(name)
            if getattr(parser, "raw_only", False):
                return parser
        if head is None:
            head = src.head_bytes()
        if SNIFF_RAW[name](head) is None:  # the light sniffer: the format's module only on a yes
            return _parser(name)
    return None


def _read(src: Source, format: str | None, forced: FormatParser | None) -> Members:
    """Read a file: its members (several runs in one file) and/or the whole file as one."""
    from ._common import Members
    raw = _raw_parser(src, format)
    if raw is not None:
        got: Members = raw.read_raw(src)
        return got
    records = src.records()
    head = list(islice(records, _HEAD))
    parser = forced if forced is not None else _detect(head, src)
    members = getattr(parser, "members", None)
    if members is not None:
        got = members(chain(head, records), src)
        return got
    t = _build(parser, head, records, src, format)
    return Members(parser.name, whole=lambda _path: t)


def _build(parser: FormatParser, head: list[Record], records: Iterator[Record], src: Source,
           format: str | None) -> Transcript:
    from .._builder import TranscriptBuilder

    b = TranscriptBuilder(src.path, parser.name, parser.agent)
    b.document = src.document_text()
    with gc_paused():
        if parser.name in _BUILTIN:
            parser.parse(chain(head, records), b)
        else:
            _plugin_parse(parser, chain(head, records), b, src.path)
        if format not in (None, "auto") and not b.has_steps() and src.stats.records:
            n = src.stats.records
            detected = _detect_name(head, src)
            what = (f"the forced format {parser.name} recognised none of the file's "
                    f"{'1 record' if n == 1 else f'{n} records'} (detection would have said: {detected})")
            if detected == parser.name:
                b.note(what)
            else:  # damage, not a note: whatever the records hold (calls included) was not read
                b.damaged(head[0][0] if head else 1, what, head[0][1] if head else None)
        _foreign_records(parser, b, src)
        if src.stats.encoding != "utf-8":
            b.note(f"the file is {src.stats.encoding.upper()} text: decoded to UTF-8 before reading "
                   "(the raw-text checks decode it the same way)")
        t = b.build(src.stats)
    if _kept is not None and len(_kept) < 2:
        _kept.append((t, b))  # the builder too: its calls in the making are as many objects
    return t


# -- a short-lived process keeps its transcript ---------------------------------------------------
#
# Freeing a 100 MB transcript object by object takes 0.05-0.2 s; a command-line process that
# exits right after its one transcript does not need it freed (``_cli.process_main``): the first
# transcript built is kept, in a reference cycle that the process freezes out of the collector's
# reach before it exits, and the operating system takes the memory back at once. The exit is an
# ordinary one (atexit handlers, threads and buffered files are all run and flushed).

#: The kept transcript, behind a reference to the list itself; ``None``: nothing is kept (a
#: library call, a test, a long-lived process).
_kept: list[Any] | None = None


def keep_for_exit() -> None:
    """Keep the next transcript built until the process ends (the command line only)."""
    global _kept
    _kept = []
    _kept.append(_kept)


def _plugin_parse(parser: FormatParser, records: Iterator[Record], b: TranscriptBuilder, path: str) -> None:
    """A plugin's ``parse``: an exception from it (other than an input error it raised on
    purpose) is a ``FormatPluginError`` naming the plugin, not the library's internal error."""
    from ._plugins import parse_failed

    try:
        parser.parse(records, b)
    except TranscriptError:
        raise
    except Exception as exc:  # a plugin's bug is named as the plugin's
        raise parse_failed(parser, exc, path) from exc


def _foreign_records(parser: FormatParser, b: TranscriptBuilder, src: Source) -> None:
    """Records of another format inside the file (a Codex stream pasted in front of a Claude
    log): the first unknown records, sniffed by the other formats. Such records are damage, not
    a note: the calls they hold are not in the transcript."""
    sample = b.unknown_sample
    if not sample:
        return
    for other in _parsers().values():
        if other is parser or other.name == parser.name:
            continue
        try:
            why = other.sniff(sample, src.stats.shape)
        except Exception:  # noqa: BLE001, S112 - a sniffer that cannot read these records says no
            continue
        if why is None:
            lines = ", ".join(str(n) for n, _ in sample[:5]) + (" ..." if len(sample) > 5 else "")
            n = sum(b.unknown_types.values())
            b.damaged(sample[0][0], f"records of another format ({other.name}) inside a {parser.name} file "
                      f"(lines {lines}; {n} unknown record(s) in all)", sample[0][1])
            return


# -- the garbage collector's pause -------------------------------------------------------------
#
# The cyclic garbage collector is held off while a model grows: parsing makes trees, not cycles,
# and every collection would re-scan the whole growing transcript (12-30 % of the parse time at
# 100 MB). The pause is process-wide state shared with the application and its other threads, so
# it is a depth counter under a lock: the first parse to start raises the collector's first
# threshold out of reach, the last one to finish puts back the thresholds the application had.
# ``gc.disable()``/``gc.enable()`` are never called, so an application (or one of its threads)
# that disables or enables the collector meanwhile keeps its choice; one that sets thresholds
# meanwhile keeps them too (they are restored only if they are still ours).

_gc_lock = threading.Lock()
_gc_depth = 0
_gc_saved: tuple[int, int, int] | None = None
_gc_ours: tuple[int, int, int] | None = None
#: A first-generation threshold that allocation never reaches during a parse.
_GC_HOLD = 1 << 30


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Hold off automatic cyclic garbage collection while the body runs (re-entrant, thread-safe)."""
    global _gc_depth, _gc_saved, _gc_ours
    with _gc_lock:
        if _gc_depth == 0:
            saved = gc.get_threshold()
            ours = (_GC_HOLD, *saved[1:])
            gc.set_threshold(*ours)
            _gc_saved = (saved[0], saved[1], saved[2])
            _gc_ours = (ours[0], ours[1], ours[2])
        _gc_depth += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_depth -= 1
            if _gc_depth == 0:
                if _gc_saved is not None and gc.get_threshold() == _gc_ours:
                    gc.set_threshold(*_gc_saved)
                _gc_saved = _gc_ours = None


def _single(got: Members, path: str) -> Transcript:
    """``load()``'s transcript: the whole file, or its only member; refuses several."""
    if got.whole is not None:
        return got.whole(path)
    if len(got.items) == 1:
        return got.items[0].build(path)
    if not got.items:
        raise TranscriptError(f"holds no transcript (no {got.what})", path=path,
                              expected=f"a {got.format} file with at least one run")
    raise MultipleTranscriptsError(path, [m.id for m in got.items], f"{got.format} {got.what}")


def _split_member(path: str | os.PathLike[str]) -> tuple[str, str | None]:
    """``"log.eval#sample-1-epoch-1"`` → ``("log.eval", "sample-1-epoch-1")``.

    A path that exists as it is names a file (``#`` is legal in file names). Otherwise it splits at
    the **last** ``#`` whose left part is an existing file: the file is the longest existing
    prefix, and the member id is all the rest, ``#`` included (``we#ird.eval#sample-a#b-epoch-1``
    is member ``sample-a#b-epoch-1`` of ``we#ird.eval``).
    """
    p = os.fspath(path)
    if "#" not in p or os.path.exists(p):
        return p, None
    i = p.rfind("#")
    while i >= 0:
        if os.path.isfile(p[:i]):
            return p[:i], p[i + 1 :]
        i = p.rfind("#", 0, i)
    return p, None


def _member(got: Members, path: str, member: str) -> Transcript:
    for m in got.items:
        if m.id == member:
            return m.build(f"{path}#{member}")
    ids = [m.id for m in got.items]
    if not ids:
        raise TranscriptError(f"no member {member!r}: a {got.format} file holds one transcript, "
                              "not several", path=path, expected=f"{path} without '#{member}'")
    shown = ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")
    raise TranscriptError(f"no member {member!r} (members: {shown})", path=path,
                          expected=f"one of its {len(ids)} {got.what}")


def load(path: str | os.PathLike[str], *, format: str | None = None) -> Transcript:
    """Parse a transcript file.

    Args:
        path: the file (JSONL, a JSON array of records, one JSON document, an inspect_ai
            ``.eval`` archive, an Aider chat history), or ``"FILE#MEMBER"`` for one transcript
            of a file that holds several (see ``load_all``).
        format: one of ``FORMATS`` to skip auto-detection.

    Raises:
        TranscriptError: the file cannot be read, or is empty.
        UnknownFormatError: no supported format recognised it (lists the reasons).
        MultipleTranscriptsError: the file holds several transcripts (inspect_ai samples ×
            epochs): use ``load_all(path)``, or ``load("path#member")``.
    """
    from .._reader import Source

    forced = _forced(format)
    file, member = _split_member(path)
    got = _read(Source.open(file), format, forced)
    if member is not None:
        return _member(got, file, member)
    return _single(got, file)


def load_all(path: str | os.PathLike[str], *, format: str | None = None) -> list[Transcript]:
    """Every transcript of a file, in file order.

    A file that holds several runs (an inspect_ai log: one per sample and epoch; an Aider chat
    history: one per session) gives one transcript per member, whose ``path`` names it as
    ``FILE#MEMBER`` (``log.eval#sample-3-epoch-1``, ``.aider.chat.history.md#session-2``; the
    same string loads it alone with ``load()``). Any other file gives ``[load(path)]``.
    """
    from .._reader import Source

    forced = _forced(format)
    file, member = _split_member(path)
    got = _read(Source.open(file), format, forced)
    if member is not None:
        return [_member(got, file, member)]
    if not got.items:
        return [_single(got, file)]
    return [m.build(f"{file}#{m.id}") for m in got.items]


def load_each(path: str | os.PathLike[str], *, format: str | None = None) -> tuple[Transcript | None, list[Transcript]]:
    """For the CLI: ``(load(path) or None when it refuses, the members when there are several)``.

    One read of the file serves both: ``check`` checks every member of a file that holds
    several, ``summary`` sums them.
    """
    from .._reader import Source

    forced = _forced(format)
    file, member = _split_member(path)
    got = _read(Source.open(file), format, forced)
    if member is not None:
        return _member(got, file, member), []
    members = [m.build(f"{file}#{m.id}") for m in got.items] if len(got.items) > 1 else []
    whole = _single(got, file) if got.whole is not None or len(got.items) <= 1 else None
    return whole, members


def parse(data: str | bytes, *, format: str | None = None, path: str = "<memory>") -> Transcript:
    """Parse a transcript held in memory (same rules as ``load``)."""
    from .._reader import Source

    forced = _forced(format)
    return _parse_source(Source.from_bytes(data, path), format, forced)


def from_messages(messages: object, *, flavor: str | None = None) -> Transcript:
    """A ``Transcript`` of an API message list held in memory, for agents in your own process.

    Args:
        messages: the conversation as the API takes it: a list of messages (Chat Completions,
            Messages) or of input/output items (Responses), each a dict or an object of the
            ``openai`` / ``anthropic`` SDKs (anything with ``model_dump``; the SDKs are not imported).
            Dicts may hold SDK objects (``{"role": "assistant", "content": response.content}``).
        flavor: ``"openai-chat"``, ``"anthropic-messages"`` or ``"openai-responses"``; ``None``
            detects it from the messages (plain text only: ``openai-chat``).

    Locations are ``<messages>:N``: ``line`` is the index in the list plus one.

    Raises:
        UsageError: *messages* is not a list, or *flavor* is unknown.
        TranscriptParseError: an element is neither a dict nor an SDK object (names its index).
        UnknownFormatError: ``flavor=None`` and the elements are not messages of one API.
    """
    from ._api import from_messages as _from_messages

    return _from_messages(messages, flavor=flavor)


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format name of a file, from its first bytes (archives, markdown) or first records."""
    from .._reader import Source

    src = Source.open(_split_member(path)[0])
    try:
        raw = _raw_parser(src, None)
        if raw is not None:
            return str(raw.name)
        head = list(islice(src.records(), _HEAD))
        return _detect(head, src).name
    finally:
        src.close()

