"""Aider chat histories: ``aider`` (``.aider.chat.history.md``).

Aider appends every session to one markdown file: ``# aider chat started at <time>`` opens a
session, ``#### `` lines are what the user typed, ``> `` lines are Aider's own output (its
commands, ``Tokens: … Cost: …`` lines, ``Applied edit to FILE``, ``Running CMD``, ``Commit <sha>
<msg>``), and every other line is the model's text (SEARCH/REPLACE blocks included).

Aider has no tool-call protocol and records no results. The calls are the actions it reports:
``> Applied edit to FILE`` (tool ``edit``, kind ``file_edit``, one per file) and ``> Running CMD``
(tool ``shell``, kind ``shell``), each with the status ``unrecorded`` and no result: neither an
error nor an unanswered call, and a check on their outcome is inconclusive.

A file holds one **member** per session (``FILE#session-<n>``, numbered from 1 in file order;
text before the first heading, if any, is ``session-0``). ``load()`` reads the whole file as one
transcript; ``load_all()`` returns the sessions.

Quirks handled: a fenced block in the model's text is read as text up to its closing fence (a
``#### `` heading or a ``> `` line inside it is data), except that a session heading or Aider's
``> Tokens:`` line always ends it (a model that never closed its fence cannot swallow the rest of
the file). Aider prefixes only the first line of a multi-line output with ``> ``: the lines that
follow it directly (no blank line between) are taken as part of that output. Token figures are
Aider's rounded display (``3.2k`` → 3200).

Hand-written line classification: a markdown library would parse the model's text as markdown,
which is not what these lines are.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from typing import Any

from .._builder import TranscriptBuilder
from .._reader import ReadStats, Record, Shape, Source
from ..model import LineIssue, Transcript, Usage
from ._common import Member, Members
from ._sniff import aider_sniff_raw

__all__ = ["AiderParser"]

_HEADING = "# aider chat started at"
#: Line starts of an Aider history besides its heading: a user message, Aider's token report.
_MARKS = (b"#### ", b"> Tokens: ", b"> Applied edit to ", b"> Commit ")
_TOKENS = re.compile(r"^Tokens: (.*?)\.(?: Cost: \$([\d.]+) message, \$([\d.]+) session\.)?\s*$")
_AMOUNT = re.compile(r"^([\d.]+)(k|M)? (sent|received|cache write|cache hit)$")
_SCALE = {None: 1, "k": 1_000, "M": 1_000_000}
_MODEL = re.compile(r"^(?:Main model|Model): (\S+)")
_VERSION = re.compile(r"^Aider v(\S+)$")
#: Aider's question before it creates a file the model wrote to (the line before names the file)
_CREATE = re.compile(r"^Create new file\? \(Y\)es/\(N\)o \[Yes\]:\s*(\S*)")


#: One classified line: ``(number, kind, text)``; ``kind`` is heading, user, aider, aider-more,
#: text or blank. A plain tuple: there is one per line of the file.
_Line = tuple[int, str, str]


def _lines_of(data: bytes, issues: list[LineIssue]) -> list[str]:
    """The file's lines, decoded: in one piece when it is UTF-8 (the common case), else line by
    line, each line that is not UTF-8 decoded with replacement characters and listed."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        pass
    out = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            issues.append(LineIssue(n, "not UTF-8 text", raw[:80].decode("utf-8", "replace").strip()))
            out.append(raw.decode("utf-8", "replace"))
    return out


def _classify(data: bytes, issues: list[LineIssue]) -> list[_Line]:
    out: list[_Line] = []
    append = out.append
    fence = False  # inside a ``` block of the model's text
    prev = "blank"
    for n, line in enumerate(_lines_of(data, issues), 1):
        stripped = line.rstrip()
        first = stripped[:1]
        if first == "#" and stripped.startswith(_HEADING):
            fence = False
            kind = "heading"
        elif fence:
            if first == ">" and stripped.startswith("> Tokens:"):
                fence = False
                kind = "aider"
            else:
                kind = "text"
                if stripped.lstrip().startswith("```"):
                    fence = False
        elif not stripped:
            kind = "blank"
        elif first == "#" and stripped.startswith("####") and (len(stripped) == 4 or stripped[4] in " \t"):
            kind = "user"
        elif first == ">" and (stripped == ">" or stripped.startswith("> ")):
            kind = "aider"
        elif prev == "aider":
            kind = "aider-more"  # a multi-line output: Aider prefixed only its first line
        else:
            kind = "text"
            if "```" in stripped and stripped.lstrip().startswith("```"):
                fence = True
        append((n, kind, line.removesuffix("\r")))
        prev = "aider" if kind == "aider-more" else kind
    if out and data.endswith(b"\n") and out[-1][1] == "blank" and not out[-1][2]:
        out.pop()  # the final newline ends the last line; it does not start another
    return out


def _amount(value: str, unit: str | None) -> int | None:
    amount = float(value) * _SCALE[unit]
    return round(amount) if math.isfinite(amount) else None  # 1e999 tokens: not a count


class _Session:
    """The lines of one session (or of the whole file), turned into steps."""

    def __init__(self, lines: Sequence[_Line]) -> None:
        self.lines = lines

    def build(self, b: TranscriptBuilder) -> None:
        n_calls = 0
        usage = [0, 0, 0, 0]
        seen_tokens = False
        session_cost: list[float] = []
        conform_errors = 0
        pending: list[_Line] = []  # a run of the same kind of lines
        prev_body = ""  # the last line of Aider's output, before this one
        new_files: set[str] = set()  # files Aider was told to create, not applied yet
        pending_kind = ""

        def flush() -> None:
            nonlocal pending, pending_kind
            if not pending:
                return
            if pending_kind == "user":
                text = "\n".join(_strip_user(x[2]) for x in pending)
                b.message("user", text.strip("\n"), pending[0][0])
            elif pending_kind == "text":
                text = "\n".join(x[2] for x in pending).strip("\n")
                if text.strip():
                    b.message("assistant", text, pending[0][0])
                else:
                    b.orphan_lines.extend(x[0] for x in pending if x[1] != "blank")
            elif pending_kind == "aider":
                text = "\n".join(x[2][2:].rstrip() if x[2].startswith("> ") else x[2].rstrip().lstrip(">")
                                 for x in pending).strip("\n")
                if text.strip():
                    b.message("system", text, pending[0][0], meta=True)
                else:  # ">" alone: Aider's empty output, in no step
                    b.orphan_lines.extend(x[0] for x in pending if x[1] != "blank")
            pending = []
            pending_kind = ""

        for ln in self.lines:
            n, line_kind, line = ln
            kind = "aider" if line_kind == "aider-more" else line_kind
            if kind == "blank":
                if pending_kind == "text":
                    pending.append(ln)  # blank lines inside the model's text are its own
                elif pending_kind:
                    flush()
                continue
            if kind == "heading":
                flush()
                started = line.strip()[len(_HEADING):].strip()
                b.metadata.setdefault("started_at", started)
                b.metadata["sessions"] = b.metadata.get("sessions", 0) + 1
                session_cost.append(0.0)
                continue
            if line_kind == "aider":
                body = line[2:].rstrip() if line.startswith("> ") else ""
                created = _CREATE.match(body)
                if created is not None and prev_body and created.group(1).strip().lower() in ("", "y", "yes"):
                    new_files.add(prev_body)  # "> FILE" then "> Create new file? … y": Aider creates FILE
                action = _action(body)
                if action is not None:
                    flush()
                    name, akind, args = action
                    n_calls += 1
                    key = f"{name}-{n_calls}"
                    if name == "edit":
                        # Aider reports an edit once it has written it: the edit completed; a file
                        # it had to create is written, not edited
                        if args["file_path"] in new_files:
                            new_files.discard(args["file_path"])
                            akind = "file_write"
                        status = "completed"
                    else:
                        status = "unrecorded"  # the command's outcome is never logged
                    b.call(key, id=f"line-{n}", name=name, kind=akind, arguments=args, line=n, status=status)
                    prev_body = body
                    continue
                prev_body = body
                tokens = _TOKENS.match(body)
                if tokens is not None:
                    seen_tokens |= _add_tokens(tokens.group(1), usage)
                    if tokens.group(3) is not None:
                        if not session_cost:
                            session_cost.append(0.0)
                        session_cost[-1] = float(tokens.group(3))
                if body.startswith("The LLM did not conform to the edit format"):
                    conform_errors += 1
                model = _MODEL.match(body)
                if model is not None and b.model is None:
                    b.model = model.group(1)
                version = _VERSION.match(body)
                if version is not None:
                    b.metadata.setdefault("aider_version", version.group(1))
            if kind != pending_kind:
                flush()
                pending_kind = kind
            pending.append(ln)
        flush()
        if seen_tokens or any(session_cost):
            b.usage = Usage(
                input_tokens=usage[0] if seen_tokens else None,
                output_tokens=usage[1] if seen_tokens else None,
                cache_write_tokens=usage[2] if usage[2] else None,
                cache_read_tokens=usage[3] if usage[3] else None,
                cost_usd=round(sum(session_cost), 6) if any(session_cost) else None,
            )
            b.usage_mode = ("summed from Aider's rounded 'Tokens:' lines; cost: the last "
                            "'session' cost of each session, summed")
        if conform_errors:
            b.metadata["edit_format_errors"] = conform_errors
            b.note(f"{conform_errors} reply(ies) did not conform to the edit format (Aider asked the model again)")


def _strip_user(line: str) -> str:
    rest = line[4:]
    return rest[1:].rstrip() if rest[:1] in (" ", "\t") else rest.rstrip()


def _action(body: str) -> tuple[str, str, dict[str, Any]] | None:
    if body.startswith("Applied edit to "):
        path = body[len("Applied edit to "):].strip()
        if path:
            return "edit", "file_edit", {"file_path": path}
    elif body.startswith("Running "):
        cmd = body[len("Running "):].strip()
        if cmd:
            return "shell", "shell", {"command": cmd}
    return None


def _add_tokens(text: str, usage: list[int]) -> bool:
    got = False
    for part in text.split(", "):
        m = _AMOUNT.match(part.strip())
        if m is None:
            continue
        i = {"sent": 0, "received": 1, "cache write": 2, "cache hit": 3}[m.group(3)]
        amount = _amount(m.group(1), m.group(2))
        if amount is None:
            continue
        usage[i] += amount
        got = True
    return got


class AiderParser:
    """Aider ``.aider.chat.history.md`` files (markdown, read from the raw bytes)."""

    name = "aider"
    agent = "aider"
    #: ``--format aider`` reads any file as an Aider history (it is not JSON)
    raw_only = True

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        return "JSON records, not an Aider chat history (markdown starting with '# aider chat started at')"

    @staticmethod
    def hint(head: bytes) -> str | None:
        """A hint for a file no format read that looks like an Aider chat history without its
        ``# aider chat started at`` heading (a copy that lost its first line, an excerpt)."""
        lines = head.removeprefix(b"\xef\xbb\xbf").split(b"\n")[:400]
        marks = sum(ln.startswith(m) for ln in lines for m in _MARKS)
        if marks >= 2 or any(ln.startswith((b"> Aider v", b"> /aider", b"> Main model:")) for ln in lines):
            return ("it looks like an Aider chat history without its '# aider chat started at …' heading: "
                    "read it with --format aider (format=\"aider\")")
        return None

    def sniff_raw(self, head: bytes) -> str | None:
        return aider_sniff_raw(head)

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:  # pragma: no cover
        raise NotImplementedError("aider is read from the raw bytes (read_raw)")

    def read_raw(self, src: Source) -> Members:
        data = src.whole_bytes()
        issues: list[LineIssue] = []
        lines = _classify(data, issues)
        sessions: list[list[_Line]] = [[]]
        for ln in lines:
            if ln[1] == "heading":
                sessions.append([])
            sessions[-1].append(ln)
        has_preamble = any(x[1] != "blank" for x in sessions[0])
        headings = len(sessions) - 1
        # Read as Aider (``--format aider``) but nothing of Aider in it (a JSON log, any text): every
        # line would be the model's reply and every call in it lost. Damage, never a clean run.
        foreign = None if headings or self.hint(data[:65536]) else (
            "not an Aider chat history: no '# aider chat started at' heading, no '#### ' user message "
            "nor Aider report line (its calls, if any, are not read)")

        def make(chunk: list[_Line], note: str | None = None) -> Any:
            def build(path: str) -> Transcript:
                b = TranscriptBuilder(path, self.name, self.agent)
                b.reply_precedes_actions = True  # edits and commands follow the model's reply
                _Session(chunk).build(b)
                if note:
                    b.note(note)
                first, last = (chunk[0][0], chunk[-1][0]) if chunk else (1, 0)
                if foreign and chunk:
                    b.damaged(first, foreign)
                mine = [i for i in issues if first <= i.line <= last]
                # a session's own lines (the whole file's for the whole file): its health speaks of them
                stats = ReadStats(path=path, shape="jsonl",
                                  lines=len(lines) if chunk is lines else last - first + 1 if chunk else 0,
                                  records=sum(1 for x in chunk if x[1] != "blank"), unparsable=mine,
                                  blank=0)
                return b.build(stats)

            return build

        items: list[Member] = []
        if has_preamble or not headings:
            items.append(Member("session-0", make(sessions[0], "no '# aider chat started at' heading before "
                                                               "these lines")))
        for i, chunk in enumerate(sessions[1:], 1):
            items.append(Member(f"session-{i}", make(chunk)))
        whole_note = None if headings else "no '# aider chat started at' heading: read as one session"
        return Members(self.name, tuple(items), whole=make(lines, whole_note), what="sessions")
