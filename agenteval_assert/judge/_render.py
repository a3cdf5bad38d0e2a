"""What the judge sees: the transcript as numbered steps, chosen, cut and reported.

Every step gets an id (``s<N>``: its position in ``Transcript.steps``, 1-based, so ids do not
change when the evidence is narrowed) that maps back to its ``path:line`` (plus its rank when one
line holds several steps). Files of the sandbox get ids ``f<N>``. Long texts are cut in the
middle with an explicit ``[… N chars cut …]`` marker, the final response is always whole, and
when the steps exceed the overall budget the middle of the run is left out; every cut is listed
in ``Rendering.cuts`` so the result can say what the judge did not see.

The transcript is data: any text that could open or close one of the prompt's delimiters
(``<transcript>``, ``<step>``, ``<file>``...) has its ``<`` written ``&lt;``, so the transcript
cannot end its own block; and secrets are redacted before anything leaves the process.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

from .._redact import redact_count
from ..model import Location, Message, Thinking, ToolCall, Transcript

__all__ = [
    "EvidenceSelection",
    "RenderedStep",
    "Rendering",
    "comparable",
    "neutralise",
    "quote_found",
    "render",
    "whitespace_normalised",
]

#: Cut marker, with the number of characters left out.
CUT = "[… {} chars cut …]"

_RESERVED = re.compile(r"<(\s*/?\s*)(transcript|step|files?|criteria|criterion|task|instructions)\b", re.IGNORECASE)
_ATTR_UNSAFE = re.compile(r"[^A-Za-z0-9_.:@/\-]")


def neutralise(text: str) -> str:
    """*text* with every opening or closing of a prompt delimiter written ``&lt;…``."""
    return _RESERVED.sub(lambda m: f"&lt;{m.group(1)}{m.group(2)}", text)


def whitespace_normalised(text: str) -> str:
    """Runs of whitespace as one space, ends stripped: how quotes are compared to steps."""
    return " ".join(text.split())


def comparable(text: str) -> str:
    """How a quote and a step are compared: whitespace normalised, and ``&lt;`` read as ``<``.

    The judge saw the delimiters of the transcript's own text written ``&lt;…`` (see
    ``neutralise``); a judge that quotes them as the agent wrote them (``</transcript>``) quotes
    the same text, so both sides are compared with the neutralisation undone.
    """
    return whitespace_normalised(text.replace("&lt;", "<"))


def quote_found(quote: str, body: str) -> bool:
    """*quote* is a non-empty excerpt of *body* (see ``comparable``)."""
    q = comparable(quote)
    return bool(q) and q in comparable(body)


def _cut(text: str, limit: int) -> tuple[str, int]:
    """*text* cut in the middle to about *limit* characters with the marker; and how many were cut."""
    if limit <= 0 or len(text) <= limit:
        return text, 0
    head = limit // 2
    tail = limit - head
    cut = len(text) - head - tail
    return f"{text[:head]}{CUT.format(cut)}{text[len(text) - tail:]}", cut


def _optional_tuple(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


@attrs.define(frozen=True, slots=True)
class EvidenceSelection:
    """Which parts of the transcript the judge sees, and how much of them.

    Attributes:
        tools: only the calls of these tools (matched against the tool name, the MCP tool name or
            the call's kind, such as ``shell``); messages are kept. ``None``: every call.
        final_response_only: only the agent's final response.
        last_steps: only the last N steps (after ``tools``).
        files: files of the sandbox to show the judge, relative to ``root``.
        root: where ``files`` are read (default: the transcript's directory).
        include_thinking: show the agent's thinking blocks.
        max_chars: the overall budget of the rendered steps; past it, the middle of the run is
            left out (the first step and the last ones are kept; the final response always).
        max_step_chars: the longest text of one step (a call's input, its output, a message)
            before it is cut in the middle.
        max_file_chars: the longest file shown before it is cut in the middle.
    """

    tools: tuple[str, ...] | None = attrs.field(default=None, converter=_optional_tuple)
    final_response_only: bool = False
    last_steps: int | None = None
    files: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    root: str | None = None
    include_thinking: bool = True
    max_chars: int = 100_000
    max_step_chars: int = 4_000
    max_file_chars: int = 20_000

    def describe(self) -> dict[str, object]:
        """The settings that change what the judge sees (part of the cassette key)."""
        return {
            "tools": list(self.tools) if self.tools is not None else None,
            "final_response_only": self.final_response_only,
            "last_steps": self.last_steps,
            "files": list(self.files),
            "include_thinking": self.include_thinking,
            "max_chars": self.max_chars,
            "max_step_chars": self.max_step_chars,
            "max_file_chars": self.max_file_chars,
        }


@attrs.define(frozen=True, slots=True)
class RenderedStep:
    """One step (or file) as the judge sees it.

    Attributes:
        id: ``s<N>`` for the N-th step of the transcript, ``f<N>`` for a file.
        location: where it is recorded (``path:line``; line 1 for a file).
        part / parts: its rank among the steps recorded on the same line, and how many there are.
        kind: ``user``, ``assistant``, ``system``, ``thinking``, ``tool_call`` or ``file``.
        label: the tool name, or the file path.
        body: the text shown (redacted, cut, delimiters neutralised).
        final: the agent's final response.
    """

    id: str
    location: Location | None
    kind: str
    label: str
    body: str
    part: int = 1
    parts: int = 1
    final: bool = False

    @property
    def where(self) -> str:
        """``path:line``, with ``(step k of n on that line)`` when the line holds several."""
        if self.location is None:
            return "(no location)"
        extra = f" (step {self.part} of {self.parts} on that line)" if self.parts > 1 else ""
        return f"{self.location}{extra}"

    def block(self) -> str:
        attrs_ = [f'id="{_ATTR_UNSAFE.sub("_", self.id)}"', f'kind="{_ATTR_UNSAFE.sub("_", self.kind)}"']
        if self.label:
            tag = "path" if self.kind == "file" else "name"
            attrs_.append(f'{tag}="{_ATTR_UNSAFE.sub("_", self.label)[:120]}"')
        if self.final:
            attrs_.append('final="true"')
        tag = "file" if self.kind == "file" else "step"
        return f"<{tag} {' '.join(attrs_)}>\n{self.body}\n</{tag}>"


@attrs.define(frozen=True, slots=True)
class Rendering:
    """The evidence the judge is given.

    Attributes:
        steps: the steps (and files) shown, in order.
        text: the delimited block sent to the judge.
        cuts: what was cut or left out, one line each.
        redactions: how many secrets were replaced.
        total_steps: how many steps the transcript has.
    """

    steps: tuple[RenderedStep, ...]
    text: str
    cuts: tuple[str, ...] = ()
    redactions: int = 0
    total_steps: int = 0

    def step(self, step_id: str) -> RenderedStep | None:
        """The step (or file) with this id, if the judge was shown it."""
        for s in self.steps:
            if s.id == step_id:
                return s
        return None

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


class _Text:
    """Collects redaction counts and cut notes while the steps are written."""

    def __init__(self, selection: EvidenceSelection) -> None:
        self.sel = selection
        self.redactions = 0
        self.cuts: list[str] = []

    def clean(self, text: str, sid: str, what: str, limit: int | None) -> str:
        """*text* as the judge may see it: redacted, cut to *limit*, delimiters neutralised.

        Every piece of transcript text that reaches the prompt goes through here (names of tools
        and MCP servers included): the transcript is data and cannot open or close a block.
        """
        text, n = redact_count(text)
        self.redactions += n
        if limit is not None:
            original = len(text)
            text, cut = _cut(text, limit)
            if cut:
                self.cuts.append(f"{sid} {what}: {cut} of {original} chars cut in the middle")
        return neutralise(text)

    def redacted(self, text: str) -> str:
        """*text* redacted (for a label: the block's attribute quoting makes it safe)."""
        text, n = redact_count(text)
        self.redactions += n
        return text

    def name(self, text: str, sid: str) -> str:
        """A short transcript-derived label (a tool or server name) on one line."""
        return self.clean(" ".join(text.split()), sid, "name", 200)


def _json(value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


def _arguments(arguments: dict[str, object]) -> str:
    """One line per argument; strings as they are (a multi-line one as an indented block), so the
    judge reads and quotes a written file as text, not as an escaped JSON string."""
    lines = []
    for k, v in arguments.items():
        if isinstance(v, str) and "\n" in v:
            lines.append(f"  {k}: |")
            lines.extend(f"    {line}" for line in v.splitlines())
        elif isinstance(v, str):
            lines.append(f"  {k}: {v}")
        else:
            lines.append(f"  {k}: " + _json(v).replace("\n", "\n    "))
    return "\n".join(lines)


def _call_body(call: ToolCall, sid: str, w: _Text) -> str:
    limit = w.sel.max_step_chars
    lines = []
    head = f"call: {w.name(call.name, sid)}"
    if call.server:
        head += f"  (MCP server {w.name(call.server, sid)}, tool {w.name(call.tool or '', sid)})"
    lines.append(head)
    if call.command is not None:
        lines.append("command: " + w.clean(call.command, sid, "command", limit))
    elif call.arguments:
        lines.append("input:\n" + w.clean(_arguments(dict(call.arguments)), sid, "input", limit))
    elif call.raw_arguments:
        lines.append("input (not JSON): " + w.clean(call.raw_arguments, sid, "input", limit))
    else:
        lines.append("input: {}")
    if call.result is None:
        lines.append("result: (none recorded)")
    else:
        flags = []
        if call.is_error:
            flags.append("error")
        if call.exit_code is not None:
            flags.append(f"exit code {call.exit_code}")
        lines.append("result" + (f" ({', '.join(flags)})" if flags else "") + ":")
        lines.append(w.clean(call.result.text, sid, "output", limit))
    return "\n".join(lines)


def _final_step(t: Transcript) -> int | None:
    if t.final_response is None:
        return None
    for i in range(len(t.steps) - 1, -1, -1):
        s = t.steps[i]
        if isinstance(s, Message) and s.role == "assistant" and s.agent_id is None and s.text == t.final_response:
            return i
    return None


def _selected(t: Transcript, sel: EvidenceSelection, final: int | None) -> tuple[list[int], list[str]]:
    notes: list[str] = []
    if sel.final_response_only:
        if final is None:
            notes.append("the transcript has no final response: the judge was shown no step")
            return [], notes
        return [final], notes
    idx: list[int] = []
    for i, s in enumerate(t.steps):
        if isinstance(s, Thinking) and not sel.include_thinking:
            continue
        if isinstance(s, ToolCall) and sel.tools is not None and not (
            s.name in sel.tools or (s.tool is not None and s.tool in sel.tools) or s.kind in sel.tools
        ):
            continue
        idx.append(i)
    left_out = len(t.steps) - len(idx)
    if left_out:
        notes.append(f"{left_out} of {len(t.steps)} steps not selected (tools={list(sel.tools or [])}, "
                     f"thinking={'shown' if sel.include_thinking else 'hidden'})")
    if sel.last_steps is not None and len(idx) > sel.last_steps:
        notes.append(f"only the last {sel.last_steps} of {len(idx)} selected steps are shown")
        idx = idx[len(idx) - sel.last_steps :] if sel.last_steps > 0 else []
    return idx, notes


def _files(sel: EvidenceSelection, default_root: str, w: _Text) -> list[RenderedStep]:
    out: list[RenderedStep] = []
    root = Path(sel.root if sel.root is not None else default_root).resolve()
    for n, rel in enumerate(sel.files, 1):
        fid = f"f{n}"
        path = (root / rel).resolve()
        try:
            path.relative_to(root)
        except ValueError:
            w.cuts.append(f"{fid} {rel}: refused, it lies outside {root}")
            continue
        try:
            if not path.is_file():
                w.cuts.append(f"{fid} {rel}: not found in {root}")
                continue
            data = path.read_bytes()
        except OSError as exc:
            w.cuts.append(f"{fid} {rel}: cannot be read: {exc}")
            continue
        text = data.decode("utf-8", errors="replace")
        if "\ufffd" in text and b"\xef\xbf\xbd" not in data:
            w.cuts.append(f"{fid} {rel}: not UTF-8, undecodable bytes shown as U+FFFD")
        body = w.clean(text, fid, rel, sel.max_file_chars)
        out.append(RenderedStep(fid, Location(str(path), 1), "file", rel, body))
    return out


def render(t: Transcript, selection: EvidenceSelection | None = None) -> Rendering:
    """Render *t* for the judge (see the module docstring)."""
    sel = selection or EvidenceSelection()
    w = _Text(sel)
    final = _final_step(t)
    chosen, notes = _selected(t, sel, final)
    w.cuts.extend(notes)
    per_line: dict[Location, list[int]] = {}
    for i, s in enumerate(t.steps):
        per_line.setdefault(s.location, []).append(i)

    steps: list[RenderedStep] = []
    for i in chosen:
        s = t.steps[i]
        sid = f"s{i + 1}"
        same = per_line.get(s.location, [i])
        part, parts = same.index(i) + 1, len(same)
        if isinstance(s, ToolCall):
            kind, label, body = "tool_call", w.redacted(s.name), _call_body(s, sid, w)
        elif isinstance(s, Thinking):
            kind, label, body = "thinking", "", w.clean(s.text, sid, "thinking", sel.max_step_chars)
        else:
            kind = w.redacted(s.role)
            label = "injected" if s.meta else ""
            limit = None if i == final else sel.max_step_chars  # the final response is always whole
            body = w.clean(s.text, sid, "message", limit)
        if s.agent_id is not None:
            label = f"{label} subagent={w.redacted(s.agent_id)}".strip()
        steps.append(RenderedStep(sid, s.location, kind, label, body, part, parts, final=i == final))

    steps, blocks = _budget(steps, sel.max_chars, w)
    files = _files(sel, os.path.dirname(t.path) or ".", w)
    text = "<transcript>\n" + "\n".join(blocks) + "\n</transcript>"
    if files:
        text += "\n<files>\n" + "\n".join(f.block() for f in files) + "\n</files>"
    return Rendering(tuple(steps) + tuple(files), text, tuple(w.cuts), w.redactions, len(t.steps))


def _budget(steps: Sequence[RenderedStep], budget: int, w: _Text) -> tuple[list[RenderedStep], list[str]]:
    """The first step and as many of the last ones as fit in *budget* (the final response always);
    and the blocks to send, with a marker where steps were left out."""
    blocks = [s.block() for s in steps]
    sizes = [len(b) + 1 for b in blocks]
    if sum(sizes) <= budget or len(steps) <= 2:
        return list(steps), blocks
    keep = {0}
    used = sizes[0]
    for i, s in enumerate(steps):
        if s.final:
            keep.add(i)
            used += sizes[i]
    for i in range(len(steps) - 1, 0, -1):
        if i in keep:
            continue
        if used + sizes[i] > budget:
            break
        keep.add(i)
        used += sizes[i]
    kept: list[RenderedStep] = []
    out: list[str] = []
    gap: list[str] = []
    for i, s in enumerate(steps):
        if i not in keep:
            gap.append(s.id)
            continue
        if gap:
            out.append(f"[… {len(gap)} steps left out ({gap[0]} to {gap[-1]}) …]")
            w.cuts.append(
                f"{len(gap)} steps left out ({gap[0]} to {gap[-1]}): the rendering is limited to "
                f"{budget} chars (EvidenceSelection.max_chars)"
            )
            gap = []
        kept.append(s)
        out.append(blocks[i])
    return kept, out
