"""Secret redaction: one function for every rendering that can show transcript text.

Transcripts hold whatever the agent saw, and agents see secrets: an ``ANTHROPIC_API_KEY`` echoed
by ``env``, a bearer token in a ``curl`` command, a private key ``cat``-ed by mistake. Anything we
print, write or send (check reports, JSON output, judge prompts, judge cassettes) goes through
``redact`` first, which replaces the well-known secret shapes with a marker naming the kind::

    >>> redact("curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345' https://x")
    "curl -H 'Authorization: Bearer [REDACTED bearer-token]' https://x"

What is recognised (shapes, not guesses: ordinary words and hashes are left alone):

* Anthropic and OpenAI-style API keys (``sk-ant-…``, ``sk-proj-…``, ``sk-…``),
* bearer tokens (``Bearer <token>``) and ``x-api-key`` / ``api_key=`` assignments,
* PEM private-key blocks (``-----BEGIN … PRIVATE KEY-----`` to its ``END`` line, or to the end of
  the text when the block was cut),
* AWS access key ids (``AKIA…``, ``ASIA…``) and ``aws_secret_access_key`` assignments,
* GitHub tokens (``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_``, ``github_pat_``),
* Slack tokens (``xox[abprs]-…``) and Google API keys (``AIza…``).

Opt-out, for local debugging only: set ``AGENTEVAL_NO_REDACT=1`` in the environment, or pass
``enabled=False``. Redaction is deterministic (the same text always gives the same output), so
content-addressed files such as judge cassettes stay stable.

The patterns are fixed and linear (no nested quantifiers), so the standard ``re`` module is used:
the time limits of ``regex`` are for user-supplied patterns.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["redact", "redact_count", "redact_json", "redaction_enabled"]

#: Environment variable that turns redaction off (``1``) for local debugging.
OPT_OUT_ENV = "AGENTEVAL_NO_REDACT"

# (kind, pattern, group to replace: 0 = the whole match)
_RULES: tuple[tuple[str, re.Pattern[str], int], ...] = (
    (
        "private-key",
        re.compile(
            r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY-----.*?(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY-----|\Z)",
            re.DOTALL,
        ),
        0,
    ),
    ("anthropic-api-key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{8,}"), 0),
    ("api-key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9][A-Za-z0-9_\-]{19,}"), 0),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})"), 0),
    ("aws-access-key-id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), 0),
    (
        "aws-secret-access-key",
        re.compile(r"(?i)\baws_secret_access_key[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+=]{40})"),
        1,
    ),
    ("slack-token", re.compile(r"\bxox[abprs]-[A-Za-z0-9\-]{10,}"), 0),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}"), 0),
    ("bearer-token", re.compile(r"(?i)\bbearer\s+([A-Za-z0-9._~+/=\-]{16,})"), 1),
    (
        "api-key",
        re.compile(
            r"(?i)\b(?:x-api-key|api[_-]?key|api[_-]?token|access[_-]?token|auth[_-]?token)"
            r"[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9._~+/\-]{16,})"
        ),
        1,
    ),
)

_MARK = "[REDACTED {}]"


def redaction_enabled() -> bool:
    """``False`` only when ``AGENTEVAL_NO_REDACT`` is set to something other than ``0``."""
    return os.environ.get(OPT_OUT_ENV, "") in ("", "0")


def redact_count(text: str, *, enabled: bool | None = None) -> tuple[str, int]:
    """*text* with every recognised secret replaced, and how many were replaced."""
    if enabled is None:
        enabled = redaction_enabled()
    if not enabled or not text:
        return text, 0
    total = 0
    for kind, pattern, group in _RULES:
        mark = _MARK.format(kind)

        def _sub(m: re.Match[str], mark: str = mark, group: int = group) -> str:
            if group == 0:
                return mark
            start, end = m.span(group)
            base = m.start()
            whole = m.group(0)
            return whole[: start - base] + mark + whole[end - base :]

        text, n = pattern.subn(_sub, text)
        total += n
    return text, total


def redact(text: str, *, enabled: bool | None = None) -> str:
    """*text* with API keys, bearer tokens, private keys... replaced by ``[REDACTED <kind>]``.

    *enabled* ``None`` (the default) follows the environment (``AGENTEVAL_NO_REDACT=1`` turns it
    off); ``False`` returns *text* unchanged.
    """
    return redact_count(text, enabled=enabled)[0]


def redact_json(value: Any, *, enabled: bool | None = None) -> Any:
    """A copy of a JSON-like value (dicts, lists, strings...) with every string redacted.

    Keys are kept as they are; numbers, booleans and ``None`` are returned unchanged.
    """
    if enabled is None:
        enabled = redaction_enabled()
    if not enabled:
        return value
    if isinstance(value, str):
        return redact(value, enabled=True)
    if isinstance(value, Mapping):
        return {k: redact_json(v, enabled=True) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_json(v, enabled=True) for v in value]
    return value
