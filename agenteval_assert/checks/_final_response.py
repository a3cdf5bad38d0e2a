"""Final response and links: what the agent's last message says and which links it gives."""

from __future__ import annotations

from collections.abc import Callable

import regex

from ..exceptions import UsageError
from ..matchers import Contains, Matcher, Matches
from ..model import Transcript
from ..results import CheckResult, cut_middle, short_repr
from ._common import (
    _echo,
    _fail,
    _final,
    _find,
    _guarded,
    _incomplete,
    _negative,
    _no_final,
    _pass,
    _seq_text,
    _snippet,
    _text_matcher,
)

__all__ = [
    "check_final_response_contains",
    "check_final_response_matches",
    "check_final_response_not_contains",
    "check_link_absent",
    "check_link_present",
]


_URL = regex.compile(r"""https?://[^\s<>()\[\]"'`]+[^\s<>()\[\]"'`.,;:!?]""")


@_guarded("final_response_contains")
def check_final_response_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False
) -> CheckResult:
    """The main agent's final response contains *text* (or satisfies a matcher)."""
    m = _text_matcher(text, ignore_case)
    return _final_check("final_response_contains", t, m, text, True,
                        _echo("final_response_contains", text, ignore_case=ignore_case or None), "containing")


@_guarded("final_response_matches")
def check_final_response_matches(
    t: Transcript, pattern: str | Matcher, /, *, ignore_case: bool = False
) -> CheckResult:
    """The final response matches the regular expression (``regex.search``)."""
    m = pattern if isinstance(pattern, Matcher) else Matches(pattern, ignore_case=ignore_case)
    return _final_check("final_response_matches", t, m, pattern, True,
                        _echo("final_response_matches", m), "matching")


@_guarded("final_response_not_contains")
def check_final_response_not_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False, assume_complete: bool = False
) -> CheckResult:
    """The final response does not contain *text*. INCONCLUSIVE without a final response."""
    m = _text_matcher(text, ignore_case)
    return _final_check("final_response_not_contains", t, m, text, False,
                        _echo("final_response_not_contains", text, ignore_case=ignore_case or None),
                        "not containing", assume_complete)


def _final_check(
    name: str, t: Transcript, m: Matcher, shown: object, want: bool, echo: str, verb: str,
    assume_complete: bool = False,
) -> CheckResult:
    text, ev = _final(t)
    expected = f"a final response {verb} {short_repr(shown, 120)}"
    if text is None:
        return _missing_final(name, t, expected, echo, want)
    hit = m.matches(text)
    evs = [ev] if ev else []
    if hit == want:
        if want:
            return _pass(name, expected, "it", echo, evs, (text,))
        return _negative(name, t, assume_complete=assume_complete, expected=expected, found="it does not",
                         check=echo, evidence=evs, matched=(text,))
    if want:
        return _fail(name, t, expected, f"{short_repr(text, 160)}", echo, evs)
    where = ""
    if isinstance(m, (Contains, Matches)):
        idx = _find(m, text)
        if idx is not None:
            where = f" at character {idx}: {_snippet(text, idx)}"
    return _fail(name, t, expected, f"it does{where}", echo, evs, positive=False)


def _missing_final(name: str, t: Transcript, expected: str, echo: str, want: bool) -> CheckResult:
    """No final answer (no text after the last call): FAIL for a claim that needs one, unless the
    run's end may be missing (INCONCLUSIVE); INCONCLUSIVE for a claim about what it does not say."""
    found, ev = _no_final(t)
    reasons = _incomplete(t)
    if not want or reasons:
        notes = (*reasons, "the final response is the main agent's text after its last tool call")
        return CheckResult.inconclusive(name, expected, found, ev, check=echo, notes=notes)
    return _fail(name, t, expected, found, echo, ev,
                 notes=("the final response is the main agent's text after its last tool call",))


def _links(text: str) -> list[str]:
    return list(dict.fromkeys(_URL.findall(text)))


@_guarded("link_present")
def check_link_present(t: Transcript, url: str | Matcher, /) -> CheckResult:
    """The final response has a link equal to *url* (a prefix when it ends in ``/`` or ``*``)."""
    m = _url_matcher(url)
    text, ev = _final(t)
    echo = _echo("link_present", url)
    expected = f"a link {short_repr(url, 120)} in the final response"
    if text is None:
        return _missing_final("link_present", t, expected, echo, True)
    links = _links(text)
    hits = [u for u in links if m(u)]
    if hits:
        return _pass("link_present", expected, hits[0], echo, [ev] if ev else [], tuple(hits))
    found = f"links {_seq_text([cut_middle(u, 80) for u in links], 6)}" if links else "no links"
    return _fail("link_present", t, expected, found, echo, [ev] if ev else [])


@_guarded("link_absent")
def check_link_absent(
    t: Transcript, url: str | Matcher | None = None, /, *, assume_complete: bool = False
) -> CheckResult:
    """The final response has no link (matching *url*, when given)."""
    m = _url_matcher(url) if url is not None else (lambda u: True)
    text, ev = _final(t)
    echo = _echo("link_absent", url)
    expected = f"no link {short_repr(url, 120)} in the final response" if url is not None else "no links in the final response"
    if text is None:
        return _missing_final("link_absent", t, expected, echo, False)
    hits = [u for u in _links(text) if m(u)]
    if hits:
        return _fail("link_absent", t, expected, ", ".join(short_repr(u, 80) for u in hits[:5]), echo,
                     [ev] if ev else [], positive=False)
    return _negative("link_absent", t, assume_complete=assume_complete, expected=expected, found="none",
                     check=echo, evidence=[ev] if ev else [])


def _url_matcher(url: str | Matcher) -> Callable[[str], bool]:
    if isinstance(url, Matcher):
        return url.matches
    if not isinstance(url, str) or not url:
        raise UsageError(f"url must be a non-empty string or a matcher, got {url!r}")
    if url.endswith("*"):
        return lambda u: u.startswith(url[:-1])
    if url.endswith("/"):
        return lambda u: u.startswith(url) or u == url[:-1]
    return lambda u: u == url or u.rstrip("/") == url.rstrip("/")
