"""SWE-agent family parsers: ``swe-agent`` (``.traj``) and ``mini-swe-agent`` (``.traj.json``).

Both write one JSON document per run, and both agents act through shell commands:

* ``swe-agent``: ``{environment, trajectory[{action, observation, response, thought, state,
  execution_time?}], history[{role, content, agent, message_type?, tool_calls?,
  tool_call_ids?}], info{exit_status, submission, model_stats}, replay_config?}``. A trajectory
  step is one call (its ``action``) answered by its ``observation``. 0.x trajectories keep
  plain-text actions; 1.x function-calling runs also put OpenAI-style ``tool_calls`` in the
  history, which give the call id and the structured arguments. SWE-agent records no outcome per
  step (no exit code, no error flag), so every call's status is ``unrecorded``.
* ``mini-swe-agent``: ``{info{exit_status, submission, model_stats, config, mini_version},
  messages[], trajectory_format}``. v1 (``mini-swe-agent-1``): the action is the single
  ```` ```bash ```` block of an assistant message (none or several: a format error, nothing
  runs) and the next user message is its observation, ``<returncode>N</returncode>`` giving the
  exit code. v2 (``mini-swe-agent-1.1``): ``extra.actions[]`` / ``tool_calls`` on assistant
  messages, observations as ``role: tool`` messages (``tool_call_id``) with ``extra.returncode``.

Records are read with plain ``dict`` look-ups that check every type (as the other parsers do):
a trajectory is one document already decoded by the reader, and a validation model would only
restate these checks. Every record is located on the line where it starts in the document.
"""

from __future__ import annotations

import ast
import json
import posixpath
import re
from collections.abc import Iterator, Sequence
from typing import Any

from .._builder import TranscriptBuilder
from .._reader import Record, Shape
from ..model import Usage
from ..shell import parse_shell
from ._common import as_dict, as_float, as_int, as_list, as_str, content_text, decode_arguments
from ._jsondoc import DocumentLines

__all__ = ["MiniSweAgentParser", "SweAgentParser", "swe_agent_kind"]

#: SWE-agent's own commands (the ACI tools of its bundles), by what they do; anything else an
#: action starts with is a shell program.
_SWE_KINDS = {
    "open": "file_read",
    "goto": "file_read",
    "scroll_up": "file_read",
    "scroll_down": "file_read",
    "view": "file_read",
    "create": "file_write",
    "edit": "file_edit",
    "insert": "file_edit",
    "append": "file_edit",
    "str_replace": "file_edit",
    "undo_edit": "file_edit",
    "find_file": "search",
    "search_file": "search",
    "search_dir": "search",
    "filemap": "file_read",
    "submit": "other",
    "exit_forfeit": "other",
    "exit_context": "other",
    "exit_cost": "other",
    "exit_error": "other",
    "exit_format": "other",
    "skip": "other",
}
#: ``str_replace_editor <command> <path>`` (SWE-agent 1.x's editor tool), by its sub-command
_EDITOR_KINDS = {"view": "file_read", "create": "file_write", "str_replace": "file_edit",
                 "insert": "file_edit", "undo_edit": "file_edit"}
#: commands whose argument is the file they act on
_PATH_ARG = frozenset({"open", "create", "view"})
#: commands that act on the file open at the time (SWE-agent's editor state)
_OPEN_FILE = frozenset({"edit", "insert", "append", "goto", "scroll_up", "scroll_down"})


def _first_line_argv(action: str) -> tuple[str, ...]:
    """argv of the action's first simple command, read by the shell model.

    Multi-line commands (``edit 4:4`` … ``end_of_edit``) carry their body on the next lines: it
    is data, not shell, so only the first line is parsed for them.
    """
    script = parse_shell(action)
    top = script.top_level
    if top and top[0].argv:
        argv = top[0].argv
        if argv[0] in _SWE_KINDS or argv[0] == "str_replace_editor":
            first = parse_shell(action.split("\n", 1)[0]).top_level
            return first[0].argv if first and first[0].argv else argv
        return argv
    words = action.split()
    return (words[0],) if words else ()


def swe_agent_kind(argv: Sequence[str]) -> str:
    """What a SWE-agent action does, from its argv (``open f`` → ``file_read``, ``ls`` → ``shell``)."""
    if not argv:
        return "other"
    if argv[0] == "str_replace_editor":
        return _EDITOR_KINDS.get(argv[1], "file_edit") if len(argv) > 1 else "file_edit"
    return _SWE_KINDS.get(argv[0], "shell")


def _state(value: Any) -> dict[str, Any]:
    """A step's ``state``: a dict (1.x), or its JSON text (0.x), or a Python repr of it."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.strip().startswith("{") and len(value) < 100_000:
        try:
            got = json.loads(value)
        except RecursionError:
            return {}
        except ValueError:
            try:
                got = ast.literal_eval(value.strip())
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                return {}
        return got if isinstance(got, dict) else {}
    return {}


def _open_file(state: dict[str, Any]) -> str | None:
    f = state.get("open_file")
    return f if isinstance(f, str) and f and f != "n/a" else None


def _lines(b: TranscriptBuilder, path: Sequence[str | int], count: int, start: int = 0,
           doc: DocumentLines | None = None) -> list[int]:
    """The line of each of *count* array elements at *path* (line 1 where they cannot be found)."""
    if doc is None and b.document is not None:
        doc = DocumentLines(b.document)
    if doc is not None:
        found = [doc.line(o) for o in doc.items(path, start)]
        if len(found) == count:
            return found
    return [1] * count


class SweAgentParser:
    """SWE-agent ``.traj`` trajectories (0.x text actions and 1.x function calling)."""

    name = "swe-agent"
    agent = "swe-agent"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        for _, r in head[:1]:
            if isinstance(r.get("trajectory"), list) and (
                isinstance(r.get("history"), list) or isinstance(r.get("info"), dict)
            ):
                return None
        return "no SWE-agent trajectory (an object with a trajectory list and history or info)"

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        b.reply_precedes_actions = True  # a step's action follows its thought
        n = 0
        for line, rec in records:
            if not isinstance(rec.get("trajectory"), list):
                b.unknown("record without a trajectory list", rec, line=line, record=True)
                continue
            n += 1
            if n > 1:
                b.note("several trajectories in one file: read in order, as one transcript")
            self._trajectory(rec, b, line)

    def _trajectory(self, rec: dict[str, Any], b: TranscriptBuilder, base: int) -> None:
        doc = DocumentLines(b.document) if b.document is not None and base == 1 else None
        steps = rec["trajectory"]
        history = as_list(rec.get("history"))
        step_lines = _lines(b, ["trajectory"], len(steps), doc=doc) if doc else [base] * len(steps)
        hist_lines = _lines(b, ["history"], len(history), doc=doc) if doc else [base] * len(history)
        self._meta(rec, b)

        # The prompt: history entries before the first assistant turn. Later entries repeat the
        # trajectory (assistant turns and their observations) and are counted, not doubled.
        assistant_turns: list[dict[str, Any]] = []
        in_prompt = True
        for h, line in zip(history, hist_lines, strict=True):
            if not isinstance(h, dict):
                b.skip("history entry that is not an object")
                continue
            role = h.get("role")
            if role == "assistant":
                in_prompt = False
                if isinstance(h.get("action"), str) or isinstance(h.get("tool_calls"), list):
                    assistant_turns.append(h)
                b.skip("history assistant turns (read from the trajectory)")
                continue
            if not in_prompt:
                b.skip("history observations (read from the trajectory)")
                continue
            text = content_text(h.get("content"))
            if h.get("is_demo") in (True, "True", "true"):
                b.skip("demonstration messages")
            elif role == "system":
                b.message("system", text, line, meta=True)
            elif role in ("user", "tool"):
                b.message("user", text, line)
            else:
                b.unknown(f"history role {role}", h, line=line)

        turns = _match_turns(steps, assistant_turns)
        timeouts = timeout_patterns(SWE_TIMEOUT_TEMPLATE, _find_key(_replay_config(rec), "command_cancelled_timeout_template"))
        n_timeouts = n_rejected = 0
        prev_state: dict[str, Any] = {}
        ids: list[str] = []
        for i, (step, line) in enumerate(zip(steps, step_lines, strict=True)):
            if not isinstance(step, dict):
                b.damaged(line, f"a trajectory step that is a JSON {type(step).__name__}, not an object", step)
                continue
            state = _state(step.get("state"))
            thought = as_str(step.get("thought")) or ""
            response = as_str(step.get("response"))
            text = response if response is not None else thought
            if text.strip():
                b.message("assistant", text, line)
            action = as_str(step.get("action"))
            if "action" not in step:
                b.damaged(line, "a trajectory step without an action key", step)
                prev_state = state or prev_state
                continue
            if action is None and step.get("action") is not None:
                b.damaged(line, f"a trajectory step whose action is a JSON {type(step['action']).__name__}, "
                          "not a string", step)
                prev_state = state or prev_state
                continue
            if action is None or not action.strip():
                b.skip("trajectory steps without an action")
                prev_state = state or prev_state
                continue
            # the file open when the action ran: 0.x records the state before the step, 1.x after
            # it; an edit does not change the open file, so the step's own state names it in both
            cid, outcome = self._call(b, i, line, action, step, turns.get(i),
                                      state if _open_file(state) else prev_state, timeouts,
                                      _working_dir(state) or _working_dir(prev_state))
            ids.append(cid)
            n_timeouts += outcome == "timeout"
            n_rejected += outcome == "rejected"
            prev_state = state or prev_state
        if n_timeouts:
            b.note(_TIMEOUT_NOTE.format(n=n_timeouts))
        if n_rejected:
            b.note(f"{n_rejected} edit(s) were rejected (the observation says the changes have NOT been "
                   "applied): their status is failed")
        repeated = len(ids) - len(set(ids))
        if repeated:
            b.note(f"{repeated} call id(s) of the history repeat an earlier one (a replayed "
                   "demonstration): Transcript.call(id) finds the first")

    @staticmethod
    def _call(b: TranscriptBuilder, i: int, line: int, action: str, step: dict[str, Any],
              turn: dict[str, Any] | None, state: dict[str, Any],
              timeouts: Sequence[re.Pattern[str]], cwd: str | None) -> tuple[str, str | None]:
        """Record the step's call and its observation; returns the call id and what the
        observation says of the outcome: ``"timeout"``, ``"rejected"`` or ``None``."""
        argv = _first_line_argv(action)
        name = argv[0] if argv else action.split(None, 1)[0]
        kind = swe_agent_kind(argv)
        args: dict[str, Any] = {}
        raw_args = None
        call_id = f"step-{i + 1}"
        if turn is not None:
            tcs = turn.get("tool_calls")
            tc = tcs[0] if isinstance(tcs, list) and tcs and isinstance(tcs[0], dict) else None
            if tc is not None:
                if isinstance(tc.get("id"), str) and tc["id"]:
                    call_id = tc["id"]
                fn = tc.get("function")
                if isinstance(fn, dict):
                    args, raw_args = decode_arguments(fn.get("arguments"))
                    args = dict(args)
        args.setdefault("action", action)
        if kind == "shell":
            args.setdefault("command", action.strip())
        if kind in ("file_read", "file_write", "file_edit") and "path" not in args:
            path = None
            if argv and argv[0] in _PATH_ARG and len(argv) > 1:
                path = argv[1]
            elif argv and argv[0] == "str_replace_editor" and len(argv) > 2:
                path = argv[2]
            elif argv and argv[0] in _OPEN_FILE:
                path = _open_file(state)
            if path is not None:
                args["path"] = path
        absolute = _absolute(args.get("path"), cwd) if kind in ("file_read", "file_write", "file_edit") else None
        if absolute is not None:
            args.setdefault("absolute_path", absolute)
        key = f"step-{i}"
        b.call(key, id=call_id, name=name, kind=kind, arguments=args, line=line, raw_arguments=raw_args)
        obs = step.get("observation")
        outcome: str | None = None
        if obs is not None:
            text = obs if isinstance(obs, str) else content_text(obs)
            # the outcomes SWE-agent does record: a command it cancelled for taking too long, and
            # an edit its linter rejected ("Your changes have NOT been applied")
            if _timed_out(text, timeouts) or _SWE0_TIMEOUT.search(text):
                outcome = "timeout"
            elif kind in ("file_edit", "file_write") and _NOT_APPLIED in text:
                outcome = "rejected"
            b.result(key, text=text, line=line, raw=None, is_error=outcome is not None,
                     status="failed" if outcome is not None else "unrecorded")
        return call_id, outcome

    @staticmethod
    def _meta(rec: dict[str, Any], b: TranscriptBuilder) -> None:
        env = rec.get("environment")
        if isinstance(env, str):
            b.metadata["environment"] = env
        info = rec.get("info")
        _exit_status(info, b)
        if isinstance(info, dict):
            for key in ("exit_status", "swe_agent_version", "swe_rex_version"):
                if isinstance(info.get(key), str):
                    b.metadata[key] = info[key]
            if isinstance(info.get("submission"), str):
                b.metadata["submission"] = info["submission"]
            stats = info.get("model_stats")
            if isinstance(stats, dict):
                sent, received = as_int(stats.get("tokens_sent")), as_int(stats.get("tokens_received"))
                cost = as_float(stats.get("instance_cost"))
                api_calls = as_int(stats.get("api_calls"))
                if api_calls is not None:
                    b.metadata["api_calls"] = api_calls
                if api_calls and not sent and not received and not cost:
                    # API calls were made and nothing is counted: the usage was not recorded (a
                    # replayed demonstration, a model litellm has no price for), it is not 0
                    b.usage_partial = True
                    b.usage_mode = "not recorded (info.model_stats counts 0 tokens for its API calls)"
                    b.note(f"info.model_stats counts {api_calls} API call(s) but 0 tokens and no cost: "
                           "the usage was not recorded (not 0)")
                else:
                    b.usage = Usage(input_tokens=sent, output_tokens=received, cost_usd=cost)
                    b.usage_mode = "reported by info.model_stats"
        replay = _replay_config(rec)
        if isinstance(replay, dict):
            agent = replay.get("agent")
            model = agent.get("model") if isinstance(agent, dict) else None
            name = model.get("name") if isinstance(model, dict) else None
            if isinstance(name, str) and name:
                b.model = name


#: What SWE-agent's edit tools say when the linter rejected an edit (``edit``, ``insert``,
#: ``str_replace_editor``): the file was left as it was.
_NOT_APPLIED = "NOT been applied"


def _working_dir(state: dict[str, Any]) -> str | None:
    wd = state.get("working_dir")
    return wd if isinstance(wd, str) and wd.startswith("/") else None


def _absolute(path: Any, cwd: str | None) -> str | None:
    """*path* resolved against the trajectory's working folder, where that is safe: a plain
    relative path (no ``~``, variable or glob), a known absolute folder. ``None`` otherwise (and
    for a path that is absolute already: the logged one is kept as it is)."""
    if not isinstance(path, str) or not path or cwd is None or path.startswith("/"):
        return None
    if path[0] in "~$-" or any(ch in path for ch in "*?[$`\n\\"):
        return None
    return posixpath.normpath(posixpath.join(cwd, path))


def _replay_config(rec: dict[str, Any]) -> dict[str, Any] | None:
    """SWE-agent 1.x's ``replay_config`` (a JSON string, or an object), decoded."""
    replay = rec.get("replay_config")
    if isinstance(replay, str) and replay.lstrip().startswith("{"):
        try:
            replay = json.loads(replay)
        except (ValueError, RecursionError):
            return None
    return replay if isinstance(replay, dict) else None


def _exit_status(info: Any, b: TranscriptBuilder) -> None:
    """``info.exit_status`` is written when the run ends: ``submitted`` (SWE-agent) or
    ``Submitted`` (mini-swe-agent) is a normal end; anything else (``exit_cost``,
    ``LimitsExceeded``, an exception name, ``submitted (exit_cost)``) is a run-level error. A
    trajectory without it was saved before the run ended."""
    status = info.get("exit_status") if isinstance(info, dict) else None
    if not isinstance(status, str) or not status:
        b.run_ended = False
        return
    b.run_ended = True
    if status.strip().lower() != "submitted":
        line = DocumentLines(b.document).value_line(["info", "exit_status"]) if b.document else 1
        b.error(f"the run ended with exit status {status!r}", line)


def _match_turns(steps: list[Any], turns: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Trajectory step index → the history turn that made it, matched in order on the action."""
    out: dict[int, dict[str, Any]] = {}
    j = 0
    for i, step in enumerate(steps):
        if j >= len(turns) or not isinstance(step, dict):
            break
        action = step.get("action")
        turn_action = turns[j].get("action")
        if isinstance(action, str) and isinstance(turn_action, str) and action.strip() == turn_action.strip():
            out[i] = turns[j]
            j += 1
    return out


# -- timeouts ----------------------------------------------------------------------------------

#: A template's placeholders: Jinja ``{{ x }}`` / ``{% … %}`` and Python ``{x!r}`` fields.
_PLACEHOLDER = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{[A-Za-z_][^{}]*\}", re.DOTALL)
#: SWE-agent 1.x's default, and mini-swe-agent v1's (both configurable: the run's own is used too).
SWE_TIMEOUT_TEMPLATE = ("The command {command!r} was cancelled because it took more than {timeout} seconds. "
                        "Please try a different command that completes more quickly.")
MINI_TIMEOUT_TEMPLATE = ("The last command <command>{{action['action']}}</command> timed out and has been "
                         "killed.\nThe output of the command was:\n <output>\n{{output}}\n</output>")
#: SWE-agent 0.x appends this line to the observation of a command it interrupted.
_SWE0_TIMEOUT = re.compile(r"^EXECUTION TIMED OUT\b", re.MULTILINE)


def _template_start(template: str) -> re.Pattern[str] | None:
    """A pattern for how an observation made from *template* starts: its first two pieces of fixed
    text (the second up to its first line end) around whatever the first placeholder became."""
    pieces = _PLACEHOLDER.split(template)
    if len(pieces) < 2:
        return None
    first, second = pieces[0].lstrip(), pieces[1].split("\n", 1)[0]
    if len(first) + len(second) < 12:
        return None  # too little fixed text to tell the message apart
    return re.compile(re.escape(first) + ".*?" + re.escape(second), re.DOTALL)


def timeout_patterns(*templates: Any) -> tuple[re.Pattern[str], ...]:
    """Patterns of the timeout observations of these templates (non-strings ignored)."""
    out: list[re.Pattern[str]] = []
    for t in templates:
        pat = _template_start(t) if isinstance(t, str) else None
        if pat is not None and all(p.pattern != pat.pattern for p in out):
            out.append(pat)
    return tuple(out)


def _timed_out(text: str, patterns: Sequence[re.Pattern[str]]) -> bool:
    head = text.lstrip()
    return any(p.match(head) for p in patterns)


def _find_key(value: Any, key: str, depth: int = 0) -> Any:
    """The first value of *key* anywhere in nested dicts (a run's configuration)."""
    if isinstance(value, dict) and depth < 8:
        if key in value:
            return value[key]
        for v in value.values():
            found = _find_key(v, key, depth + 1)
            if found is not None:
                return found
    return None


_TIMEOUT_NOTE = ("{n} command(s) timed out and were killed (the observation says so; no exit code is "
                 "recorded): their status is failed")


# == mini-swe-agent ===========================================================================

_BASH_BLOCK = re.compile(r"```(?:bash|mswea_bash_command)[ \t]*\n(.*?)\n```", re.DOTALL)
_RETURNCODE = re.compile(r"<returncode>\s*(-?\d+)\s*</returncode>")


class MiniSweAgentParser:
    """mini-swe-agent ``*.traj.json`` trajectories (v1 text actions, v2 actions/tool calls)."""

    name = "mini-swe-agent"
    agent = "mini-swe-agent"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        for _, r in head[:1]:
            fmt = r.get("trajectory_format")
            info = r.get("info")
            if isinstance(r.get("messages"), list) and (
                (isinstance(fmt, str) and fmt.startswith("mini-swe-agent"))
                or (isinstance(info, dict) and "mini_version" in info)
            ):
                return None
        return "no mini-swe-agent trajectory (messages with trajectory_format mini-swe-agent-* or info.mini_version)"

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        b.reply_precedes_actions = True  # the bash block runs after the reply that holds it
        for line, rec in records:
            if not isinstance(rec.get("messages"), list):
                b.unknown("record without a messages list", rec, line=line, record=True)
                continue
            self._run(rec, b, line)

    def _run(self, rec: dict[str, Any], b: TranscriptBuilder, base: int) -> None:
        messages = rec["messages"]
        lines = _lines(b, ["messages"], len(messages)) if base == 1 else [base] * len(messages)
        info = as_dict(rec.get("info"))
        _exit_status(info, b)
        for key in ("exit_status", "mini_version"):
            if isinstance(info.get(key), str):
                b.metadata[key] = info[key]
        if isinstance(info.get("submission"), str):
            b.metadata["submission"] = info["submission"]
        for key in ("trajectory_format", "instance_id"):
            if isinstance(rec.get(key), str):
                b.metadata[key] = rec[key]
        if isinstance(rec.get("instance_id"), str):
            b.session_id = rec["instance_id"]
        config = info.get("config")
        model_cfg = config.get("model") if isinstance(config, dict) else None
        if isinstance(model_cfg, dict) and isinstance(model_cfg.get("model_name"), str):
            b.model = model_cfg["model_name"]

        timeouts = timeout_patterns(MINI_TIMEOUT_TEMPLATE, _find_key(config, "timeout_template"))
        n_timeouts = 0
        usage = [0, 0, 0, 0]
        cost = 0.0
        seen_usage = False
        unreported = 0  # responses without a usage report
        waiting: list[str] = []  # keys of the calls the next observation answers (v1: one)
        format_errors = 0
        n_calls = 0
        seen_assistant = False
        for i, (m, line) in enumerate(zip(messages, lines, strict=True)):
            if not isinstance(m, dict):
                b.damaged(line, f"a message that is a JSON {type(m).__name__}, not an object", m)
                continue
            role = m.get("role")
            text = content_text(m.get("content"))
            extra = as_dict(m.get("extra"))
            if role == "assistant":
                seen_assistant = True
                waiting = []
                response = extra.get("response")
                if isinstance(response, dict):
                    got = self._usage(response, usage)
                    seen_usage |= got
                    unreported += not got
                    c = response.get("usage")
                    if isinstance(c, dict) and (amount := as_float(c.get("cost"))) is not None:
                        cost += amount
                    reasoning = _reasoning(response)
                    if reasoning:
                        b.thinking(reasoning, line)
                    if b.model is None and isinstance(response.get("model"), str):
                        b.model = response["model"]
                if text.strip():
                    b.message("assistant", text, line)
                actions = self._actions(m, extra, text)
                if actions is None:
                    format_errors += 1
                    continue
                for j, (cid, command) in enumerate(actions):
                    key = cid or f"msg-{i}-{j}"
                    n_calls += 1
                    b.call(key, id=cid or f"action-{n_calls}", name="bash", kind="shell",
                           arguments={"command": command}, line=line)
                    waiting.append(key)
            elif role in ("user", "tool") and (waiting or as_str(m.get("tool_call_id"))):
                key = as_str(m.get("tool_call_id")) or waiting[0]
                if key in waiting:
                    waiting.remove(key)
                code = as_int(extra.get("returncode"))
                if code is None:
                    found = _RETURNCODE.search(text)
                    code = int(found.group(1)) if found else None
                # v1 reports a killed command in its own observation, with no return code
                timed_out = code is None and _timed_out(text, timeouts)
                n_timeouts += timed_out
                b.result(key, text=text, line=line, exit_code=code, is_error=timed_out,
                         status="failed" if timed_out else None)
            elif role == "system":
                b.message("system", text, line, meta=True)
            elif role == "user":
                # the task, or (after the first assistant turn) a message injected by the agent's
                # loop: a format error, a limit warning
                b.message("user", text, line, meta=seen_assistant)
            elif role == "exit":
                b.message("system", text, line, meta=True)
            else:
                b.unknown(f"message role {role}", m, line=line)
        if n_timeouts:
            b.note(_TIMEOUT_NOTE.format(n=n_timeouts))
        if format_errors:
            b.note(f"{format_errors} assistant message(s) without exactly one bash block: a format "
                   "error, nothing ran")
        stats = info.get("model_stats")
        instance_cost = stats.get("instance_cost") if isinstance(stats, dict) else None
        if seen_usage or isinstance(instance_cost, (int, float)):
            b.usage = Usage(
                input_tokens=max(usage[0] - usage[2], 0) if seen_usage else None,
                output_tokens=usage[1] if seen_usage else None,
                cache_read_tokens=usage[2] if seen_usage else None,
                reasoning_tokens=usage[3] if seen_usage else None,
                cost_usd=as_float(instance_cost) if as_float(instance_cost) is not None
                else (cost if seen_usage else None),
            )
            b.usage_mode = ("summed per response (extra.response.usage); cost from info.model_stats"
                            if seen_usage else "cost from info.model_stats")
            if seen_usage and unreported:
                b.usage_partial = True
                b.note(f"usage: {unreported} model response(s) report no usage: the token figures cover "
                       "the others only")

    @staticmethod
    def _actions(m: dict[str, Any], extra: dict[str, Any], text: str) -> list[tuple[str | None, str]] | None:
        """``(call id, command)`` of each action of an assistant message, or ``None`` for a
        format error (v1: zero or several bash blocks)."""
        acts = extra.get("actions")
        if isinstance(acts, list) and acts:
            out = []
            for a in acts:
                if isinstance(a, dict) and isinstance(a.get("command"), str):
                    cid = a.get("tool_call_id")
                    out.append((cid if isinstance(cid, str) else None, a["command"]))
            return out or None
        tcs = m.get("tool_calls")
        if isinstance(tcs, list) and tcs:
            out = []
            for tc in tcs:
                if not isinstance(tc, dict):
                    continue
                fn = tc.get("function")
                args, raw = decode_arguments(fn.get("arguments") if isinstance(fn, dict) else None)
                command = args.get("command", raw)
                if isinstance(command, str):
                    cid = tc.get("id")
                    out.append((cid if isinstance(cid, str) else None, command))
            return out or None
        blocks = _BASH_BLOCK.findall(text)
        if len(blocks) != 1:
            return None
        return [(None, blocks[0].strip())]

    @staticmethod
    def _usage(response: dict[str, Any], into: list[int]) -> bool:
        u = response.get("usage")
        if not isinstance(u, dict):
            return False
        prompt = as_int(u.get("prompt_tokens")) or 0
        details = u.get("prompt_tokens_details")
        cached = as_int(details.get("cached_tokens")) if isinstance(details, dict) else None
        cdetails = u.get("completion_tokens_details")
        reasoning = as_int(cdetails.get("reasoning_tokens")) if isinstance(cdetails, dict) else None
        into[0] += prompt
        into[1] += as_int(u.get("completion_tokens")) or 0
        into[2] += cached or 0
        into[3] += reasoning or 0
        return True


def _reasoning(response: dict[str, Any]) -> str:
    choices = response.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        msg = choices[0].get("message")
        if isinstance(msg, dict):
            r = msg.get("reasoning") or msg.get("reasoning_content")
            if isinstance(r, str):
                return r.strip()
    return ""
