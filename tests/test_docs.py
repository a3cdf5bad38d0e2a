"""The Python examples of the docs pages that no other test runs, run as written."""

from __future__ import annotations

import re

import pytest

from .conftest import ROOT

PAGES = ["index.md", "shell.md", "from-eval-ts.md", "model.md", "formats.md", "cli.md", "formats-api.md",
         "plugins.md", "judge.md"]


@pytest.mark.parametrize("page", PAGES)
def test_page_examples_run(page: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "docs" / page).read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {"__name__": f"docs_{page}"}
    for code in blocks:  # one namespace per page: later blocks build on earlier ones
        exec(compile(code, f"docs/{page}", "exec"), namespace)  # noqa: S102 - running the docs is the point


def test_every_docs_page_is_linked_from_the_index_or_the_readme() -> None:
    index = (ROOT / "docs" / "index.md").read_text() + (ROOT / "README.md").read_text()
    for page in sorted(p.name for p in (ROOT / "docs").glob("*.md")):
        if page != "index.md":
            assert page in index, f"docs/{page} is not linked from docs/index.md or README.md"
