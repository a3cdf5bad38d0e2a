"""Secret redaction (``agenteval_assert._redact``): the shapes it knows, its opt-out, no false alarms."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agenteval_assert._redact import redact, redact_count, redact_json, redaction_enabled

ANTHROPIC = "sk-ant-api03-" + "aB3_x-9" * 12
OPENAI = "sk-proj-" + "Zq8" * 16
GITHUB = "ghp_" + "A1b2C3d4E5" * 4
AWS_ID = "AKIA" + "ABCDEFGHIJKLMNOP"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc+/=\n-----END RSA PRIVATE KEY-----"


@pytest.mark.parametrize(("text", "secret", "kind"), [
    (f"export ANTHROPIC_API_KEY={ANTHROPIC}", ANTHROPIC, "anthropic-api-key"),
    (f"OPENAI_API_KEY={OPENAI} python run.py", OPENAI, "api-key"),
    ("curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig' x", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig",
     "bearer-token"),
    (f"git clone https://{GITHUB}@github.com/o/r", GITHUB, "github-token"),
    ("token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_pat_11ABCDEFG0123456789_abcdef",
     "github-token"),
    (f"aws_access_key_id = {AWS_ID}", AWS_ID, "aws-access-key-id"),
    (f"aws_secret_access_key = {AWS_SECRET}", AWS_SECRET, "aws-secret-access-key"),
    (f"cat id_rsa\n{PEM}\ndone", "MIIEowIBAAKCAQEA7", "private-key"),
    ('{"x-api-key": "0123456789abcdef0123"}', "0123456789abcdef0123", "api-key"),
    ("slack xoxb-123456789012-abcdefghijkl", "xoxb-123456789012-abcdefghijkl", "slack-token"),
])
def test_known_secret_shapes_are_redacted(text: str, secret: str, kind: str) -> None:
    out = redact(text, enabled=True)
    assert secret not in out
    assert f"[REDACTED {kind}]" in out


def test_the_context_around_a_secret_is_kept() -> None:
    out = redact("curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345' https://x", enabled=True)
    assert out == "curl -H 'Authorization: Bearer [REDACTED bearer-token]' https://x"
    assert redact(f"key={ANTHROPIC}; next", enabled=True) == "key=[REDACTED anthropic-api-key]; next"


def test_a_cut_private_key_block_is_redacted_to_the_end() -> None:
    out = redact("before\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA", enabled=True)
    assert out == "before\n[REDACTED private-key]"


@pytest.mark.parametrize("text", [
    "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "task-list and risk-assessment-for-the-project-2024",
    "uuid 7f3c0a52-801e-4b6d-9c1a-5e0f1d2c3b4a, toolu_01000002, msg_0001",
    "The bearer of bad news",
    "sk-learn is a nickname",
    "api_key: short",
])
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact_count(text, enabled=True) == (text, 0)


def test_count_and_opt_out(monkeypatch: pytest.MonkeyPatch) -> None:
    text = f"{ANTHROPIC} and {GITHUB}"
    assert redact_count(text, enabled=True)[1] == 2
    assert redact(text, enabled=False) == text
    monkeypatch.setenv("AGENTEVAL_NO_REDACT", "1")
    assert not redaction_enabled() and redact(text) == text
    monkeypatch.setenv("AGENTEVAL_NO_REDACT", "0")
    assert redaction_enabled() and ANTHROPIC not in redact(text)


def test_redact_json_redacts_every_string_and_keeps_the_shape() -> None:
    doc = {"a": [ANTHROPIC, 1, None, {"b": f"Bearer {'x' * 20}"}], "n": 2.5, "ok": True}
    out = redact_json(doc, enabled=True)
    assert out == {"a": ["[REDACTED anthropic-api-key]", 1, None, {"b": "Bearer [REDACTED bearer-token]"}],
                   "n": 2.5, "ok": True}
    assert redact_json(doc, enabled=False) is doc


_TOKEN = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", min_size=20, max_size=60)


@given(prefix=st.text(max_size=40), token=_TOKEN, suffix=st.text(max_size=40))
def test_an_anthropic_key_never_survives_and_redaction_is_idempotent(prefix: str, token: str, suffix: str) -> None:
    key = "sk-ant-" + token
    out = redact(f"{prefix} {key} {suffix}", enabled=True)
    assert key not in out
    assert redact(out, enabled=True) == out
