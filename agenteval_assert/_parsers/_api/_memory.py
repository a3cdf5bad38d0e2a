"""Message lists held in memory (``from_messages``): SDK objects dumped to JSON data, then parsed.

Imports ``_detect`` and ``_parser`` (and, when called, ``_reader`` and ``exceptions``).
"""

from __future__ import annotations

from typing import Any

from ..._builder import TranscriptBuilder
from ..._reader import Record
from ...model import Transcript
from ._detect import API_FORMATS, classify
from ._parser import AnthropicMessagesParser, OpenAIChatParser, OpenAIResponsesParser, _ApiParser

#: The path of every location of a transcript made by ``from_messages``.
MESSAGES_PATH = "<messages>"


def _plain(obj: Any, where: str) -> Any:
    """*obj* as JSON data: SDK objects (anything with ``model_dump``) are dumped, deeply."""
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if isinstance(obj, dict):
        return {str(k): _plain(v, f"{where}.{k}") for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v, f"{where}[{i}]") for i, v in enumerate(obj)]
    dump = getattr(obj, "model_dump", None)
    if callable(dump):  # a pydantic model of the openai / anthropic SDKs (duck-typed: never imported)
        return _plain(dump(mode="json"), where)
    from collections.abc import Mapping

    if isinstance(obj, Mapping):
        return {str(k): _plain(v, f"{where}.{k}") for k, v in obj.items()}
    raise TypeError(f"{where} is a {type(obj).__name__}, not JSON data nor an SDK object")


def from_messages(messages: Any, *, flavor: str | None = None, path: str = MESSAGES_PATH) -> Transcript:
    """A ``Transcript`` of a message list held in memory (see ``agenteval_assert.from_messages``)."""
    from collections.abc import Iterable, Mapping

    from ..._reader import ReadStats
    from ...exceptions import TranscriptParseError, UnknownFormatError, UsageError

    if flavor is not None and flavor not in API_FORMATS:
        raise UsageError(f"unknown flavor {flavor!r}; choose one of: {', '.join(API_FORMATS)}")
    if isinstance(messages, (str, bytes, Mapping)) or not isinstance(messages, Iterable):
        raise UsageError(
            f"from_messages takes the list of messages (items), not a {type(messages).__name__}; "
            "for a request body pass body['messages'] (Responses: body['input'])"
        )
    records: list[Record] = []
    for i, m in enumerate(messages):
        try:
            data = _plain(m, f"messages[{i}]")
        except TypeError as exc:
            raise TranscriptParseError(str(exc), path=path, line=i + 1,
                                       expected="a message: a dict or an SDK (pydantic) object") from None
        if not isinstance(data, dict):
            raise TranscriptParseError(f"messages[{i}] is a JSON {type(data).__name__}, not a message",
                                       path=path, line=i + 1, expected="a message object")
        records.append((i + 1, data))
    parsers: dict[str, _ApiParser] = {
        p.name: p for p in (OpenAIChatParser(), AnthropicMessagesParser(), OpenAIResponsesParser())
    }
    if flavor is None:
        fmt, why, _ = classify(records)
        if fmt is None:
            raise UnknownFormatError(path=path, tried=[(f, why) for f in API_FORMATS])
        flavor = fmt
    parser = parsers[flavor]
    b = TranscriptBuilder(path, parser.name, parser.agent)
    parser.parse(iter(records), b)
    return b.build(ReadStats(path=path, shape="json-array", lines=len(records), records=len(records)))
