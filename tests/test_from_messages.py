"""aa.from_messages: message lists held in memory, as dicts or as the SDKs' own objects."""

from __future__ import annotations

import json
from typing import Any

import pytest

import agenteval_assert as aa

from . import _proc
from .conftest import ROOT


def test_sdk_objects_of_openai_chat_are_read_without_dumping_them_first() -> None:
    from openai.types.chat import ChatCompletion

    completion = ChatCompletion.model_validate({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None,
            "tool_calls": [{"id": "call_1", "type": "function",
                            "function": {"name": "bash", "arguments": '{"command": "ls"}'}}]}}],
    })
    messages: list[Any] = [
        {"role": "user", "content": "list the files"},
        completion.choices[0].message,              # the SDK's ChatCompletionMessage, as users append it
        {"role": "tool", "tool_call_id": "call_1", "content": "a.py"},
        {"role": "assistant", "content": "One file: a.py."},
    ]
    t = aa.from_messages(messages, flavor="openai-chat")
    [call] = t.tool_calls
    assert (call.command, call.output, str(call.location), str(call.result.location)) == (  # type: ignore[union-attr]
        "ls", "a.py", "<messages>:2", "<messages>:3")
    assert t.path == "<messages>" and t.final_response == "One file: a.py."
    assert (t.health.lines, t.health.records) == (4, 4) and t.health.complete


def test_anthropic_blocks_inside_dicts_and_message_objects() -> None:
    from anthropic.types import Message

    response = Message.model_validate({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "pytest"}}],
        "stop_reason": "tool_use", "stop_sequence": None, "usage": {"input_tokens": 50, "output_tokens": 12},
    })
    final = response.model_copy(update={"id": "msg_2", "content": [], "stop_reason": "end_turn"})
    messages: list[Any] = [
        {"role": "user", "content": "run the tests"},
        {"role": "assistant", "content": response.content},          # a dict holding SDK blocks
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "1 failed",
                                      "is_error": True}]},
        final,                                                       # a whole Message object
        {"role": "assistant", "content": "The tests fail."},
    ]
    t = aa.from_messages(messages)  # detected: tool_use / tool_result blocks are Anthropic's
    assert t.format == "anthropic-messages"
    [call] = t.tool_calls
    assert (call.name, call.is_error, call.location.line) == ("bash", True, 2)
    assert t.usage.input_tokens == 50 and t.model == "claude-sonnet-4-5"


def test_responses_items_from_the_sdk() -> None:
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage

    items: list[Any] = [
        {"role": "user", "content": "what time is it?"},
        ResponseFunctionToolCall(type="function_call", call_id="call_t", name="clock", arguments="{}", id="fc_1"),
        {"type": "function_call_output", "call_id": "call_t", "output": "12:00"},
        ResponseOutputMessage(type="message", id="msg_1", role="assistant", status="completed",
                              content=[{"type": "output_text", "text": "Noon.", "annotations": []}]),  # type: ignore[list-item]
    ]
    t = aa.from_messages(items, flavor="openai-responses")
    assert [(c.name, c.output, c.location.line) for c in t.tool_calls] == [("clock", "12:00", 2)]
    assert t.final_response == "Noon."


def test_bad_input_is_named_by_its_index() -> None:
    with pytest.raises(aa.TranscriptParseError) as exc:
        aa.from_messages([{"role": "user", "content": "hi"}, object()], flavor="openai-chat")
    assert str(exc.value).startswith("<messages>:2: messages[1] is a object")
    with pytest.raises(aa.TranscriptParseError, match=r"<messages>:1: messages\[0\] is a JSON str"):
        aa.from_messages(["hi"], flavor="openai-chat")
    with pytest.raises(aa.UsageError, match="unknown flavor 'gemini'"):
        aa.from_messages([], flavor="gemini")
    with pytest.raises(aa.UsageError, match=r"pass body\['messages'\]"):
        aa.from_messages({"messages": []})
    with pytest.raises(aa.UnknownFormatError, match="neither an API message"):
        aa.from_messages([{"type": "thread.started"}])


def test_an_empty_list_with_a_flavor_is_an_empty_transcript() -> None:
    t = aa.from_messages([], flavor="anthropic-messages")
    assert (t.steps, t.health.records, t.final_response) == ((), 0, None)


def test_the_sdks_are_not_imported_by_the_library() -> None:
    code = ("import sys, agenteval_assert as aa; aa.from_messages([{'role': 'user', 'content': 'x'}]); "
            "aa.load('samples/openai-chat/chat-tool-calls.json'); "
            "print(json.dumps([m for m in ('openai', 'anthropic') if m in sys.modules]))")
    out = _proc.python("import json; " + code, cwd=ROOT)
    assert json.loads(out.stdout) == []
