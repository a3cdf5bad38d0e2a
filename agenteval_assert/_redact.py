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
* Slack tokens (``xox[abprs]-…``) and Google API keys (``AIza…``),
* Hugging Face (``hf_…``), GitLab (``glpat-…``) and npm (``npm_…``) tokens,
* secrets assigned to a name that says what they are: a name ending in ``API_KEY``, ``TOKEN``,
  ``SECRET``, ``SECRET_KEY`` or ``PASSWORD`` (``OPENAI_API_KEY``, ``HF_TOKEN``,
  ``client_secret``, ``db_password``...) given a value of 8 characters or more with no space, as
  an environment variable (``NAME=value``, upper-case names), a quoted value (JSON
  ``"name": "value"``, ``name = "value"``) or an unquoted YAML value alone on its line
  (``password: value``). A value that starts with ``$`` (a reference to another variable) is
  left alone, and so is a name followed by anything but ``=`` or ``:`` (``max_tokens``,
  ``token_type``).

Each replacement is the marker alone, so redacting twice changes nothing more, and a text grows
by at most the length of its markers.

Opt-out, for local debugging only: set ``AGENTEVAL_NO_REDACT=1`` in the environment, or pass
``enabled=False``. Redaction is deterministic (the same text always gives the same output), so
content-addressed files such as judge cassettes stay stable.

The patterns are fixed and linear (no nested quantifiers), so the standard ``re`` module is used:
the time limits of ``regex`` are for user-supplied patterns.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["redact", "redact_count", "redact_json", "redaction_enabled"]

#: Environment variable that turns redaction off (``1``) for local debugging.
OPT_OUT_ENV = "AGENTEVAL_NO_REDACT"

#: The end of a name that holds a secret (``OPENAI_API_KEY``, ``access_token``, ``db_password``).
_NAME = r"(?:api[_\-]?key|token|secret(?:[_\-]?key)?|password|passwd)"
#: A secret value: 8 characters or more, no space, quote, bracket or brace (a marker is never
#: one), taken whole (the look-ahead makes it atomic) and not followed by ``(``: a function call
#: (``api_key=load_api_key_from_vault()``) is code, not a secret.
_VALUE = r"(?=(?P<v>[^\s\"'`\[\](){}<>,;]{8,}))(?P=v)(?!\()"

def _src(pattern: str, flags: int = 0) -> tuple[str, int]:
    """A pattern and its flags, compiled on first use (``_rules``): compiling the rules takes
    about 3 ms, which a process that never meets a secret-shaped text (``check`` of a run that
    passes) does not pay at start-up."""
    return pattern, flags


# (kind, pattern, group to replace: 0 = the whole match)
_RULE_SOURCES: tuple[tuple[str, tuple[str, int], int | str], ...] = (
    (
        "private-key",
        _src(
            r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY-----.*?(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY-----|\Z)",
            re.DOTALL,
        ),
        0,
    ),
    ("anthropic-api-key", _src(r"\bsk-ant-[A-Za-z0-9_\-]{8,}"), 0),
    ("api-key", _src(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9][A-Za-z0-9_\-]{19,}"), 0),
    ("github-token", _src(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})"), 0),
    ("aws-access-key-id", _src(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), 0),
    (
        "aws-secret-access-key",
        _src(r"(?i)\baws_secret_access_key[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+=]{40})"),
        1,
    ),
    ("slack-token", _src(r"\bxox[abeprs]-[A-Za-z0-9\-]{10,}"), 0),
    ("google-api-key", _src(r"\bAIza[0-9A-Za-z_\-]{35}"), 0),
    ("huggingface-token", _src(r"(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}"), 0),
    ("gitlab-token", _src(r"(?<![A-Za-z0-9])glpat-[A-Za-z0-9_\-]{20,}"), 0),
    ("npm-token", _src(r"(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36,}"), 0),
    ("bearer-token", _src(r"(?i)\bbearer\s+([A-Za-z0-9._~+/=\-]{16,})"), 1),
    (
        "api-key",
        _src(
            r"(?i)\b(?:x-api-key|api[_-]?key|api[_-]?token|access[_-]?token|auth[_-]?token)"
            r"[\"']?\s*[:=]\s*[\"']?(?=(?P<v>[A-Za-z0-9._~+/\-]{16,}))(?P=v)(?!\()"
        ),
        "v",
    ),
    # NAME=value of an environment (``env`` output, a shell line, a .env file): upper-case names
    (
        "secret",
        _src(
            r"(?<![A-Za-z0-9_])(?:[A-Z][A-Z0-9_]*_)?(?:API_?KEY|TOKEN|SECRET(?:_KEY)?|PASSWORD|PASSWD)"
            r"=[\"']?(?!\$)" + _VALUE
        ),
        "v",
    ),
    # "name": "value" (JSON), name = "value", name: 'value' (YAML, TOML, code): any case, quoted value
    (
        "secret",
        _src(
            r"(?i)(?<![A-Za-z0-9])[\"']?(?:[A-Za-z0-9]+[_.\-])*" + _NAME + r"[\"']?[ \t]*[:=][ \t]*(?P<q>[\"'])(?!\$)"
            + _VALUE + r"(?P=q)"
        ),
        "v",
    ),
    # name: value, an unquoted YAML value alone on its line
    (
        "secret",
        _src(
            r"(?im)^[ \t]*(?:-[ \t]+)?(?:[A-Za-z0-9]+[_.\-])*" + _NAME + r":[ \t]+(?![$&*!|>#])" + _VALUE + r"[ \t]*$"
        ),
        "v",
    ),
)

_MARK = "[REDACTED {}]"
#: Every rule needs one of these (whatever their case): a text without any holds no secret, and
#: is not searched by each rule (a JSON document of thousands of ids is redacted string by string).
_MAYBE_SOURCE = (
    r"(?i)sk-|gh[pousr]_|github_pat_|akia|asia|xox|aiza|hf_|glpat-|npm_|bearer|key|token|secret|passw|begin"
)


@functools.cache
def _rules() -> tuple[tuple[str, re.Pattern[str], int | str], ...]:
    """The rules, compiled (once, on first use)."""
    return tuple((kind, re.compile(pattern, flags), group) for kind, (pattern, flags), group in _RULE_SOURCES)


@functools.cache
def _maybe_pattern() -> re.Pattern[str]:
    """``_MAYBE``: every rule needs one of its words, whatever their case."""
    return re.compile(_MAYBE_SOURCE)


def __getattr__(name: str) -> Any:
    """``_RULES`` and ``_MAYBE``, the compiled rules and screen (compiled on first use)."""
    if name == "_RULES":
        return _rules()
    if name == "_MAYBE":
        return _maybe_pattern()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: ``_MAYBE``'s words, in lower case: in a text where ``re``'s case-insensitive matching and
#: ``str.lower`` agree on the ASCII letters, ``_MAYBE`` finds a word exactly where the lower-cased
#: text holds it (``_maybe``).
_MAYBE_WORDS = ("key", "token", "secret", "passw", "bearer", "begin", "sk-", "hf_", "npm_", "xox", "akia", "asia",
                "aiza", "glpat-", "github_pat_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_")
#: The characters beyond ASCII that ``re`` matches to an ASCII letter when it ignores case
#: (``İ`` and ``ı`` to ``i``, ``ſ`` to ``s``, the Kelvin sign to ``k``); ``str.lower`` turns no other
#: character beyond ASCII into anything ASCII (``tests/test_redact.py`` checks both against
#: every code point). A text that holds one is screened by ``_MAYBE`` itself.
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")


def _maybe(text: str) -> bool:
    """``_MAYBE.search(text) is not None``, by substring searches of the lower-cased text (the
    alternation of twenty words, ignoring case, costs ``re`` a try of each at every character:
    about 0.2 ms per kilobyte)."""
    if not text.isascii() and any(ch in text for ch in _FOLDS_TO_ASCII):
        return _maybe_pattern().search(text) is not None
    low = text.lower()
    # ``_MAYBE_WORDS``, unrolled (a generator over the words costs more than the searches of a
    # short text)
    return ("key" in low or "token" in low or "secret" in low or "passw" in low or "bearer" in low
            or "begin" in low or "sk-" in low or "hf_" in low or "npm_" in low or "xox" in low or "akia" in low
            or "asia" in low or "aiza" in low or "glpat-" in low or "github_pat_" in low or "ghp_" in low
            or "gho_" in low or "ghu_" in low or "ghs_" in low or "ghr_" in low)


def redaction_enabled() -> bool:
    """``False`` only when ``AGENTEVAL_NO_REDACT`` is set to something other than ``0``."""
    return os.environ.get(OPT_OUT_ENV, "") in ("", "0")


def redact_count(text: str, *, enabled: bool | None = None) -> tuple[str, int]:
    """*text* with every recognised secret replaced, and how many were replaced."""
    if enabled is None:
        enabled = redaction_enabled()
    if not enabled or not text or not _maybe(text):
        return text, 0
    if len(text) <= _MEMO_CHARS:
        return _apply_rules_memo(text)
    return _apply_rules(text)


#: The longest text whose redaction is kept for the next time it is shown (the final response,
#: a call's output: several checks show the same text, and the rules are sixteen searches). The
#: parts of a long text that ``results.cut_middle`` redacts are shorter (what it keeps of each end
#: and a margin of 8,192 characters).
_MEMO_CHARS = 16_384


@functools.lru_cache(maxsize=32)
def _apply_rules_memo(text: str) -> tuple[str, int]:
    """``_apply_rules(text)``, kept for the last 32 texts (a pure function of the text: the rules
    are fixed once compiled): at most 32 texts of at most ``_MEMO_CHARS`` characters, and their
    redacted copies, are kept (about 1 MB at most for ASCII texts)."""
    return _apply_rules(text)


def _apply_rules(text: str) -> tuple[str, int]:
    total = 0
    for kind, pattern, group in _rules():
        mark = _MARK.format(kind)

        def _sub(m: re.Match[str], mark: str = mark, group: int | str = group) -> str:
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
