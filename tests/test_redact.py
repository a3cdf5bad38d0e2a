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
    # environment variables, as `env` prints them or a shell line sets them
    ("OPENAI_API_KEY=abcdefghijklmnop0123456789", "abcdefghijklmnop0123456789", "secret"),
    ("ANTHROPIC_AUTH_TOKEN=tok_live_abcdefghijklmnopqrstu", "tok_live_abcdefghijklmnopqrstu", "secret"),
    ("MISTRAL_API_KEY=Xy7Qm2Lp9Rt4Vb8Nc3Kd6Fh1", "Xy7Qm2Lp9Rt4Vb8Nc3Kd6Fh1", "secret"),
    ("export STRIPE_SECRET='rk_live_51H8abcDEFghiJKL'", "rk_live_51H8abcDEFghiJKL", "secret"),
    ("PGPASSWORD=x DB_PASSWORD=correct-horse-battery-staple psql", "correct-horse-battery-staple", "secret"),
    ("DJANGO_SECRET_KEY=django-insecure-7f3k2j1h0g", "django-insecure-7f3k2j1h0g", "secret"),
    ("HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "huggingface-token"),
    # JSON, YAML, code
    ('{"openai_api_key": "Xy7Qm2Lp9Rt4Vb8Nc3Kd6Fh1", "model": "gpt-4o"}', "Xy7Qm2Lp9Rt4Vb8Nc3Kd6Fh1", "secret"),
    ('{"client_secret":"0aB1cD2eF3gH4iJ5"}', "0aB1cD2eF3gH4iJ5", "secret"),
    ("db:\n  password: s3cr3t-Passw0rd\n  host: localhost", "s3cr3t-Passw0rd", "secret"),
    ("- refresh_token: 'AQAB-x9y8z7w6v5u4'", "AQAB-x9y8z7w6v5u4", "secret"),
    ('GITLAB_TOKEN = "glpat-abcdefghij0123456789"', "glpat-abcdefghij0123456789", "gitlab-token"),
    ("registry token npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm-token"),
    ("from huggingface_hub import login; login('hf_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgh')",
     "hf_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgh", "huggingface-token"),
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


#: Code, configuration and agent output that name tokens and passwords without holding one.
ORDINARY = """def check_token(token: str, password_hash: bytes) -> bool:
    api_key = load_api_key_from_vault()
    API_TOKEN = os.environ["API_TOKEN"]
    secret = settings.SECRET_KEY
    return hmac.compare_digest(hash_password(password), password_hash)

response = client.messages.create(model="claude-sonnet-4-6", max_tokens=4096)
print(response.usage.input_tokens, response.usage.output_tokens)
{"max_tokens": 1024, "token_type": "bearer", "input_tokens": 512, "tokens": ["a", "b"]}
env:
  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}
  NPM_TOKEN: $NPM_TOKEN
  password: !vault |
token: ${TOKEN}
MAX_TOKENS=4096 NEXT_PAGE_TOKEN=abc PASSWORD=x TOKEN=$(cat ~/.token)
export HF_TOKEN="$(cat /run/secrets/hf)"
password: str = Field(..., min_length=12)
The password must be at least 12 characters; the token expires after 3600 seconds.
$ pytest -q tests/test_auth.py::test_refresh_token_rotation
FAILED tests/test_auth.py::test_password_reset_email - AssertionError: token mismatch
hf_hub_download(repo_id="gpt2", filename="config.json")  # npm_config_cache=/tmp/npm
"""


def test_ordinary_code_and_configuration_are_left_alone() -> None:
    assert redact_count(ORDINARY, enabled=True) == (ORDINARY, 0)


def test_the_real_transcripts_hold_nothing_that_looks_like_a_secret() -> None:
    """Every transcript of the corpora is left unchanged: the false-positive rate on real agent
    output (code, shell sessions, JSON, diffs) is zero on these megabytes."""
    from .conftest import CORPUS, CORPUS_MORE

    checked = 0
    for root in (CORPUS, CORPUS_MORE):
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix not in (".eval", ".zip"):
                text = path.read_text(encoding="utf-8", errors="replace")
                out, n = redact_count(text, enabled=True)
                assert n == 0, (path, next(a for a, b in zip(out.splitlines(), text.splitlines(), strict=False) if a != b))
                checked += len(text)
    assert checked > 1_000_000


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


_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_VAL = st.text(alphabet=_ALNUM + "_-./+=", min_size=1, max_size=40)
_PIECES = st.one_of(
    st.text(max_size=30),
    st.sampled_from([" ", "\n", "=", ": ", '"', "'", "[", "]", "$", "(", "Bearer ", "export ", "- "]),
    st.builds("{}={}".format, st.sampled_from(["OPENAI_API_KEY", "HF_TOKEN", "DB_PASSWORD", "X_SECRET", "TOKEN",
                                               "aws_secret_access_key", "api_key"]), _VAL),
    st.builds('"{}": "{}"'.format, st.sampled_from(["api_key", "client_secret", "password", "x-api-key"]), _VAL),
    st.builds("\n{}: {}\n".format, st.sampled_from(["password", "access_token", "db.secret_key"]), _VAL),
    st.builds("{}{}".format, st.sampled_from(["hf_", "glpat-", "npm_", "xoxb-", "sk-ant-", "sk-", "ghp_", "AKIA",
                                              "-----BEGIN RSA PRIVATE KEY-----\n"]),
              st.text(alphabet=_ALNUM, min_size=8, max_size=45)),
)
_MAX_MARK = max(len(f"[REDACTED {kind}]") for kind, _, _ in __import__(
    "agenteval_assert._redact", fromlist=["_RULES"])._RULES)


@given(st.lists(_PIECES, max_size=10).map("".join))
def test_redaction_is_idempotent_and_grows_a_text_by_its_markers_at_most(text: str) -> None:
    out, n = redact_count(text, enabled=True)
    assert redact_count(out, enabled=True) == (out, 0)
    assert len(out) <= len(text) + n * _MAX_MARK
    assert n == 0 or "[REDACTED " in out


_KEY = "sk-ant-api03-" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJ"
_GH = "ghp_" + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij"


@pytest.mark.parametrize("secret", [_KEY, _GH])
@pytest.mark.parametrize("key", ["order_id", "command"])
def test_a_secret_in_an_argument_cut_for_display_is_redacted_whole(secret: str, key: str) -> None:
    """Arguments are cut for display: the secret is redacted before the cut, so no part of it
    (too short a part for the redaction to know) is shown, in the evidence or the summary,
    wherever the cut falls."""
    import json

    import agenteval_assert as aa
    from agenteval_assert.results import cut_middle

    values = [secret, secret + "@github.com", "https://user:" + secret]
    values += ["x" * before + "https://user:" + secret + "@github.com/acme/repo.git " + "y" * 40 for before in range(0, 160, 9)]
    for value in values:
        arguments = {key: value, "other": 1}
        messages = [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "tool", "arguments": json.dumps(arguments)}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "done"},
            {"role": "assistant", "content": "finished"},
        ]
        t = aa.from_messages(messages, flavor="openai-chat")
        result = aa.check_tool_not_called(t, "tool")
        shown = result.render(verbose=True) + "\n" + json.dumps(result.to_dict())
        for i in range(4, len(secret) - 7):
            assert secret[i : i + 8] not in shown, (value, shown)
    assert secret[-12:] not in cut_middle("a" * 100 + secret + "b" * 100, 60)


@pytest.mark.parametrize("size", [100, 20_000, 200_000])
def test_a_long_text_is_redacted_where_it_is_kept(size: int) -> None:
    """A long value (a Write of a big file) is redacted in what the cut keeps, with a margin, not
    whole: the secrets at either end are still replaced, whatever the text's length."""
    from agenteval_assert.results import cut_middle

    for text in (_KEY + " " + "x " * size, "x " * size + " " + _KEY, _GH + " " + "y" * size + " " + _GH):
        shown = cut_middle(text, 120)
        assert "[REDACTED" in shown and len(shown) <= 130
        for secret in (_KEY, _GH):
            assert all(secret[i : i + 8] not in shown for i in range(4, len(secret) - 7)), shown


# -- the screen (``_redact._maybe``): the words of ``_MAYBE`` found by substring searches ------------

_ALL_BEYOND_ASCII = "".join(chr(c) for c in range(128, 0x110000) if not 0xD800 <= c < 0xE000)


def test_the_characters_that_fold_to_ascii_are_every_one_re_knows() -> None:
    """``_FOLDS_TO_ASCII`` holds every character beyond ASCII that ``re``, ignoring case, matches
    to an ASCII letter, and ``str.lower`` turns no other one into anything ASCII: the two facts
    that make the screen's lower-cased substring searches find exactly what ``_MAYBE`` finds."""
    import re
    import string

    from agenteval_assert._redact import _FOLDS_TO_ASCII

    folding = set()
    for letter in string.ascii_lowercase:
        folding.update(re.compile("(?i)" + letter).findall(_ALL_BEYOND_ASCII))
    assert folding == set(_FOLDS_TO_ASCII)
    lowers_to_ascii = {ch for ch in _ALL_BEYOND_ASCII if any(ord(x) < 128 for x in ch.lower())}
    assert lowers_to_ascii <= set(_FOLDS_TO_ASCII)


def test_the_screen_words_are_the_patterns_words() -> None:
    import inspect

    from agenteval_assert._redact import _MAYBE, _MAYBE_WORDS, _maybe

    # the unrolled searches of ``_maybe`` are the words, each once
    source = inspect.getsource(_maybe)
    assert sorted(w for w in _MAYBE_WORDS if f'"{w}" in low' in source) == sorted(_MAYBE_WORDS)
    assert source.count(" in low") == len(_MAYBE_WORDS)

    for word in _MAYBE_WORDS:
        assert _MAYBE.fullmatch(word) and _MAYBE.fullmatch(word.upper())
    # every branch of the alternation is one of the words (the ``gh[pousr]_`` class spelt out)
    branches = _MAYBE.pattern.removeprefix("(?i)").split("|")
    spelt = {b.replace("gh[pousr]_", "") for b in branches} - {""}
    assert spelt | {f"gh{c}_" for c in "pousr"} == set(_MAYBE_WORDS)


_SCREEN_TEXT = st.text(
    alphabet="keytonsecrpawdbigh_-npmxzflAKIASBEGINTOKENSECRETPASWDH\u0130\u0131\u017f\u212a\u00e9\u4e2d\U0001f600 ",
    max_size=40,
)


@given(st.one_of(_SCREEN_TEXT, st.text(max_size=40)))
def test_the_screen_is_the_pattern(text: str) -> None:
    """``_maybe`` says yes exactly where ``_MAYBE`` finds a word."""
    from agenteval_assert._redact import _MAYBE, _maybe

    assert _maybe(text) == (_MAYBE.search(text) is not None)


@pytest.mark.parametrize("text", ["to\u212aen", "\u017fk-x", "beg\u0131n", "BEG\u0130N", "a ke\u00ff", "x" * 5000 + "Key",
                                  "\u4e2d" * 10 + "BEARER", "\u4e2d" * 10 + "bearr", ""])
def test_the_screen_on_folding_characters(text: str) -> None:
    from agenteval_assert._redact import _MAYBE, _maybe

    assert _maybe(text) == (_MAYBE.search(text) is not None)


@given(st.lists(st.sampled_from([
    "export OPENAI_API_KEY=abcdefgh12345678", "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345",
    "password: hunter2hunter2", "key: nothing here", "token", "plain text",
    "-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----",
]) | st.text(alphabet="keytoAPI_=: sbearBEGIN-0123456789abcdef", max_size=50), max_size=8))
def test_a_text_redacted_again_gets_what_the_rules_give_it(texts: list[str]) -> None:
    """Redactions are kept for the last texts shown (``_apply_rules_memo``): a text shown
    again, or shown after others, gets exactly what the rules give it."""
    from agenteval_assert._redact import _apply_rules, _maybe

    for text in texts + texts[::-1] + ["".join(texts)]:
        want = _apply_rules(text) if text and _maybe(text) else (text, 0)
        assert redact_count(text, enabled=True) == want
        assert redact_count(str(text), enabled=True) == want  # again: from the memo


def test_a_long_text_is_redacted_without_being_kept() -> None:
    from agenteval_assert import _redact

    _redact._apply_rules_memo.cache_clear()
    text = "x" * _redact._MEMO_CHARS + " export OPENAI_API_KEY=abcdefgh12345678"
    assert redact_count(text, enabled=True) == _redact._apply_rules(text)
    assert _redact._apply_rules_memo.cache_info().currsize == 0
    short = "export OPENAI_API_KEY=abcdefgh12345678"
    assert redact_count(short, enabled=True) == redact_count(short, enabled=True) == _redact._apply_rules(short)
    assert _redact._apply_rules_memo.cache_info().hits == 1
