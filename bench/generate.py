"""Write large synthetic transcripts shaped like the real corpus (``tests/corpus``).

Four formats, each at any size, from a fixed seed (same seed and size → same bytes)::

    python -m bench.generate                       # 1MB, 10MB, 100MB of every format → bench/data/
    python -m bench.generate --sizes 64KB --formats claude-session --out /tmp/x

The records copy the shapes of the corpus files (keys, nesting, which values are strings or
lists), not their text: the text is made up from a fixed vocabulary, with the features that
cost a parser time (long tool outputs, escaped quotes and newlines, non-ASCII, ANSI escapes).

* ``claude-session``: ``~/.claude/projects`` logs (2.1.x): one API message split over several
  lines that share ``message.id`` and repeat ``usage``; thinking blocks; ``tool_use`` /
  ``tool_result`` pairs (parallel calls answered out of order) with ``toolUseResult`` payloads of
  the shape each tool has (Bash, Read, Edit, Write, Grep, Glob, MCP content lists, TodoWrite,
  WebFetch, Task); errors as plain strings; ``file-history-snapshot``, ``progress``, ``system``,
  ``queue-operation`` and ``summary`` lines.
* ``claude-stream-json``: ``claude -p --output-format stream-json --verbose`` JSONL: ``system/init``,
  split assistant messages, ``user`` results with ``tool_use_result``, subagent records under a
  ``Task`` call (``parent_tool_use_id``), and a closing ``result``.
* ``codex-exec``: ``codex exec --json``: ``item.started``/``item.completed`` of every item type
  (command_execution, file_change, mcp_tool_call, web_search, todo_list with ``item.updated``,
  collab_tool_call, reasoning, agent_message, non-fatal error), cumulative ``turn.completed``
  usage, and resumed processes (``thread.started`` again, ``item_N`` restarting at 0).
* ``codex-rollout``: ``~/.codex/sessions`` rollouts: ``session_meta``, ``turn_context``,
  ``function_call`` / ``function_call_output`` (0.40 JSON-string outputs with
  ``metadata.exit_code``), ``custom_tool_call`` (apply_patch), MCP calls named
  ``mcp__server__tool``, reasoning with ``encrypted_content``, ``event_msg`` token counts.

Two more formats are made on request only (``--formats opencode,cursor-cli``), outside the default
set, so that the benchmark tables and the mixed batch stay comparable from run to run:

* ``opencode``: ``opencode run --format json``: ``step_start``, ``text``, ``tool_use`` parts of the
  built-in tools (bash with ``metadata.exit``, read, edit, grep, glob, write, todowrite, webfetch;
  some failing with ``state.status: error``), ``step_finish`` with tokens and cost.
* ``cursor-cli``: ``cursor-agent -p --output-format stream-json``: ``system/init``, runs of
  ``thinking/delta`` events, assistant segments, ``tool_call`` started/completed pairs (parallel
  ones completing out of order, ids ``call_…\nfc_…``, some failing) and a closing ``result``.

Every file is complete: every call has its result, the run ends on a successful call and a
final assistant message. A ``<file>.manifest.json`` beside each file states what a correct
parser must find (tool calls, subagent calls, errors, tool names, the final response).
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, BinaryIO

__all__ = [
    "DEFAULT_SEED",
    "EXTRA_FORMATS",
    "FORMATS",
    "SIZES",
    "data_path",
    "generate",
    "parse_size",
]

FORMATS: tuple[str, ...] = ("claude-session", "claude-stream-json", "codex-exec", "codex-rollout")
#: formats made on request only (``--formats``), not part of the default benchmark set
EXTRA_FORMATS: tuple[str, ...] = ("opencode", "cursor-cli")
SIZES: dict[str, int] = {"1MB": 1_000_000, "10MB": 10_000_000, "100MB": 100_000_000}
DEFAULT_SEED = 20261130
DATA_DIR = Path(__file__).resolve().parent / "data"

_UNITS = {"B": 1, "KB": 1_000, "MB": 1_000_000, "GB": 1_000_000_000}


def parse_size(text: str) -> int:
    """``"64KB"`` → 64000, ``"1MB"`` → 1000000 (decimal units; a bare number is bytes)."""
    t = text.strip().upper()
    for unit in ("GB", "MB", "KB", "B"):
        if t.endswith(unit) and t[: -len(unit)].strip():
            return int(float(t[: -len(unit)]) * _UNITS[unit])
    return int(t)


def size_label(n: int) -> str:
    """1000000 → ``"1MB"``; 64000 → ``"64KB"``."""
    for unit in ("GB", "MB", "KB"):
        if n >= _UNITS[unit] and n % _UNITS[unit] == 0:
            return f"{n // _UNITS[unit]}{unit}"
    return f"{n}B"


_EXT = {"claude-session": ".jsonl", "claude-stream-json": ".jsonl", "codex-exec": ".jsonl", "codex-rollout": ".jsonl",
        "opencode": ".jsonl", "cursor-cli": ".jsonl"}


def data_path(fmt: str, size: int, out: Path = DATA_DIR) -> Path:
    """Where the generated file of *fmt* at *size* lives."""
    return out / f"{fmt}-{size_label(size)}{_EXT[fmt]}"


# -- text ------------------------------------------------------------------------------------

_WORDS: list[str] = (  # noqa: SIM905 - a word list reads better as prose
    "the a to of and in is for on with that this it as be are by from or file test run build "
    "component story button props state error value return import export const function async "
    "await type interface config package module render hook query session agent tool call result "
    "output input path line check fix update add remove refactor handler server client request "
    "response cache index schema parse token model message stream event item thread turn user "
    "assistant shell command exit code status pending complete failed passed story-test a11y "
    "Button Primary Secondary Header Footer Card Modal Dialog Tooltip Badge Avatar Sidebar"
).split()
#: Non-ASCII, as rare as in the corpus: of its long strings (≥ 200 characters) 81 % are ASCII,
#: 19 % have BMP characters (Read's "→" line numbers, quotes, dashes) and 0.3 % astral ones
#: (emoji). It matters: one emoji makes CPython store the whole string at 4 bytes a character.
_UNICODE = ("→", "—", "…", "“", "”", "é", "ü", "✓", "✗", "⎯", "中文")
_ASTRAL = "🙂"
#: Bump when the output changes, so that ``ensure`` regenerates files made by an older generator.
GENERATOR_VERSION = 2
_DIRS = ("src", "apps/web/src", "packages/ui/src", "lib", "tests", "components", "stories", "server/api")
_EXTS = (".ts", ".tsx", ".py", ".md", ".json", ".css", ".stories.tsx", ".test.ts")
_PROGRAMS = (
    "npm test",
    "pnpm run build",
    "npx storybook ai test --json",
    "git status",
    "git diff --stat",
    "ls -la",
    "rg -n \"useState\" src",
    "python -m pytest -q",
    "cat package.json",
    "npx tsc --noEmit",
    "npx vitest run --reporter=dot",
    "grep -rn \"TODO\" src | head -50",
)


class _Text:
    """Deterministic made-up text: code-like lines, prose, paths, commands."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        r = rng
        self.code_lines = [self._code_line() for _ in range(3000)]
        self.prose_lines = [self._sentence() for _ in range(1500)]
        self.paths = [
            f"/home/dev/project/{r.choice(_DIRS)}/{r.choice(_WORDS).capitalize()}{r.choice(_WORDS).capitalize()}"
            f"{r.choice(_EXTS)}"
            for _ in range(400)
        ]

    def _code_line(self) -> str:
        r = self.rng
        indent = " " * r.choice((0, 2, 4, 4, 6, 8))
        kind = r.random()
        w = r.choices(_WORDS, k=r.randint(3, 8))
        if kind < 0.2:
            s = f'{indent}const {w[0]}{w[1].capitalize()} = "{" ".join(w[2:])}";'
        elif kind < 0.35:
            s = f"{indent}import {{ {', '.join(x.capitalize() for x in w[:3])} }} from '@/{'/'.join(w[3:5]) or 'lib'}';"
        elif kind < 0.5:
            u = r.random()
            tail = "" if u > 0.01 else (_ASTRAL if u < 0.0003 else r.choice(_UNICODE))
            s = f"{indent}// {' '.join(w)} {tail}".rstrip()
        elif kind < 0.6:
            s = f"{indent}\tif ({w[0]} === '{w[1]}') {{ return {w[2]}; }}"
        elif kind < 0.7:
            s = f'{indent}"{w[0]}": "{w[1]}\\\\{w[2]}",'
        elif kind < 0.75:
            mark = "✗" if r.random() < 0.05 else "x"
            s = f"{indent}\x1b[31m{mark}\x1b[39m {' '.join(w)} \x1b[2m({r.randint(1, 999)}ms)\x1b[22m"
        else:
            s = f"{indent}{w[0]}({', '.join(w[1:])});"
        return s

    def _sentence(self) -> str:
        r = self.rng
        w = r.choices(_WORDS, k=r.randint(6, 22))
        if r.random() < 0.3:
            w.insert(r.randrange(len(w)), f"`{r.choice(_WORDS)}.{r.choice(_WORDS)}()`")
        u = r.random()
        if u < 0.03:
            w.insert(r.randrange(len(w)), _ASTRAL if u < 0.0005 else r.choice(_UNICODE))
        s = " ".join(w)
        return s[0].upper() + s[1:] + r.choice((".", ".", ":", "?", "!"))

    def code(self, n_lines: int) -> str:
        return "\n".join(self.rng.choices(self.code_lines, k=max(1, n_lines)))

    def numbered(self, n_lines: int, start: int = 1) -> str:
        """Claude ``Read`` output: ``     1→line``."""
        lines = self.rng.choices(self.code_lines, k=max(1, n_lines))
        return "\n".join(f"{i:6d}→{ln}" for i, ln in enumerate(lines, start))

    def prose(self, n_sentences: int) -> str:
        r = self.rng
        out = []
        for _ in range(max(1, n_sentences)):
            out.append(r.choice(self.prose_lines))
            if r.random() < 0.15:
                out.append("\n\n- " + r.choice(self.prose_lines))
        return " ".join(out)

    def path(self) -> str:
        return self.rng.choice(self.paths)

    def command(self) -> str:
        r = self.rng
        c = r.choice(_PROGRAMS)
        if r.random() < 0.3:
            c = f"cd {self.path().rsplit('/', 1)[0]} && {c}"
        return c

    def output_lines(self) -> int:
        """Line count of a tool output: mostly short, sometimes very long."""
        r = self.rng.random()
        if r < 0.65:
            return self.rng.randint(1, 30)
        if r < 0.97:
            return self.rng.randint(30, 200)
        return self.rng.randint(400, 1200)

    def hexid(self, n: int) -> str:
        return "".join(self.rng.choices("0123456789abcdef", k=n))

    def b62(self, n: int) -> str:
        return "".join(self.rng.choices(string.ascii_letters + string.digits, k=n))

    def uuid(self) -> str:
        h = self.hexid(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


# -- output ----------------------------------------------------------------------------------


class _Out:
    """A JSONL writer that counts bytes and lines."""

    def __init__(self, f: BinaryIO) -> None:
        self.f = f
        self.bytes = 0
        self.lines = 0
        self._dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode

    def emit(self, record: dict[str, Any]) -> None:
        data = (self._dumps(record) + "\n").encode("utf-8")
        self.f.write(data)
        self.bytes += len(data)
        self.lines += 1


class _Clock:
    def __init__(self, rng: random.Random, start: datetime) -> None:
        self.rng = rng
        self.t = start

    def tick(self, lo: float = 0.05, hi: float = 4.0) -> str:
        self.t += timedelta(seconds=self.rng.uniform(lo, hi))
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.t.microsecond // 1000:03d}Z"


class _Manifest:
    def __init__(self, fmt: str) -> None:
        self.format = fmt
        self.tool_calls = 0
        self.subagent_tool_calls = 0
        self.tool_errors = 0
        self.tools: Counter[str] = Counter()
        self.final_response: str | None = None

    def call(self, name: str, *, error: bool = False, subagent: bool = False) -> None:
        if subagent:
            self.subagent_tool_calls += 1
            return
        self.tool_calls += 1
        self.tools[name] += 1
        if error:
            self.tool_errors += 1

    def as_dict(self, path: Path, out: _Out, seed: int, target: int) -> dict[str, Any]:
        return {
            "format": self.format,
            "path": str(path),
            "seed": seed,
            "generator": GENERATOR_VERSION,
            "target_bytes": target,
            "bytes": out.bytes,
            "lines": out.lines,
            "tool_calls": self.tool_calls,
            "subagent_tool_calls": self.subagent_tool_calls,
            "tool_errors": self.tool_errors,
            "unanswered_calls": 0,
            "tools": dict(sorted(self.tools.items())),
            "final_response": self.final_response,
        }


# -- Claude tools: (input, result content, toolUseResult, is_error) ---------------------------

_MCP_TOOLS = (
    ("storybook", "list-all-documentation"),
    ("storybook", "get-documentation"),
    ("playwright", "browser_navigate"),
    ("happy", "change_title"),
)
_CLAUDE_TOOL_WEIGHTS = (
    ("Read", 30),
    ("Bash", 22),
    ("Edit", 12),
    ("Grep", 8),
    ("Glob", 8),
    ("Write", 4),
    ("mcp", 7),
    ("TodoWrite", 3),
    ("WebFetch", 2),
    ("WebSearch", 1),
)


class _ClaudeTools:
    def __init__(self, tx: _Text) -> None:
        self.tx = tx
        self.names = [n for n, _ in _CLAUDE_TOOL_WEIGHTS]
        self.weights = [w for _, w in _CLAUDE_TOOL_WEIGHTS]

    def pick(self) -> str:
        return self.tx.rng.choices(self.names, self.weights)[0]

    def make(self, kind: str, *, may_fail: bool) -> tuple[str, dict[str, Any], Any, Any, bool]:
        """(tool name, input, tool_result content, toolUseResult, is_error)."""
        tx, r = self.tx, self.tx.rng
        fail = may_fail and r.random() < 0.06
        if kind == "Bash":
            cmd = tx.command()
            inp: dict[str, Any] = {"command": cmd, "description": tx.prose(1)[:60]}
            if r.random() < 0.2:
                inp["timeout"] = 120000
            out = tx.code(tx.output_lines())
            if fail:
                text = f"Exit code 1\n{out}"
                return "Bash", inp, text, f"Error: {text}", True
            return "Bash", inp, out, {
                "stdout": out,
                "stderr": "",
                "interrupted": False,
                "isImage": False,
                "noOutputExpected": False,
            }, False
        if kind == "Read":
            path = tx.path()
            inp = {"file_path": path}
            if fail:
                return "Read", inp, "<tool_use_error>File does not exist.</tool_use_error>", (
                    "Error: File does not exist."
                ), True
            n = tx.output_lines()
            raw = tx.code(n)
            return "Read", inp, tx.numbered(n), {
                "type": "text",
                "file": {"filePath": path, "content": raw, "numLines": n, "startLine": 1, "totalLines": n},
            }, False
        if kind == "Edit":
            path = tx.path()
            old, new = tx.code(r.randint(1, 12)), tx.code(r.randint(1, 12))
            inp = {"file_path": path, "old_string": old, "new_string": new}
            if fail:
                msg = "<tool_use_error>String to replace not found in file.</tool_use_error>"
                return "Edit", inp, msg, "Error: String to replace not found in file.", True
            original = tx.code(r.randint(20, 200))
            patch = [
                {
                    "oldStart": 10,
                    "oldLines": old.count("\n") + 1,
                    "newStart": 10,
                    "newLines": new.count("\n") + 1,
                    "lines": ["-" + ln for ln in old.split("\n")] + ["+" + ln for ln in new.split("\n")],
                }
            ]
            text = (
                f"The file {path} has been updated. Here's the result of running `cat -n` on a snippet "
                f"of the edited file:\n{tx.numbered(12, 5)}"
            )
            return "Edit", inp, text, {
                "filePath": path,
                "oldString": old,
                "newString": new,
                "originalFile": original,
                "structuredPatch": patch,
                "userModified": False,
                "replaceAll": False,
            }, False
        if kind == "Write":
            path = tx.path()
            content = tx.code(r.randint(10, 150))
            return "Write", {"file_path": path, "content": content}, f"File created successfully at: {path}", {
                "type": "create",
                "filePath": path,
                "content": content,
                "structuredPatch": [],
            }, False
        if kind == "Grep":
            files = [tx.path() for _ in range(r.randint(0, 12))]
            inp = {"pattern": r.choice(_WORDS), "output_mode": "files_with_matches"}
            text = f"Found {len(files)} files\n" + "\n".join(files) if files else "No files found"
            return "Grep", inp, text, {"mode": "files_with_matches", "filenames": files, "numFiles": len(files)}, False
        if kind == "Glob":
            files = [tx.path() for _ in range(r.randint(0, 25))]
            inp = {"pattern": f"**/*{r.choice(_EXTS)}"}
            text = "\n".join(files) if files else "No files found"
            return "Glob", inp, text, {
                "filenames": files,
                "durationMs": r.randint(3, 200),
                "numFiles": len(files),
                "truncated": False,
            }, False
        if kind == "mcp":
            server, tool = r.choice(_MCP_TOOLS)
            name = f"mcp__{server}__{tool}"
            blocks = [{"type": "text", "text": tx.prose(r.randint(1, 40))}]
            return name, {"id": r.choice(_WORDS), "query": tx.prose(1)}, blocks, blocks, False
        if kind == "TodoWrite":
            todos = [
                {"content": tx.prose(1)[:70], "status": r.choice(("pending", "in_progress", "completed")),
                 "activeForm": tx.prose(1)[:70]}
                for _ in range(r.randint(2, 7))
            ]
            text = (
                "Todos have been modified successfully. Ensure that you continue to use the todo list to "
                "track your progress. Please proceed with the current tasks if applicable"
            )
            return "TodoWrite", {"todos": todos}, text, {"oldTodos": todos[:-1], "newTodos": todos}, False
        if kind == "WebFetch":
            url = f"https://example.org/docs/{r.choice(_WORDS)}/{r.choice(_WORDS)}"
            body = tx.prose(r.randint(5, 60))
            return "WebFetch", {"url": url, "prompt": tx.prose(1)}, body, {
                "bytes": len(body) * 7,
                "code": 200,
                "codeText": "OK",
                "result": body,
                "durationMs": r.randint(200, 9000),
                "url": url,
            }, False
        # WebSearch
        q = tx.prose(1)[:80]
        links = [{"title": tx.prose(1)[:60], "url": f"https://example.org/{tx.b62(8)}"} for _ in range(5)]
        text = f'Web search results for query: "{q}"\n\nLinks: {json.dumps(links, ensure_ascii=False)}'
        return "WebSearch", {"query": q}, text, {
            "query": q,
            "results": [{"tool_use_id": "srvtoolu_" + tx.b62(24), "content": links}],
            "durationSeconds": round(r.uniform(1, 9), 3),
        }, False


def _usage(r: random.Random) -> dict[str, Any]:
    cw = r.randint(0, 20000)
    return {
        "input_tokens": r.randint(1, 12),
        "cache_creation_input_tokens": cw,
        "cache_read_input_tokens": r.randint(10000, 150000),
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": cw},
        "output_tokens": r.randint(1, 4000),
        "service_tier": "standard",
    }


# -- Claude session log ------------------------------------------------------------------------


def _claude_session(out: _Out, target: int, seed: int, man: _Manifest) -> None:
    rng = random.Random(seed)
    tx = _Text(rng)
    tools = _ClaudeTools(tx)
    clock = _Clock(rng, datetime(2026, 2, 10, 21, 11, 52, tzinfo=timezone.utc))
    session = tx.uuid()
    env = {
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/dev/project",
        "sessionId": session,
        "version": "2.1.38",
        "gitBranch": "main",
        "slug": "radiant-floating-music",
    }
    parent: list[str | None] = [None]

    def rec(type_: str, **fields: Any) -> dict[str, Any]:
        uid = tx.uuid()
        d = {"parentUuid": parent[0], **env, "type": type_, **fields, "uuid": uid, "timestamp": clock.tick()}
        parent[0] = uid
        return d

    for _ in range(3):
        out.emit({"type": "summary", "summary": tx.prose(1)[:80], "leafUuid": tx.uuid()})
    out.emit(
        rec(
            "progress",
            data={"type": "hook_progress", "hookEvent": "SessionStart", "hookName": "SessionStart:startup",
                  "command": "~/.claude/hooks/start.sh"},
            parentToolUseID=tx.uuid(),
            toolUseID=tx.uuid(),
        )
    )
    turn = 0
    while True:
        last_turn = out.bytes >= target
        turn += 1
        if turn % 7 == 0:
            out.emit({"type": "queue-operation", "operation": "enqueue", "timestamp": clock.tick(),
                      "sessionId": session, "content": tx.prose(1)})
        if turn % 5 == 0:
            out.emit(rec("system", subtype="local_command",
                         content="<command-name>/model</command-name>\n<command-args></command-args>",
                         level="info", isMeta=False))
        prompt = tx.prose(rng.randint(1, 6))
        user = rec("user", message={"role": "user", "content": prompt})
        out.emit(user)
        out.emit({"type": "file-history-snapshot", "messageId": user["uuid"],
                  "snapshot": {"messageId": user["uuid"], "trackedFileBackups": {}, "timestamp": clock.tick()},
                  "isSnapshotUpdate": False})
        rounds = rng.randint(1, 5)
        for rnd in range(rounds + 1):
            final = rnd == rounds
            msg_id = "msg_01" + tx.b62(22)
            req = "req_011C" + tx.b62(18)
            usage = _usage(rng)
            blocks: list[dict[str, Any]] = []
            if rng.random() < 0.5:
                blocks.append({"type": "thinking", "thinking": tx.prose(rng.randint(1, 12)),
                               "signature": tx.b62(rng.randint(200, 600))})
            if final or rng.random() < 0.6:
                text = tx.prose(rng.randint(1, 10 if not final else 25))
                blocks.append({"type": "text", "text": text})
                if final:
                    man.final_response = text
            pending: list[tuple[str, str, Any, Any, bool, str]] = []
            if not final:
                for _ in range(rng.choices((1, 2, 3, 4), (60, 25, 10, 5))[0]):
                    kind = tools.pick()
                    may_fail = not (last_turn and rnd == rounds - 1)
                    name, inp, content, tur, err = tools.make(kind, may_fail=may_fail)
                    tid = "toolu_01" + tx.b62(22)
                    blocks.append({"type": "tool_use", "id": tid, "name": name, "input": inp})
                    pending.append((tid, name, content, tur, err, ""))
            # one line per content block, same message id, usage repeated
            assistant_uuid = ""
            for b in blocks:
                a = rec(
                    "assistant",
                    message={"model": "claude-opus-4-6", "id": msg_id, "type": "message", "role": "assistant",
                             "content": [b], "stop_reason": None, "stop_sequence": None, "usage": usage},
                    requestId=req,
                )
                # requestId sits before type/uuid in real logs; key order does not matter to parsers
                out.emit(a)
                assistant_uuid = a["uuid"]
            if len(pending) > 1 and rng.random() < 0.4:
                rng.shuffle(pending)  # parallel calls answered out of order
            for tid, name, content, tur, err, _ in pending:
                man.call(name, error=err)
                block: dict[str, Any] = {"tool_use_id": tid, "type": "tool_result", "content": content}
                if err:
                    block["is_error"] = True
                elif rng.random() < 0.5:
                    block["is_error"] = False
                out.emit(rec("user", message={"role": "user", "content": [block]}, toolUseResult=tur,
                             sourceToolAssistantUUID=assistant_uuid))
        if last_turn:
            break


# -- Claude stream-json ------------------------------------------------------------------------


def _claude_stream(out: _Out, target: int, seed: int, man: _Manifest) -> None:
    rng = random.Random(seed)
    tx = _Text(rng)
    tools = _ClaudeTools(tx)
    session = tx.uuid()
    out.emit({
        "type": "system", "subtype": "init", "cwd": "/home/dev/project", "session_id": session,
        "tools": ["Task", "Bash", "Glob", "Grep", "Read", "Edit", "Write", "WebFetch", "TodoWrite",
                  "WebSearch", "Skill"] + [f"mcp__{s}__{t}" for s, t in _MCP_TOOLS],
        "mcp_servers": [{"name": s, "status": "connected"} for s in sorted({s for s, _ in _MCP_TOOLS})],
        "model": "claude-sonnet-4-5-20250929", "permissionMode": "bypassPermissions", "apiKeySource": "none",
        "slash_commands": ["compact", "context", "cost"], "claude_code_version": "2.0.62",
        "output_style": "default", "agents": ["general-purpose"], "skills": [], "plugins": [],
        "uuid": tx.uuid(),
    })

    def assistant(blocks: list[dict[str, Any]], parent: str | None) -> None:
        msg_id = "msg_01" + tx.b62(22)
        usage = _usage(rng)
        for b in blocks:
            out.emit({"type": "assistant",
                      "message": {"model": "claude-sonnet-4-5-20250929", "id": msg_id, "type": "message",
                                  "role": "assistant", "content": [b], "stop_reason": None,
                                  "stop_sequence": None, "usage": usage, "context_management": None},
                      "parent_tool_use_id": parent, "session_id": session, "uuid": tx.uuid()})

    def result(tid: str, content: Any, tur: Any, err: bool, parent: str | None) -> None:
        block: dict[str, Any] = {"tool_use_id": tid, "type": "tool_result", "content": content}
        if err:
            block["is_error"] = True
        out.emit({"type": "user", "message": {"role": "user", "content": [block]},
                  "parent_tool_use_id": parent, "session_id": session, "uuid": tx.uuid(),
                  "tool_use_result": tur})

    turns = 0
    final_text = ""
    while True:
        last = out.bytes >= target
        turns += 1
        rounds = rng.randint(1, 5)
        for rnd in range(rounds + 1):
            final = rnd == rounds
            blocks: list[dict[str, Any]] = []
            if rng.random() < 0.4:
                blocks.append({"type": "thinking", "thinking": tx.prose(rng.randint(1, 10)),
                               "signature": tx.b62(300)})
            if final or rng.random() < 0.6:
                text = tx.prose(rng.randint(1, 12))
                blocks.append({"type": "text", "text": text})
                if final:
                    final_text = text
            pending: list[tuple[str, Any]] = []
            if not final:
                subagent = rng.random() < 0.04
                if subagent:
                    tid = "toolu_01" + tx.b62(22)
                    desc = tx.prose(1)[:50]
                    blocks.append({"type": "tool_use", "id": tid, "name": "Task",
                                   "input": {"description": desc, "prompt": tx.prose(4),
                                             "subagent_type": "general-purpose"}})
                    pending.append(("task", tid))
                for _ in range(rng.choices((1, 2, 3), (70, 20, 10))[0]):
                    name, inp, content, tur, err = tools.make(tools.pick(), may_fail=not (last and rnd == rounds - 1))
                    tid = "toolu_01" + tx.b62(22)
                    blocks.append({"type": "tool_use", "id": tid, "name": name, "input": inp})
                    pending.append(("tool", (tid, name, content, tur, err)))
            assistant(blocks, None)
            for what, item in pending:
                if what == "task":
                    task_id = item
                    assert isinstance(task_id, str)
                    # the subagent's own calls, forwarded with parent_tool_use_id
                    out.emit({"type": "user", "message": {"role": "user", "content": [
                        {"type": "text", "text": tx.prose(3)}]}, "parent_tool_use_id": task_id,
                        "session_id": session, "uuid": tx.uuid()})
                    for _ in range(rng.randint(1, 4)):
                        name, inp, content, tur, err = tools.make(tools.pick(), may_fail=False)
                        sid = "toolu_01" + tx.b62(22)
                        assistant([{"type": "tool_use", "id": sid, "name": name, "input": inp}], task_id)
                        result(sid, content, tur, err, task_id)
                        man.call(name, subagent=True)
                    sub_final = tx.prose(6)
                    assistant([{"type": "text", "text": sub_final}], task_id)
                    man.call("Task")
                    result(task_id, [{"type": "text", "text": sub_final}], {
                        "status": "completed", "prompt": tx.prose(2), "agentId": tx.hexid(7),
                        "content": [{"type": "text", "text": sub_final}], "totalDurationMs": rng.randint(1000, 90000),
                        "totalTokens": rng.randint(1000, 90000), "totalToolUseCount": 3,
                    }, False, None)
                else:
                    tid, name, content, tur, err = item
                    man.call(name, error=err)
                    result(tid, content, tur, err, None)
        if last:
            break
    man.final_response = final_text
    out.emit({
        "type": "result", "subtype": "success", "is_error": False, "duration_ms": rng.randint(10**4, 10**7),
        "duration_api_ms": rng.randint(10**4, 10**7), "num_turns": turns, "result": final_text,
        "session_id": session, "total_cost_usd": round(rng.uniform(0.5, 90), 6),
        "usage": {"input_tokens": 1234, "cache_creation_input_tokens": 56789, "cache_read_input_tokens": 987654,
                  "output_tokens": 43210, "server_tool_use": {"web_search_requests": 0}},
        "permission_denials": [], "terminal_reason": "completed", "uuid": tx.uuid(),
    })


# -- Codex exec --json -------------------------------------------------------------------------


def _codex_exec(out: _Out, target: int, seed: int, man: _Manifest) -> None:
    rng = random.Random(seed)
    tx = _Text(rng)
    thread = tx.uuid()
    totals = {"input_tokens": 0, "cached_input_tokens": 0, "output_tokens": 0}
    final_text = ""
    first_process = True
    while True:
        # one `codex exec` (or `codex exec resume`) process: item ids restart at item_0
        out.emit({"type": "thread.started", "thread_id": thread})
        n = 0

        def item_id() -> str:
            nonlocal n
            n += 1
            return f"item_{n - 1}"

        short = first_process
        if first_process:
            out.emit({"type": "item.completed", "item": {"id": item_id(), "type": "error",
                      "message": "Model metadata for `gpt-5.1-codex` not found; using defaults"}})
            first_process = False
        # the first process is short, so that even a small file has a resumed thread
        for _turn in range(2 if short else rng.randint(3, 12)):
            last = out.bytes >= target
            out.emit({"type": "turn.started"})
            rounds = rng.randint(1, 6)
            for rnd in range(rounds + 1):
                final = rnd == rounds
                if rng.random() < 0.7:
                    out.emit({"type": "item.completed", "item": {"id": item_id(), "type": "reasoning",
                              "text": "**" + tx.prose(1)[:60] + "**"}})
                if final:
                    final_text = tx.prose(rng.randint(1, 15))
                    out.emit({"type": "item.completed", "item": {"id": item_id(), "type": "agent_message",
                              "text": final_text}})
                    break
                safe = last and rnd == rounds - 1
                kind = rng.choices(
                    ("command_execution", "file_change", "mcp_tool_call", "web_search", "todo_list",
                     "collab_tool_call"),
                    (60, 15, 10, 6, 6, 3),
                )[0]
                if safe:
                    kind = "command_execution"
                iid = item_id()
                if kind == "command_execution":
                    cmd = "bash -lc " + json.dumps(tx.command(), ensure_ascii=False)
                    fail = not safe and rng.random() < 0.08
                    out.emit({"type": "item.started", "item": {"id": iid, "type": "command_execution", "command": cmd,
                              "aggregated_output": "", "exit_code": None, "status": "in_progress"}})
                    out.emit({"type": "item.completed", "item": {
                        "id": iid, "type": "command_execution", "command": cmd,
                        "aggregated_output": tx.code(tx.output_lines()) + "\n",
                        "exit_code": 1 if fail else 0, "status": "failed" if fail else "completed"}})
                    man.call("command_execution", error=fail)
                elif kind == "file_change":
                    changes = [{"path": tx.path(), "kind": rng.choice(("add", "update", "update", "delete"))}
                               for _ in range(rng.randint(1, 3))]
                    out.emit({"type": "item.started", "item": {"id": iid, "type": "file_change", "changes": changes,
                              "status": "in_progress"}})
                    out.emit({"type": "item.completed", "item": {"id": iid, "type": "file_change", "changes": changes,
                              "status": "completed"}})
                    man.call("file_change")
                elif kind == "mcp_tool_call":
                    server, tool = rng.choice(_MCP_TOOLS)
                    args = {"query": tx.prose(1), "limit": rng.randint(1, 50)}
                    fail = rng.random() < 0.1
                    out.emit({"type": "item.started", "item": {"id": iid, "type": "mcp_tool_call", "server": server,
                              "tool": tool, "arguments": args, "result": None, "error": None,
                              "status": "in_progress"}})
                    done: dict[str, Any] = {"id": iid, "type": "mcp_tool_call", "server": server, "tool": tool,
                                            "arguments": args}
                    if fail:
                        done.update(result=None, error={"message": "tool call failed: " + tx.prose(1)},
                                    status="failed")
                    else:
                        done.update(result={"content": [{"type": "text", "text": tx.prose(rng.randint(1, 30))}],
                                            "structured_content": None}, error=None, status="completed")
                    out.emit({"type": "item.completed", "item": done})
                    man.call(f"mcp__{server}__{tool}", error=fail)
                elif kind == "web_search":
                    q = tx.prose(1)[:70]
                    out.emit({"type": "item.started", "item": {"id": iid, "type": "web_search", "query": "",
                              "action": {"type": "other"}}})
                    out.emit({"type": "item.completed", "item": {"id": iid, "type": "web_search", "query": q,
                              "action": {"type": "search", "query": q}}})
                    man.call("web_search")
                elif kind == "todo_list":
                    items = [{"text": tx.prose(1)[:60], "completed": False} for _ in range(rng.randint(2, 6))]
                    out.emit({"type": "item.started", "item": {"id": iid, "type": "todo_list", "items": items}})
                    items[0]["completed"] = True
                    out.emit({"type": "item.updated", "item": {"id": iid, "type": "todo_list", "items": items}})
                    for it in items:
                        it["completed"] = True
                    out.emit({"type": "item.completed", "item": {"id": iid, "type": "todo_list", "items": items}})
                    man.call("todo_list")
                else:
                    receiver = tx.uuid()
                    base = {"id": iid, "type": "collab_tool_call", "tool": "spawn_agent",
                            "sender_thread_id": thread, "receiver_thread_ids": [receiver], "prompt": tx.prose(2)}
                    out.emit({"type": "item.started", "item": {**base, "agents_states": {}, "status": "in_progress"}})
                    out.emit({"type": "item.completed", "item": {
                        **base, "agents_states": {receiver: {"status": "completed", "message": tx.prose(2)}},
                        "status": "completed"}})
                    man.call("collab_tool_call")
                if rng.random() < 0.4:
                    out.emit({"type": "item.completed", "item": {"id": item_id(), "type": "agent_message",
                              "text": tx.prose(rng.randint(1, 3))}})
            totals["input_tokens"] += rng.randint(3000, 40000)
            totals["cached_input_tokens"] += rng.randint(1000, 30000)
            totals["output_tokens"] += rng.randint(10, 3000)
            out.emit({"type": "turn.completed", "usage": dict(totals)})
            if last:
                man.final_response = final_text
                return


# -- Codex rollout -----------------------------------------------------------------------------


def _codex_rollout(out: _Out, target: int, seed: int, man: _Manifest) -> None:
    rng = random.Random(seed)
    tx = _Text(rng)
    clock = _Clock(rng, datetime(2025, 9, 25, 14, 2, 5, tzinfo=timezone.utc))
    sid = tx.uuid()

    def emit(type_: str, payload: dict[str, Any]) -> None:
        out.emit({"timestamp": clock.tick(0.001, 3.0), "type": type_, "payload": payload})

    emit("session_meta", {"id": sid, "timestamp": clock.tick(), "cwd": "/home/dev/project",
                          "originator": "codex_cli_rs", "cli_version": "0.40.0", "instructions": None,
                          "git": {"commit_hash": tx.hexid(40), "branch": "main",
                                  "repository_url": "git@example.org:dev/project.git"}})
    emit("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": (
        "<environment_context>\n  <cwd>/home/dev/project</cwd>\n  <approval_policy>on-request</approval_policy>\n"
        "  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n"
        "  <shell>zsh</shell>\n</environment_context>")}]})
    totals = {"input_tokens": 0, "cached_input_tokens": 0, "output_tokens": 0, "reasoning_output_tokens": 0,
              "total_tokens": 0}
    while True:
        last = out.bytes >= target
        turn_id = tx.uuid()
        emit("event_msg", {"type": "task_started", "turn_id": turn_id, "model_context_window": 272000})
        emit("turn_context", {"turn_id": turn_id, "cwd": "/home/dev/project", "approval_policy": "on-request",
                              "sandbox_policy": {"mode": "workspace-write"}, "model": "gpt-5-codex",
                              "effort": "high", "summary": "auto"})
        prompt = tx.prose(rng.randint(1, 5))
        emit("response_item", {"type": "message", "role": "user",
                               "content": [{"type": "input_text", "text": prompt}]})
        emit("event_msg", {"type": "user_message", "message": prompt, "kind": "plain", "images": []})
        rounds = rng.randint(1, 6)
        final_text = ""
        for rnd in range(rounds + 1):
            final = rnd == rounds
            summary = "**" + tx.prose(1)[:60] + "**"
            emit("event_msg", {"type": "agent_reasoning", "text": summary})
            emit("response_item", {"type": "reasoning", "summary": [{"type": "summary_text", "text": summary}],
                                   "content": None, "encrypted_content": "gAAAAAB" + tx.b62(rng.randint(800, 3000))})
            for k in totals:
                totals[k] += rng.randint(10, 3000)
            emit("event_msg", {"type": "token_count", "info": {
                "total_token_usage": dict(totals),
                "last_token_usage": {k: rng.randint(10, 3000) for k in totals},
                "model_context_window": 272000},
                "rate_limits": {"primary_used_percent": 1.0, "secondary_used_percent": 11.0,
                                "primary_window_minutes": 299, "secondary_window_minutes": 10079}})
            if final:
                final_text = tx.prose(rng.randint(1, 15))
                emit("event_msg", {"type": "agent_message", "message": final_text})
                emit("response_item", {"type": "message", "role": "assistant",
                                       "content": [{"type": "output_text", "text": final_text}]})
                break
            safe = last and rnd == rounds - 1
            kind = "shell" if safe else rng.choices(("shell", "apply_patch", "mcp", "update_plan"), (70, 15, 10, 5))[0]
            call_id = "call_" + tx.b62(24)
            if kind == "shell":
                argv = ["bash", "-lc", tx.command()]
                emit("response_item", {"type": "function_call", "name": "shell", "arguments": json.dumps(
                    {"command": argv, "workdir": "/home/dev/project", "timeout_ms": 120000}, ensure_ascii=False),
                    "call_id": call_id})
                code = 0 if safe or rng.random() > 0.08 else rng.choice((1, 2, 127))
                payload = {"output": tx.code(tx.output_lines()) + "\n",
                           "metadata": {"exit_code": code, "duration_seconds": round(rng.uniform(0, 9), 1)}}
                emit("response_item", {"type": "function_call_output", "call_id": call_id,
                                       "output": json.dumps(payload, ensure_ascii=False)})
                man.call("shell", error=code != 0)
            elif kind == "apply_patch":
                path = tx.path()
                patch = (f"*** Begin Patch\n*** Update File: {path}\n@@\n-" + tx.code(3).replace("\n", "\n-")
                         + "\n+" + tx.code(4).replace("\n", "\n+") + "\n*** End Patch\n")
                emit("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": call_id,
                                       "name": "apply_patch", "input": patch})
                emit("response_item", {"type": "custom_tool_call_output", "call_id": call_id, "output": json.dumps(
                    {"output": f"Success. Updated the following files:\nM {path}\n",
                     "metadata": {"exit_code": 0, "duration_seconds": 0.0}})})
                man.call("apply_patch")
            elif kind == "mcp":
                server, tool = rng.choice(_MCP_TOOLS)
                name = f"mcp__{server}__{tool}"
                emit("response_item", {"type": "function_call", "name": name,
                                       "arguments": json.dumps({"query": tx.prose(1)}, ensure_ascii=False),
                                       "call_id": call_id})
                emit("response_item", {"type": "function_call_output", "call_id": call_id,
                                       "output": tx.prose(rng.randint(1, 30))})
                man.call(name)
            else:
                plan = [{"step": tx.prose(1)[:60], "status": rng.choice(("pending", "in_progress", "completed"))}
                        for _ in range(rng.randint(2, 6))]
                emit("response_item", {"type": "function_call", "name": "update_plan",
                                       "arguments": json.dumps({"plan": plan}, ensure_ascii=False),
                                       "call_id": call_id})
                emit("response_item", {"type": "function_call_output", "call_id": call_id, "output": "Plan updated"})
                man.call("update_plan")
            if rng.random() < 0.3:
                msg = tx.prose(rng.randint(1, 3))
                emit("event_msg", {"type": "agent_message", "message": msg})
                emit("response_item", {"type": "message", "role": "assistant",
                                       "content": [{"type": "output_text", "text": msg}]})
        emit("event_msg", {"type": "task_complete", "turn_id": turn_id, "last_agent_message": final_text})
        man.final_response = final_text
        if last:
            return


# -- OpenCode run --format json ----------------------------------------------------------------

_OPENCODE_TOOLS = (("read", 30), ("bash", 25), ("edit", 12), ("grep", 8), ("glob", 8), ("write", 4),
                   ("todowrite", 3), ("webfetch", 2))


def _opencode_tool(tx: _Text, name: str, *, may_fail: bool) -> tuple[dict[str, Any], dict[str, Any], bool]:
    """``(input, state fields, is_error)`` of one OpenCode tool call."""
    r = tx.rng
    path = tx.path()
    if may_fail and r.random() < 0.04:
        return {"filePath": path}, {"status": "error", "error": f"File not found: {path}"}, True
    if name == "bash":
        cmd = tx.command()
        out = tx.code(tx.output_lines())
        exit_code = 1 if may_fail and r.random() < 0.08 else 0
        desc = tx.prose(1)[:60]
        return ({"command": cmd, "description": desc},
                {"status": "completed", "output": out, "title": desc,
                 "metadata": {"output": out, "exit": exit_code, "description": desc, "truncated": False}},
                exit_code != 0)
    if name == "read":
        n = tx.output_lines()
        body = "\n".join(f"{i:05d}| {ln}" for i, ln in enumerate(r.choices(tx.code_lines, k=n), 1))
        return ({"filePath": path},
                {"status": "completed", "output": f"<file>\n{body}\n</file>", "title": path.rsplit("/", 1)[1],
                 "metadata": {"preview": body[:400], "truncated": False}}, False)
    if name in ("edit", "write"):
        old, new = tx.code(r.randint(1, 12)), tx.code(r.randint(1, 12))
        inp = {"filePath": path, "oldString": old, "newString": new} if name == "edit" else \
            {"filePath": path, "content": tx.code(r.randint(5, 80))}
        diff = f"Index: {path}\n===\n--- {path}\n+++ {path}\n@@ -1 +1 @@\n-{old}\n+{new}"
        return inp, {"status": "completed", "output": "", "title": path,
                     "metadata": {"diagnostics": {}, "diff": diff}}, False
    if name in ("grep", "glob"):
        found = [tx.path() for _ in range(r.randint(0, 40))]
        return ({"pattern": r.choice(_WORDS)},
                {"status": "completed", "output": "\n".join(found) or "No files found", "title": "",
                 "metadata": {"count": len(found), "truncated": False}}, False)
    if name == "todowrite":
        todos = [{"content": tx.prose(1)[:60], "status": r.choice(("pending", "completed")), "priority": "high",
                  "id": str(i)} for i in range(r.randint(1, 6))]
        return {"todos": todos}, {"status": "completed", "output": json.dumps(todos, indent=2),
                                  "title": f"{len(todos)} todos", "metadata": {"todos": todos}}, False
    return ({"url": "https://example.com/" + r.choice(_WORDS), "format": "markdown"},
            {"status": "completed", "output": tx.prose(r.randint(5, 40)), "title": "", "metadata": {}}, False)


def _opencode_run(out: _Out, target: int, seed: int, man: _Manifest) -> None:
    rng = random.Random(seed)
    tx = _Text(rng)
    session = "ses_" + tx.b62(26)
    ts = 1767036059338
    names = [n for n, _ in _OPENCODE_TOOLS]
    weights = [w for _, w in _OPENCODE_TOOLS]

    def event(type_: str, part: dict[str, Any]) -> None:
        nonlocal ts
        ts += rng.randint(5, 4000)
        out.emit({"type": type_, "timestamp": ts, "sessionID": session, "part": part})

    def part(mid: str, type_: str, **fields: Any) -> dict[str, Any]:
        return {"id": "prt_" + tx.b62(26), "sessionID": session, "messageID": mid, "type": type_, **fields}

    closing = False  # the step before the answer: its calls succeed (the run ends on a good call)
    while True:
        last = out.bytes >= target and closing
        closing = closing or out.bytes >= target
        mid = "msg_" + tx.b62(26)
        event("step_start", part(mid, "step-start", snapshot=tx.hexid(40)))
        text = tx.prose(rng.randint(1, 12))
        if last or rng.random() < 0.5:
            event("text", part(mid, "text", text=text, time={"start": ts, "end": ts}))
        if last:
            man.final_response = text
        else:
            for _ in range(rng.choices((1, 2, 3), (70, 20, 10))[0]):
                name = rng.choices(names, weights)[0]
                inp, state, err = _opencode_tool(tx, name, may_fail=not closing)
                state = {"input": inp, **state, "time": {"start": ts, "end": ts + rng.randint(5, 9000)}}
                event("tool_use", part(mid, "tool", callID="toolu_01" + tx.b62(22), tool=name, state=state))
                man.call(name, error=err)
        event("step_finish", part(mid, "step-finish", reason="stop" if last else "tool-calls",
                                  snapshot=tx.hexid(40), cost=round(rng.uniform(0, 0.05), 6),
                                  tokens={"input": rng.randint(1, 30000), "output": rng.randint(1, 2000),
                                          "reasoning": 0, "cache": {"read": rng.randint(0, 90000), "write": 0}}))
        if last:
            break


# -- Cursor CLI stream-json --------------------------------------------------------------------


def _cursor_stream(out: _Out, target: int, seed: int, man: _Manifest) -> None:
    rng = random.Random(seed)
    tx = _Text(rng)
    session = tx.uuid()
    ms = 1770823976204
    out.emit({"type": "system", "subtype": "init", "apiKeySource": "login", "cwd": "/home/dev/project",
              "session_id": session, "model": "Auto", "permissionMode": "default"})
    out.emit({"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": tx.prose(3)}]},
              "session_id": session})

    def stamp() -> int:
        nonlocal ms
        ms += rng.randint(1, 3000)
        return ms

    def say(text: str, model_call: str | None) -> None:
        rec: dict[str, Any] = {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": text}]}, "session_id": session}
        if model_call is not None:
            rec |= {"model_call_id": model_call, "timestamp_ms": stamp()}
        out.emit(rec)

    segments: list[str] = []
    closing = False  # the round before the answer: its calls succeed (the run ends on a good call)
    while True:
        last = out.bytes >= target and closing
        closing = closing or out.bytes >= target
        model_call = f"{tx.uuid()}-0-{tx.b62(4).lower()}"
        if rng.random() < 0.5:
            for word in tx.prose(rng.randint(1, 4)).split(" "):
                out.emit({"type": "thinking", "subtype": "delta", "text": " " + word, "session_id": session,
                          "timestamp_ms": stamp()})
            out.emit({"type": "thinking", "subtype": "completed", "session_id": session, "timestamp_ms": stamp()})
        text = tx.prose(rng.randint(1, 8))
        segments.append(text)
        if last:
            say(text, None)
            man.final_response = text
            break
        say(text, model_call)
        calls = []
        for _ in range(rng.choices((1, 2, 3), (70, 20, 10))[0]):
            cid = f"call_{tx.b62(24)}\nfc_{tx.hexid(50)}"
            cmd = tx.command()
            args = {"command": cmd, "workingDirectory": "", "timeout": 30000, "toolCallId": cid,
                    "simpleCommands": [cmd.split()[0]], "hasInputRedirect": False, "hasOutputRedirect": False,
                    "isBackground": False, "skipApproval": False, "timeoutBehavior": "TIMEOUT_BEHAVIOR_BACKGROUND"}
            out.emit({"type": "tool_call", "subtype": "started", "call_id": cid,
                      "tool_call": {"shellToolCall": {"args": args}}, "model_call_id": model_call,
                      "session_id": session, "timestamp_ms": stamp()})
            calls.append((cid, args))
        rng.shuffle(calls)  # parallel calls complete in any order
        for cid, args in calls:
            exit_code = 1 if not closing and rng.random() < 0.08 else 0
            stdout = tx.code(tx.output_lines())
            result = {"success": {"command": args["command"], "workingDirectory": "", "exitCode": exit_code,
                                  "signal": "", "stdout": stdout, "stderr": "",
                                  "executionTime": rng.randint(5, 20000), "interleavedOutput": stdout},
                      "isBackground": False}
            out.emit({"type": "tool_call", "subtype": "completed", "call_id": cid,
                      "tool_call": {"shellToolCall": {"args": args, "result": result}},
                      "model_call_id": model_call, "session_id": session, "timestamp_ms": stamp()})
            man.call("shellToolCall", error=exit_code != 0)
    out.emit({"type": "result", "subtype": "success", "duration_ms": ms - 1770823976204,
              "duration_api_ms": ms - 1770823976204, "is_error": False, "result": "".join(segments),
              "session_id": session, "request_id": tx.uuid()})


_GENERATORS: dict[str, Callable[[_Out, int, int, _Manifest], None]] = {
    "claude-session": _claude_session,
    "claude-stream-json": _claude_stream,
    "codex-exec": _codex_exec,
    "codex-rollout": _codex_rollout,
    "opencode": _opencode_run,
    "cursor-cli": _cursor_stream,
}


def generate(fmt: str, size: int, path: Path, *, seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """Write a transcript of *fmt* of about *size* bytes (a little more: the run is closed) to *path*.

    Returns the manifest (also written to ``<path>.manifest.json``).
    """
    if fmt not in _GENERATORS:
        raise ValueError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS + EXTRA_FORMATS)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    man = _Manifest(fmt)
    # the seed mixes in the format and size so that files are independent but reproducible
    mixed = seed * 1_000_003 + (FORMATS + EXTRA_FORMATS).index(fmt) * 7919 + size
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "wb", buffering=1 << 20) as f:
        out = _Out(f)
        _GENERATORS[fmt](out, size, mixed, man)
    tmp.replace(path)
    manifest = man.as_dict(path, out, seed, size)
    manifest_path(path).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest


def manifest_path(path: Path) -> Path:
    return path.with_name(path.name + ".manifest.json")


def ensure(fmt: str, size: int, out: Path = DATA_DIR, *, seed: int = DEFAULT_SEED) -> tuple[Path, dict[str, Any]]:
    """The generated file (made now if missing or made from another seed) and its manifest."""
    path = data_path(fmt, size, out)
    mp = manifest_path(path)
    if path.exists() and mp.exists():
        try:
            manifest = json.loads(mp.read_text(encoding="utf-8"))
        except ValueError:
            manifest = None
        if (
            isinstance(manifest, dict)
            and manifest.get("seed") == seed
            and manifest.get("generator") == GENERATOR_VERSION
            and manifest.get("bytes") == path.stat().st_size
            and manifest.get("target_bytes") == size
        ):
            return path, manifest
    return path, generate(fmt, size, path, seed=seed)


def batch(n: int, size: int, out: Path, *, seed: int = DEFAULT_SEED) -> list[Path]:
    """*n* small transcripts of mixed formats (the batch a CI run checks), made once."""
    d = out / f"batch-{n}x{size_label(size)}"
    stamp = d / "seed.txt"
    paths = [d / f"{i:04d}-{FORMATS[i % len(FORMATS)]}.jsonl" for i in range(n)]
    tag = f"{seed} {GENERATOR_VERSION}"
    if stamp.exists() and stamp.read_text().strip() == tag and all(p.exists() for p in paths):
        return paths
    d.mkdir(parents=True, exist_ok=True)
    for i, p in enumerate(paths):
        generate(FORMATS[i % len(FORMATS)], size, p, seed=seed + i)
        manifest_path(p).unlink()
    stamp.write_text(f"{tag}\n")
    return paths


def _iter_formats(spec: str) -> Iterator[str]:
    for f in spec.split(","):
        f = f.strip()
        if f == "all":
            yield from FORMATS
        elif f:
            if f not in FORMATS + EXTRA_FORMATS:
                raise SystemExit(f"unknown format {f!r}; choose from: all, {', '.join(FORMATS + EXTRA_FORMATS)}")
            yield f


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.generate", description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="1MB,10MB,100MB", help="comma-separated sizes (64KB, 1MB, ...)")
    p.add_argument("--formats", default="all", help="comma-separated formats, or 'all'")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED)
    p.add_argument("--out", type=Path, default=DATA_DIR, help="output folder (default bench/data)")
    p.add_argument("--force", action="store_true", help="regenerate even when the file exists")
    a = p.parse_args(argv)
    for fmt in _iter_formats(a.formats):
        for s in a.sizes.split(","):
            size = parse_size(s)
            if a.force:
                m = generate(fmt, size, data_path(fmt, size, a.out), seed=a.seed)
            else:
                _, m = ensure(fmt, size, a.out, seed=a.seed)
            print(f"{m['path']}: {m['bytes']:,} bytes, {m['lines']:,} lines, {m['tool_calls']:,} tool calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
