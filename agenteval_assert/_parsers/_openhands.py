"""OpenHands parser: ``openhands`` event lists (trajectory exports, event streams).

An OpenHands run is a list of events (a JSON array, or one event per line): ``{id, timestamp,
source: user|agent|environment, message, action | observation, args | content + extras, cause,
tool_call_metadata{function_name, tool_call_id, model_response, total_calls_in_response},
llm_metrics?}``. A call is an action that carries ``tool_call_metadata``; its result is the
observation whose ``cause`` is the action's id. ``finish`` ends the run and has no observation by
design: its status is ``completed`` with no result, and its final message follows it as the
assistant's last words. A ``run`` observation with ``exit_code`` -1 is a command that had not
exited (timed out, or left running in the background): it is ``interrupted``, with no exit code.

Plain ``dict`` look-ups with type checks, as in the other parsers (see ``_claude``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from .._builder import TranscriptBuilder
from .._reader import Record, Shape
from ..model import Usage
from ._common import as_dict, as_float, as_int, as_str, content_text, decode_arguments, tool_kind

__all__ = ["OpenHandsParser"]

_SOURCES = frozenset({"user", "agent", "environment"})

#: OpenHands action types (its own normalisation of every tool) → ``ToolCall.kind``
#: Actions that are tool calls even without ``tool_call_metadata`` (the actions of an agent that
#: does not use function calling): what they do is the action itself.
_PLAIN_TOOL_ACTIONS = frozenset({"run", "run_ipython", "read", "write", "edit", "browse", "browse_interactive",
                                 "mcp", "delegate", "finish"})

_ACTION_KINDS = {
    "run": "shell",
    "run_ipython": "other",
    "read": "file_read",
    "write": "file_write",
    "edit": "file_edit",
    "browse": "web_fetch",
    "browse_interactive": "web_fetch",
    "mcp": "mcp",
    "delegate": "subagent",
    "think": "other",
    "finish": "other",
    "recall": "other",
    "condensation": "other",
    "task_tracking": "todo",
}
_FUNCTION_KINDS = {
    "execute_bash": "shell",
    "execute_ipython_cell": "other",
    "str_replace_editor": "file_edit",
    "edit_file": "file_edit",
    "browser": "web_fetch",
    "web_read": "web_fetch",
    "fetch": "web_fetch",
    "think": "other",
    "finish": "other",
    "delegate_to_browsing_agent": "subagent",
    "task_tracker": "todo",
}


#: The file editor's sub-commands (``str_replace_editor`` / the ``oh_aci`` file editor), by what
#: they do to the file.
_EDITOR_KINDS = {"view": "file_read", "create": "file_write", "str_replace": "file_edit",
                 "insert": "file_edit", "undo_edit": "file_edit"}
_EDITOR_ACTIONS = frozenset({"read", "write", "edit"})
_IPYTHON_COMMAND = re.compile(r"""['"]command['"]\s*:\s*['"](\w+)['"]""")


def _sent_arguments(meta: dict[str, Any], call_id: str | None) -> dict[str, Any]:
    """The arguments the model sent for this call: the function call of ``model_response`` whose
    id is the call's (the one call of the response when it has no id)."""
    resp = meta.get("model_response")
    choices = resp.get("choices") if isinstance(resp, dict) else None
    found: list[dict[str, Any]] = []
    for choice in choices if isinstance(choices, list) else ():
        msg = choice.get("message") if isinstance(choice, dict) else None
        tcs = msg.get("tool_calls") if isinstance(msg, dict) else None
        for tc in tcs if isinstance(tcs, list) else ():
            if isinstance(tc, dict) and isinstance(tc.get("function"), dict):
                found.append(tc)
    pick = next((tc for tc in found if call_id is not None and tc.get("id") == call_id), None)
    if pick is None and len(found) == 1 and call_id is None:
        pick = found[0]
    if pick is None:
        return {}
    args, _ = decode_arguments(pick["function"].get("arguments"))
    return dict(args)


def _with_sent_arguments(args: dict[str, Any], meta: dict[str, Any], call_id: str | None) -> dict[str, Any]:
    """The action's ``args`` as logged, completed with the arguments the model sent that the
    action does not repeat (a file editor action keeps ``path`` but not ``command``,
    ``file_text``, ``old_str``...): what the call asked for, so that file checks see it. A
    ``command`` found nowhere else is read from ``translated_ipython_code`` (``file_editor(**{'command': 'view', …})``)."""
    for k, v in _sent_arguments(meta, call_id).items():
        args.setdefault(k, v)
    if "command" not in args and isinstance(args.get("translated_ipython_code"), str):
        found = _IPYTHON_COMMAND.search(args["translated_ipython_code"][:2000])
        if found is not None:
            args["command"] = found.group(1)
    return args


def _editor_kind(command: Any, action: str, name: str) -> str | None:
    """A file editor call's kind from its sub-command (``create`` writes, ``view`` reads,
    ``str_replace`` / ``insert`` edit)."""
    if isinstance(command, str) and (action in _EDITOR_ACTIONS or name in ("str_replace_editor", "edit_file")):
        return _EDITOR_KINDS.get(command)
    return None


def _is_event(r: Any) -> bool:
    """An OpenHands event: an object whose string ``source`` is user/agent/environment, with a
    string ``action`` or ``observation`` (any other value, a list or an object included, is not)."""
    if not isinstance(r, dict):
        return False
    source = r.get("source")
    return isinstance(source, str) and source in _SOURCES and (isinstance(r.get("action"), str) or isinstance(r.get("observation"), str))


def _key(v: Any) -> str | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, str)):
        return str(v)
    return None


class OpenHandsParser:
    """OpenHands event lists (``source`` + ``action``/``observation`` events)."""

    name = "openhands"
    agent = "openhands"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        events = sum(1 for _, r in head if _is_event(r))
        if events and not any(isinstance(r.get("type"), str) for _, r in head):
            return None
        return "no OpenHands event (source user/agent/environment with an action or observation)"

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        actions: set[str] = set()  # ids of every action seen (tool calls or not)
        responses: dict[str, tuple[int, int, int, int] | None] = {}
        last_metrics: dict[str, Any] | None = None
        plain: list[int] = []  # lines of tool actions without tool_call_metadata
        function_calling = False
        for line, r in records:
            if not _is_event(r):
                b.unknown("record that is not an OpenHands event", r, line=line, record=True)
                continue
            metrics = r.get("llm_metrics")
            if isinstance(metrics, dict):
                last_metrics = metrics
            meta = r.get("tool_call_metadata")
            if isinstance(meta, dict):
                self._model_response(meta.get("model_response"), b, responses)
            elif meta is not None:  # the record of a call, unreadable: its call is lost
                b.damaged(line, f"tool_call_metadata is a JSON {type(meta).__name__}, not an object", r)
            if isinstance(r.get("action"), str):
                self._action(line, r, meta if isinstance(meta, dict) else None, b, actions, plain)
                if isinstance(meta, dict):
                    function_calling = True
            else:
                self._observation(line, r, b, actions)
        if plain and function_calling:
            # among function-calling actions, one without its metadata lost its call's name
            for line in plain:
                b.damaged(line, "an agent action without tool_call_metadata among function-calling actions: "
                          "its call is named after its action", None)
        elif plain:
            b.note("agent actions without tool_call_metadata (a non-function-calling agent): each is a "
                   "call named after its action (run, read, edit...)")
        self._usage(b, responses, last_metrics)

    @staticmethod
    def _action(line: int, r: dict[str, Any], meta: dict[str, Any] | None, b: TranscriptBuilder,
                actions: set[str], plain: list[int]) -> None:
        action = r["action"]
        eid = _key(r.get("id"))
        if eid is not None:
            actions.add(eid)
        args = as_dict(r.get("args"))
        source = r.get("source")
        if action == "message":
            text = as_str(args.get("content")) or as_str(r.get("message")) or ""
            if source == "user":
                b.message("user", text, line)
            elif source == "agent":
                if text.strip():
                    b.message("assistant", text, line)
            else:
                b.message("system", text, line, meta=True)
            return
        if source != "agent" or (meta is None and action not in _PLAIN_TOOL_ACTIONS):
            b.skip(f"{action} actions without tool_call_metadata" if source == "agent" else f"{source} {action} actions")
            return
        if meta is None:
            # a non-function-calling agent (older CodeAct): the action is the call, named after it
            meta = {}
            plain.append(line)
        elif not isinstance(meta.get("function_name"), str):  # missing, null or not a string
            b.damaged(line, "tool_call_metadata has no function_name string: the call is named after its "
                      f"action ({action})", meta)
        name: str = as_str(meta.get("function_name")) or action
        native = as_str(meta.get("tool_call_id"))
        key = eid if eid is not None else f"@{line}"
        thought = as_str(args.get("thought")) or ""
        if action != "finish" and thought.strip():
            b.message("assistant", thought, line)
        arguments, raw_args = decode_arguments(args)
        arguments = _with_sent_arguments(dict(arguments), meta, native)
        kind = _editor_kind(arguments.get("command"), action, name) \
            or _ACTION_KINDS.get(action) or _FUNCTION_KINDS.get(name) or tool_kind(name)
        ts = r.get("timestamp") if isinstance(r.get("timestamp"), str) else None
        if not b.call(key, id=native or key, name=name, kind=kind, arguments=arguments, line=line,
                      raw_arguments=raw_args, started_at=ts,
                      status="completed" if action == "finish" else "pending"):
            b.skip("repeated event id")
            return
        if action == "finish":
            final = next((v for v in (args.get("final_thought"), r.get("message"), args.get("content"),
                                      thought) if isinstance(v, str) and v.strip()), None)
            if final is not None:
                b.message("assistant", final, line)
            b.metadata["finished"] = True

    @staticmethod
    def _observation(line: int, r: dict[str, Any], b: TranscriptBuilder, actions: set[str]) -> None:
        obs = r["observation"]
        cause = _key(r.get("cause"))
        if cause is None:
            b.skip(f"{obs} observations without a cause")
            return
        if not b.has_call(cause):
            if cause in actions:
                b.skip(f"{obs} observations of actions that are not tool calls")
            else:
                b.result(cause, text="", line=line)  # counted as an orphan result
            return
        known = b.call_info(cause)
        if known is not None and known.result is not None:
            b.skip(f"{obs} observations of a call already answered")
            return
        extras = as_dict(r.get("extras"))
        meta = as_dict(extras.get("metadata"))
        code = as_int(meta.get("exit_code"))
        if code is None:
            code = as_int(extras.get("exit_code"))
        text = r.get("content")
        text = text if isinstance(text, str) else content_text(text)
        if not text and isinstance(r.get("message"), str) and obs == "error":
            text = r["message"]
        ts = r.get("timestamp") if isinstance(r.get("timestamp"), str) else None
        if code == -1:
            # OpenHands' "no exit code": the command timed out or was left running
            b.result(cause, text=text, line=line, raw=r, exit_code=None, status="interrupted", ended_at=ts)
            return
        b.result(cause, text=text, line=line, raw=r, is_error=obs == "error", exit_code=code, ended_at=ts)

    @staticmethod
    def _model_response(resp: Any, b: TranscriptBuilder, seen: dict[str, tuple[int, int, int, int] | None]) -> None:
        if not isinstance(resp, dict):
            return
        if b.model is None and isinstance(resp.get("model"), str):
            b.model = resp["model"]
        rid = resp.get("id")
        u = resp.get("usage")
        if not isinstance(rid, str) or rid in seen:
            return
        if not isinstance(u, dict):
            seen[rid] = None  # a response that reports no usage
            return
        prompt = as_int(u.get("prompt_tokens")) or 0
        details = u.get("prompt_tokens_details")
        read = as_int(u.get("cache_read_input_tokens"))
        if read is None and isinstance(details, dict):
            read = as_int(details.get("cached_tokens"))
        write = as_int(u.get("cache_creation_input_tokens")) or 0
        seen[rid] = (max(prompt - (read or 0) - write, 0), as_int(u.get("completion_tokens")) or 0, read or 0, write)

    @staticmethod
    def _usage(b: TranscriptBuilder, responses: dict[str, tuple[int, int, int, int] | None],
               metrics: dict[str, Any] | None) -> None:
        acc = metrics.get("accumulated_token_usage") if metrics else None
        cost = metrics.get("accumulated_cost") if metrics else None
        cost_usd = as_float(cost)
        if isinstance(acc, dict):
            # litellm's prompt_tokens include the cached tokens; ours exclude them
            prompt = as_int(acc.get("prompt_tokens"))
            read = as_int(acc.get("cache_read_tokens"))
            write = as_int(acc.get("cache_write_tokens"))
            b.usage = Usage(
                input_tokens=None if prompt is None else max(prompt - (read or 0) - (write or 0), 0),
                output_tokens=as_int(acc.get("completion_tokens")),
                cache_read_tokens=read,
                cache_write_tokens=write,
                cost_usd=cost_usd,
            )
            b.usage_mode = "accumulated (the last llm_metrics)"
        elif any(v is not None for v in responses.values()):
            reported = [v for v in responses.values() if v is not None]
            totals = [sum(v[i] for v in reported) for i in range(4)]
            b.usage = Usage(input_tokens=totals[0], output_tokens=totals[1], cache_read_tokens=totals[2],
                            cache_write_tokens=totals[3], cost_usd=cost_usd)
            b.usage_mode = "summed per model response (tool_call_metadata.model_response.usage, deduplicated by id)"
            if len(reported) < len(responses):
                b.usage_partial = True
                b.note(f"usage: {len(responses) - len(reported)} of {len(responses)} model responses report no "
                       "usage: the figures cover the others only")
