"""Generate the API message-list samples: ``samples/{openai-chat,anthropic-messages,openai-responses}/``.

    python samples/make_api_samples.py            # needs the openai and anthropic SDKs ('.[dev]')

No real, public file of these shapes was found, so they are **generated**: every message, item,
request and response is built with the official SDKs' own types and dumped by the SDK
(``model_dump(mode="json")`` for the pydantic models of responses and items; the request-side
``TypedDict`` params are validated with pydantic against the SDK's type, every nested iterable
read, so a shape the SDK does not accept fails here). The conversations are the same small
coding task in each API: list the files, read one, run the tests (which fail), fix, rerun.

The tests import this module and check that the committed files are exactly what it writes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

SYSTEM = "You are a coding agent. Use the tools to inspect and change the repository."
TASK = "The tests in tests/test_slug.py fail. Fix slugify() in slug.py."
FINAL = "Fixed: slugify() now lower-cases its input. The 3 tests in tests/test_slug.py pass."
SLUG_PY = "def slugify(s):\n    return s.replace(' ', '-')\n"
FAILED = "F..\nFAILED tests/test_slug.py::test_lower - AssertionError: 'A-b' != 'a-b'\n1 failed, 2 passed"
PASSED = "...\n3 passed"


def _materialize(v: Any) -> Any:
    """Read every lazily validated iterable (pydantic validates ``Iterable`` fields on iteration)."""
    if isinstance(v, dict):
        return {k: _materialize(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)) or type(v).__name__ == "ValidatorIterator":
        return [_materialize(x) for x in v]
    return v


def _json_data(v: Any) -> Any:
    """Validated values as JSON data: the SDK models pydantic made along the way are dumped by the SDK."""
    if isinstance(v, dict):
        return {k: _json_data(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_json_data(x) for x in v]
    if hasattr(v, "model_dump"):
        return v.model_dump(mode="json")
    return v


def param(typ: Any, data: dict[str, Any]) -> dict[str, Any]:
    """*data* validated as the SDK ``TypedDict`` *typ* (raises when the SDK would not accept it)."""
    from pydantic import TypeAdapter

    ta = TypeAdapter(typ)  # kept alive while the lazy iterables it made are read
    out: dict[str, Any] = _json_data(_materialize(ta.validate_python(data)))
    del ta
    return out


def model(cls: Any, data: dict[str, Any]) -> dict[str, Any]:
    """*data* built as the SDK pydantic model *cls*, dumped by the SDK."""
    out: dict[str, Any] = cls.model_validate(data).model_dump(mode="json")
    return out


# -- OpenAI Chat Completions --------------------------------------------------------------------------


def chat_messages() -> list[dict[str, Any]]:
    """A Chat Completions conversation: parallel tool calls answered out of order, a failing run."""
    from openai.types.chat import ChatCompletionMessage, ChatCompletionMessageParam

    def call(cid: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
        return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}

    def tool(cid: str, content: str) -> dict[str, Any]:
        return param(ChatCompletionMessageParam, {"role": "tool", "tool_call_id": cid, "content": content})

    return [
        param(ChatCompletionMessageParam, {"role": "system", "content": SYSTEM}),
        param(ChatCompletionMessageParam, {"role": "user", "content": TASK}),
        model(ChatCompletionMessage, {"role": "assistant", "content": "Let me look at the code and the tests.",
                                      "tool_calls": [call("call_ls01", "bash", {"command": "ls"}),
                                                     call("call_rd02", "read_file", {"path": "slug.py"})]}),
        tool("call_rd02", SLUG_PY),
        tool("call_ls01", "slug.py\ntests"),
        model(ChatCompletionMessage, {"role": "assistant", "content": None,
                                      "tool_calls": [call("call_ts03", "bash", {"command": "pytest -q"})]}),
        tool("call_ts03", FAILED),
        model(ChatCompletionMessage, {"role": "assistant", "content": None, "tool_calls": [
            call("call_ed04", "edit_file", {"path": "slug.py", "old": "s.replace", "new": "s.lower().replace"})]}),
        tool("call_ed04", "edited slug.py"),
        model(ChatCompletionMessage, {"role": "assistant", "content": None,
                                      "tool_calls": [call("call_ts05", "bash", {"command": "pytest -q"})]}),
        tool("call_ts05", PASSED),
        model(ChatCompletionMessage, {"role": "assistant", "content": FINAL}),
    ]


def chat_tools() -> list[dict[str, Any]]:
    from openai.types.chat import ChatCompletionFunctionToolParam

    def fn(name: str, props: dict[str, Any]) -> dict[str, Any]:
        return param(ChatCompletionFunctionToolParam, {"type": "function", "function": {
            "name": name, "parameters": {"type": "object", "properties": props, "required": sorted(props)}}})

    s = {"type": "string"}
    return [fn("bash", {"command": s}), fn("read_file", {"path": s}), fn("edit_file", {"path": s, "old": s, "new": s})]


def chat_completion(message: dict[str, Any], finish: str, usage: dict[str, Any], n: int) -> dict[str, Any]:
    from openai.types.chat import ChatCompletion

    return model(ChatCompletion, {
        "id": f"chatcmpl-sample{n}", "object": "chat.completion", "created": 1767225600 + n,
        "model": "gpt-4.1-2025-04-14",
        "choices": [{"index": 0, "finish_reason": finish, "logprobs": None, "message": message}],
        "usage": usage,
    })


def chat_request(messages: list[dict[str, Any]]) -> dict[str, Any]:
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

    return param(CompletionCreateParamsNonStreaming, {"model": "gpt-4.1", "messages": messages, "tools": chat_tools()})


def chat_dump() -> dict[str, Any]:
    """The last request of the run (the whole history) and its response, with usage."""
    msgs = chat_messages()
    usage = {"prompt_tokens": 1250, "completion_tokens": 31, "total_tokens": 1281,
             "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
             "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                                           "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}}
    return {"request": chat_request(msgs[:-1]), "response": chat_completion(msgs[-1], "stop", usage, 6)}


def chat_exchanges() -> list[dict[str, Any]]:
    """A proxy log: one ``{"request", "response"}`` per API call, each request repeating the history."""
    msgs = chat_messages()
    out = []
    # the assistant turns are at 2, 5, 7, 9, 11; each request holds everything before its answer
    for n, i in enumerate((2, 5, 7, 9, 11), 1):
        usage = {"prompt_tokens": 200 * n, "completion_tokens": 20, "total_tokens": 200 * n + 20}
        finish = "stop" if i == 11 else "tool_calls"
        out.append({"request": chat_request(msgs[:i]), "response": chat_completion(msgs[i], finish, usage, n)})
    return out


# -- Anthropic Messages ----------------------------------------------------------------------------


def anthropic_messages() -> list[dict[str, Any]]:
    """A Messages conversation: tool_use blocks, a tool_result with ``is_error``, thinking."""
    from anthropic.types import ContentBlock, MessageParam

    def blocks(*bs: dict[str, Any]) -> list[dict[str, Any]]:
        from pydantic import TypeAdapter

        ta: Any = TypeAdapter(ContentBlock)
        return [ta.dump_python(ta.validate_python(b), mode="json") for b in bs]

    def use(tid: str, name: str, inp: dict[str, Any]) -> dict[str, Any]:
        return {"type": "tool_use", "id": tid, "name": name, "input": inp}

    def result(tid: str, content: str, error: bool = False) -> dict[str, Any]:
        r: dict[str, Any] = {"type": "tool_result", "tool_use_id": tid, "content": content}
        if error:
            r["is_error"] = True
        return r

    def user(*content: dict[str, Any]) -> dict[str, Any]:
        return param(MessageParam, {"role": "user", "content": list(content)})

    def assistant(*content: dict[str, Any]) -> dict[str, Any]:
        return param(MessageParam, {"role": "assistant", "content": blocks(*content)})

    return [
        param(MessageParam, {"role": "user", "content": TASK}),
        assistant({"type": "thinking", "thinking": "I should read slug.py and run the tests first.",
                   "signature": "c2lnbmF0dXJl"},
                  {"type": "text", "text": "Let me look at the code and the tests."},
                  use("toolu_01ls", "bash", {"command": "ls"}),
                  use("toolu_02rd", "str_replace_based_edit_tool", {"command": "view", "path": "slug.py"})),
        user(result("toolu_02rd", SLUG_PY), result("toolu_01ls", "slug.py\ntests")),
        assistant(use("toolu_03ts", "bash", {"command": "pytest -q"})),
        user(result("toolu_03ts", FAILED, error=True)),
        assistant(use("toolu_04ed", "str_replace_based_edit_tool",
                      {"command": "str_replace", "path": "slug.py", "old_str": "s.replace", "new_str": "s.lower().replace"})),
        user(result("toolu_04ed", "The file slug.py has been edited.")),
        assistant(use("toolu_05ts", "bash", {"command": "pytest -q"})),
        user(result("toolu_05ts", PASSED)),
        assistant({"type": "text", "text": FINAL}),
    ]


def anthropic_response(content: list[dict[str, Any]], stop: str, usage: dict[str, Any]) -> dict[str, Any]:
    from anthropic.types import Message

    return model(Message, {"id": "msg_01Sample", "type": "message", "role": "assistant",
                           "model": "claude-sonnet-4-5-20250929", "content": content, "stop_reason": stop,
                           "stop_sequence": None, "usage": usage})


def anthropic_dump() -> dict[str, Any]:
    """A request body (system, tools, history) with ``"response"``: a web search (server tool), then the answer."""
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

    msgs = anthropic_messages()
    body = param(MessageCreateParamsNonStreaming, {
        "model": "claude-sonnet-4-5", "max_tokens": 4096, "system": SYSTEM,
        "tools": [{"type": "bash_20250124", "name": "bash"},
                  {"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"},
                  {"type": "web_search_20250305", "name": "web_search", "max_uses": 1}],
        "messages": msgs[:-1],
    })
    content = [
        {"type": "server_tool_use", "id": "srvtoolu_06ws", "name": "web_search",
         "input": {"query": "python slugify lower case convention"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_06ws", "content": [
            {"type": "web_search_result", "title": "Slugify in Python", "url": "https://example.org/slugify",
             "encrypted_content": "ZW5jcnlwdGVk", "page_age": None}]},
        {"type": "text", "text": FINAL},
    ]
    usage = {"input_tokens": 212, "output_tokens": 96, "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": 1830, "server_tool_use": {"web_search_requests": 1, "web_fetch_requests": 0}}
    return {**body, "response": anthropic_response(content, "end_turn", usage)}


# -- OpenAI Responses ------------------------------------------------------------------------------


def responses_items() -> list[dict[str, Any]]:
    """Responses input + output items: reasoning, function calls answered by call_id, a shell call."""
    from openai.types.responses import (
        EasyInputMessage,
        ResponseFunctionShellToolCall,
        ResponseFunctionShellToolCallOutput,
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseReasoningItem,
    )
    from openai.types.responses.response_input_item import FunctionCallOutput

    def fc(n: int, name: str, args: dict[str, Any]) -> dict[str, Any]:
        return model(ResponseFunctionToolCall, {"type": "function_call", "id": f"fc_{n:02d}", "call_id": f"call_{n:02d}",
                                                "name": name, "arguments": json.dumps(args), "status": "completed"})

    def out(n: int, output: str) -> dict[str, Any]:
        return model(FunctionCallOutput, {"type": "function_call_output", "call_id": f"call_{n:02d}", "output": output})

    def shell(n: int, commands: list[str]) -> dict[str, Any]:
        return model(ResponseFunctionShellToolCall, {
            "type": "shell_call", "id": f"sh_{n:02d}", "call_id": f"call_{n:02d}", "status": "completed",
            "action": {"commands": commands, "timeout_ms": 60000, "max_output_length": 4096}})

    def shell_out(n: int, stdout: str, code: int) -> dict[str, Any]:
        return model(ResponseFunctionShellToolCallOutput, {
            "type": "shell_call_output", "id": f"sho_{n:02d}", "call_id": f"call_{n:02d}", "status": "completed",
            "output": [{"stdout": stdout, "stderr": "", "outcome": {"type": "exit", "exit_code": code}}]})

    return [
        model(EasyInputMessage, {"type": "message", "role": "user", "content": TASK}),
        model(ResponseReasoningItem, {"type": "reasoning", "id": "rs_01", "summary": [
            {"type": "summary_text", "text": "Read slug.py, then run the tests."}]}),
        fc(1, "read_file", {"path": "slug.py"}),
        out(1, SLUG_PY),
        shell(2, ["pytest -q"]),
        shell_out(2, FAILED, 1),
        fc(3, "apply_patch", {"path": "slug.py", "diff": "-    return s.replace(' ', '-')\n+    return s.lower().replace(' ', '-')\n"}),
        out(3, "patched slug.py"),
        shell(4, ["pytest -q"]),
        shell_out(4, PASSED, 0),
        model(ResponseOutputMessage, {"type": "message", "id": "msg_05", "role": "assistant", "status": "completed",
                                      "content": [{"type": "output_text", "text": FINAL, "annotations": []}]}),
    ]


def _for_request(item: dict[str, Any]) -> dict[str, Any]:
    """An item as a request sends it back: the SDK's dump without its null fields (the API rejects them)."""
    return {k: v for k, v in item.items() if v is not None}


def responses_dump() -> dict[str, Any]:
    """``{"request", "response"}``: the request body (instructions, tools, input) and the Response."""
    from openai.types.responses import Response
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    items = responses_items()
    s = {"type": "string"}
    request = param(ResponseCreateParamsNonStreaming, {
        "model": "gpt-5", "instructions": SYSTEM, "input": [_for_request(i) for i in items[:-3]],
        "tools": [{"type": "function", "name": n, "strict": False,
                   "parameters": {"type": "object", "properties": p, "required": sorted(p)}}
                  for n, p in (("read_file", {"path": s}), ("apply_patch", {"path": s, "diff": s}))]
                 + [{"type": "shell"}],
    })
    response = model(Response, {
        "id": "resp_sample01", "object": "response", "created_at": 1767225600, "model": "gpt-5-2025-08-07",
        "status": "completed", "output": items[-3:], "parallel_tool_calls": True, "tool_choice": "auto",
        "tools": [], "usage": {"input_tokens": 2048, "output_tokens": 120, "total_tokens": 2168,
                               "input_tokens_details": {"cached_tokens": 1536, "cache_write_tokens": 0},
                               "output_tokens_details": {"reasoning_tokens": 64}},
    })
    return {"request": request, "response": response}


# -- files -----------------------------------------------------------------------------------------


def _json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _jsonl(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


#: ``relative path -> function making its text``.
FILES: dict[str, Callable[[], str]] = {
    "openai-chat/chat-tool-calls.json": lambda: _json(chat_messages()),
    "openai-chat/chat-tool-calls.jsonl": lambda: _jsonl(chat_messages()),
    "openai-chat/chat-request-response.json": lambda: _json(chat_dump()),
    "openai-chat/chat-proxy-log.jsonl": lambda: _jsonl(chat_exchanges()),
    "anthropic-messages/messages-tool-use.json": lambda: _json(anthropic_messages()),
    "anthropic-messages/messages-request-response.json": lambda: _json(anthropic_dump()),
    "openai-responses/responses-items.jsonl": lambda: _jsonl(responses_items()),
    "openai-responses/responses-request-response.json": lambda: _json(responses_dump()),
}


def main() -> None:
    for rel, make in FILES.items():
        path = HERE / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(make(), encoding="utf-8")
        print(f"wrote samples/{rel}")


if __name__ == "__main__":
    main()
