"""The HTML report: what the page holds (rendered from real transcripts and their checks), and
how it behaves in a real headless Chromium (no console errors, no network, filters, evidence
links that scroll to their step, lazy timelines, a screenshot kept as an artifact)."""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import agenteval_assert as aa
from agenteval_assert._health import health_checks
from agenteval_assert.checks import (
    check_failures_not_reported_as_success,
    check_no_tool_errors,
    check_tool_called,
)
from agenteval_assert.reporting import TranscriptResult
from agenteval_assert.reporting.html import LAZY_AFTER, render_html, write_html
from agenteval_assert.results import CheckResult

from ._build import T
from .conftest import CORPUS, SAMPLES

REPLAY = SAMPLES / "replay"


def _items() -> list[tuple[TranscriptResult, aa.Transcript | None]]:
    """The replay scenarios (baseline and faulty) and a run with a subagent, with the health
    checks and the business-flow check; plus an unreadable input."""
    items = []
    paths = [*sorted(REPLAY.glob("*/*.jsonl")), CORPUS / "claude-session-log" / "agentcmd-2.0.29-task-plan.jsonl"]
    for p in paths:
        t = aa.load(p)
        results = [*health_checks(t), check_failures_not_reported_as_success(t)]
        items.append((TranscriptResult.of(t, results, name=f"{p.parent.name}/{p.name}"), t))
    items.append((TranscriptResult.unreadable("broken.jsonl", "broken.jsonl:2: not a JSON record"), None))
    return items


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.targets: list[str] = []
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if a.get("data-target"):
            self.targets.append(str(a["data-target"]))
        for key in ("src", "href"):
            value = a.get(key) or ""
            if value and not value.startswith("#"):
                self.external.append(value)


@pytest.fixture(scope="module")
def page_html() -> str:
    return render_html(_items())


def test_the_overview_counts_transcripts_and_checks(page_html: str) -> None:
    items = [r for r, _ in _items()]
    passed = sum(1 for r in items if r.passed)
    assert f"{passed} of {len(items)} transcripts passed ({100 * passed / len(items):.1f} %)" in page_html
    assert passed < len(items)  # the faulty runs and the unreadable one did not pass
    checks = sum(len(r.checks) for r in items)
    assert f"{checks} checks" in page_html
    for name in ("failures_not_reported_as_success", "parsed_cleanly", "final_response_present"):
        assert f'<option value="{name}">' in page_html


def test_every_evidence_link_points_at_a_step_of_the_page(page_html: str) -> None:
    parser = _Ids()
    parser.feed(page_html)
    assert parser.targets, "no evidence was linked"
    assert set(parser.targets) <= parser.ids
    # the failed refund call cites the call and the final message, which link back
    faulty = next(i for i, (r, _) in enumerate(_items()) if r.name == "query-timed-out/faulty.jsonl")
    assert f't{faulty}-s1' in parser.targets and f"t{faulty}-s2" in parser.targets


def test_the_page_is_self_contained(page_html: str) -> None:
    parser = _Ids()
    parser.feed(page_html)
    assert parser.external == []  # no src= or href= but in-page anchors
    assert "<link" not in page_html  # (transcript text is escaped: a raw "<link" would be ours)
    assert "default-src 'none'" in page_html  # and the page's own policy forbids loading anything


def test_text_from_the_transcript_is_escaped() -> None:
    t = T().user("<script>alert(1)</script>").call("Bash", command="echo '<b>x</b>'", output="<img src=x onerror=alert(2)>").say("ok").done()
    html = render_html([("evil.jsonl", t, [check_tool_called(t, "Bash")])])
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<img src=x" not in html


def test_long_outputs_are_folded_and_cut_saying_how_much() -> None:
    t = T().user("go").call("Bash", command="cat big.log", output="line\n" * 30_000).say("ok").done()
    html = render_html([("big.jsonl", t, [])])
    assert "130000 more characters not shown" in html
    assert re.search(r'<details class="result">\s*<summary>result', html)  # folded: not open
    assert "no check ran on this transcript" in html


def test_subagents_are_nested_timelines_under_their_call() -> None:
    b = T().user("go").call("Task", description="explore", subagent_type="Explore")
    b.b.subagent("agent-1", parent_call_id="toolu_01", type="Explore", description="look around")
    t = b.call("Glob", pattern="**/*.ts", agent="agent-1").call("Read", file_path="a.ts", agent="agent-1", error=True).say("ok").done()
    html = render_html([("sub.jsonl", t, [check_no_tool_errors(t, include_subagents=True)])])
    task = html.index("Task(explore)")
    nested = html.index('<details class="subagent error">', task)
    assert html.index("subagent Explore (look around): 2 steps, 1 failed", nested) < html.index("Glob(**/*.ts)")


def _big(n_calls: int) -> tuple[aa.Transcript, list[CheckResult]]:
    b = T().user("go")
    for i in range(n_calls - 1):
        b.call("Read", file_path=f"src/f{i}.py", output=f"contents of f{i}")
    t = b.call("Bash", command="npm test", output="1 failing", error=True, exit_code=1).say("done").done()
    return t, [check_no_tool_errors(t), check_tool_called(t, "Write")]


def test_a_large_transcript_renders_fast_and_lazily() -> None:
    t, results = _big(5_000)
    start = time.perf_counter()
    html = render_html([("big.jsonl", t, results)])
    elapsed = time.perf_counter() - start
    assert len(t.steps) > LAZY_AFTER
    assert html.count('<template class="lazy-chunk"') == 10  # 5,002 steps: one chunk shown, 10 waiting
    assert elapsed < 20, f"rendering 5,002 steps took {elapsed:.1f}s"


def test_write_html_writes_one_utf8_file(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    write_html(_items()[:2], out, title="nightly – agents")
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "<title>nightly – agents</title>" in text


# -- in a real browser -------------------------------------------------------------------------

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


#: How long Chromium may take to start, and each page action to complete: generous, since the
#: machine may be shared and loaded (playwright's default is 30 s); a wait that runs out fails the
#: test with playwright's message, naming the action.
BROWSER_TIMEOUT_MS = 120_000


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    if executable is None:
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium); the browser tests need one")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests drive Chromium with playwright")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS, timeout=BROWSER_TIMEOUT_MS)
        yield b
        b.close()


class _Page:
    """A page with every console message, page error and request recorded."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.set_default_timeout(BROWSER_TIMEOUT_MS)
        self.console: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(path.as_uri())
        self.page.wait_for_load_state("load")

    def visible(self, selector: str) -> int:
        n: int = self.page.locator(f"{selector}:visible").count()
        return n

    def in_view(self, element_id: str) -> bool:
        box = self.page.evaluate(
            "(id) => { const r = document.getElementById(id).getBoundingClientRect();"
            " return [r.top, r.bottom, window.innerHeight]; }",
            element_id,
        )
        top, bottom, height = box
        return bool(top >= 0 and bottom <= height + 1)


@pytest.fixture
def report(tmp_path: Path) -> Path:
    path = tmp_path / "report.html"
    write_html(_items(), path)
    return path


def test_the_page_loads_without_console_errors_or_network(browser: Any, report: Path, tmp_path: Path) -> None:
    p = _Page(browser, report)
    assert p.console == []
    assert [u for u in p.requests if not u.startswith(("file://", "data:"))] == []
    assert p.page.title() == "agenteval-assert report"
    shot = tmp_path / "report.png"
    p.page.screenshot(path=str(shot), full_page=False)
    assert shot.stat().st_size > 10_000
    print(f"screenshot: {shot}")


def test_the_status_filter_changes_what_is_visible(browser: Any, report: Path) -> None:
    p = _Page(browser, report)
    items = [r for r, _ in _items()]
    assert p.visible("section.transcript") == len(items)
    p.page.uncheck("#filters input[value=passed]")
    failing = sum(1 for r in items if not r.passed)
    assert p.visible("section.transcript") == failing
    assert p.visible("tr.run-row") == failing
    assert p.page.text_content("#shown") == f"showing {failing} of {len(items)}"
    for status in ("failed", "unreadable", "inconclusive"):
        p.page.uncheck(f"#filters input[value={status}]")
    assert p.visible("section.transcript") == 0
    assert p.console == []


def test_the_check_filter_shows_the_transcripts_that_ran_it(browser: Any, report: Path) -> None:
    p = _Page(browser, report)
    p.page.select_option("#check-filter", "failures_not_reported_as_success")
    items = [r for r, _ in _items()]
    readable = sum(1 for r in items if r.problem is None)
    assert p.visible("section.transcript") == readable
    # only that check stays listed in each transcript
    assert p.visible("li.check") == readable
    p.page.uncheck("#filters input[value=passed]")  # now: the transcripts where that check did not pass
    not_passing = sum(
        1 for r in items for c in r.checks if c.name == "failures_not_reported_as_success" and c.status != "pass"
    )
    assert not_passing >= 1
    assert p.visible("section.transcript") == not_passing


def test_an_evidence_link_scrolls_to_its_step_and_the_step_links_back(browser: Any, report: Path) -> None:
    p = _Page(browser, report)
    faulty = next(i for i, (r, _) in enumerate(_items()) if r.name == "query-timed-out/faulty.jsonl")
    step = f"t{faulty}-s1"
    assert not p.in_view(step)
    p.page.click(f"#t{faulty} li.check.s-fail a.ev[data-target='{step}']")
    p.page.wait_for_function("(id) => location.hash === '#' + id", arg=step)
    assert p.in_view(step)
    assert "flash" in (p.page.get_attribute(f"#{step}", "class") or "")
    # and back: the step names the check that cites it
    back = p.page.locator(f"#{step} a.backlink", has_text="failures_not_reported_as_success")
    check_id = back.get_attribute("data-target")
    p.page.evaluate("window.scrollTo(0, 0)")
    back.click()
    assert p.in_view(str(check_id))
    assert p.console == []


def test_a_large_transcript_stays_responsive_and_links_into_lazy_steps(browser: Any, tmp_path: Path) -> None:
    t, results = _big(5_000)
    path = tmp_path / "big.html"
    write_html([("big.jsonl", t, results)], path)
    start = time.perf_counter()
    p = _Page(browser, path)
    load = time.perf_counter() - start
    assert load < 15, f"a 5,002-step report took {load:.1f}s to load"
    rendered = p.page.locator("li.step").count()
    assert rendered == 500  # the first chunk, not all 5,002 steps
    last = f"t0-s{len(t.steps) - 2}"  # the failed npm test call, in the last chunk
    assert p.page.locator(f"#{last}").count() == 0
    start = time.perf_counter()
    p.page.click(f"a.ev[data-target='{last}']")
    assert p.in_view(last)
    assert time.perf_counter() - start < 5
    p.page.wait_for_timeout(600)  # whatever the page does next (lazy chunks coming into view)...
    assert p.in_view(last)  # ...does not push the step away
    assert p.page.locator("li.step").count() == 502  # only the chunk of that step was rendered
    assert "error" in (p.page.get_attribute(f"#{last}", "class") or "")
    # scrolling down from the top renders the next chunk, and only as it comes near
    p.page.evaluate(
        "() => { const r = document.querySelector('li.lazy-placeholder').getBoundingClientRect();"
        " window.scrollTo(0, window.scrollY + r.top - window.innerHeight + 40); }"
    )
    p.page.wait_for_function("() => document.querySelectorAll('li.step').length === 1002")
    assert p.console == []
    p.page.screenshot(path=str(tmp_path / "big.png"))


def test_the_example_of_docs_report_md_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from .conftest import ROOT

    [code] = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "report.md").read_text(), flags=re.DOTALL)
    shutil.copytree(SAMPLES / "replay", tmp_path / "samples" / "replay")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/report.md", "exec"), {"__name__": "docs_report"})  # noqa: S102 - running the docs is the point
    page = (tmp_path / "refunds.html").read_text()
    assert "<title>refund agent, nightly</title>" in page
    assert "1 of 3 transcripts passed (33.3 %)" in page


SECRET = "sk-ant-api03-" + "Q" * 40


def test_secrets_are_redacted_everywhere_on_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    t = (
        T()
        .user(f"use the key {SECRET}")
        .think(f"the key is {SECRET}")
        .call("Bash", command=f"curl -H 'x-api-key: {SECRET}' https://api.example", output=f"echo {SECRET}")
        .say(f"done with {SECRET}")
        .done()
    )
    results = [check_tool_called(t, "Bash", command=aa.Matches("nothing"))]  # evidence quotes the call
    html = render_html([("secret.jsonl", t, results)])
    assert SECRET not in html and "sk-ant-api03-QQQ" not in html
    assert html.count("[REDACTED anthropic-api-key]") >= 5
    monkeypatch.setenv("AGENTEVAL_NO_REDACT", "1")
    assert SECRET in render_html([("secret.jsonl", t, results)])


def test_every_real_transcript_renders_with_its_evidence_linked() -> None:
    from agenteval_assert._parsers import load_all

    from .conftest import CORPUS_MORE

    items: list[tuple[str, aa.Transcript, list[CheckResult]]] = []
    for root in (CORPUS, CORPUS_MORE, SAMPLES):
        for p in sorted(root.rglob("*")):
            if not p.is_file() or (p.suffix in (".md", ".txt", ".py", ".ts", ".tsx") and not p.name.endswith("history.md")):
                continue
            try:
                found = load_all(p)
            except aa.AgentEvalError:
                continue
            items.extend((t.path, t, health_checks(t)) for t in found)
    assert len(items) > 60
    html = render_html(items)
    parser = _Ids()
    parser.feed(html)
    assert set(parser.targets) <= parser.ids
    assert parser.external == []
    assert html.count('<section class="transcript') == len(items)
