"""Write the hand-made transcripts of this folder (``python tests/handmade/make_handmade.py``).

Each file reproduces, in the smallest form, a real run described in the transcript-format notes
whose capture is not in the test corpus. The record shapes follow Claude Code's stream-json and
session-log formats as documented in ``docs/formats-claude.md``; the ids, texts and token figures
are invented. See README.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SID = "5f0c2a4e-1b7d-4c8e-9a3f-2d6b8e1c4a70"
MODEL = "claude-sonnet-4-20250514"


def _usage(inp: int, write: int, read: int, out: int) -> dict[str, Any]:
    return {"input_tokens": inp, "cache_creation_input_tokens": write, "cache_read_input_tokens": read,
            "output_tokens": out, "service_tier": "standard"}


def _asst(mid: str, block: dict[str, Any], usage: dict[str, Any], parent: str | None) -> dict[str, Any]:
    return {"type": "assistant",
            "message": {"id": mid, "type": "message", "role": "assistant", "model": MODEL, "content": [block],
                        "stop_reason": None, "stop_sequence": None, "usage": usage},
            "parent_tool_use_id": parent, "session_id": SID}


def _results(results: list[dict[str, Any]], parent: str | None) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": results}, "parent_tool_use_id": parent,
            "session_id": SID}


def _res(tid: str, content: Any, error: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"tool_use_id": tid, "type": "tool_result", "content": content}
    if error:
        out["is_error"] = True
    return out


def parallel_tasks() -> list[dict[str, Any]]:
    """Claude Code 1.0.x ``-p --output-format stream-json``: three parallel ``Task`` subagents.

    The main agent reads little (its result ``usage``: 32k cache reads) while the subagents read
    about 200k and write 50k; the cost of the result record counts them all. Eleven of the
    subagents' fifteen calls fail (missing files, a failing command).
    """
    recs: list[dict[str, Any]] = [{
        "type": "system", "subtype": "init", "cwd": "/home/dev/shop", "session_id": SID,
        "tools": ["Task", "Bash", "Glob", "Grep", "LS", "Read", "Edit", "MultiEdit", "Write", "WebFetch",
                  "TodoRead", "TodoWrite", "WebSearch"],
        "mcp_servers": [], "model": MODEL, "permissionMode": "bypassPermissions", "apiKeySource": "none"}]
    main_use = _usage(4, 9000, 12000, 6)
    recs.append(_asst("msg_main_1", {"type": "text", "text": "I'll look at the three services in parallel."},
                      main_use, None))
    tasks = [("toolu_task_api", "api"), ("toolu_task_web", "web"), ("toolu_task_db", "db")]
    for tid, svc in tasks:
        recs.append(_asst("msg_main_1", {"type": "tool_use", "id": tid, "name": "Task", "input": {
            "description": f"Review the {svc} service", "prompt": f"Find the config of the {svc} service."}},
            main_use, None))
    answers = {}
    for n, (tid, svc) in enumerate(tasks):
        calls = [
            ("Read", {"file_path": f"/home/dev/shop/{svc}/config.yaml"}, "File does not exist.", True),
            ("Read", {"file_path": f"/home/dev/shop/{svc}/config.yml"}, "File does not exist.", True),
            ("Bash", {"command": f"cat {svc}/settings.toml", "description": "Show settings"},
             f"cat: {svc}/settings.toml: No such file or directory", True),
            ("Glob", {"pattern": f"{svc}/**/*.env"}, "No files found", n == 2),
            ("Read", {"file_path": f"/home/dev/shop/{svc}/README.md"},
             f"     1\t# {svc}\n     2\tConfigured through environment variables.", n == 2),
        ]
        for k, (name, inp, out, err) in enumerate(calls):
            cid = f"toolu_{svc}_{k}"
            recs.append(_asst(f"msg_{svc}_{k}", {"type": "tool_use", "id": cid, "name": name, "input": inp},
                              _usage(3, 2500 + 300 * k, 10000 + 1000 * k, 60), tid))
            recs.append(_results([_res(cid, out, err)], tid))
        answer = f"The {svc} service has no config file: it is configured through environment variables."
        answers[tid] = answer
        recs.append(_asst(f"msg_{svc}_end", {"type": "text", "text": answer}, _usage(3, 1200, 7000, 90), tid))
    recs.append(_results([_res(tid, [{"type": "text", "text": answers[tid]}]) for tid, _ in tasks], None))
    final = "None of the three services has a config file: all read environment variables."
    recs.append(_asst("msg_main_2", {"type": "text", "text": final}, _usage(8, 1200, 20000, 140), None))
    recs.append({
        "type": "result", "subtype": "success", "cost_usd": 0.4121, "is_error": False, "duration_ms": 61250,
        "duration_api_ms": 98430, "num_turns": 6, "result": final, "session_id": SID, "total_cost": 0.4121,
        "usage": {"input_tokens": 12, "cache_creation_input_tokens": 10200, "cache_read_input_tokens": 32000,
                  "output_tokens": 146, "server_tool_use": {"web_search_requests": 0}}})
    return recs


SID2 = "0b9e4d2c-7a61-4f3e-8c15-6e2a9d4b7f08"


def api_error() -> list[dict[str, Any]]:
    """Claude Code 2.1.x: a run that ended in an API error before doing anything (a model name
    that does not exist). Claude Code writes the failure twice: a synthetic assistant line
    (``model: <synthetic>``, ``error``, ``is_api_error_message``) and the result record
    (``subtype: success`` with ``is_error: true``, ``terminal_reason: api_error``)."""
    text = ("API Error: 404 {\"type\":\"error\",\"error\":{\"type\":\"not_found_error\","
            "\"message\":\"model: claude-sonnet-9\"}}")
    return [
        {"type": "system", "subtype": "hook_started", "hook_id": "3f1c", "hook_name": "SessionStart:startup",
         "hook_event": "SessionStart", "uuid": "a1", "session_id": SID2},
        {"type": "system", "subtype": "hook_response", "hook_id": "3f1c", "hook_name": "SessionStart:startup",
         "hook_event": "SessionStart", "output": "", "stdout": "", "stderr": "", "exit_code": 0,
         "outcome": "success", "uuid": "a2", "session_id": SID2},
        {"type": "system", "subtype": "init", "cwd": "/home/dev/shop", "session_id": SID2,
         "tools": ["Task", "Bash", "Glob", "Grep", "Read", "Edit", "Write", "Skill"], "mcp_servers": [],
         "model": "claude-sonnet-9", "permissionMode": "default", "slash_commands": ["compact", "review"],
         "apiKeySource": "ANTHROPIC_API_KEY", "claude_code_version": "2.1.220", "output_style": "default",
         "agents": ["general-purpose"], "skills": [], "plugins": [], "uuid": "a3"},
        {"type": "assistant", "message": {
            "id": "5b2f0c1e-8d7a-4b6e-9f3c-1a2b3c4d5e6f", "model": "<synthetic>", "role": "assistant",
            "stop_reason": "stop_sequence", "stop_sequence": "", "type": "message",
            "usage": {"input_tokens": 0, "output_tokens": 0, "cache_creation_input_tokens": 0,
                      "cache_read_input_tokens": 0},
            "content": [{"type": "text", "text": text}]},
         "parent_tool_use_id": None, "session_id": SID2, "uuid": "a4", "error": "model_not_found",
         "is_api_error_message": True},
        {"is_error": True, "api_error_status": 404, "duration_ms": 412, "duration_api_ms": 0, "num_turns": 1,
         "result": text, "stop_reason": "stop_sequence", "session_id": SID2, "total_cost_usd": 0,
         "usage": {"input_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                   "output_tokens": 0},
         "modelUsage": {}, "permission_denials": [], "terminal_reason": "api_error", "uuid": "a5",
         "subtype": "success", "type": "result"},
    ]


SID3 = "7c4a1e9b-2f58-4d63-b0a7-95e1c3d8f246"


def agent_model_usage() -> list[dict[str, Any]]:
    """Claude Code 2.1.x: one ``Agent`` subagent whose records are in the stream
    (``parent_tool_use_id``, ``system/task_started``), and a result whose ``modelUsage`` (per
    model, every agent) counts a ``claude-haiku`` call that no message of the stream shows."""
    def a(mid: str, block: dict[str, Any], usage: dict[str, Any], parent: str | None) -> dict[str, Any]:
        r = _asst(mid, block, usage, parent)
        r["session_id"] = SID3
        r["uuid"] = f"u-{mid}-{block.get('type')}"
        return r

    def u(results: list[dict[str, Any]], parent: str | None, **extra: Any) -> dict[str, Any]:
        r = _results(results, parent)
        r["session_id"] = SID3
        r.update(extra)
        return r

    spawn = {"type": "tool_use", "id": "toolu_agent_1", "name": "Agent", "input": {
        "description": "Find the failing test", "prompt": "Run the tests and name the failing one.",
        "subagent_type": "general-purpose"}}
    return [
        {"type": "system", "subtype": "init", "cwd": "/home/dev/shop", "session_id": SID3,
         "tools": ["Task", "Bash", "Glob", "Grep", "Read", "Edit", "Write", "Skill"], "mcp_servers": [],
         "model": MODEL, "permissionMode": "acceptEdits", "apiKeySource": "ANTHROPIC_API_KEY",
         "claude_code_version": "2.1.220", "output_style": "default", "agents": ["general-purpose"],
         "skills": [], "plugins": [], "uuid": "b1"},
        a("msg_m1", spawn, _usage(5, 4000, 11000, 80), None),
        {"type": "system", "subtype": "task_started", "task_id": "a51c0de", "tool_use_id": "toolu_agent_1",
         "description": "Find the failing test", "subagent_type": "general-purpose",
         "task_type": "local_agent", "prompt": "Run the tests and name the failing one.", "uuid": "b2",
         "session_id": SID3},
        u([{"type": "text", "text": "Run the tests and name the failing one."}], "toolu_agent_1",
          subagent_type="general-purpose", task_description="Find the failing test"),
        a("msg_s1", {"type": "tool_use", "id": "toolu_s_1", "name": "Bash",
                     "input": {"command": "npm test", "description": "Run the tests"}},
          _usage(3, 6000, 9000, 40), "toolu_agent_1"),
        u([_res("toolu_s_1", "FAIL src/cart.test.ts\n  ● total > applies the discount", True)],
          "toolu_agent_1"),
        a("msg_s2", {"type": "text", "text": "The failing test is `total > applies the discount` in "
                                             "src/cart.test.ts."},
          _usage(3, 800, 15000, 35), "toolu_agent_1"),
        {"type": "system", "subtype": "task_notification", "task_id": "a51c0de", "tool_use_id": "toolu_agent_1",
         "status": "completed", "summary": "Found the failing test", "uuid": "b3", "session_id": SID3},
        u([_res("toolu_agent_1", [
            {"type": "text", "text": "The failing test is `total > applies the discount` in src/cart.test.ts."},
            {"type": "text", "text": "agentId: a51c0de (use SendMessage with to: 'a51c0de' to continue "
                                     "this agent)\n<usage>total_tokens: 23841\ntool_uses: 1\n"
                                     "duration_ms: 8123</usage>"}])],
          None, tool_use_result={"status": "completed", "agentId": "a51c0de", "agentType": "general-purpose",
                                 "content": [{"type": "text", "text": "The failing test is `total > applies "
                                              "the discount` in src/cart.test.ts."}],
                                 "totalDurationMs": 8123, "totalTokens": 23841, "totalToolUseCount": 1}),
        a("msg_m2", {"type": "text", "text": "The failing test is `total > applies the discount`."},
          _usage(6, 900, 15000, 25), None),
        {"is_error": False, "duration_ms": 15230, "duration_api_ms": 14010, "num_turns": 2,
         "result": "The failing test is `total > applies the discount`.", "stop_reason": "end_turn",
         "session_id": SID3, "total_cost_usd": 0.0712,
         "usage": {"input_tokens": 11, "cache_creation_input_tokens": 4900, "cache_read_input_tokens": 26000,
                   "output_tokens": 105},
         "modelUsage": {
             MODEL: {"inputTokens": 17, "outputTokens": 180, "cacheReadInputTokens": 50000,
                     "cacheCreationInputTokens": 11700, "webSearchRequests": 0, "costUSD": 0.0701,
                     "contextWindow": 200000, "maxOutputTokens": 32000},
             "claude-haiku-4-5-20251001": {"inputTokens": 420, "outputTokens": 12, "cacheReadInputTokens": 0,
                                           "cacheCreationInputTokens": 0, "webSearchRequests": 0,
                                           "costUSD": 0.0011, "contextWindow": 200000,
                                           "maxOutputTokens": 32000}},
         "permission_denials": [], "terminal_reason": "completed", "uuid": "b4", "subtype": "success",
         "type": "result"},
    ]


SID4 = "9e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b4"


def slash_skill() -> list[dict[str, Any]]:
    """A Claude Code 2.1.x session log where the user invokes a plugin skill as a slash command
    (``/shop-tools:release-notes``): Claude Code echoes the command, then injects the skill's
    body as an ``isMeta`` user line; the agent follows it without a ``Skill`` call."""
    env = {"isSidechain": False, "userType": "external", "cwd": "/home/dev/shop", "sessionId": SID4,
           "version": "2.1.38", "gitBranch": "main"}

    def line(uuid: str, parent: str | None, rec: dict[str, Any]) -> dict[str, Any]:
        return {"parentUuid": parent, **env, **rec, "uuid": uuid, "timestamp": f"2026-02-10T10:00:{uuid[-2:]}.000Z"}

    def asst(mid: str, content: list[dict[str, Any]]) -> dict[str, Any]:
        return {"type": "assistant", "requestId": f"req_{mid}", "message": {
            "model": MODEL, "id": mid, "type": "message", "role": "assistant", "content": content,
            "stop_reason": None, "stop_sequence": None, "usage": _usage(3, 2000, 14000, 50)}}

    return [
        line("u-01", None, {"type": "user", "message": {"role": "user", "content": (
            "<command-message>shop-tools:release-notes</command-message>\n"
            "<command-name>/shop-tools:release-notes</command-name>\n"
            "<command-args>v2.3.0</command-args>")}}),
        line("u-02", "u-01", {"type": "user", "isMeta": True, "message": {"role": "user", "content": [
            {"type": "text", "text": (
                "Base directory for this skill: /home/dev/.claude/plugins/shop-tools/skills/release-notes\n\n"
                "# Release notes\n\nList the merged pull requests since the last tag and group them "
                "by area.\n\nARGUMENTS: v2.3.0")}]}}),
        line("u-03", "u-02", asst("msg_k1", [{"type": "tool_use", "id": "toolu_k1", "name": "Bash", "input": {
            "command": "git log --oneline v2.2.0..HEAD", "description": "List commits since v2.2.0"}}])),
        line("u-04", "u-03", {"type": "user", "message": {"role": "user", "content": [
            {"tool_use_id": "toolu_k1", "type": "tool_result", "content": "a1b2c3d Fix cart totals (#41)",
             "is_error": False}]}, "toolUseResult": {"stdout": "a1b2c3d Fix cart totals (#41)", "stderr": "",
                                                     "interrupted": False, "isImage": False}}),
        line("u-05", "u-04", asst("msg_k2", [{"type": "text", "text": "## v2.3.0\n\n### Cart\n- Fix cart totals (#41)"}])),
    ]


def main() -> None:
    (HERE / "claude-stream-json-1.0.x-parallel-tasks.json").write_text(
        json.dumps(parallel_tasks(), indent=2, ensure_ascii=False) + "\n")
    for name, recs in (("claude-stream-json-2.1.x-api-error.jsonl", api_error()),
                       ("claude-stream-json-2.1.x-agent-model-usage.jsonl", agent_model_usage()),
                       ("claude-session-2.1.x-slash-skill.jsonl", slash_skill())):
        (HERE / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs))


if __name__ == "__main__":
    main()
