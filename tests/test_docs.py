"""The docs site: every page's Python examples run as written, every page is in the nav, and the
pages speak to a reader of the published site (nothing they cannot open)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re

import pytest

import agenteval_assert

from .conftest import ROOT

DOCS = ROOT / "docs"
PAGES = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
# Pages whose examples a test of their own runs (checking what they print, too).
RUN_ELSEWHERE = {
    "assertions.md": "tests/test_assertions.py",
    "matchers.md": "tests/test_assertions.py",
    "replay-demo.md": "tests/test_assertions.py",
    "story-test-reports.md": "tests/test_storybook_report.py",
    "report.md": "tests/test_reporting_html.py",
}
PUBLIC_MODULES = [
    "agenteval_assert", "agenteval_assert.model", "agenteval_assert.checks",
    "agenteval_assert.assertions", "agenteval_assert.matchers", "agenteval_assert.results",
    "agenteval_assert.exceptions", "agenteval_assert.formats", "agenteval_assert.judge",
    "agenteval_assert.shell", "agenteval_assert.markdown",
    "agenteval_assert.storybook", "agenteval_assert.strategies",
    "agenteval_assert.batch", "agenteval_assert.reporting",
]

ALL_MODULES = sorted(["agenteval_assert", *(m.name for m in pkgutil.walk_packages(
    agenteval_assert.__path__, "agenteval_assert."))])


def _python_blocks(page: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", (DOCS / page).read_text(encoding="utf-8"),
                      flags=re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("page", [p for p in PAGES if p not in RUN_ELSEWHERE and _python_blocks(p)])
def test_page_examples_run(page: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {"__name__": f"docs_{page}"}
    for code in _python_blocks(page):  # one namespace per page: later blocks build on earlier ones
        exec(compile(code, f"docs/{page}", "exec"), namespace)  # noqa: S102 - running the docs is the point


def test_pages_run_elsewhere_have_examples() -> None:
    for page, test in RUN_ELSEWHERE.items():
        assert _python_blocks(page), f"docs/{page} has no python examples for {test}"


@pytest.mark.parametrize("module", ALL_MODULES)
def test_docstring_examples_run(module: str) -> None:
    """The ``>>>`` examples of the docstrings (the API reference shows them)."""
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_every_page_is_in_the_nav_and_every_public_module_has_a_reference_page() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = re.findall(r"^ +- [^:\n]+: (\S+\.md)$", config, flags=re.MULTILINE)
    missing = sorted(set(PAGES) - set(nav))
    assert not missing, f"pages not in the nav of mkdocs.yml: {missing}"
    assert not sorted(set(nav) - set(PAGES)), "the nav names a missing page"
    referenced = {m for p in PAGES for m in re.findall(r"^::: ([\w.]+)", (DOCS / p).read_text(), re.MULTILINE)}
    assert set(PUBLIC_MODULES) <= referenced, sorted(set(PUBLIC_MODULES) - referenced)


@pytest.mark.parametrize("path", ["README.md", "CHANGELOG.md", *(f"docs/{p}" for p in PAGES)])
def test_pages_name_nothing_a_reader_cannot_open(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    assert "../shared" not in text
    assert not re.findall(r"\(#\d+\)|\bissue \d+", text), "issue numbers mean nothing to a reader"
    links = re.findall(r"\]\((?!https?://|#)([^)\s]+)\)", text)
    if path.startswith("docs/"):  # the site has docs/ only: what is outside is included, not linked
        assert not [link for link in links if link.startswith("../")], links


#: A code span (single backticks) holding ``\|``: GitHub needs the escape inside a table, but the
#: site's Markdown keeps the backslash (``a \|\| b`` shows as ``a \|\| b``). In a table row, write
#: ``<code>a &#124;&#124; b</code>``, which both render as ``a || b``.
_ESCAPED_PIPE_IN_CODE = re.compile(r"(?<!`)`[^`\n]*\\\|[^`\n]*`")


@pytest.mark.parametrize("path", ["README.md", "CHANGELOG.md", *(f"docs/{p}" for p in PAGES)])
def test_no_escaped_pipe_inside_code_in_a_table_row(path: str) -> None:
    rows = [(n, line) for n, line in enumerate((ROOT / path).read_text(encoding="utf-8").splitlines(), 1)
            if line.lstrip().startswith("|")]
    bad = [f"{path}:{n}: {m.group()}" for n, line in rows for m in _ESCAPED_PIPE_IN_CODE.finditer(line)]
    assert not bad, "a backslash the site would show; use <code>…&#124;…</code>:\n" + "\n".join(bad)
